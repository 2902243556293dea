"""Moon defence: Khó sees a live moon and imagines the runner holding the hearts
it needs (hearts.bots.hard.moon)."""

from __future__ import annotations

import random

import pytest
from positions_helper import craft

from hearts.bots.base import get_bot
from hearts.bots.hard import HardBot, kernel, reference, search_position
from hearts.bots.hard.moon import live_moon, moon_sampler, runs_for_the_moon
from hearts.bots.hard.reference import QUEEN_RUNS, rollout
from hearts.bots.hard.sampling import DealSampler, MixtureSampler, deal_tables
from hearts.cards import parse_card
from hearts.hand import HandState
from hearts.rules import Rules
from hearts.view import PlayerView

# West takes Q♠ and two hearts (15 points, alone): a moon is live when South,
# holding no high heart, is to play to West's fifth lead.
HANDS = {
    "S": "2C 3S 3D 5D 7D 2H",
    "W": "AC AS AD KD QD",
    "N": "3C QS 9H TH JH",
    "E": "4C 2S 2D 4D 6D",
}
PLAYS = "2C AC 3C 4C  AS QS 2S 3S  AD 9H 2D 3D  KD TH 4D 5D  QD JH 6D"


def _view(plays: str = PLAYS) -> PlayerView:
    return craft(HANDS, plays, void={"N": "D"}).view(0)


def test_a_seat_alone_with_queen_and_two_hearts_runs() -> None:
    view = _view()
    assert view.turn == 0
    assert runs_for_the_moon(15) and runs_for_the_moon(4) and not runs_for_the_moon(13)
    assert live_moon(view) == 1  # West


def test_queen_and_a_heart_lead_is_a_live_moon() -> None:
    # West took Q♠ and one heart (14) and leads A♥: running.
    view = _view("2C AC 3C 4C  AS QS 2S 3S  AD 9H 2D 3D  AH")
    assert view.points_taken()[1] == 14
    assert live_moon(view) == 1


def test_no_moon_before_the_seat_runs() -> None:
    assert live_moon(_view("2C AC 3C 4C  AS QS 2S 3S")) == -1  # Q♠ alone
    assert live_moon(_view("2C AC 3C 4C")) == -1  # no points yet


TOPS = (1 << parse_card("AH")) | (1 << parse_card("KH"))


def _draws(sampler: MixtureSampler, n: int = 400) -> list[list[int]]:
    """``n`` deals drawn by ``sampler`` as the search draws them (tables built once)."""
    tables = deal_tables(sampler)
    return [kernel.draw_deal(tables, 7, w) for w in range(n)]


def test_half_the_deals_give_the_runner_the_high_hearts() -> None:
    view = _view()
    base = DealSampler(view)
    sampler = moon_sampler(view, base)
    assert isinstance(sampler, MixtureSampler)
    draws = _draws(sampler)
    with_tops = sum(d[1] & TOPS == TOPS for d in draws)
    uniform = sum(d[1] & TOPS == TOPS for d in (base.draw(random.Random(w)) for w in range(400)))
    assert with_tops > 200 > 4 * uniform
    assert all(d[0] == view.hand for d in draws)


def _cards(text: str) -> int:
    return sum(1 << parse_card(c) for c in text.split())


def _first_trick_played(
    hands: list[int], trick: list[int], leader: int, pen: list[int], voids: int = QUEEN_RUNS
) -> list[int]:
    """The cards each seat plays to finish the trick in progress, in the playouts
    of both engines (they must agree)."""
    record: list[int] = []
    rollout(list(hands), list(trick), leader, 8, False, list(pen), -1, False, 0, record,
            voids=voids)  # fmt: skip
    after, _, _ = kernel.play_out(list(hands), list(trick), leader, 8, False, list(pen), -1,
                                  False, 0, voids)  # fmt: skip
    assert [h & ~a for h, a in zip(hands, after, strict=True)] == [
        sum(1 << c for c in record if (1 << c) & h) for h in hands
    ]
    return record[: len(hands) - len(trick)]


def test_in_the_playouts_a_seat_alone_with_the_queen_runs_unchased() -> None:
    # West (seat 1) alone took Q♠ (13 points) and leads: it runs, cashing its
    # highest side card (A♦), where it would lead low (J♦) with no points.
    hands = [_cards("2C 3S 3D 5D 7D 2H"), _cards("AD KD QD JD"), _cards("5C 9H TH JH 8S"),
             _cards("4C 2S 2D 4D 6D")]  # fmt: skip
    assert _first_trick_played(hands, [], 1, [0, 13, 0, 0])[0] == parse_card("AD")
    assert _first_trick_played(hands, [], 1, [0, 0, 0, 0])[0] == parse_card("JD")
    # Without QUEEN_RUNS (Khó's model of players who search) it does not run yet.
    assert _first_trick_played(hands, [], 1, [0, 13, 0, 0], 0)[0] == parse_card("JD")
    # North, void in diamonds, still feeds it a heart at 13 points (Vừa chases a
    # runner from Q♠ and two hearts only), but not at 15.
    played = _first_trick_played(hands, [parse_card("AD")], 1, [0, 13, 0, 0])
    assert played[0] == parse_card("JH")
    played = _first_trick_played(hands, [parse_card("AD")], 1, [0, 15, 0, 0])
    assert played[0] in (parse_card("5C"), parse_card("8S"))


def _weighs_by_gate(view: PlayerView, option: str, values: tuple[str, ...]) -> dict:
    """Khó's weighing of ``view`` under each value of ``option``, with the others
    judged players of habit (adapt=1.0: every seat counts as one) or not (0).  The
    queen rule alone: with ``suspect`` on, a seat alone with Q♠ that won the last
    tricks is chased whatever the rule says."""
    return {
        (value, adapt): HardBot(
            iterations=200, adapt=adapt, suspect=None, **{option: value}
        ).weigh_play(view)
        for value in values
        for adapt in (0.0, 1.0)
    }


def test_khó_lets_a_seat_alone_with_the_queen_run_against_players_of_habit_only() -> None:
    # West alone took Q♠; South (Khó) is to play.  queen_runs="habit" searches as
    # "never" while the others are not judged players of habit (adapt=0) and as
    # "play" once they are (adapt=1.0: every seat counts as one), and the rule
    # changes what the search finds.
    view = _view("2C AC 3C 4C  AS QS 2S 3S  AD 9D 2D")
    assert view.turn == 0 and view.points_taken() == [0, 13, 0, 0]
    weigh = _weighs_by_gate(view, "queen_runs", ("habit", "play", "never"))
    assert weigh["habit", 0.0] == weigh["never", 0.0]
    assert weigh["habit", 1.0] == weigh["play", 1.0]
    assert weigh["play", 1.0].value != weigh["never", 1.0].value
    with pytest.raises(ValueError, match="queen_runs"):
        HardBot(queen_runs="sometimes")


def _queen_alone_views(deals: int) -> list[PlayerView]:
    """South's turns, among three Vừa, once one seat alone took Q♠ (13–14 points)."""
    medium = get_bot("medium")
    out = []
    for i in range(deals):
        state = HandState.deal(Rules(), 4, random.Random(i))  # hand 4: no pass
        while not state.is_terminal():
            view = state.view(state.turn, hand_number=4)
            taken = view.points_taken()
            if state.turn == 0 and 13 <= max(taken) == sum(taken) < 15 and len(view.plays) > 8:
                out.append(view)
            state.play(medium.choose_play(view))
    return out


def test_adapt_measures_the_others_against_the_policy_it_searches_with() -> None:
    # With queen_runs="everywhere" adapt's measure (how far the others play unlike
    # the playout policy) replays their plays by the policy in which a seat alone
    # with Q♠ runs; both engines count the same.
    views = _queen_alone_views(40)
    assert len(views) >= 8
    changed = 0
    for view in views[:12]:
        tables = deal_tables(DealSampler(view))
        plain = search_position(view, 0.5)
        flagged = plain._replace(voids=plain.voids | QUEEN_RUNS)
        rates = []
        for pos in (plain, flagged):
            fast = kernel.unlike(tables, view.seed(), 0, 8, pos)
            assert fast == reference.unlike(tables, view.seed(), 0, 8, pos)
            rates.append(fast)
        changed += rates[0] != rates[1]
    assert changed >= 4


def test_the_pass_search_lets_a_queen_run_in_both_engines() -> None:
    # queen_runs="pass" (and "everywhere") plays the pass search's playouts by the
    # policy in which a seat alone with Q♠ runs: both engines weigh the same, and
    # the rule changes what they find.
    changed = mixes = 0
    for i in range(4):
        state = HandState.deal(Rules(), 1 + i % 3, random.Random(60 + i))
        view = state.view(0, hand_number=1 + i % 3)
        fast = HardBot(pass_iterations=200, engine="compiled", queen_runs="pass")
        slow = HardBot(pass_iterations=200, engine="reference", queen_runs="pass")
        weigh = fast.weigh_pass(view)
        assert weigh == slow.weigh_pass(view)
        assert weigh == HardBot(pass_iterations=200, queen_runs="everywhere").weigh_pass(view)
        changed += weigh.value != HardBot(pass_iterations=200).weigh_pass(view).value
        # "pass-mix": every deal under both models, each counting half.
        fast = HardBot(pass_iterations=200, engine="compiled", queen_runs="pass-mix")
        slow = HardBot(pass_iterations=200, engine="reference", queen_runs="pass-mix")
        mixed = fast.weigh_pass(view)
        assert mixed == slow.weigh_pass(view)
        assert max(mixed.deals.values()) < max(weigh.deals.values())  # half the deals
        mixes += mixed.value != weigh.value
    assert changed and mixes
