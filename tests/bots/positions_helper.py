"""Crafted positions for behaviour tests: name some cards, the rest are filled in."""

from __future__ import annotations

import random
from collections.abc import Callable

from hearts.bots.base import get_bot
from hearts.bots.tactics import trick_winner
from hearts.cards import cards_of, parse_card
from hearts.hand import HandState
from hearts.rules import Rules
from hearts.view import PlayerView

SEATS = "SWNE"


def craft(
    hands: dict[str, str], plays: str = "", hand_number: int = 4, void: dict[str, str] | None = None
) -> HandState:
    """A hand where seat letters in ``hands`` hold those cards and ``plays`` were
    played in order; the other cards are dealt to seats that have room and have
    neither shown a void in their suit nor been declared void in it (``void``:
    seat letter to suit letters).  ``hand_number`` 4 means no pass."""
    rules = Rules()
    fixed = [0] * 4
    for letter, text in hands.items():
        for name in text.split():
            fixed[SEATS.index(letter)] |= 1 << parse_card(name)
    sequence = [parse_card(x) for x in plays.split()]
    leader = next(s for s in range(4) if fixed[s] & 1)  # whoever holds 2♣
    voids = [0] * 4
    for letter, suits in (void or {}).items():
        for suit in suits:
            voids[SEATS.index(letter)] |= 1 << "CDSH".index(suit)
    for k in range(0, len(sequence), 4):
        trick = [((leader + i) % 4, c) for i, c in enumerate(sequence[k : k + 4])]
        for s, c in trick:
            fixed[s] |= 1 << c
            if c // 13 != trick[0][1] // 13:
                voids[s] |= 1 << (trick[0][1] // 13)
        if len(trick) == 4:
            leader = trick_winner(trick)[0]
    used = 0
    for m in fixed:
        assert not m & used, "a card is named twice"
        used |= m
    deal = fixed[:]
    for c in cards_of(rules.deck & ~used):
        room = [s for s in range(4) if deal[s].bit_count() < 13 and not voids[s] >> (c // 13) & 1]
        assert room, "cannot fill the hands"
        deal[min(room, key=lambda s: deal[s].bit_count())] |= 1 << c
    state = HandState(rules, deal, rules.pass_direction(hand_number))
    for c in sequence:
        state.play(c)
    return state


def vua_positions(count: int, wanted: Callable[[PlayerView], bool]) -> list[PlayerView]:
    """The first position ``wanted`` accepts in each of ``count`` hands that Vừa
    plays at the default table (hand 4: no pass; deals seeded from 1000 on)."""
    medium = get_bot("medium")
    out: list[PlayerView] = []
    i = 0
    while len(out) < count:
        state = HandState.deal(Rules(), 4, random.Random(1000 + i))
        i += 1
        while not state.is_terminal():
            view = state.view(state.turn, hand_number=4)
            if wanted(view):
                out.append(view)
                break
            state.play(medium.choose_play(view))
    return out
