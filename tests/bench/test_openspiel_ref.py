"""The OpenSpiel bridge plays the same game as ours (skipped without pyspiel)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("pyspiel")


def _load() -> ModuleType:
    """Load bench/openspiel_ref.py by path: bench/ is not an installed package."""
    path = Path(__file__).resolve().parents[2] / "bench" / "openspiel_ref.py"
    spec = importlib.util.spec_from_file_location("openspiel_ref", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


osr = _load()
RANKS, SUITS = "23456789TJQKA", "CDSH"


def _name(card: int) -> str:
    return RANKS[card % 13] + SUITS[card // 13]


def _deal(rng: random.Random) -> list[int]:
    deck = list(range(52))
    rng.shuffle(deck)
    return [sum(1 << c for c in deck[13 * i : 13 * i + 13]) for i in range(4)]


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def test_mapping_round_trips_and_names_agree() -> None:
    assert sorted(osr.card_to_action(c) for c in range(52)) == list(range(52))
    state = osr.new_state(_deal(random.Random(0)), "none")
    for card in range(52):
        action = osr.card_to_action(card)
        assert osr.action_to_card(action) == card
        assert state.action_to_string(action) == _name(card)
        assert osr.card_from_str(_name(card)) == card
    assert (osr.card_to_action(0), osr.card_to_action(36)) == (0, 43)  # 2C, QS
    for seat in range(4):
        assert osr.player_to_seat(osr.seat_to_player(seat)) == seat
    assert osr.seat_to_player(0) == 2  # our South is OpenSpiel's South


@pytest.mark.parametrize(("direction", "shift"), [("left", 1), ("right", 3), ("across", 2)])
def test_deal_and_pass_match_ours(direction: str, shift: int) -> None:
    rng = random.Random(shift)
    deal = _deal(rng)
    state = osr.new_state(deal, direction)
    assert osr.hand_masks(state) == deal
    assert state.to_struct().pass_direction.lower() == direction
    passes = [sum(1 << c for c in rng.sample(_cards(m), 3)) for m in deal]
    osr.apply_passes(state, passes)
    # seat i passes to (i + shift) % 4, so it receives from (i - shift) % 4
    expected = [deal[i] & ~passes[i] | passes[(i - shift) % 4] for i in range(4)]
    assert osr.hand_masks(state) == expected
    assert expected[osr.current_seat(state)] & 1  # the 2C holder leads


def _our_points(plays: list[tuple[int, int]]) -> list[int]:
    """Independent scoring from (seat, card) plays: trick winners, then moon rule."""
    taken = [0, 0, 0, 0]
    for t in range(13):
        trick = plays[4 * t : 4 * t + 4]
        for offset, (seat, _) in enumerate(trick):  # S -> W -> N -> E order
            assert seat == (trick[0][0] + offset) % 4
        led = trick[0][1] // 13
        winner = max((c % 13, s) for s, c in trick if c // 13 == led)[1]
        if t < 12:
            assert plays[4 * t + 4][0] == winner  # the winner leads next
        taken[winner] += sum(1 for _, c in trick if c // 13 == 3) + 13 * any(
            c == 36 for _, c in trick
        )
    if 26 in taken:
        return [0 if p == 26 else 26 for p in taken]
    return taken


def test_random_hands_score_like_ours() -> None:
    rng = random.Random(7)
    for hand in range(40):
        deal = _deal(rng)
        direction = ("left", "right", "across", "none")[hand % 4]
        state = osr.new_state(deal, direction)
        if direction != "none":
            osr.apply_passes(state, [sum(1 << c for c in rng.sample(_cards(m), 3)) for m in deal])
        plays: list[tuple[int, int]] = []
        while not state.is_terminal():
            card = rng.choice(osr.legal_cards(state))
            plays.append((osr.current_seat(state), card))
            osr.apply_play(state, card)
        points = osr.hand_points(state)
        assert sorted(points) in ([0, 26, 26, 26],) or sum(points) == 26
        assert points == _our_points(plays)


def test_ismcts_player_returns_a_legal_card() -> None:
    state = osr.new_state(_deal(random.Random(3)), "none")
    player = osr.ISMCTSPlayer(simulations=30, seed=1)
    while not state.is_terminal():
        card = player.choose_play(state)
        assert card in osr.legal_cards(state)
        osr.apply_play(state, card)
    assert sum(osr.hand_points(state)) in (26, 78)
