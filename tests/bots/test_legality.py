"""Every level only ever chooses legal passes and cards."""

from __future__ import annotations

import importlib.util
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts.bots.base import Bot, get_bot
from hearts.hand import HandState
from hearts.rules import Rules


def _play_checked(bots: list[Bot], rng: random.Random, hand_number: int) -> HandState:
    """Deal and play a hand, checking every choice before the engine sees it."""
    state = HandState.deal(Rules(), hand_number, rng)
    if state.phase == "pass":
        for seat in range(4):
            view = state.view(seat, hand_number=hand_number)
            mask = bots[seat].choose_pass(view)
            assert mask.bit_count() == 3 and not mask & ~state.hands[seat]
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


@pytest.mark.skipif(importlib.util.find_spec("hearts.bots.hard") is None, reason="no Khó yet")
def test_hard_plays_only_legal_cards() -> None:
    rng = random.Random(9)
    bots = [get_bot("hard", iterations=16), get_bot("medium"), get_bot("easy"), get_bot("medium")]
    for i in range(3):
        _play_checked(bots, rng, i % 4 + 1)
