"""The yardstick ``hard-2026-11`` (bench/yardstick) stays frozen: its choices on
fixed positions are the ones Khó made on 2026-11-30, whatever Khó becomes."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from hearts.bots.base import get_bot
from hearts.hand import HandState
from hearts.rules import Rules
from hearts.view import PlayerView

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from yardstick import NAME, yardstick

#: Khó's choices (200 playouts) on :func:`positions`, recorded on 2026-11-30.
PINNED = [
    137455731712, 48, 2251868533162240, 30, 140737498841088, 44,
    42, 274882103296, 41, 562949954473984, 18,
]  # fmt: skip


def positions() -> list[PlayerView]:
    """A pass and a play position from each of six deals played by Vừa."""
    out = []
    medium = get_bot("medium")
    for i in range(6):
        number = i % 4 + 1
        state = HandState.deal(Rules(), number, random.Random(100 + i))
        if state.phase == "pass":
            out.append(state.view(0, hand_number=number))
            for s in range(4):
                state.pass_cards(s, medium.choose_pass(state.view(s, hand_number=number)))
        k = 0
        while not state.is_terminal():
            view = state.view(state.turn, hand_number=number)
            if k == 5 + 7 * i:
                out.append(view)
            state.play(medium.choose_play(view), state.turn)
            k += 1
    return out


def test_the_yardstick_plays_as_khó_did_on_the_day_it_was_frozen() -> None:
    bot = yardstick(iterations=200, pass_iterations=200)
    assert bot.name == NAME == "hard-2026-11"
    got = [bot.choose_pass(v) if v.phase == "pass" else bot.choose_play(v) for v in positions()]
    assert got == PINNED
