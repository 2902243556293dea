"""Gợi ý's reasons in game words (hearts.server.solo.coach): where it applies, the hint
says that South is void in the suit led, that the Q♠ is still out while South holds
a higher spade, that a moon is threatening; and it ends with the estimates line
(the best few options' mean points, the Vietnamese way)."""

from __future__ import annotations

import random
from collections.abc import Callable

from hearts.bots.base import get_bot
from hearts.cards import QS_BIT, SPADES, SUIT_MASKS, cards_of, parse_card
from hearts.hand import HandState
from hearts.rules import Rules
from hearts.server.solo.coach import hint, label, number
from hearts.view import PlayerView

NAMES = {0: "Bạn", 1: "Tây", 2: "Bắc", 3: "Đông"}
HIGH_SPADES = SUIT_MASKS[SPADES] & ~((QS_BIT << 1) - 1)  # K♠ A♠


def _south_to_play(where: Callable[[PlayerView], bool]) -> PlayerView:
    """South's view at the first of South's turns with a choice where ``where``
    holds, in hands played by Vừa (no pass: hand 4 of the cycle)."""
    bot = get_bot("medium")
    rng = random.Random(11)
    for _ in range(400):
        state = HandState.deal(Rules(), 4, rng)
        while not state.is_terminal():
            view = state.view(state.turn, hand_number=4, totals=(0, 0, 0, 0))
            if state.turn == 0 and view.legal.bit_count() >= 2 and where(view):
                return view
            state.play(bot.choose_play(view))
    raise AssertionError("no such position")


def _void(view: PlayerView) -> bool:
    return bool(view.trick) and not view.hand & SUIT_MASKS[view.trick[0][1] // 13]


def _queen_out(view: PlayerView) -> bool:
    return bool(not (view.played | view.hand) & QS_BIT and view.hand & HIGH_SPADES)


def _moon(view: PlayerView) -> bool:
    taken = view.points_taken()
    return taken[0] == 0 and sorted(taken)[-2] == 0 and max(taken) >= 10


def test_void_in_the_suit_led() -> None:
    view = _south_to_play(_void)
    suit = ("nhép", "rô", "bích", "cơ")[view.trick[0][1] // 13]
    got = hint(view, NAMES)
    assert any(r.startswith(f"Bạn đã hết {suit}:") for r in got["reasons"]), got["reasons"]


def test_the_queen_of_spades_still_out_with_a_higher_spade_held() -> None:
    view = _south_to_play(lambda v: _queen_out(v) and not _void(v))
    got = hint(view, NAMES)
    line = next(r for r in got["reasons"] if r.startswith("Đầm bích vẫn chưa ra"))
    held = [label(c) for c in cards_of(view.hand & HIGH_SPADES)]
    assert any(h in line for h in held), (line, held)


def test_a_moon_threatening() -> None:
    view = _south_to_play(_moon)
    taken = view.points_taken()
    shooter = taken.index(max(taken))
    got = hint(view, NAMES)
    want = f"{NAMES[shooter]} đã ăn cả {taken[shooter]} điểm của ván: coi chừng bắn trăng."
    assert want in got["reasons"], got["reasons"]


def test_the_last_line_gives_the_best_options_mean_points() -> None:
    view = _south_to_play(lambda v: v.legal.bit_count() >= 3)
    got = hint(view, NAMES)
    parts = got["reasons"][-1].split(" · ")
    assert 2 <= len(parts) <= 3
    # Khó's card first, with its mean points; then the next options, each with its own
    card = label(parse_card(got["card"]))
    assert parts[0] == f"{card}: trung bình {number(got['estimates'][got['card']])} điểm"
    shown = {label(parse_card(c)): number(p) for c, p in got["estimates"].items()}
    for part in parts[1:]:
        name, points = part.split(": ")
        assert points == f"{shown[name]} điểm"
