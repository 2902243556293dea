"""The deal sampler draws every deal consistent with a view, each equally often."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from hearts.bots.hard.sampling import DealSampler, NoConsistentDeal
from hearts.cards import QUEEN_SPADES, cards_of
from hearts.hand import HandState
from hearts.legal import legal_cards
from hearts.rules import Rules
from hearts.view import PlayerView


def _position(seed: int, plays: int, hand_number: int = 1) -> PlayerView:
    """A seat's view after random passes and ``plays`` random cards."""
    rng = random.Random(seed)
    state = HandState.deal(Rules(), hand_number, rng)
    if state.phase == "pass":
        for seat in range(4):
            cards = rng.sample(list(cards_of(state.hands[seat])), 3)
            state.pass_cards(seat, sum(1 << c for c in cards))
    for _ in range(plays):
        state.play(rng.choice(state.legal_actions()))
    return state.view(state.turn, hand_number=hand_number)


def consistent(view: PlayerView, hands: list[int]) -> bool:
    """Whether ``hands`` is a deal the seat cannot rule out: the sizes, the cards it
    knows, and every card played so far legal from the hands it implies (replayed
    by the rules, independently of the sampler's own deductions)."""
    known = view.known()
    if hands[view.seat] != view.hand:
        return False
    union = 0
    for s, h in enumerate(hands):
        if h.bit_count() != view.counts[s] or h & union or known[s] & ~h:
            return False
        union |= h
    if union != view.unseen() | view.hand:
        return False
    held = hands[:]
    for s, c in view.plays:
        held[s] |= 1 << c
    n = view.n
    broken = False
    for i, (s, c) in enumerate(view.plays):
        led = -1 if i % n == 0 else view.plays[i - i % n][1]
        if not legal_cards(view.rules, held[s], led, i < n, broken) >> c & 1:
            return False
        held[s] &= ~(1 << c)
        broken = broken or c >= 39 or (c == QUEEN_SPADES and view.rules.qs_breaks_hearts)
    return True


def enumerate_deals(view: PlayerView) -> list[tuple[int, ...]]:
    """Every consistent deal, by brute force over the unseen cards."""
    unseen = list(cards_of(view.unseen()))
    others = [s for s in range(view.n) if s != view.seat]
    out = []

    def place(i: int, hands: list[int]) -> None:
        if i == len(unseen):
            if consistent(view, hands):
                out.append(tuple(hands))
            return
        for s in others:
            if hands[s].bit_count() < view.counts[s]:
                hands[s] |= 1 << unseen[i]
                place(i + 1, hands)
                hands[s] &= ~(1 << unseen[i])

    start = [0] * view.n
    start[view.seat] = view.hand
    place(0, start)
    return out


def _constrained_positions() -> list[PlayerView]:
    """Late positions with shown voids and passed cards still out, small enough to
    enumerate."""
    found = []
    for seed in range(400):
        view = _position(seed, 38 + seed % 4)
        if (
            view.phase == "play"
            and sum(v.bit_count() for v in view.voids()) >= 2
            and any(view.known()[s] for s in range(4) if s != view.seat)
            and 40 <= DealSampler(view).total <= 2000
        ):
            found.append(view)
        if len(found) == 3:
            break
    assert len(found) == 3
    return found


@pytest.mark.parametrize("view", _constrained_positions())
def test_draws_are_uniform_over_consistent_deals(view: PlayerView) -> None:
    deals = enumerate_deals(view)
    sampler = DealSampler(view)
    assert sampler.total == len(deals)
    draws = 40 * len(deals)
    rng = random.Random(11)
    seen = Counter(tuple(sampler.draw(rng)) for _ in range(draws))
    assert set(seen) <= set(deals)
    # Pearson's chi-square against the uniform distribution; with df = cells - 1
    # its mean is df and its sd sqrt(2 df): six sds is far beyond chance.
    expected = draws / len(deals)
    chi2 = sum((seen.get(d, 0) - expected) ** 2 / expected for d in deals)
    df = len(deals) - 1
    assert chi2 < df + 6 * (2 * df) ** 0.5 + 10


def test_every_draw_respects_the_view() -> None:
    for seed in range(60):
        view = _position(seed, seed % 48, hand_number=1 + seed % 4)
        if view.phase != "play":
            continue
        sampler = DealSampler(view)
        rng = random.Random(seed)
        for _ in range(20):
            assert consistent(view, sampler.draw(rng))


def test_the_pass_phase_deals_the_other_39_cards() -> None:
    view = HandState.deal(Rules(), 1, random.Random(4)).view(0)
    hands = DealSampler(view).draw(random.Random(0))
    assert hands[0] == view.hand
    assert [h.bit_count() for h in hands] == [13] * 4
    assert hands[0] | hands[1] | hands[2] | hands[3] == (1 << 52) - 1


def test_a_view_no_deal_fits_is_refused() -> None:
    view = _position(3, 41)
    seat = next(s for s in range(4) if s != view.seat and view.counts[s])
    excluded = view.excluded()
    excluded[seat] = (1 << 52) - 1
    with pytest.raises(NoConsistentDeal):
        _Patched(view, excluded)


class _Patched(DealSampler):
    """A sampler whose view claims different exclusions."""

    def __init__(self, view: PlayerView, excluded: list[int]) -> None:
        class V:
            def __getattr__(self, name: str) -> object:
                return getattr(view, name)

            def excluded(self) -> list[int]:
                return excluded

        super().__init__(V())  # type: ignore[arg-type]


def test_weighted_draws_move_the_queen_and_stay_consistent() -> None:
    from hearts.bots.hard.sampling import WeightedSampler
    from hearts.cards import QUEEN_SPADES

    qs = 1 << QUEEN_SPADES
    for seed in range(100):
        view = _position(seed, 20)
        if view.phase == "play" and view.unseen() & qs:
            break
    others = [s for s in range(4) if s != view.seat and not view.voids()[s] >> 2 & 1]
    doubted = others[0]
    sampler = WeightedSampler(view, QUEEN_SPADES, {doubted: 0.0})
    rng = random.Random(5)
    for _ in range(200):
        hands = sampler.draw(rng)
        assert consistent(view, hands)
        assert not hands[doubted] & qs


def rule_fact_position(state: HandState, choose: Callable[[HandState], int]) -> PlayerView | None:
    """Play ``state`` on with ``choose`` until another seat shows, by the rules
    alone, that it holds only hearts (a heart led before hearts broke) or only
    hearts and Q♠ (a point card thrown on the first trick); the view of the seat
    to play next then (None if the hand ends first)."""
    shown = -1
    while state.phase == "play":
        i, seat, broken = len(state.plays), state.turn, state.broken
        card = choose(state)
        state.play(card)
        point = card >= 39 or card == QUEEN_SPADES
        if (i % state.n == 0 and i and not broken and card >= 39) or (0 < i < state.n and point):
            shown = seat
        if shown >= 0 and state.phase == "play" and state.turn != shown:
            if state.hands[shown]:
                return state.view(state.turn)
            shown = -1
    return None


def _rule_facts(seed: int) -> PlayerView | None:
    """A random deal (no pass) played by random legal cards."""
    rng = random.Random(seed)
    return rule_fact_position(
        HandState.deal(Rules(), 4, rng), lambda state: rng.choice(state.legal_actions())
    )


def test_sampled_deals_respect_what_the_rules_reveal() -> None:
    """A heart led before hearts broke, or a point card thrown on the first trick,
    tells every seat that its player held nothing else: no imagined deal may give
    that seat another card (each draw is replayed by the rules)."""
    views = [v for v in (_rule_facts(seed) for seed in range(1000)) if v is not None]
    assert len(views) >= 15
    for view in views:
        sampler = DealSampler(view)
        rng = random.Random(7)
        for _ in range(30):
            assert consistent(view, sampler.draw(rng))
