"""The kernel's rules checked by the engine's: sampled playouts replayed card by
card through :class:`~hearts.hand.HandState`.

From positions of hands played by Vừa at every kind of table, deals are drawn by
the compiled sampler from the view of the seat to play, and the hand is played
out from there by the playout policy: the pure-Python twin's playout (every card
it plays recorded) and the compiled policy's card at each turn.  Every card must
be legal in the engine (its checked ``play``), the two engines must play the same
cards, and the points and J♦ taker each playout ends with must be the engine's.
"""

from __future__ import annotations

import random

import pytest

from hearts.bots.base import get_bot
from hearts.bots.hard import kernel, search_judge, search_position
from hearts.bots.hard.reference import rollout
from hearts.bots.hard.sampling import DealSampler, deal_tables
from hearts.hand import HandState
from hearts.rules import Rules
from hearts.view import PlayerView

TABLES = (
    Rules(),
    Rules(players=3),
    Rules(players=5),
    Rules(qs_breaks_hearts=True, jd_bonus=True),
    Rules(players=3, qs_breaks_hearts=True, jd_bonus=True),
)


def _positions(deals: int) -> list[tuple[HandState, PlayerView]]:
    """Mid-hand positions (every trick position, early and late) of hands Vừa plays."""
    medium = get_bot("medium")
    out = []
    for i in range(deals):
        rules = TABLES[i % len(TABLES)]
        number = i % rules.pass_cycle_length + 1
        state = HandState.deal(rules, number, random.Random(100 + i))
        if state.phase == "pass":
            for s in range(rules.players):
                state.pass_cards(s, medium.choose_pass(state.view(s, hand_number=number)))
        stop = (5 * i) % (rules.hand_size * rules.players - 1)
        while len(state.plays) < stop:
            state.play(medium.choose_play(state.view(state.turn, hand_number=number)))
        out.append((state, state.view(state.turn, hand_number=number)))
    return out


def _with_hands(state: HandState, hands: list[int]) -> HandState:
    """``state``'s hand replayed from a deal where the seats now hold ``hands``."""
    rules = state.rules
    deal = list(hands)
    for s, c in state.seat_plays():
        deal[s] |= 1 << c
    new = HandState(rules, deal, "none")
    for _, c in state.seat_plays():
        new.play(c)  # checked: the sampled deal must fit every play so far
    return new


def _policy_card(state: HandState, voids: int, view: PlayerView) -> int:
    """The compiled policy's card for the seat to play in ``state``."""
    rules = state.rules
    policy, _ = kernel.look_card(
        list(state.hands), list(state.trick), state.leader, len(state.plays), state.broken,
        state.penalties(), state.jd_taker(), rules.qs_breaks_hearts, rules.lead_card, voids,
        search_judge(view),
    )  # fmt: skip
    return policy


@pytest.mark.parametrize("chunk", range(5))
def test_sampled_playouts_are_legal_hands_in_the_engine(chunk: int) -> None:
    replayed = 0
    for state, view in _positions(40)[chunk::5]:
        tables = deal_tables(DealSampler(view))
        voids0 = search_position(view).voids
        rules = state.rules
        for w in range(6):
            hands = kernel.draw_deal(tables, view.seed(), w)
            start = _with_hands(state, hands)
            assert start.view(view.seat).hand == view.hand
            # The reference twin's playout, every card recorded.
            record: list[int] = []
            pen = start.penalties()
            args = (start.leader, len(start.plays), start.broken)
            jd = rollout(
                list(start.hands), list(start.trick), *args, pen, start.jd_taker(),
                rules.qs_breaks_hearts, rules.lead_card, record, voids=voids0,
            )  # fmt: skip
            # Card by card through the engine, the compiled policy asked at each turn.
            game = start.copy()
            voids = voids0
            for card in record:
                compiled = _policy_card(game, voids, view)
                game.copy().play(compiled)  # the compiled card, checked by the engine too
                if game.trick and card // 13 != game.trick[0] // 13:
                    voids |= 1 << (game.trick[0] // 13)
                game.play(card)  # raises on an illegal card
                assert compiled == card
            # A playout stops once nothing left can score: the rest changes nothing.
            while not game.is_terminal():
                legal = game.legal_mask()
                game.play((legal & -legal).bit_length() - 1)
            assert game.penalties() == pen
            assert game.jd_taker() == jd
            # The compiled playout from the same position: the same end.
            _, got_pen, got_jd = kernel.play_out(
                list(start.hands), list(start.trick), *args, start.penalties(),
                start.jd_taker(), rules.qs_breaks_hearts, rules.lead_card, voids0,
            )  # fmt: skip
            assert (got_pen, got_jd) == (pen, jd)
            replayed += 1
    assert replayed == 48
