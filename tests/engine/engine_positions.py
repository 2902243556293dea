"""Positions for the engine tests: deals written as card names, scripted play,
a snapshot of every field of a hand state, and a random legal player."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable
from typing import Any

from hearts.cards import cards_of, mask_of, parse_card
from hearts.hand import HandState
from hearts.rules import MOON_RULES, Rules

S, W, N, E = 0, 1, 2, 3


def c(name: str) -> int:
    """One card: ``c("QS")``."""
    return parse_card(name)


def m(text: str) -> int:
    """A mask from card names and ranges: ``m("2C AH")``, ``m("2C-KC QS")``.

    A range ``2C-KC`` covers the ranks from the first to the last in one suit.
    """
    mask = 0
    for word in text.split():
        if "-" in word:
            lo, hi = (parse_card(x) for x in word.split("-"))
            assert lo // 13 == hi // 13 and lo <= hi, word
            mask |= mask_of(range(lo, hi + 1))
        else:
            mask |= 1 << parse_card(word)
    return mask


def hand_of(seats: Iterable[str], direction: str = "none", rules: Rules | None = None) -> HandState:
    """A hand dealt exactly as written, one string of cards per seat (S W N E …)."""
    return HandState(rules or Rules(), [m(t) for t in seats], direction)


def play(state: HandState, text: str) -> None:
    """Play the named cards in order, each by the seat whose turn it is (checked)."""
    for name in text.split():
        state.play(parse_card(name))


def play_out(state: HandState, prefer: str = "") -> None:
    """Finish the hand: each seat plays the first legal card of ``prefer``,
    otherwise its lowest legal card."""
    order = [parse_card(x) for x in prefer.split()]
    while not state.is_terminal():
        legal = state.legal_mask()
        card = next((x for x in order if legal >> x & 1), None)
        if card is None:
            card = (legal & -legal).bit_length() - 1
        state.play(card)


def snapshot(state: HandState) -> dict[str, Any]:
    """Every field of the state, deep-copied: equal snapshots mean equal states."""
    return {name: copy.deepcopy(getattr(state, name)) for name in HandState.__slots__}


def random_card(mask: int, rng: random.Random) -> int:
    cards = list(cards_of(mask))
    return cards[rng.randrange(len(cards))]


def random_pass(state: HandState, rng: random.Random) -> None:
    """Every seat passes ``pass_count`` random cards of its hand."""
    for seat in range(state.n):
        cards = rng.sample(list(cards_of(state.hands[seat])), state.rules.pass_count)
        state.pass_cards(seat, mask_of(cards))


def random_hand(
    rules: Rules,
    hand_number: int,
    rng: random.Random,
    each_step: Callable[[HandState], None] | None = None,
) -> HandState:
    """Deal, pass and play a whole hand choosing uniformly among legal cards,
    calling ``each_step`` before every play and once at the end."""
    state = HandState.deal(rules, hand_number, rng)
    if state.phase == "pass":
        random_pass(state, rng)
    while not state.is_terminal():
        if each_step:
            each_step(state)
        state.play(random_card(state.legal_mask(), rng))
    if each_step:
        each_step(state)
    return state


def random_rules(rng: random.Random) -> Rules:
    """Any table: players 3..7 and every variant."""
    return Rules(
        players=rng.choice((3, 4, 4, 4, 5, 6, 7)),
        qs_breaks_hearts=rng.random() < 0.5,
        moon=rng.choice(MOON_RULES),
        jd_bonus=rng.random() < 0.5,
        target=rng.choice((50, 100, 150)),
    )
