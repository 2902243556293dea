"""Khó's search kernel compiled to machine code with numba: deal draws, playouts,
the value of a finished hand, over int masks and small numpy arrays.

It is the exact algorithm of the pure-Python twin :mod:`hearts.bots.hard.reference`,
with the same random stream (:mod:`hearts.bots.hard.splitmix`): for the same seed
both give the same results, bit for bit.  Cards fit in 52 bits, so every mask is
a non-negative int64.  The parts: :mod:`.jit` (compiler switch, random stream,
masks), :mod:`.sampler` (the draw of a deal), :mod:`.policy` (the playout policy),
:mod:`.looks` (the look ahead), :mod:`.batches` (the searches' batches of
playouts); this module calls them from Python.

Compiled code is cached on disk (``cache=True``).  Numba writes the cache next
to these files, or, where that is read-only, under ``NUMBA_CACHE_DIR`` or the
user's cache directory; where none can be written it compiles in memory on
every start (:func:`.jit._jit`).  :func:`hearts.bots.hard.warm_up` compiles (or
loads) everything, so the server calls it when a worker starts.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hearts.bots.hard.kernel.batches import (
    _pass_batch,
    _play_batch,
    _unlike,
    likeness,
    quick_pass,
)
from hearts.bots.hard.kernel.jit import _QS_BIT, _jit, _signed, _world_state
from hearts.bots.hard.kernel.looks import _hide, _look, _look_scratch, _mix, rollout_look
from hearts.bots.hard.kernel.policy import _choose, _runner, _trick_now, rollout
from hearts.bots.hard.kernel.sampler import draw
from hearts.bots.hard.position import Judge, Passing, Position
from hearts.bots.hard.reference import SWITCHES
from hearts.bots.hard.sampling import DealTables

__all__ = [
    "_hide",
    "_look",
    "_runner",
    "draw",
    "draw_deal",
    "hide_cards",
    "likeness",
    "look_card",
    "mix_cards",
    "pass_batch",
    "play_batch",
    "play_out",
    "quick_pass",
    "rollout",
    "rollout_look",
    "unlike",
]


def _seed64(seed: int) -> int:
    return _signed(seed & ((1 << 64) - 1))


def play_batch(
    t: DealTables,
    seed: int,
    w0: int,
    w1: int,
    cands: list[int],
    alive: list[int],
    pos: Position,
    judge: Judge,
    sums: Any,
    points: Any,
    mass: Any,
    lookahead: int = 0,
    lookahead_others: int = 0,
    hide: int = 0,
) -> None:
    """:func:`hearts.bots.hard.reference.play_batch`, compiled; ``sums``, ``points``
    and ``mass`` are float64 arrays.  ``lookahead``: in each playout Khó's next
    this many turns are chosen by :func:`_look` (plain playouts of each of its
    cards) instead of the policy; ``lookahead_others`` the same for the other
    seats (0 and 0: the reference's playouts, bit for bit); ``hide``: each look
    plays its cards out in a deal where the others' cards of each suit are dealt
    again among them (:func:`_hide`)."""
    _play_batch(
        t,
        _seed64(seed),
        w0,
        w1,
        np.array(cands, dtype=np.int64),
        np.array(alive, dtype=np.int64),
        pos.me,
        np.array(pos.trick, dtype=np.int64),
        pos.leader,
        pos.played,
        pos.broken,
        np.array(pos.pen, dtype=np.int64),
        pos.jd,
        pos.qs_breaks,
        pos.lead_card,
        pos.voids,
        judge.near,
        np.array(judge.totals, dtype=np.int64),
        judge.target,
        judge.moon,
        judge.jd_bonus,
        float(judge.shoot),
        np.array([s for s, _ in pos.history], dtype=np.int64),
        np.array([c for _, c in pos.history], dtype=np.int64),
        float(pos.mismatch),
        lookahead,
        lookahead_others,
        hide,
        np.array(pos.seat_voids or (0,) * len(pos.pen), dtype=np.int64),
        sums,
        points,
        mass,
    )


def pass_batch(
    t: DealTables,
    seed: int,
    w0: int,
    w1: int,
    cands: list[int],
    alive: list[int],
    passing: Passing,
    judge: Judge,
    sums: Any,
    points: Any,
) -> None:
    """:func:`hearts.bots.hard.reference.pass_batch`, compiled; ``sums`` and ``points``
    are float64 arrays."""
    _pass_batch(
        t,
        _seed64(seed),
        w0,
        w1,
        np.array(cands, dtype=np.int64),
        np.array(alive, dtype=np.int64),
        passing.me,
        passing.offset,
        passing.cards,
        passing.jd_bonus,
        passing.qs_breaks,
        passing.lead_card,
        passing.voids,
        judge.near,
        np.array(judge.totals, dtype=np.int64),
        judge.target,
        judge.moon,
        judge.jd_bonus,
        sums,
        points,
    )


def unlike(t: DealTables, seed: int, w0: int, w1: int, pos: Position) -> float:
    """:func:`hearts.bots.hard.reference.unlike`, compiled."""
    return float(
        _unlike(
            t,
            _seed64(seed),
            w0,
            w1,
            pos.me,
            np.array([s for s, _ in pos.history], dtype=np.int64),
            np.array([c for _, c in pos.history], dtype=np.int64),
            pos.qs_breaks,
            pos.lead_card,
            pos.voids & SWITCHES,
        )
    )


def draw_deal(t: DealTables, seed: int, world: int) -> list[int]:
    """Deal number ``world`` of a search seeded ``seed`` (as the search draws it)."""
    n = t.part_fixed.shape[1]
    hands = np.zeros(n, np.int64)
    draw(t, _world_state(_seed64(seed), world), hands, np.zeros(64, np.int64))
    return [int(h) for h in hands]


def play_out(
    hands: list[int],
    trick: list[int],
    leader: int,
    played: int,
    broken: bool,
    pen: list[int],
    jd: int,
    qs_breaks: bool,
    lead_card: int,
    voids: int = 0,
) -> tuple[list[int], list[int], int]:
    """:func:`rollout` on lists (for tests): (hands after, pen after, J♦ taker)."""
    n = len(hands)
    h = np.array(hands, dtype=np.int64)
    t = np.zeros(n, np.int64)
    t[: len(trick)] = trick
    p = np.array(pen, dtype=np.int64)
    out = rollout(h, t, len(trick), leader, played, broken, p, jd, qs_breaks, lead_card, voids)
    return [int(x) for x in h], [int(x) for x in p], int(out)


@_jit
def _look_from(
    hands: Any,
    trick: Any,
    tlen: int,
    leader: int,
    played: int,
    broken: bool,
    pen: Any,
    jd: int,
    qs_breaks: bool,
    lead_card: int,
    voids: int,
    near: bool,
    totals: Any,
    target: int,
    moon: int,
    jd_bonus: bool,
) -> tuple[int, int]:
    n = hands.shape[0]
    alive = 0
    for s in range(n):
        alive |= hands[s]
    led, top, win, tp = _trick_now(trick, tlen, leader, n)
    seat = (leader + tlen) % n
    policy = _choose(
        hands[seat], alive, seat, tlen, led, top, win, tp, played, broken, _runner(pen, voids),
        (alive & _QS_BIT) != 0, voids, n, lead_card,
    )  # fmt: skip
    h2, p2, t2, pts, after, rs, h3, cb, sv, ow, kn = _look_scratch(n)
    pick = _look(
        hands, trick, seat, tlen, led, top, played, broken, pen, jd, qs_breaks, lead_card,
        voids, policy, 0.0, near, totals, target, moon, jd_bonus, h2, p2, t2, pts, after,
        0, rs, h3, cb, sv, ow, kn,
    )  # fmt: skip
    return policy, pick


def hide_cards(hands: list[int], seat: int, state: int) -> tuple[list[int], int]:
    """For tests: :func:`_hide` on a copy of ``hands`` (the hands after, the new state)."""
    h = np.array(hands, dtype=np.int64)
    out = _hide(h, seat, _seed64(state), np.zeros(16, np.int64))
    return [int(x) for x in h], int(out) & ((1 << 64) - 1)


def mix_cards(hands: list[int], seat: int, sv: list[int], state: int) -> tuple[list[int], int]:
    """For tests: :func:`_mix` on a copy of ``hands`` (the hands after, the new state)."""
    h = np.array(hands, dtype=np.int64)
    z = np.zeros(64, np.int64)
    out = _mix(h, seat, np.array(sv, dtype=np.int64), _seed64(state), z, z.copy())
    return [int(x) for x in h], int(out) & ((1 << 64) - 1)


def look_card(
    hands: list[int],
    trick: list[int],
    leader: int,
    played: int,
    broken: bool,
    pen: list[int],
    jd: int,
    qs_breaks: bool,
    lead_card: int,
    voids: int,
    judge: Judge,
) -> tuple[int, int]:
    """For tests: (the policy's card, :func:`_look`'s card) for the seat to play."""
    n = len(hands)
    t = np.zeros(n, np.int64)
    t[: len(trick)] = trick
    policy, pick = _look_from(
        np.array(hands, dtype=np.int64), t, len(trick), leader, played, broken,
        np.array(pen, dtype=np.int64), jd, qs_breaks, lead_card, voids, judge.near,
        np.array(judge.totals, dtype=np.int64), judge.target, judge.moon, judge.jd_bonus,
    )  # fmt: skip
    return int(policy), int(pick)
