"""The rules' explanation has one home (``hearts.legal.why_illegal``): the state's
fast legal mask, the state's reasons and a seat's view all agree with it."""

from __future__ import annotations

import random

from engine_positions import c, hand_of, play, random_hand, random_rules
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hearts.hand import HandState
from hearts.legal import legal_cards
from hearts.rules import Rules


def check_agreement(state: HandState) -> None:
    if state.phase != "play":
        return
    seat, trick = state.turn, state.trick
    hand = state.hands[seat]
    first = len(state.plays) < state.n
    legal = legal_cards(state.rules, hand, trick[0] if trick else -1, first, state.broken)
    assert legal == state.legal_mask()
    mine = state.view(seat)
    assert mine.legal == legal
    other = state.view((seat + 1) % state.n)
    for card in range(52):
        full, seen = state.why_illegal(card), mine.why_illegal(card)
        assert (full is None) == (seen is None) == bool(legal >> card & 1)
        if full is not None and seen is not None:
            assert (full.code, str(full)) == (seen.code, str(seen))
        refused = other.why_illegal(card)
        assert refused is not None and refused.code == "not_your_turn"


@settings(
    max_examples=60,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_fast_legal_mask_state_and_view_agree_with_the_rules(seed: int) -> None:
    rng = random.Random(seed)
    rules = random_rules(rng) if rng.random() < 0.5 else Rules()
    random_hand(rules, rng.randint(1, 4), rng, each_step=check_agreement)


def test_a_view_names_the_rule_a_card_breaks() -> None:
    state = hand_of(("2C-KC KH", "2D-AD", "2S-JS KS AS AH", "AC QS 2H-QH"))
    south = state.view(0)
    first = south.why_illegal(c("3C"))
    assert first is not None and first.code == "must_lead_lead_card"
    play(state, "2C 2D")
    north = state.view(2)
    err = north.why_illegal(c("AH"))
    assert err is not None and err.code == "first_trick_points"
    play(state, "2S AC")  # East wins; hearts are not broken
    east = state.view(3)
    err = east.why_illegal(c("2H"))
    assert err is not None and err.code == "hearts_not_broken"
    assert east.why_illegal(c("QS")) is None
    waiting = state.view(0).why_illegal(c("3C"))
    assert waiting is not None and waiting.code == "not_your_turn"
