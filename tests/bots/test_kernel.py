"""Khó's compiled search kernel is its pure-Python reference, bit for bit: the
same deals for the same seed, the same playouts, the same sums, the same card;
and it compiles and decides in a fresh process where no cache can be written."""

from __future__ import annotations

import dataclasses
import math
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from positions_helper import vua_positions

import hearts
from hearts.bots.base import get_bot
from hearts.bots.hard import (
    HardBot,
    candidates,
    kernel,
    pass_candidates,
    queen_doubts,
    reference,
    search_judge,
    search_position,
)
from hearts.bots.hard.moon import suspect
from hearts.bots.hard.position import Passing
from hearts.bots.hard.reference import rollout
from hearts.bots.hard.sampling import DealSampler, WeightedSampler, deal_tables
from hearts.bots.hard.splitmix import world_state
from hearts.cards import QUEEN_SPADES, cards_of, parse_cards
from hearts.hand import HandState
from hearts.rules import SHOOTER_CHOOSES, Rules
from hearts.view import PlayerView

TABLES = [
    Rules(),
    Rules(players=3),
    Rules(players=5),
    Rules(qs_breaks_hearts=True, jd_bonus=True, moon=SHOOTER_CHOOSES),
]


def _views(count: int) -> list[PlayerView]:
    """Positions with a choice, from hands played by Vừa at every table, totals
    far from and near the target."""
    medium = get_bot("medium")
    out = []
    for i in range(count):
        rules = TABLES[i % len(TABLES)]
        number = i % rules.pass_cycle_length + 1
        state = HandState.deal(rules, number, random.Random(i))
        if state.phase == "pass":
            for s in range(rules.players):
                state.pass_cards(s, medium.choose_pass(state.view(s, hand_number=number)))
        stop = (7 * i) % (rules.hand_size * rules.players - 2)
        totals = tuple((30 * s + 7 * i) % 99 for s in range(rules.players))
        k = 0
        while not state.is_terminal():
            view = state.view(state.turn, hand_number=number, totals=totals)
            if k >= stop and view.legal & (view.legal - 1):
                out.append(view)
                break
            state.play(medium.choose_play(view))
            k += 1
    return out


VIEWS = _views(24)


def test_the_compiled_deals_are_the_reference_deals_and_fit_the_view() -> None:
    for view in VIEWS:
        sampler = WeightedSampler(view, QUEEN_SPADES, queen_doubts(view, 0.1))
        tables = deal_tables(sampler)
        excluded = view.excluded()
        seed = view.seed()
        for w in range(12):
            want, _ = reference.draw(tables, world_state(seed, w))
            assert kernel.draw_deal(tables, seed, w) == want
            assert [h.bit_count() for h in want] == list(view.counts)
            assert want[view.seat] == view.hand
            for s in range(view.n):
                assert not want[s] & excluded[s] if s != view.seat else True
            union = 0
            for h in want:
                assert not union & h
                union |= h
            assert union == view.hand | view.unseen()


def _both_playouts(
    view: PlayerView, rng: random.Random, voids: int = 5
) -> tuple[tuple[list[int], list[int], int], tuple[list[int], list[int], int], list[int]]:
    """A deal drawn for ``view`` played out from its position by the reference
    playout and by the compiled one: (reference, compiled, the cards the
    reference played), each result as (hands after, pen after, J♦ taker);
    ``voids``: the voids word both start with (suits, the policy's switches)."""
    hands = DealSampler(view).draw(rng)
    trick = [c for _, c in view.trick]
    pen = [0] * view.n
    want_hands, want_pen = hands[:], pen[:]
    record: list[int] = []
    args = (view.leader, len(view.plays), view.broken)
    rules = view.rules
    want_jd = rollout(
        want_hands, trick[:], *args, want_pen, -1, rules.qs_breaks_hearts, rules.lead_card,
        record, voids=voids,
    )  # fmt: skip
    got = kernel.play_out(
        hands, trick, *args, pen, -1, rules.qs_breaks_hearts, rules.lead_card, voids
    )
    return (want_hands, want_pen, want_jd), got, record


def test_the_compiled_playout_is_the_policy_card_for_card() -> None:
    rng = random.Random(4)
    for view in VIEWS:
        want, got, record = _both_playouts(view, rng)
        assert got == want
        assert record  # the hand was played on


def test_the_compiled_search_sums_are_the_reference_sums() -> None:
    for view in VIEWS:
        tables = deal_tables(DealSampler(view))
        cands = candidates(view)
        alive = list(range(len(cands)))
        pos, judge = search_position(view), search_judge(view)
        want_sums, want_points, want_mass = ([0.0] * len(cands) for _ in range(3))
        reference.play_batch(
            tables, view.seed(), 0, 16, cands, alive, pos, judge, want_sums, want_points, want_mass
        )
        sums, points, mass = np.zeros(len(cands)), np.zeros(len(cands)), np.zeros(len(cands))
        kernel.play_batch(tables, view.seed(), 0, 16, cands, alive, pos, judge, sums, points, mass)
        assert sums.tolist() == want_sums
        assert points.tolist() == want_points
        assert mass.tolist() == want_mass == [16.0] * len(cands)


def test_weighed_deals_are_weighed_alike_by_both_engines() -> None:
    seen = set()
    for view in VIEWS:
        tables = deal_tables(DealSampler(view))
        cands = candidates(view)
        alive = list(range(len(cands)))
        pos, judge = search_position(view, 0.5), search_judge(view)
        assert pos.history == view.plays
        args = (tables, view.seed(), 0, 16, cands, alive, pos, judge)
        want = [0.0] * len(cands), [0.0] * len(cands), [0.0] * len(cands)
        reference.play_batch(*args, *want)
        got = np.zeros(len(cands)), np.zeros(len(cands)), np.zeros(len(cands))
        kernel.play_batch(*args, *got)
        assert [g.tolist() for g in got] == list(want)
        for w in range(16):
            world = kernel.draw_deal(tables, view.seed(), w)
            weight = reference.likeness(world, pos)
            seen.add(weight)
            hands, pen = np.zeros(view.n, np.int64), np.zeros(view.n, np.int64)
            hist = np.array(view.plays, dtype=np.int64).reshape(-1, 2)
            assert weight == kernel.likeness(
                np.array(world, dtype=np.int64), hist[:, 0].copy(), hist[:, 1].copy(),
                view.seat, 0.5, view.rules.qs_breaks_hearts, view.rules.lead_card, hands, pen,
            )  # fmt: skip
    assert len(seen) > 3  # deals differ in how well they explain the play


def test_the_real_hands_of_a_hand_played_by_the_policy_keep_their_whole_weight() -> None:
    # Every seat played the playout policy's card: the true deal explains every
    # play; deals that do not are weighed down.
    for i in range(6):
        rules = TABLES[i % len(TABLES)]
        state = HandState.deal(rules, 1 + i % rules.pass_cycle_length, random.Random(100 + i))
        if state.phase == "pass":
            medium = get_bot("medium")
            for s in range(rules.players):
                state.pass_cards(s, medium.choose_pass(state.view(s)))
        record: list[int] = []
        rollout(
            list(state.hands), [], state.turn, 0, False, [0] * rules.players, -1,
            rules.qs_breaks_hearts, rules.lead_card, record,
        )  # fmt: skip
        for card in record[: 6 + 5 * i]:
            state.play(card)
        view = state.view(state.turn)
        pos = search_position(view, 0.5)
        assert reference.likeness(list(state.hands), pos) == 1.0
        draws = [DealSampler(view).draw(random.Random(w)) for w in range(20)]
        sampled = [reference.likeness(world, pos) for world in draws]
        assert min(sampled) < 1.0


def test_the_reference_engine_chooses_what_the_compiled_one_does() -> None:
    for view in VIEWS[:8]:
        for mismatch in (1.0, 0.6):
            fast = HardBot(iterations=100, engine="compiled", mismatch=mismatch)
            slow = HardBot(iterations=100, engine="reference", mismatch=mismatch)
            assert fast.weigh_play(view) == slow.weigh_play(view)


def _pass_views(count: int) -> list[PlayerView]:
    """Pass positions at every table, every pass direction, totals far from and
    near the target."""
    out = []
    for i in range(count):
        rules = TABLES[i % len(TABLES)]
        number = (i // len(TABLES)) % (rules.pass_cycle_length - 1) + 1  # a hand with a pass
        state = HandState.deal(rules, number, random.Random(50 + i))
        assert state.phase == "pass"
        totals = tuple((30 * s + 7 * i) % 99 for s in range(rules.players))
        out.append(state.view(i % rules.players, hand_number=number, totals=totals))
    return out


PASS_VIEWS = _pass_views(12)


def test_the_compiled_quick_pass_is_the_reference_pass() -> None:
    rng = random.Random(7)
    for _ in range(400):
        hand = sum(1 << c for c in rng.sample(range(52), rng.choice((10, 13, 17))))
        for jd in (False, True):
            for count in (3, 4):
                want = reference.quick_pass(hand, count, jd)
                assert kernel.quick_pass(hand, count, jd) == want
                assert want.bit_count() == count and want & ~hand == 0


def test_the_compiled_pass_search_sums_are_the_reference_sums() -> None:
    directions = set()
    apart = 0
    for view in PASS_VIEWS:
        rules = view.rules
        offset = rules.pass_offset(view.direction)
        directions.add((rules.players, view.direction))
        base = reference.quick_pass(view.hand, rules.pass_count, rules.jd_bonus)
        cands = pass_candidates(view.hand, rules.pass_count, base, jd=rules.jd_bonus)
        alive = list(range(len(cands)))
        tables = deal_tables(DealSampler(view))
        passing = Passing(
            view.seat, offset, rules.pass_count, rules.jd_bonus, rules.qs_breaks_hearts,
            rules.lead_card,
        )  # fmt: skip
        judge = search_judge(view)
        want_sums, want_points = [0.0] * len(cands), [0.0] * len(cands)
        args = (tables, view.seed(), 0, 12, cands, alive, passing, judge)
        reference.pass_batch(*args, want_sums, want_points)
        sums, points = np.zeros(len(cands)), np.zeros(len(cands))
        kernel.pass_batch(*args, sums, points)
        assert sums.tolist() == want_sums
        assert points.tolist() == want_points
        apart += len(set(want_sums)) > 1  # the passes were told apart
    assert apart >= len(PASS_VIEWS)
    assert {(4, d) for d in ("left", "right", "across")} <= directions


def test_the_reference_engine_passes_what_the_compiled_one_does() -> None:
    for view in PASS_VIEWS[:8]:
        fast = HardBot(pass_iterations=300, engine="compiled")
        slow = HardBot(pass_iterations=300, engine="reference")
        assert fast.weigh_pass(view) == slow.weigh_pass(view)


def test_the_seed_matters() -> None:
    view = VIEWS[0]
    tables = deal_tables(DealSampler(view))
    deals = {tuple(kernel.draw_deal(tables, view.seed(), w)) for w in range(20)}
    assert len(deals) == 20


FRESH = """
import sys
from hearts.bots.hard import kernel
from hearts.bots.hard import HardBot
from hearts.view import PlayerView
from hearts.rules import Rules
rules = Rules()
view = PlayerView(rules, 1, 2, "play", "right", int(sys.argv[1]), 0, 0, ((0, 0),), 1,
                  int(sys.argv[2]), False, (12, 13, 13, 13), (0, 0, 0, 0), 100)
print(kernel.__file__, HardBot(iterations=300).choose_play(view))
"""


@pytest.mark.slow
def test_a_fresh_process_compiles_and_decides_where_no_cache_can_be_written(
    tmp_path: Path,
) -> None:
    # A copy of the package where numba cannot write its cache next to the
    # module, nor under NUMBA_CACHE_DIR or the user's cache directory.
    package = tmp_path / "src" / "hearts"
    shutil.copytree(
        Path(hearts.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__")
    )
    (package / "bots" / "hard" / "kernel" / "__pycache__").write_text("not a directory")
    blocked = tmp_path / "blocked"
    blocked.write_text("not a directory")
    env = dict(os.environ)
    env.update(
        PYTHONPATH=str(tmp_path / "src"),
        NUMBA_CACHE_DIR=str(blocked / "numba"),
        XDG_CACHE_HOME=str(blocked / "cache"),
        HOME=str(blocked / "home"),
        PYTHONDONTWRITEBYTECODE="1",
    )
    hand = sum(1 << c for c in range(1, 52, 4))  # 3♣ 7♣ J♣ 2♦ ... : West after 2♣
    legal = hand & 0x1FFF
    view = PlayerView(Rules(), 1, 2, "play", "right", hand, 0, 0, ((0, 0),), 1, legal, False,
                      (12, 13, 13, 13), (0, 0, 0, 0), 100)  # fmt: skip
    want = HardBot(iterations=300).choose_play(view)
    out = subprocess.run(
        [sys.executable, "-c", FRESH, str(hand), str(legal)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout.split()
    assert out == [str(package / "bots" / "hard" / "kernel" / "__init__.py"), str(want)]
    assert not (blocked.parent / "numba").exists()


def test_a_look_ahead_plays_the_legal_card_whose_playout_is_best_for_the_seat() -> None:
    # Cards of a run judged as one must come out alike: the card picked is worth
    # the best of every legal card, each played out by the plain policy.
    rng = random.Random(7)
    changed = 0
    for view in VIEWS:
        rules = view.rules
        hands = DealSampler(view).draw(rng)
        trick = [c for _, c in view.trick]
        pos, judge = search_position(view), search_judge(view)
        args = (view.leader, len(view.plays), view.broken)
        policy, pick = kernel.look_card(
            hands, trick, *args, list(pos.pen), pos.jd, rules.qs_breaks_hearts, rules.lead_card,
            pos.voids, judge,
        )  # fmt: skip
        worth = {}
        for c in cards_of(view.legal):
            after = hands[:]
            after[view.seat] &= ~(1 << c)
            broken = view.broken or c >= 39 or (rules.qs_breaks_hearts and c == QUEEN_SPADES)
            void = bool(trick) and c // 13 != trick[0] // 13
            voids = pos.voids | (1 << (trick[0] // 13) if void else 0)
            _, pen, jd = kernel.play_out(
                after, [*trick, c], view.leader, len(view.plays) + 1, broken, list(pos.pen),
                pos.jd, rules.qs_breaks_hearts, rules.lead_card, voids,
            )  # fmt: skip
            worth[c] = reference.value(pen, jd, judge)[0]
        assert pick in worth and policy in worth
        assert worth[pick] == max(worth.values())
        assert worth[policy] < worth[pick] or pick == policy
        changed += pick != policy
    assert changed  # the look ahead is not the policy under another name


@pytest.mark.parametrize(
    ("look_me", "look_others", "hide"),
    [
        (13, 13, 0),
        (1, 0, 0),
        (0, 2, 0),
        (3, 13, 0),
        (13, 13, 1),
        (13, 13, 2),
        (2, 13, 3),
        (13, 13, 4),
        (13, 13, 14),
        (2, 13, 22),
    ],
)
def test_the_look_ahead_sums_are_the_reference_sums(
    look_me: int, look_others: int, hide: int
) -> None:
    # The compiled look ahead (kernel._look in kernel.rollout_look) is its
    # pure-Python twin (reference.look in reference.rollout_look), bit for bit,
    # on every table, and differs from the plain playouts (with ``hide``, the
    # others' cards dealt again in each look: kernel._hide and reference.hide).
    differ = 0
    face_up = 0
    partial = 0
    deals = 0
    for view in VIEWS[:12]:
        tables = deal_tables(DealSampler(view))
        cands = candidates(view)
        alive = list(range(len(cands)))
        pos, judge = search_position(view, 0.5), search_judge(view, 3.0)
        args = (tables, view.seed(), 0, 4, cands, alive, pos, judge)
        want = [0.0] * len(cands), [0.0] * len(cands), [0.0] * len(cands)
        reference.play_batch(*args, *want, look_me, look_others, hide)
        got = np.zeros(len(cands)), np.zeros(len(cands)), np.zeros(len(cands))
        kernel.play_batch(*args, *got, look_me, look_others, hide)
        assert [g.tolist() for g in got] == list(want)
        plain = np.zeros(len(cands)), np.zeros(len(cands)), np.zeros(len(cands))
        kernel.play_batch(*args, *plain)
        differ += plain[0].tolist() != got[0].tolist()
        if hide:
            seen = np.zeros(len(cands)), np.zeros(len(cands)), np.zeros(len(cands))
            kernel.play_batch(*args, *seen, look_me, look_others, 0)
            face_up += seen[0].tolist() != got[0].tolist()
        if hide > 1:  # some seats' looks hide, not every seat's
            every = np.zeros(len(cands)), np.zeros(len(cands)), np.zeros(len(cands))
            kernel.play_batch(*args, *every, look_me, look_others, 1)
            partial += every[0].tolist() != got[0].tolist()
        if hide >= 10:  # more deals a look: not one deal's look
            one = np.zeros(len(cands)), np.zeros(len(cands)), np.zeros(len(cands))
            kernel.play_batch(*args, *one, look_me, look_others, hide % 10)
            deals += one[0].tolist() != got[0].tolist()
    assert differ
    assert face_up or not hide
    assert partial or hide < 2
    assert deals or hide < 10


def test_hide_beyond_the_looks_room_is_refused() -> None:
    # The compiled look has room for reference.MAX_DEALS deals: a bigger ``hide``
    # (or an unknown way of hiding) is an error, not a write past that room.
    HardBot(hide=10 * (reference.MAX_DEALS - 1) + 4)
    for bad in (-1, 5, 10 * reference.MAX_DEALS + 4):
        with pytest.raises(ValueError, match="hide"):
            HardBot(hide=bad)


def test_mixing_keeps_the_others_numbers_of_cards_and_their_voids_shown() -> None:
    # What a look that mixes knows: its own hand, how many cards each other seat
    # holds and the suits they have shown they lack.  Both engines mix alike, and
    # suit lengths change (else it would only hide ranks).
    rng = random.Random(4)
    lengths = 0
    for view in VIEWS:
        hands = DealSampler(view).draw(rng)
        seat = view.turn
        sv = view.voids()
        state = world_state(view.seed(), 9)
        ref = hands[:]
        after = reference.mix(ref, seat, sv, state)
        assert kernel.mix_cards(hands, seat, sv, state) == (ref, after)
        assert ref[seat] == hands[seat]
        union = 0
        for h in ref:
            assert union & h == 0
            union |= h
        assert union == sum(hands)
        for s, (old, new) in enumerate(zip(hands, ref, strict=True)):
            assert old.bit_count() == new.bit_count()
            for k in range(4):
                if sv[s] >> k & 1:
                    assert new & (0x1FFF << (13 * k)) == 0
            lengths += any(
                (old >> (13 * k) & 0x1FFF).bit_count() != (new >> (13 * k) & 0x1FFF).bit_count()
                for k in range(4)
            )
    assert lengths


def test_hiding_deals_each_suit_again_among_the_others_keeping_their_lengths() -> None:
    # What a look that hides knows: its own hand and how many cards of each suit
    # each other seat holds, not which.  Both engines deal alike.
    rng = random.Random(3)
    moved = 0
    for view in VIEWS:
        hands = DealSampler(view).draw(rng)
        seat = view.turn
        state = world_state(view.seed(), 5)
        ref = hands[:]
        after = reference.hide(ref, seat, state)
        got = kernel.hide_cards(hands, seat, state)
        assert got == (ref, after)
        assert ref[seat] == hands[seat]
        union = 0
        for h in ref:
            assert union & h == 0  # no card twice
            union |= h
        assert union == sum(hands)  # the same cards
        for old, new in zip(hands, ref, strict=True):
            for k in range(4):
                suit = 0x1FFF << (13 * k)
                assert (old & suit).bit_count() == (new & suit).bit_count()
            moved += old != new
    assert moved


def test_the_reference_engine_looks_ahead_as_the_compiled_one_does() -> None:
    for view in VIEWS[12:16]:
        fast = HardBot(iterations=24, engine="compiled", lookahead=13, lookahead_others=13)
        slow = HardBot(iterations=24, engine="reference", lookahead=13, lookahead_others=13)
        assert fast.weigh_play(view) == slow.weigh_play(view)


def test_both_engines_count_the_plays_unlike_the_policy_alike() -> None:
    seen = set()
    for view in VIEWS:
        tables = deal_tables(DealSampler(view))
        pos = search_position(view, 0.5)
        want = reference.unlike(tables, view.seed(), 0, 16, pos)
        assert kernel.unlike(tables, view.seed(), 0, 16, pos) == want
        # The count is the likeness's exponent, deal by deal.
        worlds = [kernel.draw_deal(tables, view.seed(), w) for w in range(16)]
        weights = [reference.likeness(w, pos) for w in worlds]
        assert want == sum(round(-math.log2(x)) for x in weights) / 16
        seen.add(want)
    assert len(seen) > 3


def _unlike_rate(opponents: str, seed: int) -> float:
    """The share of the others' plays unlike the policy, seen by seat 0 at its
    turn in the seventh trick of a hand it plays by the policy among three
    ``opponents``: Vừa, or seats that play a random legal card."""
    rng = random.Random(seed)
    medium = get_bot("medium")
    state = HandState.deal(Rules(), 4, rng)
    while True:
        view = state.view(state.turn, hand_number=4)
        if state.turn == 0 and len(view.plays) >= 24:
            break
        if state.turn == 0 or opponents == "medium":
            state.play(medium.choose_play(view))
        else:
            state.play(rng.choice(state.legal_actions()))
    others = sum(1 for s, _ in view.plays if s != 0)
    tables = deal_tables(DealSampler(view))
    return kernel.unlike(tables, view.seed(), 0, 32, search_position(view, 0.5)) / others


def test_players_of_habit_play_like_the_policy_and_random_players_do_not() -> None:
    # What Khó's adapt reads: Vừa's plays mostly match the policy on sampled
    # deals (its habits are the policy's); a random player's do not.
    habit = [_unlike_rate("medium", s) for s in range(6)]
    random_ = [_unlike_rate("random", s) for s in range(6)]
    assert sum(habit) / 6 < 0.22 < sum(random_) / 6
    assert max(habit) < min(random_)


def test_the_reference_engine_adapts_as_the_compiled_one_does() -> None:
    for view in VIEWS[:6]:
        fast = HardBot(iterations=100, engine="compiled", adapt=0.22, adapt_from=3)
        slow = HardBot(iterations=100, engine="reference", adapt=0.22, adapt_from=3)
        assert fast.weigh_play(view) == slow.weigh_play(view)


WARMED = """
from numba.core.registry import CPUDispatcher
from hearts.bots.hard import kernel
from hearts.server.table.computers import warm_up
warm_up()
cold = [k for k in ENTRIES if not isinstance(getattr(kernel, k), CPUDispatcher)
        or not getattr(kernel, k).signatures]
print(",".join(cold))
"""
#: The kernels a decision calls from Python (the others are called inside them).
ENTRIES = ("_play_batch", "_pass_batch", "_unlike")


def test_the_warm_up_readies_every_kernel_a_decision_calls() -> None:
    # A server worker's first play, pass and adapt measure must not compile (or load)
    # a kernel while a player waits: its warm-up has them all ready. Each entry is
    # checked in a fresh process, where nothing earlier has loaded it.
    out = subprocess.run(
        [sys.executable, "-c", f"ENTRIES = {ENTRIES!r}" + WARMED],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert out.stdout.strip() == ""


ENGINES = ("compiled", "reference")


def _suspect_views(count: int, tricks: int = 2) -> list[PlayerView]:
    """Positions with a choice where another seat won the last ``tricks`` tricks
    and no other seat has a point, from hands played by Vừa at the default table."""
    return vua_positions(count, lambda v: suspect(v, tricks) >= 0 and v.legal & (v.legal - 1) > 0)


def test_a_suspected_runner_is_chased_alike_in_both_engines() -> None:
    # ``suspect`` (issue 38 lever 1): the seat named in the voids word runs and is
    # chased before it has points; both playouts play the same cards, and the
    # switch changes some of them.
    rng = random.Random(9)
    moved = 0
    for view in _suspect_views(6):
        named = reference.suspect_bits(suspect(view, 2))
        for _ in range(10):
            start = rng.getstate()
            want, got, cards = _both_playouts(view, rng, 5 | named)
            assert got == want
            rng.setstate(start)
            _, _, plain = _both_playouts(view, rng)
            moved += plain != cards
    assert moved


def test_khó_suspecting_a_runner_weighs_alike_in_both_engines() -> None:
    # The play search reads the suspect alike in both engines, also where deals are
    # weighed by the plays so far (``mismatch``: the suspect runs from the first
    # trick replayed); where no seat is suspected the option changes nothing.
    for view in _suspect_views(3) + [v for v in VIEWS[:8] if suspect(v, 2) >= 0]:
        for mismatch in (1.0, 0.6):
            fast, slow = (
                HardBot(iterations=60, suspect=2, mismatch=mismatch, engine=e) for e in ENGINES
            )
            assert fast.weigh_play(view) == slow.weigh_play(view)
    quiet = [v for v in VIEWS if suspect(v, 2) < 0 and v.rules == Rules()]
    assert quiet
    for view in quiet[:3]:
        assert HardBot(iterations=60, suspect=2).weigh_play(view) == HardBot(
            iterations=60, suspect=None
        ).weigh_play(view)


def test_a_suspect_is_the_seat_that_won_the_last_tricks_while_no_other_has_points() -> None:
    def played(text: str) -> tuple[tuple[int, int], ...]:
        # "seat:card ...", every trick's leader first
        pairs = [w.split(":") for w in text.split()]
        return tuple((int(s), parse_cards([c])[0]) for s, c in pairs)

    view = next(v for v in VIEWS if v.rules == Rules())
    two = played("0:2C 1:AC 2:3C 3:4C 1:KC 2:5C 3:6C 0:7C")
    at = dataclasses.replace(view, seat=0, plays=two)
    assert [suspect(at, k) for k in (1, 2, 3)] == [1, 1, -1]
    assert suspect(dataclasses.replace(at, seat=1), 2) == -1  # never oneself
    # Seat 2 wins the third trick with a heart in it: the only seat with a point.
    three = two + played("1:2D 2:AD 3:3D 0:2H")
    at = dataclasses.replace(view, seat=0, plays=three)
    assert [suspect(at, k) for k in (1, 2)] == [2, -1]
    # Seat 1 wins the fourth, but seat 2 has a point: no suspect.
    four = three + played("2:8C 3:9C 0:TC 1:QC")
    assert suspect(dataclasses.replace(view, seat=0, plays=four), 1) == -1
