"""Every level only ever chooses legal passes and cards."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts.bots.base import Bot, get_bot
from hearts.hand import HandState
from hearts.rules import SHOOTER_CHOOSES, Rules


def _play_checked(
    bots: list[Bot], rng: random.Random, hand_number: int, rules: Rules | None = None
) -> HandState:
    """Deal and play a hand, checking every choice before the engine sees it."""
    rules = rules or Rules()
    state = HandState.deal(rules, hand_number, rng)
    if state.phase == "pass":
        for seat in range(rules.players):
            view = state.view(seat, hand_number=hand_number)
            mask = bots[seat].choose_pass(view)
            assert mask.bit_count() == rules.pass_count and not mask & ~state.hands[seat]
            state.pass_cards(seat, mask)
    while not state.is_terminal():
        seat = state.turn
        card = bots[seat].choose_play(state.view(seat, hand_number=hand_number))
        assert isinstance(card, int)
        assert state.legal_mask() >> card & 1, f"illegal card {card} at play {len(state.plays)}"
        state.play(card, seat)
    return state


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), hand_number=st.integers(1, 4))
def test_easy_and_medium_play_only_legal_cards(seed: int, hand_number: int) -> None:
    bots = [get_bot("medium"), get_bot("easy"), get_bot("medium"), get_bot("easy")]
    state = _play_checked(bots, random.Random(seed), hand_number)
    assert sum(state.points()) in (26, 78)


def test_many_hands_of_each_level_are_legal() -> None:
    rng = random.Random(8)
    for level in ("easy", "medium"):
        bots = [get_bot(level) for _ in range(4)]
        for i in range(60):
            _play_checked(bots, rng, i % 4 + 1)


def test_hard_plays_only_legal_cards() -> None:
    rng = random.Random(9)
    bots = [get_bot("hard", iterations=16), get_bot("medium"), get_bot("easy"), get_bot("medium")]
    for i in range(3):
        _play_checked(bots, rng, i % 4 + 1)


@pytest.mark.parametrize("players", [3, 5, 6, 7])
def test_every_level_plays_legally_at_every_table_size(players: int) -> None:
    """3 to 7 players with every option on: each pass direction of the cycle, every
    level; the removed cards are never dealt and the points add up."""
    rng = random.Random(players)
    for i, rules in enumerate(
        (
            Rules(players=players),
            Rules(players=players, qs_breaks_hearts=True, jd_bonus=True, moon=SHOOTER_CHOOSES),
        )
    ):
        levels = ["hard", "medium", "easy"] * 3
        bots = [
            get_bot(name, iterations=8) if name == "hard" else get_bot(name)
            for name in levels[i : i + players]
        ]
        for hand_number in range(1, rules.pass_cycle_length + 1):
            state = _play_checked(bots, rng, hand_number, rules)
            dealt = 0
            for mask in state.deal_masks:
                dealt |= mask
            assert dealt == rules.deck and not dealt & rules.removed
            jd = -10 if rules.jd_bonus and state.jd_taker() >= 0 else 0
            assert sum(state.points()) - jd in (26, 26 * (players - 1), -26)
