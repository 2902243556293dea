"""Khó (hard): legal, deterministic given the view, blind to the hidden cards,
and it sees a moon coming."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from hearts.bots.base import get_bot
from hearts.bots.hard import (
    DEFAULT_ADAPT_HIDE,
    DEFAULT_BLOCK_HIDE,
    HardBot,
    candidates,
    halving_batches,
)
from hearts.cards import cards_of, parse_card
from hearts.hand import HandState
from hearts.rules import Rules
from hearts.view import PlayerView

FAST = {"iterations": 200}


def _random_state(seed: int) -> tuple[HandState, int]:
    """A random position of any phase: a state and its hand number."""
    rng = random.Random(seed)
    hand_number = 1 + seed % 4
    state = HandState.deal(Rules(), hand_number, rng)
    if state.phase == "pass" and seed % 5:
        for seat in range(4):
            state.pass_cards(
                seat, sum(1 << c for c in rng.sample(list(cards_of(state.hands[seat])), 3))
            )
    for _ in range(rng.randrange(0, 52) if state.phase == "play" else 0):
        state.play(rng.choice(state.legal_actions()))
    return state, hand_number


def test_get_bot_hard() -> None:
    bot = get_bot("hard", iterations=50)
    assert bot.name == "hard"


@pytest.mark.parametrize("seed", range(40))
def test_choices_are_legal(seed: int) -> None:
    state, hand_number = _random_state(seed)
    bot = HardBot(**FAST)
    if state.phase == "pass":
        view = state.view(0, hand_number=hand_number)
        mask = bot.choose_pass(view)
        assert mask.bit_count() == 3 and not mask & ~view.hand
    elif state.phase == "play":
        view = state.view(state.turn, hand_number=hand_number)
        assert view.legal >> bot.choose_play(view) & 1


def test_same_view_same_card() -> None:
    for seed in range(8):
        state, hand_number = _random_state(100 + seed)
        if state.phase != "play":
            continue
        view = state.view(state.turn, hand_number=hand_number)
        assert HardBot(**FAST).choose_play(view) == HardBot(**FAST).choose_play(view)


def _swap_hidden(state: HandState, seat: int, rng: random.Random) -> HandState | None:
    """The same hand with two cards swapped between two other hands in the deal,
    chosen so that ``seat``'s view cannot tell (None if no such swap replays)."""
    view = state.view(seat)
    passed = 0
    for p in state.passes:
        passed |= p
    voids = view.voids()
    others = [s for s in range(4) if s != seat]
    rng.shuffle(others)
    a, b = others[:2]
    xs = [c for c in cards_of(state.hands[a] & ~passed) if not voids[b] >> (c // 13) & 1]
    ys = [c for c in cards_of(state.hands[b] & ~passed) if not voids[a] >> (c // 13) & 1]
    if not xs or not ys:
        return None
    x, y = rng.choice(xs), rng.choice(ys)
    deal = list(state.deal_masks)
    deal[a] ^= (1 << x) | (1 << y)
    deal[b] ^= (1 << x) | (1 << y)
    new = HandState(state.rules, deal, state.direction)
    try:
        if state.offset:
            for s in range(4):
                new.pass_cards(s, state.passes[s])
        for c in state.plays:
            new.play(c)
    except Exception:
        return None
    return new


def test_re_dealt_hidden_cards_give_the_same_card() -> None:
    rng = random.Random(3)
    checked = 0
    for seed in range(200, 260):
        state, hand_number = _random_state(seed)
        if state.phase != "play":
            continue
        seat = state.turn
        other = _swap_hidden(state, seat, rng)
        if other is None:
            continue
        view = state.view(seat, hand_number=hand_number)
        twin = other.view(seat, hand_number=hand_number)
        assert twin == view and other.hands != state.hands
        assert HardBot(**FAST).choose_play(view) == HardBot(**FAST).choose_play(twin)
        checked += 1
        if checked == 4:
            break
    assert checked == 4


# -- crafted endgames -------------------------------------------------------------

S, W, N, E = range(4)

# West has won every trick: Q♠ and ten hearts.  Trick 12: West leads K♥, North and
# East (void in hearts) throw diamonds, South holds A♥ 2♥.  If South ducks, West
# takes both hearts and wins the last trick with 2♠ (everyone else is void in
# spades): a moon, 26 for South.  A♥ stops it for 3 points.
_TRICKS = [
    (S, "2C AC 3C 4C"),
    (W, "KC 5C 7C 8C"),
    (W, "QC 6C QS 3H"),
    (W, "JC 4H 5H 6H"),
    (W, "TC 7H 8H 9H"),
    (W, "9C TH JH QH"),
    (W, "AS 5S 3S 4S"),
    (W, "KS 8S 6S 7S"),
    (W, "JS JD 2D 4D"),
    (W, "TS QD 9D 7D"),
    (W, "9S KD TD 8D"),
    (W, "KH 5D AD"),
]


def _moon_view(totals: tuple[int, int, int, int]) -> PlayerView:
    """South holds AH 2H on the last trick but one; West has taken every point."""
    return _view("AH 2H", _TRICKS, counts=(2, 1, 1, 1), totals=totals)


def test_blocks_an_obvious_moon() -> None:
    view = _moon_view((0, 0, 0, 0))
    assert view.points_taken() == [0, 23, 0, 0]
    assert HardBot(**FAST).choose_play(view) == parse_card("AH")


def test_takes_the_safe_match_win() -> None:
    # South 90 and the others 95: blocking ends the match with South lowest
    # (93 against 95, 95, 118); a moon would end it with South at 116.
    view = _moon_view((90, 95, 95, 95))
    assert HardBot(**FAST).choose_play(view) == parse_card("AH")


def _view(
    hand: str,
    tricks: list[tuple[int, str]],
    counts: tuple[int, int, int, int] | None = None,
    totals: tuple[int, int, int, int] = (0, 0, 0, 0),
) -> PlayerView:
    """South's view after ``tricks``, holding ``hand`` (all of it playable)."""
    mask = sum(1 << parse_card(c) for c in hand.split())
    plays = []
    for leader, cards in tricks:
        for i, name in enumerate(cards.split()):
            plays.append(((leader + i) % 4, parse_card(name)))
    return PlayerView(
        rules=Rules(),
        seat=S,
        hand_number=4,
        phase="play",
        direction="none",
        hand=mask,
        passed=0,
        received=0,
        plays=tuple(plays),
        turn=S,
        legal=mask,
        broken=True,
        counts=counts or (mask.bit_count(), 2, 2, 2),
        totals=totals,
        target=100,
    )


def test_candidates_merge_cards_with_only_played_cards_between() -> None:
    # 3H..QH went in finished tricks: 2H, KH and AH win or lose the same tricks.
    view = _view("2H KH AH", _TRICKS[:11])
    assert candidates(view) == [parse_card("2H")]
    # KH on the trick in progress is not gone: 2H and AH differ.
    assert candidates(_moon_view((0, 0, 0, 0))) == [parse_card("2H"), parse_card("AH")]
    # Q♠ carries 13 points: never merged with the spades around it.
    spades = candidates(_view("TS JS QS KS", _TRICKS[:1]))
    assert spades == [parse_card(c) for c in ("TS", "QS", "KS")]


def _halve(per_deal: list[float], total: int, clear: float) -> tuple[list[int], list[int]]:
    """:func:`halving_batches` over candidates whose playout results are
    ``per_deal[i]`` plus the same deal-to-deal noise for all of them."""
    noise = random.Random(3)
    luck = [noise.gauss(0.0, 8.0) for _ in range(total)]
    own = [[noise.gauss(0.0, 2.0) for _ in range(total)] for _ in per_deal]
    sums = [0.0] * len(per_deal)

    def batch(w0: int, w1: int, alive: list[int]) -> None:
        for w in range(w0, w1):
            for i in alive:
                sums[i] += per_deal[i] + luck[w] + own[i][w]

    return halving_batches(
        len(per_deal), batch, sums, list(range(len(per_deal))), total, clear=clear
    )


def test_an_obvious_card_stops_the_search_early_and_a_close_one_does_not() -> None:
    # One card 5 points better than the rest: found on a fraction of the budget.
    order, counts = _halve([0.0, 5.0, 0.0, -1.0], 2000, clear=3.0)
    assert order[0] == 1
    assert sum(counts) < 2000 // 4
    assert order == _halve([0.0, 5.0, 0.0, -1.0], 2000, clear=0.0)[0][:1] + order[1:]
    # Two cards a hair apart: the whole budget, as without ``clear``.
    close = [0.0, 0.05, -3.0, -3.0]
    assert _halve(close, 2000, clear=3.0) == _halve(close, 2000, clear=0.0)
    assert sum(_halve(close, 2000, clear=0.0)[1]) >= 1900


def test_khó_with_an_early_stop_plays_the_same_obvious_card_on_less() -> None:
    # A forced-looking choice: the early stop keeps the card of the full search.
    view = _moon_view((0, 0, 0, 0))
    plain = HardBot(iterations=2000, clear=0).weigh_play(view)
    early = HardBot(iterations=2000, clear=3.0).weigh_play(view)
    assert early.choice == plain.choice
    assert sum(early.deals.values()) < sum(plain.deals.values()) // 2


def _play_until(seed: int, done: Callable[[PlayerView], bool]) -> PlayerView:
    """The first view, on a random deal played by random legal cards, for which
    ``done`` holds with two candidates or more to weigh."""
    rng = random.Random(seed)
    state = HandState.deal(Rules(), 4, rng)  # hold hand: no pass
    while not state.is_terminal():
        view = state.view(state.turn, hand_number=4)
        if len(candidates(view)) > 1 and done(view):
            return view
        state.play(rng.choice(state.legal_actions()))
    raise AssertionError("no such view on this deal")


def _points(view: PlayerView) -> list[int]:
    return [view.rules.penalty(mask) for mask in view.taken()]


@pytest.mark.parametrize("seed", range(3))
def test_adapt_hides_the_looks_once_the_others_play_like_the_policy(seed: int) -> None:
    # adapt: after adapt_from plays of the others, the looks hide (adapt_hide)
    # when the others play unlike the policy less often than the threshold.
    def values(view: PlayerView, **options: Any) -> dict[int, float]:
        options = {"adapt": 0, "block_hide": None, **options}
        return HardBot(iterations=200, **options).weigh_play(view).value

    view = _play_until(seed, lambda v: len(v.plays) >= 12)
    others = sum(1 for s, _ in view.plays if s != view.seat)
    hidden, face_up = values(view, hide=DEFAULT_ADAPT_HIDE), values(view)
    assert hidden != face_up
    assert values(view, adapt=1.01) == hidden  # every rate is below 1.01
    assert values(view, adapt=1.01, adapt_hide=14) == values(view, hide=14)
    assert values(view, adapt=1.01, adapt_from=others + 1) == face_up  # too few plays


@pytest.mark.parametrize("seed", range(3))
def test_block_hide_hides_the_looks_while_another_seat_alone_has_points(seed: int) -> None:
    # block_hide: while one other seat alone has taken points the search is the one
    # of hide=block_hide; before any point, or once two seats have, face up; and
    # not against players of habit (adapt_hide's place).  The default is
    # DEFAULT_BLOCK_HIDE; None switches it off.
    def values(view: PlayerView, **options: Any) -> dict[int, float]:
        options = {"adapt": 0, "block_hide": None, **options}
        return HardBot(iterations=200, **options).weigh_play(view).value

    def other_alone(v: PlayerView) -> bool:
        p = _points(v)
        return sum(1 for x in p if x) == 1 and p[v.seat] == 0

    alone = _play_until(seed, other_alone)
    assert values(alone, block_hide=4) == values(alone, hide=4)
    assert values(alone, block_hide=4) != values(alone)  # hiding changes the search
    habit = values(alone, block_hide=14, adapt=1.01, adapt_from=0)
    assert habit == values(alone, adapt=1.01, adapt_from=0)

    early = _play_until(seed, lambda v: sum(_points(v)) == 0 and len(v.plays) >= 4)
    assert values(early, block_hide=4) == values(early)
    shared = _play_until(seed, lambda v: sum(1 for x in _points(v) if x) >= 2)
    assert values(shared, block_hide=4) == values(shared)
    mine = _play_until(seed, lambda v: 0 < _points(v)[v.seat] == sum(_points(v)))
    assert values(mine, block_hide=4) == values(mine)
    default = HardBot(iterations=200, adapt=0).weigh_play(alone).value
    assert default == values(alone, block_hide=DEFAULT_BLOCK_HIDE)
