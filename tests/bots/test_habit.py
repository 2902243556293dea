"""Deals weighed by a model of players of habit (:mod:`hearts.bots.habit`), and the
pool of given deals the search plays them in (:class:`hearts.bots.kernel_ref.Pool`)."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest
from test_kernel import TABLES, VIEWS

from hearts.bots import habit, kernel, kernel_ref
from hearts.bots.base import get_bot
from hearts.bots.hard import HardBot, candidates, search_judge, search_position
from hearts.bots.kernel_ref import Pool
from hearts.bots.sampling import DealSampler, deal_tables
from hearts.hand import HandState, legal_cards


def _played_by_vua(i: int, stop: int) -> HandState:
    """A hand of table ``TABLES[i % 4]`` played by Vừa at every seat for ``stop`` cards."""
    rules = TABLES[i % len(TABLES)]
    medium = get_bot("medium")
    number = 1 + i % rules.pass_cycle_length
    state = HandState.deal(rules, number, random.Random(300 + i))
    if state.phase == "pass":
        for s in range(rules.players):
            state.pass_cards(s, medium.choose_pass(state.view(s, hand_number=number)))
    for _ in range(stop):
        state.play(medium.choose_play(state.view(state.turn, hand_number=number)))
    return state


def test_the_real_hands_of_a_hand_played_by_vua_explain_every_play() -> None:
    # Vừa at every seat: in the real deal every other seat's play is the one Vừa
    # makes holding those cards (every table, every stage of the hand); deals drawn
    # from the view alone explain fewer of them, so they weigh less.
    weighed_down = 0
    for i in range(16):
        rules = TABLES[i % len(TABLES)]
        state = _played_by_vua(i, 3 + (7 * i) % (rules.hand_size * rules.players - 4))
        view = state.view(state.turn)
        past = habit.moments(view)
        assert len(past) == len([s for s, _ in view.plays if s != view.seat])
        assert habit.mismatches(view, list(state.hands), past) == 0
        draws = [DealSampler(view).draw(random.Random(w)) for w in range(12)]
        assert habit.weights(view, [list(state.hands)], 0.3) == [1.0]
        weighed = habit.weights(view, draws, 0.3)
        assert all(0.0 < w <= 1.0 for w in weighed)
        weighed_down += min(weighed) < 1.0
    assert weighed_down >= 12


def test_a_play_vua_would_not_make_counts_against_the_deal() -> None:
    # The last card played (by the seat before the one to play) changed to another
    # card that seat could have played: the real deal no longer explains that play.
    checked = 0
    for i in range(16):
        rules = TABLES[i % len(TABLES)]
        state = _played_by_vua(i, 5 + (5 * i) % (rules.hand_size * rules.players - 8))
        view = state.view(state.turn)
        if not view.trick:
            continue
        seat, card = view.plays[-1]
        moment = habit.moments(view)[-1]
        hand = state.hands[seat] | 1 << card
        legal = legal_cards(rules, hand, moment.led, moment.first_trick, moment.broken)
        others = legal & ~(1 << card)
        if not others:
            continue
        other = others.bit_length() - 1
        swapped = replace(view, plays=(*view.plays[:-1], (seat, other)))
        hands = list(state.hands)
        hands[seat] = hands[seat] & ~(1 << other) | 1 << card
        assert habit.mismatches(swapped, hands, habit.moments(swapped)) == 1
        assert habit.mismatches(view, list(state.hands), habit.moments(view)) == 0
        checked += 1
    assert checked >= 6


def test_a_pool_of_the_drawn_deals_is_the_search_over_those_deals() -> None:
    # Deals 0..15 given as a pool of weight 1 are searched exactly as when drawn;
    # weights scale each deal's share, alike in both engines.
    for view in VIEWS[:10]:
        tables = deal_tables(DealSampler(view))
        cands = candidates(view)
        alive = list(range(len(cands)))
        pos, judge = search_position(view), search_judge(view)
        seed = view.seed()
        deals = tuple(tuple(kernel.draw_deal(tables, seed, w)) for w in range(16))
        args = (tables, seed, 0, 16, cands, alive, pos, judge)
        for look in (0, 52):
            drawn = np.zeros(len(cands)), np.zeros(len(cands)), np.zeros(len(cands))
            kernel.play_batch(*args, *drawn, look, look, 4 if look else 0)
            pooled = np.zeros(len(cands)), np.zeros(len(cands)), np.zeros(len(cands))
            same = Pool(deals, (1.0,) * 16)
            kernel.play_batch(*args, *pooled, look, look, 4 if look else 0, 0, same)
            assert [p.tolist() for p in pooled] == [d.tolist() for d in drawn]
        weighed = Pool(deals[:5], (1.0, 0.3, 0.09, 0.3, 0.027))
        got = np.zeros(len(cands)), np.zeros(len(cands)), np.zeros(len(cands))
        kernel.play_batch(*args, *got, 52, 52, 4, 0, weighed)
        want = [0.0] * len(cands), [0.0] * len(cands), [0.0] * len(cands)
        kernel_ref.play_batch(*args, *want, 52, 52, 4, 0, weighed)
        assert [g.tolist() for g in got] == list(want)
        mass = sum(weighed.weights[w % 5] for w in range(16))  # deal w is deal w % 5
        assert got[2] == pytest.approx([mass] * len(cands))


def test_khó_weighing_deals_by_habit_decides_alike_in_both_engines() -> None:
    # adapt=1.0: the others always count as players of habit, so the pool is used.
    differ = 0
    for view in VIEWS[:8]:
        fast = HardBot(iterations=100, engine="compiled", habit=0.3, adapt=1.0)
        slow = HardBot(iterations=100, engine="reference", habit=0.3, adapt=1.0)
        weighing = fast.weigh_play(view)
        assert weighing == slow.weigh_play(view)
        assert weighing == fast.weigh_play(view)  # deterministic for a view
        plain = HardBot(iterations=100, adapt=1.0).weigh_play(view)
        differ += plain.value != weighing.value
    assert differ
