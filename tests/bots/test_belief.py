"""Máy đã biết gì: Khó's belief about the hidden cards (hearts.bots.hard.belief), as
the server reports it after a hand (hearts.server.coach.knew), comes from the
deciding seat's view alone: the cards it could not see, dealt again in any way
consistent with that view, leave it the same (the re-deal of test_fairness.py).
And it is the belief of Khó's own search: the same deals, as many."""

from __future__ import annotations

import random

from redeal import hidden_differs, redeal

from hearts.bots.base import get_bot
from hearts.bots.hard import HardBot
from hearts.bots.hard.belief import WATCHED, belief
from hearts.cards import cards_of
from hearts.hand import HandState
from hearts.record import write_record
from hearts.rules import Rules
from hearts.server.coach import knew

TOTALS = (12, 40, 7, 88)
MENTORS = [get_bot("medium"), get_bot("easy"), get_bot("medium"), get_bot("easy")]


def _random_pass(state: HandState, seat: int, rng: random.Random) -> int:
    return sum(1 << c for c in rng.sample(list(cards_of(state.hands[seat])), 3))


def _pass_all(state: HandState, hand_number: int, rng: random.Random) -> None:
    for s in range(state.n):
        if not state.passes[s]:
            state.pass_cards(s, MENTORS[s].choose_pass(state.view(s, hand_number=hand_number)))


def _play_positions(count: int, rng: random.Random) -> list[tuple[HandState, int]]:
    """Positions where a computer seat (not South) is to play, every trick of the
    hand and every pass direction among them."""
    out = []
    while len(out) < count:
        hand_number = 1 + len(out) % 4
        state = HandState.deal(Rules(), hand_number, rng)
        if state.phase == "pass":
            _pass_all(state, hand_number, rng)
        stop = (len(out) * 4) % 48 + rng.randrange(4)
        while len(state.plays) < stop or state.turn == 0:
            seat = state.turn
            state.play(MENTORS[seat].choose_play(state.view(seat, hand_number=hand_number)))
        out.append((state, hand_number))
    return out


def _reported(state: HandState, hand_number: int) -> dict[str, object] | None:
    """The server's report of the last decision of ``state``'s record."""
    step = knew.decisions(write_record(state, hand_number), TOTALS)[-1]
    return knew.believe(step.view)


def test_the_belief_is_the_same_when_the_hidden_cards_are_dealt_again() -> None:
    rng = random.Random(41)
    moved = weighed = 0
    for i, (state, hand_number) in enumerate(_play_positions(24, rng)):
        seat = state.turn
        card = MENTORS[seat].choose_play(state.view(seat, hand_number=hand_number))
        for _ in range(2):
            other = redeal(state, seat, rng)
            moved += hidden_differs(state, other, seat)
            other.play(card, seat)
            first = state.copy()
            first.play(card, seat)
            want = _reported(first, hand_number)
            weighed += want is not None
            assert _reported(other, hand_number) == want, f"position {i}: the belief moved"
    assert moved >= 40 and weighed >= 30


def test_the_belief_at_the_pass_is_the_same_when_the_others_cards_are_dealt_again() -> None:
    rng = random.Random(43)
    for hand_number in (1, 2, 3):  # left, right, across
        state = HandState.deal(Rules(), hand_number, rng)
        for seat in (1, 2, 3):
            other = redeal(state, seat, rng)  # the other hands drawn again
            assert hidden_differs(state, other, seat)
            beliefs = []
            for s in (state, other):
                s = s.copy()
                for t in range(s.n):
                    if not s.passes[t]:
                        s.pass_cards(t, _random_pass(s, t, rng))
                steps = knew.decisions(write_record(s, hand_number), TOTALS)
                beliefs.append(knew.believe(steps[seat - 1].view))
            assert beliefs[0] is not None and beliefs[0] == beliefs[1]


def test_the_views_and_positions_are_rebuilt_from_the_record() -> None:
    """The views the report is made from are each computer seat's view in play, and
    ``where`` is where the watched cards it could not see really were."""
    rng = random.Random(47)
    for hand_number in (1, 4):  # a pass, and none
        state = HandState.deal(Rules(), hand_number, rng)
        seen = []
        truth = []
        if state.phase == "pass":
            for s in (1, 2, 3):
                seen.append(state.view(s, hand_number=hand_number, totals=TOTALS))
                truth.append(list(state.hands))
            _pass_all(state, hand_number, rng)
        while not state.is_terminal():
            seat = state.turn
            view = state.view(seat, hand_number=hand_number, totals=TOTALS)
            if seat != 0:
                seen.append(view)
                truth.append(list(state.hands))
            state.play(MENTORS[seat].choose_play(view))
        steps = knew.decisions(write_record(state, hand_number), TOTALS)
        assert [s.view for s in steps] == seen
        for step, hands in zip(steps, truth, strict=True):
            me = step.view.seat
            hidden = [c for c in WATCHED if not hands[me] >> c & 1 and step.view.unseen() >> c & 1]
            assert step.where == {c: next(s for s in range(4) if hands[s] >> c & 1) for c in hidden}


def test_the_belief_counts_the_deals_khó_s_search_plays() -> None:
    """As many deals as Khó's search at its whole budget (clear=0: no early stop)
    plays, the same deals: a card its belief puts nowhere is nowhere in them."""
    rng = random.Random(53)
    for state, hand_number in _play_positions(8, rng):
        view = state.view(state.turn, hand_number=hand_number, totals=TOTALS)
        found = belief(view)
        if found is None:
            continue
        searched = HardBot(clear=0).weigh_play(view)
        assert found.worlds == max(searched.deals.values())
        for row in found.shares.values():
            assert all(0.0 <= x <= 1.0 for x in row.values())
