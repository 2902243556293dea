"""Khó's compiled kernel and its pure-Python twin keep the rules of the game in
copies of their own (masks and ints, inlined in the playouts' hot loop); these
properties hold both to the engine's one home of each rule, :mod:`hearts.legal`
(legal cards, a trick's winner) and :attr:`Rules.breakers` (hearts broken), on
random positions at random tables: every step of random hands, and the hands the
playout policy plays out from them."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hearts.bots.hard.kernel import looks as kernel_looks
from hearts.bots.hard.kernel import play_out
from hearts.bots.hard.kernel import policy as kernel_policy
from hearts.bots.hard.reference import looks as reference_looks
from hearts.bots.hard.reference import policy as reference_policy
from hearts.cards import JD_BIT, QS_BIT, QUEEN_SPADES, cards_of
from hearts.hand import HandState
from hearts.legal import legal_cards, winning_card
from hearts.rules import MOON_RULES, Rules

SETTINGS = settings(
    max_examples=40,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def _rules(rng: random.Random) -> Rules:
    """Any table: 3 to 7 players, every variant."""
    return Rules(
        players=rng.choice((3, 4, 4, 5, 6, 7)),
        qs_breaks_hearts=rng.random() < 0.5,
        moon=rng.choice(MOON_RULES),  # type: ignore[arg-type]
        jd_bonus=rng.random() < 0.5,
    )


def _dealt(rng: random.Random) -> HandState:
    """A random hand of a random table, passed at random, ready for its first card."""
    rules = _rules(rng)
    state = HandState.deal(rules, rng.randrange(1, rules.pass_cycle_length + 1), rng)
    if state.phase == "pass":
        for seat in range(state.n):
            cards = rng.sample(list(cards_of(state.hands[seat])), rules.pass_count)
            state.pass_cards(seat, sum(1 << c for c in cards))
    return state


def _trick_mask(trick: list[int]) -> int:
    mask = 0
    for c in trick:
        mask |= 1 << c
    return mask


def _engine_winner(state: HandState, trick: list[int]) -> int:
    """The seat winning ``trick`` (the hand's trick in progress) by the engine."""
    return (state.leader + trick.index(winning_card(trick[0], _trick_mask(trick)))) % state.n


def _check_legal(state: HandState, noise: random.Random) -> None:
    """Both engines' legal cards for the seat to play are the engine's."""
    seat, trick, n = state.turn, state.trick, state.n
    h, played, broken = state.hands[seat], len(state.plays), state.broken
    want = state.legal_mask()
    assert want == legal_cards(state.rules, h, trick[0] if trick else -1, played < n, broken)
    led = trick[0] // 13 if trick else 0
    if played:  # the looks' legal cards: never the hand's first lead
        assert kernel_looks._legal(h, len(trick), led, played, broken, n) == want
        assert reference_looks._legal(h, list(trick), played, broken, n) == want
    # The noisy playouts' random card: always legal, and any legal card.
    lead_card = state.rules.lead_card
    drawn = 0
    for _ in range(30):
        card = reference_policy._random_card(
            h, len(trick), led, played, broken, lead_card, n, noise
        )
        drawn |= 1 << card
    assert drawn & ~want == 0
    if want.bit_count() <= 3:
        assert drawn == want


def _check_card(state: HandState, card: int) -> None:
    """Both engines' standing of the trick, points in it and hearts broken once
    ``card`` is played are the engine's: its winner, :meth:`Rules.penalty` and
    :attr:`Rules.breakers`."""
    n, rules, seat = state.n, state.rules, state.turn
    trick = list(state.trick)
    pos, leader, broken = len(trick), state.leader, state.broken
    qs_live = any(h & QS_BIT for h in state.hands)
    buf = np.zeros(n, np.int64)
    buf[:pos] = trick
    now = kernel_policy._trick_now(buf, pos, leader, n)
    if pos:
        assert now == reference_policy._trick_now(trick, leader, n)
        led, top, win, tp = now
        assert (led, top) == (trick[0] // 13, winning_card(trick[0], _trick_mask(trick)))
        assert (win, tp) == (_engine_winner(state, trick), rules.penalty(_trick_mask(trick)))
    args = (card, seat, pos, *now, 0, broken, qs_live, rules.qs_breaks_hearts)
    after = kernel_policy._after_card(*args)
    assert after == reference_policy._after_card(*args)
    led, top, win, tp, _voids, now_broken, now_qs_live = after
    state.push(card)
    done = [*trick, card]
    assert now_broken == state.broken == (broken or bool(rules.breakers >> card & 1))
    assert now_qs_live == (qs_live and card != QUEEN_SPADES)
    assert (led, top) == (done[0] // 13, winning_card(done[0], _trick_mask(done)))
    assert tp == rules.penalty(_trick_mask(done))
    if len(done) == n:
        assert win == state.winners[-1]
        assert reference_looks._standing(done, leader, n) == (win, tp)
    else:
        assert win == _engine_winner(state, done)


@SETTINGS
@given(SEEDS)
def test_both_engines_legal_cards_trick_winners_and_broken_hearts_are_the_engines(
    seed: int,
) -> None:
    rng = random.Random(seed)
    noise = random.Random(seed ^ 0x5EED)
    state = _dealt(rng)
    while not state.is_terminal():
        _check_legal(state, noise)
        legal = list(cards_of(state.legal_mask()))
        _check_card(state, legal[rng.randrange(len(legal))])


@SETTINGS
@given(SEEDS, st.integers(min_value=0, max_value=15))
def test_a_hand_played_out_by_both_engines_is_legal_and_scored_as_the_engine_scores_it(
    seed: int, voids: int
) -> None:
    # From a random position the twin's playout, replayed card by card through the
    # engine, is legal throughout and takes the points the engine gives; the
    # compiled playout ends with the hands, points and J♦ of that replay.
    rng = random.Random(seed)
    state = _dealt(rng)
    for _ in range(rng.randrange(state.n * state.rules.hand_size)):
        legal = list(cards_of(state.legal_mask()))
        state.play(legal[rng.randrange(len(legal))])
    rules = state.rules
    start = (
        state.leader,
        len(state.plays),
        state.broken,
        state.penalties(),
        state.jd_taker(),
        rules.qs_breaks_hearts,
        rules.lead_card,
    )
    leader, played, broken, pen, jd, qs_breaks, lead_card = start
    record: list[int] = []
    want_pen = pen[:]
    want_jd = reference_policy.rollout(
        list(state.hands), list(state.trick), leader, played, broken, want_pen, jd,
        qs_breaks, lead_card, record, voids=voids,
    )  # fmt: skip
    got = play_out(
        list(state.hands), list(state.trick), leader, played, broken, pen[:], jd, qs_breaks,
        lead_card, voids,
    )  # fmt: skip
    for card in record:
        state.play(card)  # IllegalAction if the twin's policy broke a rule
    assert not state.trick  # a playout stops at the end of a trick
    assert (want_pen, want_jd) == (state.penalties(), state.jd_taker())
    assert got == (state.hands, state.penalties(), state.jd_taker())
    stakes = rules.point_cards | JD_BIT  # J♦ too: the playout plays on while it is out
    assert state.is_terminal() or not any(h & stakes for h in state.hands)
