"""Properties over thousands of random legal hands and matches (hypothesis, derandomized
so CI is stable).  Each example draws a seed; the hand is played from a ``random.Random``
seeded with it, so a failure prints a seed that replays it."""

from __future__ import annotations

import json
import random

import pytest
from engine_positions import random_card, random_hand, random_pass, random_rules, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hearts.cards import HEARTS_MASK, JD_BIT, QUEEN_SPADES, cards_of
from hearts.hand import HandState
from hearts.match import Match
from hearts.record import read_record, validate, write_record
from hearts.rules import MOON_RULES, SUBTRACT_FROM_SELF, Rules

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def fast(examples: int) -> settings:
    return settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


# -- an independent reading of SPEC §1, from the deal, the passes and the plays only -------
def oracle_legal(state: HandState) -> set[int]:
    """The legal cards of the seat to play, replayed from scratch with plain sets."""
    rules, n = state.rules, state.n
    hands = [set(cards_of(mask)) for mask in state.deal_masks]
    if state.offset:
        given = [set(cards_of(mask)) for mask in state.passes]
        for seat in range(n):
            hands[seat] -= given[seat]
            hands[(seat + state.offset) % n] |= given[seat]
    seat = next(s for s in range(n) if rules.lead_card in hands[s])
    trick: list[tuple[int, int]] = []
    broken = False
    for card in state.plays:
        assert card in hands[seat]
        hands[seat].remove(card)
        trick.append((seat, card))
        if card // 13 == 3 or (card == QUEEN_SPADES and rules.qs_breaks_hearts):
            broken = True
        if len(trick) == n:
            led = trick[0][1] // 13
            seat = max((c, s) for s, c in trick if c // 13 == led)[1]
            trick = []
        else:
            seat = (seat + 1) % n
    assert seat == state.turn
    hand = hands[seat]
    if not state.plays:
        return {rules.lead_card}
    if trick:
        follow = {c for c in hand if c // 13 == trick[0][1] // 13}
        if follow:
            return follow
        if len(state.plays) < n:
            clean = {c for c in hand if c // 13 != 3 and c != QUEEN_SPADES}
            if clean:
                return clean
        return hand
    if not broken:
        return {c for c in hand if c // 13 != 3} or hand
    return hand


def check_step(state: HandState) -> None:
    """Invariants that hold before every play and at the end of a hand."""
    rules = state.rules
    played = 0
    for card in state.plays:
        played |= 1 << card
    union = played
    for hand in state.hands:
        assert not union & hand  # no card in two places
        union |= hand
    assert union == rules.deck  # every card of the deck is somewhere
    assert sum(h.bit_count() for h in state.hands) + len(state.plays) == rules.deck.bit_count()
    taken = 0
    for mask in state.taken:
        assert not taken & mask
        taken |= mask
    assert taken.bit_count() == len(state.plays) - len(state.trick)
    if state.is_terminal():
        assert state.legal_mask() == 0
        return
    legal = state.legal_mask()
    assert legal  # never empty while the hand runs
    assert legal & ~state.hands[state.turn] == 0
    assert set(cards_of(legal)) == oracle_legal(state)


def check_default_lead(state: HandState) -> None:
    """``check_step``, and under the default table: no heart may be led before one
    was played, unless the leader holds only hearts (Q♠ breaks nothing)."""
    check_step(state)
    leading = state.plays and not state.trick and not state.is_terminal()
    if leading and not any(card >= 39 for card in state.plays):
        hand = state.hands[state.turn]
        if state.legal_mask() & HEARTS_MASK:
            assert hand & ~HEARTS_MASK == 0


def check_points(state: HandState) -> None:
    rules = state.rules
    raw = state.raw_points()
    jd = -10 if rules.jd_bonus else 0
    assert sum(raw) == 26 + jd
    shooter = state.shooter()
    points = state.points()
    if shooter < 0:
        assert points == raw
        assert all(t & rules.point_cards != rules.point_cards for t in state.taken)
        return
    assert state.taken[shooter] & rules.point_cards == rules.point_cards
    own_jd = jd if state.taken[shooter] & JD_BIT else 0
    others_jd = [jd if t & JD_BIT else 0 for t in state.taken]
    if rules.moon == SUBTRACT_FROM_SELF:
        want = [-26 + own_jd if s == shooter else others_jd[s] for s in range(state.n)]
    else:
        want = [own_jd if s == shooter else 26 + others_jd[s] for s in range(state.n)]
    assert points == want


# -- the hand ---------------------------------------------------------------------------
@fast(150)
@given(SEEDS)
def test_default_table_every_step_is_legal_and_cards_are_conserved(seed: int) -> None:
    rng = random.Random(seed)
    for hand_number in (1, 2, 3, 4):
        state = random_hand(Rules(), hand_number, rng, each_step=check_default_lead)
        check_points(state)


@fast(100)
@given(SEEDS)
def test_every_table_every_step_is_legal_and_points_add_up(seed: int) -> None:
    rng = random.Random(seed)
    rules = random_rules(rng)
    for hand_number in (1, 2, 3):
        state = random_hand(rules, hand_number, rng, each_step=check_step)
        check_points(state)


@fast(200)
@given(SEEDS)
def test_thousands_of_hands_score_26_or_a_moon(seed: int) -> None:
    rng = random.Random(seed)
    for hand_number in range(1, 11):  # 200 examples x 10 hands
        state = random_hand(Rules(), hand_number, rng)
        check_points(state)
        assert len(state.plays) == 52 and len(state.winners) == 13


@fast(150)
@given(SEEDS)
def test_play_then_undo_restores_every_field(seed: int) -> None:
    rng = random.Random(seed)
    rules = random_rules(rng) if rng.random() < 0.3 else Rules()
    state = HandState.deal(rules, rng.randint(1, 4), rng)
    if state.phase == "pass":
        random_pass(state, rng)
    start = snapshot(state)
    depth = 0
    while not state.is_terminal():
        before = snapshot(state)
        k = rng.randint(1, 6)  # play a few cards ahead, then take them back
        for _ in range(k):
            if state.is_terminal():
                break
            state.push(random_card(state.legal_mask(), rng))
        for _ in range(len(state.plays) - depth):
            state.undo()
        assert snapshot(state) == before
        state.play(random_card(state.legal_mask(), rng))
        depth += 1
    end = snapshot(state)
    while state.plays:
        state.undo()
    assert snapshot(state) == start
    assert state.broken_at == -1 and not state.winners and not state.broken
    for card in end["plays"]:
        state.play(card)
    assert snapshot(state) == end


@fast(100)
@given(SEEDS)
def test_copy_is_independent(seed: int) -> None:
    rng = random.Random(seed)
    state = HandState.deal(Rules(), rng.randint(1, 4), rng)
    if state.phase == "pass":
        random_pass(state, rng)
    for _ in range(rng.randint(0, 51)):
        state.play(random_card(state.legal_mask(), rng))
    original = snapshot(state)
    twin = state.copy()
    assert snapshot(twin) == original
    while not twin.is_terminal():
        twin.push(random_card(twin.legal_mask(), rng))
    assert snapshot(state) == original
    if state.plays:
        state.undo()
        assert len(twin.plays) == 52


# -- records ----------------------------------------------------------------------------
@fast(150)
@given(SEEDS)
def test_every_record_reads_back_identical_and_validates(seed: int) -> None:
    rng = random.Random(seed)
    rules = random_rules(rng) if rng.random() < 0.4 else Rules()
    number = rng.randint(1, 8)
    full = random_hand(rules, number, rng)
    cut = rng.randint(0, len(full.plays))
    partial = full.copy()
    for _ in range(len(full.plays) - cut):
        partial.undo()
    for state in (full, partial):
        record = write_record(state, number)
        text = json.dumps(record)
        again, again_number = read_record(text)
        assert again_number == number
        assert write_record(again, number) == record
        assert json.loads(text) == record
        assert snapshot(again)["plays"] == state.plays
        assert again.hands == state.hands and again.taken == state.taken
        points = validate(text)
        want = state.points() if state.is_terminal() else state.raw_points()
        assert points == dict(zip(rules.seats, want, strict=True))
        assert ("points" in record) == state.is_terminal()


# -- views ------------------------------------------------------------------------------
def reshuffle_hidden(state: HandState, seat: int, rng: random.Random) -> HandState:
    """The same hand with the cards ``seat`` has never seen dealt differently.

    Hidden cards are permuted within each suit (Q♠ and the lead card stay put), so
    every past play stays legal and the public history is the same.
    """
    rules = state.rules
    played = 0
    for card in state.plays:
        played |= 1 << card
    seen = state.deal_masks[seat] | state.received(seat) | played
    hidden = rules.deck & ~seen & ~(1 << QUEEN_SPADES) & ~(1 << rules.lead_card)
    perm = {}
    for suit in range(4):
        cards = [c for c in cards_of(hidden) if c // 13 == suit]
        moved = cards[:]
        rng.shuffle(moved)
        perm.update(zip(cards, moved, strict=True))

    def apply(mask: int) -> int:
        out = 0
        for card in cards_of(mask):
            out |= 1 << perm.get(card, card)
        return out

    other = HandState(rules, [apply(mk) for mk in state.deal_masks], state.direction)
    for s in range(state.n):
        if state.passes[s] and other.phase == "pass":
            other.pass_cards(s, apply(state.passes[s]))
    for card in state.plays:
        other.play(card)
    return other


@fast(150)
@given(SEEDS)
def test_views_depend_only_on_what_the_seat_may_know(seed: int) -> None:
    rng = random.Random(seed)
    rules = random_rules(rng) if rng.random() < 0.3 else Rules()
    number = rng.randint(1, 4)
    state = HandState.deal(rules, number, rng)
    if state.phase == "pass" and rng.random() < 0.8:
        random_pass(state, rng)
    elif state.phase == "pass":  # some seats have chosen, the others not yet
        for s in range(state.n):
            if rng.random() < 0.5:
                cards = rng.sample(list(cards_of(state.hands[s])), rules.pass_count)
                state.pass_cards(s, sum(1 << c for c in cards))
    if state.phase == "play":
        for _ in range(rng.randint(0, len(state.plays) + 13 * state.n)):
            if state.is_terminal():
                break
            state.play(random_card(state.legal_mask(), rng))
    totals = tuple(rng.randint(0, 99) for _ in range(state.n))
    for seat in range(state.n):
        other = reshuffle_hidden(state, seat, rng)
        assert other.deal_masks[seat] == state.deal_masks[seat]
        mine = state.view(seat, hand_number=number, totals=totals)
        theirs = other.view(seat, hand_number=number, totals=totals)
        assert mine == theirs
        assert mine.key() == theirs.key()
        assert mine.hand == state.hands[seat] and mine.passed == state.passes[seat]


def test_a_view_shows_its_own_hand_and_never_another() -> None:
    rng = random.Random(11)
    state = HandState.deal(Rules(), 1, rng)
    random_pass(state, rng)
    for _ in range(9):
        state.play(random_card(state.legal_mask(), rng))
    for seat in range(4):
        view = state.view(seat)
        assert view.hand == state.hands[seat]
        assert view.unseen() == Rules().deck & ~state.hands[seat] & ~view.played
        assert [s for s, _ in view.plays] == [state.seat_of_play(i) for i in range(9)]
        assert view.legal == (state.legal_mask() if state.turn == seat else 0)
        assert view.received == state.passes[(seat - 1) % 4]
        known = view.known()
        assert known[(seat + 1) % 4] == state.passes[seat] & ~view.played
        for s in range(4):
            if s != seat:
                assert known[s] & state.hands[s] == known[s]  # what it knows is true


# -- matches ----------------------------------------------------------------------------
@fast(40)
@given(SEEDS)
def test_random_matches_end_with_the_lowest_total_alone(seed: int) -> None:
    rng = random.Random(seed)
    rules = Rules(
        target=rng.choice((30, 60, 100)),
        moon=rng.choice(MOON_RULES),
    )
    match = Match(rules)
    while not match.over:
        before = list(match.totals)
        hand = match.deal(rng)
        assert hand.direction == rules.pass_direction(match.hand_number)
        if hand.phase == "pass":
            random_pass(hand, rng)
        while not hand.is_terminal():
            hand.play(random_card(hand.legal_mask(), rng))
        result = match.finish_hand()
        check_points(hand)
        assert match.totals == [t + p for t, p in zip(before, result.points, strict=True)]
        low = min(match.totals)
        ends = max(match.totals) >= rules.target and match.totals.count(low) == 1
        assert match.over == ends
    assert match.totals[match.winner] == min(match.totals)
    assert max(match.totals) >= rules.target


@fast(100)
@given(SEEDS, st.integers(min_value=3, max_value=7))
def test_deal_is_a_shuffle_of_the_deck_drawn_from_the_generator(seed: int, players: int) -> None:
    """The deal for a seed is ``random.shuffle``'s: seeded games stay reproducible."""
    rules = Rules(players=players)
    rng, twin = random.Random(seed), random.Random(seed)
    state = HandState.deal(rules, 1, rng)
    cards = list(cards_of(rules.deck))
    twin.shuffle(cards)
    size = rules.hand_size
    want = [sum(1 << c for c in cards[i : i + size]) for i in range(0, len(cards), size)]
    assert list(state.deal_masks) == want
    assert rng.getstate() == twin.getstate()


class _Dice(random.Random):
    """A generator of another kind: the deal falls back to its own shuffle."""


def test_deal_with_a_random_subclass_uses_its_shuffle() -> None:
    state = HandState.deal(Rules(), 1, _Dice(5))
    cards = list(range(52))
    _Dice(5).shuffle(cards)
    assert list(state.deal_masks) == [
        sum(1 << c for c in cards[i : i + 13]) for i in range(0, 52, 13)
    ]


def test_a_view_holds_only_plain_values_never_the_state() -> None:
    from dataclasses import fields

    from hearts.view import PlayerView

    rng = random.Random(12)
    state = HandState.deal(Rules(), 2, rng)
    random_pass(state, rng)
    view = state.view(1, hand_number=2, totals=(1, 2, 3, 4))

    def plain(value: object) -> bool:
        if isinstance(value, tuple):
            return all(plain(v) for v in value)
        return isinstance(value, (int, str, bool, Rules))

    for field in fields(PlayerView):
        assert plain(getattr(view, field.name)), field.name
    with pytest.raises(AttributeError):
        view.__dict__  # noqa: B018  (slots: nothing can be hung on a view)
