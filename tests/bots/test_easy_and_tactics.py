"""Dễ is never absurd; the shared tactics helpers do what their names say."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from hearts.bots import tactics
from hearts.bots.easy import EasyBot
from hearts.bots.tactics import HIGH_SPADES, trick_winner
from hearts.cards import QS_BIT, QUEEN_SPADES, SUIT_MASKS
from hearts.hand import HandState
from hearts.rules import Rules

masks = st.integers(0, (1 << 52) - 1)
cards = st.integers(0, 51)


@given(masks, cards)
def test_highest_below_and_lowest_above(mask: int, card: int) -> None:
    suit = SUIT_MASKS[card // 13]
    below = [c for c in range(52) if mask >> c & 1 and c < card and suit >> c & 1]
    above = [c for c in range(52) if mask >> c & 1 and c > card and suit >> c & 1]
    assert tactics.highest_below(mask, card) == (max(below) if below else -1)
    assert tactics.lowest_above(mask, card) == (min(above) if above else -1)


@given(cards, masks)
def test_sure_loser_and_sure_winner(card: int, others: int) -> None:
    others &= ~(1 << card)
    same = [c for c in range(52) if others >> c & 1 and c // 13 == card // 13]
    assert tactics.sure_winner(card, others) == all(c < card for c in same)
    assert tactics.sure_loser(card, others) == (bool(same) and all(c > card for c in same))


def test_trick_winner_ignores_off_suit_cards() -> None:
    assert trick_winner([(1, 5), (2, 51), (3, 12), (0, 20)]) == (3, 12)


def test_easy_never_leads_the_queen_into_a_higher_spade() -> None:
    bot = EasyBot()
    rng = random.Random(12)
    leads = 0
    for i in range(300):
        state = HandState.deal(Rules(), i % 4 + 1, rng)
        if state.phase == "pass":
            for seat in range(4):
                state.pass_cards(seat, bot.choose_pass(state.view(seat, hand_number=i % 4 + 1)))
        while not state.is_terminal():
            view = state.view(state.turn, hand_number=i % 4 + 1)
            card = bot.choose_play(view)
            if not view.trick and view.legal & QS_BIT and view.legal != QS_BIT:
                leads += 1
                if view.unseen() & HIGH_SPADES:
                    assert card != QUEEN_SPADES
            state.play(card)
    assert leads > 20  # the rule was really put to the test
