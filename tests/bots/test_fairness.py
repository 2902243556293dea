"""Fairness: a bot's choice depends only on what its seat knows (SPEC §3).

For positions of every phase, the cards hidden from the deciding seat are dealt
again in several ways consistent with its view; the view must come out equal and
every level must choose the same pass or card.
"""

from __future__ import annotations

import random

import pytest
from redeal import hidden_differs, positions, redeal

from hearts.bots.base import Bot, get_bot
from hearts.hand import HandState

LEVELS = [
    ("easy", {}, 240, 3),
    ("medium", {}, 240, 3),
    ("hard", {"iterations": 24}, 20, 2),
]


def _choose(bot: Bot, state: HandState, seat: int, hand_number: int) -> int:
    view = state.view(seat, hand_number=hand_number, totals=(12, 40, 7, 88))
    return bot.choose_pass(view) if view.phase == "pass" else bot.choose_play(view)


@pytest.mark.parametrize(("level", "options", "count", "redeals"), LEVELS)
def test_choice_is_blind_to_the_hidden_cards(
    level: str, options: dict[str, object], count: int, redeals: int
) -> None:
    bot = get_bot(level, **options)
    mentors = [get_bot("medium"), get_bot("easy"), get_bot("medium"), get_bot("easy")]
    rng = random.Random(f"fairness-{level}")
    phases_seen = set()
    changed = 0
    for i, (state, seat, hand_number) in enumerate(positions(count, seed=11, players=mentors)):
        phases_seen.add((state.phase, len(state.plays) // 16))
        want = _choose(bot, state, seat, hand_number)
        made = 0
        for _ in range(redeals):
            other = redeal(state, seat, rng, hand_number, (12, 40, 7, 88))
            if other is None:
                continue
            made += 1
            changed += hidden_differs(state, other, seat)
            got = _choose(bot, other, seat, hand_number)
            assert got == want, f"position {i}: {level} changed its choice when re-dealt"
        assert made, f"position {i}: no consistent re-deal found"
    # The re-deals really moved hidden cards, in positions of every phase.
    assert changed >= count * redeals // 2
    assert {p for p, _ in phases_seen} == {"pass", "play"}


def test_redeal_keeps_the_view_and_moves_hidden_cards() -> None:
    rng = random.Random(3)
    moved = 0
    for state, seat, hand_number in positions(60, seed=5):
        other = redeal(state, seat, rng, hand_number)
        assert other is not None
        assert other.view(seat, hand_number=hand_number) == state.view(
            seat, hand_number=hand_number
        )
        assert other.hands[seat] == state.hands[seat]
        moved += hidden_differs(state, other, seat)
    assert moved >= 50
