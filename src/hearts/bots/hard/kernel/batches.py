"""Khó's compiled kernel: the batches of playouts the play and pass searches
ask for, the value of a finished hand, and how far the others' plays are
unlike the policy's (:mod:`hearts.bots.hard.reference.batches`, bit for bit)."""

from __future__ import annotations

from typing import Any

import numpy as np

from hearts.bots.hard.kernel.jit import (
    _HIDE_SALT,
    _JD,
    _LOW_SPADES,
    _QS,
    _QS_BIT,
    _jit,
    _jit_inline,
    _low,
    _pop,
    _world_state,
)
from hearts.bots.hard.kernel.looks import _look_scratch, rollout_look
from hearts.bots.hard.kernel.policy import _choose, _runner, rollout
from hearts.bots.hard.kernel.sampler import _deal_scratch, draw
from hearts.bots.hard.kernel.value import _value, _value0
from hearts.bots.hard.reference import SWITCHES


@_jit_inline
def _kind(c: int, pos: int, led: int, top: int) -> int:
    """:func:`hearts.bots.hard.reference.kind`."""
    if pos == 0:
        return c // 13
    if c // 13 == led:
        return 100 + (1 if c > top else 0) + (10 if c == _QS else 0)
    return 200 + 2 * (c // 13) + (1 if c == _QS or c == 37 or c == 38 or c >= 48 else 0)


@_jit
def likeness(
    world: Any,
    hist_seat: Any,
    hist_card: Any,
    me: int,
    mismatch: float,
    qs_breaks: bool,
    lead_card: int,
    hands: Any,
    pen: Any,
    flags: int = 0,
) -> float:
    """:func:`hearts.bots.hard.reference.likeness`: the deal's weight, ``mismatch`` to
    the power of the others' plays so far not of the kind the playout policy would
    have played holding that deal's hands (``hands``, ``pen``: scratch arrays;
    ``flags``: the policy's switches, :data:`~hearts.bots.hard.reference.SWITCHES`)."""
    n = world.shape[0]
    for s in range(n):
        hands[s] = world[s]
        pen[s] = 0
    steps = hist_seat.shape[0]
    for t in range(steps):
        hands[hist_seat[t]] |= 1 << hist_card[t]
    alive = 0
    for s in range(n):
        alive |= hands[s]
    pos = 0
    led = 0
    top = 0
    win = 0
    tp = 0
    broken = False
    voids = flags
    runner = _runner(pen, voids)  # a suspect (``SUSPECT``) runs from the start, as in rollout
    wt = 1.0
    for t in range(steps):
        seat = hist_seat[t]
        c = hist_card[t]
        h = hands[seat]
        if seat != me:
            qs_live = (alive & _QS_BIT) != 0
            want = _choose(
                h, alive, seat, pos, led, top, win, tp, t, broken, runner, qs_live, voids, n,
                lead_card,
            )  # fmt: skip
            if _kind(want, pos, led, top) != _kind(c, pos, led, top):
                wt *= mismatch
        bit = 1 << c
        hands[seat] = h & ~bit
        alive &= ~bit
        if pos == 0:
            led = c // 13
            top = c
            win = seat
            tp = 0
        elif c // 13 == led:
            if c > top:
                top = c
                win = seat
        else:
            voids |= 1 << led
        if c >= 39:
            tp += 1
            broken = True
        elif c == _QS:
            tp += 13
            if qs_breaks:
                broken = True
        pos += 1
        if pos == n:
            if tp:
                pen[win] += tp
                runner = _runner(pen, voids)
            pos = 0
    return wt


@_jit
def _unlike(
    t: Any,
    seed: int,
    w0: int,
    w1: int,
    me: int,
    hist_seat: Any,
    hist_card: Any,
    qs_breaks: bool,
    lead_card: int,
    flags: int,
) -> float:
    n = t.part_fixed.shape[1]
    world, hands, pen, _, buf = _deal_scratch(n)
    total = 0
    for w in range(w0, w1):
        draw(t, _world_state(seed, w), world, buf)
        wt = likeness(world, hist_seat, hist_card, me, 0.5, qs_breaks, lead_card, hands, pen, flags)
        total += round(-np.log2(wt))
    return total / (w1 - w0)


@_jit_inline
def _start_looks(
    looks: Any, look_me: int, look_others: int, me: int, hide: int, rs: Any, seed: int, w: int,
    sv: Any, sv0: Any, trick0: Any, card: int,
) -> None:  # fmt: skip
    """Each seat's looks for a playout of ``card``, and with ``hide`` the generator and voids."""
    n = looks.shape[0]
    for s in range(n):
        looks[s] = look_me if s == me else look_others
    if hide:
        rs[0] = _world_state(seed ^ _HIDE_SALT, w)
        for s in range(n):
            sv[s] = sv0[s]
        if trick0.shape[0] and card // 13 != trick0[0] // 13:
            sv[me] |= 1 << (trick0[0] // 13)


@_jit
def _play_batch(
    t: Any, seed: int, w0: int, w1: int, cands: Any, alive: Any, me: int, trick0: Any,
    leader: int, played: int, broken: bool, pen0: Any, jd0: int, qs_breaks: bool, lead_card: int,
    voids: int, near: bool, totals: Any, target: int, moon: int, jd_bonus: bool, shoot: float,
    hist_seat: Any, hist_card: Any, mismatch: float, look_me: int, look_others: int, hide: int,
    sv0: Any, sums: Any, points: Any, mass: Any,
) -> None:  # fmt: skip
    """:func:`hearts.bots.hard.reference.play_batch`, compiled (on arrays)."""
    n = pen0.shape[0]
    looks = np.zeros(n, np.int64)
    h2, p2, t2, pts, after, rs, h3, cb, sv, ow, kn = _look_scratch(n)
    world, hands, pen, trick, buf = _deal_scratch(n)
    tlen = trick0.shape[0]
    for w in range(w0, w1):
        draw(t, _world_state(seed, w), world, buf)
        wt = 1.0
        if mismatch != 1.0:
            wt = likeness(
                world, hist_seat, hist_card, me, mismatch, qs_breaks, lead_card, hands, pen,
                voids & SWITCHES,
            )  # fmt: skip
        for a in range(alive.shape[0]):
            i = alive[a]
            card = cands[i]
            # the deal set here, not in an inlined part: each array passed costs a refcount
            for s in range(n):
                hands[s] = world[s]
                pen[s] = pen0[s]
            hands[me] &= ~(1 << card)
            for k in range(tlen):
                trick[k] = trick0[k]
            trick[tlen] = card
            now_broken = broken or card >= 39 or (qs_breaks and card == _QS)
            if look_me or look_others:
                _start_looks(
                    looks, look_me, look_others, me, hide, rs, seed, w, sv, sv0, trick0, card
                )
                jd = rollout_look(
                    hands, trick, tlen + 1, leader, played + 1, now_broken, pen, jd0, qs_breaks,
                    lead_card, voids, me, looks, shoot, near, totals, target, moon, jd_bonus,
                    h2, p2, t2, pts, after, hide, rs, h3, cb, sv, ow, kn,
                )  # fmt: skip
            else:
                jd = rollout(
                    hands, trick, tlen + 1, leader, played + 1, now_broken, pen, jd0, qs_breaks,
                    lead_card, voids,
                )  # fmt: skip
            v, mine = _value(pen, jd, me, near, totals, target, moon, jd_bonus, shoot, pts, after)
            sums[i] += wt * v
            points[i] += wt * mine
            mass[i] += wt


@_jit
def quick_pass(hand: int, count: int, jd_bonus: bool) -> int:
    """:func:`hearts.bots.hard.reference.quick_pass`: the ``count`` cards of highest
    :func:`~hearts.bots.hard.reference.pass_scores` (ties: the higher card), as a mask."""
    low_spades = _pop(hand & _LOW_SPADES)
    has_qs = (hand & _QS_BIT) != 0
    out = 0
    for _ in range(count):
        best = -(1 << 30)
        pick = -1
        rest = hand & ~out
        while rest:
            c = _low(rest)
            rest &= rest - 1
            suit = c // 13
            rank = c % 13
            if jd_bonus and c == _JD:
                v = -100
            elif suit == 2:
                if c == _QS:
                    v = 100 if low_spades < 4 else 20
                elif rank > 10:
                    v = (85 if has_qs else 90) if low_spades < 4 else 25
                else:
                    v = rank - 5
            elif suit == 3:
                v = 40 + 3 * rank if rank >= 8 else 2 * rank
            else:
                length = _pop(hand & (0x1FFF << (13 * suit)))
                v = 3 * rank + (18 if length <= 3 else 0) - 2 * length
            if v >= best:
                best = v
                pick = c
        if pick < 0:
            break
        out |= 1 << pick
    return out


@_jit
def _pass_batch(
    t: Any,
    seed: int,
    w0: int,
    w1: int,
    cands: Any,
    alive: Any,
    me: int,
    offset: int,
    count: int,
    jd_rule: bool,
    qs_breaks: bool,
    lead_card: int,
    voids: int,
    near: bool,
    totals: Any,
    target: int,
    moon: int,
    jd_bonus: bool,
    sums: Any,
    points: Any,
) -> None:
    n = totals.shape[0]
    pts = np.zeros(n, np.int64)
    after = np.zeros(n, np.int64)
    world, hands, pen, trick, buf = _deal_scratch(n)
    passes = np.zeros(n, np.int64)
    lead_bit = 1 << lead_card
    for w in range(w0, w1):
        draw(t, _world_state(seed, w), world, buf)
        for s in range(n):
            passes[s] = 0 if s == me else quick_pass(world[s], count, jd_rule)
        for a in range(alive.shape[0]):
            i = alive[a]
            passes[me] = cands[i]
            leader = 0
            for s in range(n):
                hands[s] = (world[s] & ~passes[s]) | passes[(s - offset) % n]
                pen[s] = 0
            for s in range(n - 1, -1, -1):
                if hands[s] & lead_bit:
                    leader = s
            jd = rollout(hands, trick, 0, leader, 0, False, pen, -1, qs_breaks, lead_card, voids)
            v, mine = _value0(pen, jd, me, near, totals, target, moon, jd_bonus, pts, after)
            sums[i] += v
            points[i] += mine
