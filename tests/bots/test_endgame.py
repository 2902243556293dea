"""Khó's exact search of the last tricks (:mod:`hearts.bots.endgame`): every seat
plays its best with the cards face up, and Khó's card comes from the search,
the same whether asked to play or to weigh."""

from __future__ import annotations

import random

import pytest

from hearts.bots.endgame import Solver
from hearts.bots.hard import HardBot, candidates
from hearts.cards import mask_of, parse_card, parse_cards
from hearts.hand import HandState
from hearts.rules import Rules


def _hands(*seats: list[str]) -> list[int]:
    return [mask_of(parse_cards(cards)) for cards in seats]


def test_a_seat_drops_q_spades_under_the_king_instead_of_winning_and_leading_it() -> None:
    # West leads K♠; North holds A♠ Q♠.  Winning with A♠ would force North to
    # lead Q♠ next and take it; Q♠ under the king gives it to West.
    rules = Rules()
    hands = _hands(["2D"], ["QS", "AS"], ["3S", "4D"], ["5S", "6D"])
    solver = Solver(rules, me=2, utility=lambda pen, jd: -float(pen[2]))
    pen, jd = solver.solve(hands, [parse_card("KS")], 0, [0, 0, 0, 0], -1, True)
    assert pen == [13, 0, 0, 0]
    assert jd == -1


def test_a_seat_that_would_shoot_the_moon_takes_the_last_heart() -> None:
    # South took every point but the A♥; it takes the last trick and shoots.
    rules = Rules()
    hands = _hands(["AH"], ["2C"], ["3C"], ["4C"])
    solver = Solver(rules, me=1, utility=lambda pen, jd: 0.0)
    pen, _ = solver.solve(hands, [], 0, [25, 0, 0, 0], -1, True)
    assert pen == [26, 0, 0, 0]


def test_with_policy_blocks_the_others_stop_a_moon_only_as_the_playouts_do() -> None:
    # Seat 1 (searching) took 23 points, every one so far; three hearts are out.
    # Face up, the others see how to stop its moon; playing the playout policy's
    # cards, they let it through.
    rules = Rules()
    hands = _hands(["8C", "KS"], ["3C", "9D"], ["TH", "JH"], ["TS", "4H"])
    exact = Solver(rules, me=1, utility=lambda pen, jd: 0.0)
    policy = Solver(rules, me=1, utility=lambda pen, jd: 0.0, blocks="policy")
    assert exact.solve(hands[:], [], 1, [0, 23, 0, 0], -1, True)[0] == [3, 23, 0, 0]
    assert policy.solve(hands[:], [], 1, [0, 23, 0, 0], -1, True)[0] == [0, 26, 0, 0]
    # Seat 2 took every point so far; seat 0 (searching) leads.  Face up, seat 1
    # stops the moon (it takes two hearts); playing as the playouts do it does
    # not, so seat 0 cannot count on a third seat to block.
    hands = _hands(["5C", "QH"], ["4C", "TC"], ["9C", "AH"], ["6C", "6S"])
    exact = Solver(rules, me=0, utility=lambda pen, jd: 0.0)
    policy = Solver(rules, me=0, utility=lambda pen, jd: 0.0, blocks="policy")
    assert exact.solve(hands[:], [], 0, [0, 0, 24, 0], -1, True)[0] == [0, 2, 24, 0]
    assert policy.solve(hands[:], [], 0, [0, 0, 24, 0], -1, True)[0] == [0, 0, 26, 0]
    # With points in two hands no moon is live: both search alike.
    assert policy.solve(hands[:], [], 1, [1, 22, 0, 0], -1, True) == exact.solve(
        hands[:], [], 1, [1, 22, 0, 0], -1, True
    )


def _late_views(count: int) -> list:
    out = []
    seed = 0
    while len(out) < count:
        seed += 1
        rng = random.Random(seed)
        state = HandState.deal(Rules(), 4, rng)
        while not state.is_terminal():
            view = state.view(state.turn)
            if view.hand.bit_count() <= 3 and len(candidates(view)) > 1:
                out.append(view)
                break
            state.play(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("blocks", ["exact", "policy"])
def test_the_endgame_card_is_the_weighed_card_and_depends_on_the_view_only(blocks: str) -> None:
    bot = HardBot(iterations=200, endgame=3, endgame_draws=20, endgame_blocks=blocks)
    again = HardBot(iterations=200, endgame=3, endgame_draws=20, endgame_blocks=blocks)
    for view in _late_views(6):
        card = bot.choose_play(view)
        assert view.legal >> card & 1
        weighing = bot.weigh_play(view)
        assert weighing.choice == card == again.choose_play(view)
        assert weighing.options[0] == card
        assert set(weighing.options) == set(candidates(view))
        assert all(1 <= d <= 20 for d in weighing.deals.values())
