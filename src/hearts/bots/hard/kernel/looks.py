"""Khó's compiled kernel: the look ahead (each legal card played out by the
policy, the best kept), with the others' cards hidden or mixed, and a playout
that looks ahead (:mod:`hearts.bots.hard.reference.looks`, bit for bit)."""

from __future__ import annotations

from typing import Any

import numpy as np

from hearts.bots.hard.kernel.jit import (
    _JD,
    _NO_POINTS,
    _NOT_HEARTS,
    _QS,
    _QS_BIT,
    _STAKES,
    _jit,
    _jit_inline,
    _low,
    _next,
    _pop,
    _shuffle,
)
from hearts.bots.hard.kernel.policy import _after_card, _choose, _playout_start, _runner, rollout
from hearts.bots.hard.kernel.value import _value
from hearts.bots.hard.reference import MAX_DEALS, MIX_SWAPS


@_jit
def _hide(hands: Any, seat: int, state: int, cb: Any) -> int:
    """Deal the cards of each suit that the seats other than ``seat`` hold again
    among them, each seat keeping its number of cards of the suit (a uniform
    shuffle per suit, ranks ascending first); the generator's new state."""
    n = hands.shape[0]
    for k in range(4):
        suit = 0x1FFF << (13 * k)
        pool = 0
        for s in range(n):
            if s != seat:
                pool |= hands[s] & suit
        size = 0
        while pool:
            cb[size] = _low(pool)
            pool &= pool - 1
            size += 1
        if size < 2:
            continue
        state = _shuffle(cb, size, state)
        at = 0
        for s in range(n):
            if s == seat:
                continue
            m = _pop(hands[s] & suit)
            h = hands[s] & ~suit
            for _ in range(m):
                h |= 1 << cb[at]
                at += 1
            hands[s] = h
    return state


@_jit
def _mix(hands: Any, seat: int, sv: Any, state: int, cb: Any, ow: Any) -> int:
    """:func:`hearts.bots.hard.reference.mix`: the generator's new state."""
    n = hands.shape[0]
    m = 0
    for s in range(n):
        if s == seat:
            continue
        h = hands[s]
        while h:
            cb[m] = _low(h)
            ow[m] = s
            h &= h - 1
            m += 1
    if m < 2:
        return state
    for _ in range(MIX_SWAPS * m):
        state, x = _next(state)
        i = (((x >> 32) & 0xFFFFFFFF) * m) >> 32
        j = ((x & 0xFFFFFFFF) * m) >> 32
        a = ow[i]
        b = ow[j]
        if a != b and not (sv[b] >> (cb[i] // 13)) & 1 and not (sv[a] >> (cb[j] // 13)) & 1:
            ow[i] = b
            ow[j] = a
    for s in range(n):
        if s != seat:
            hands[s] = 0
    for k in range(m):
        hands[ow[k]] |= 1 << cb[k]
    return state


@_jit_inline
def _hides(hide: int, mine: bool) -> int:
    """:func:`hearts.bots.hard.reference.hides`."""
    more = hide // 10
    hide = hide % 10
    how = 0
    if hide == 4:
        how = 0 if mine else 4
    elif hide == 1 or (hide == 2 and not mine) or (hide == 3 and mine):
        how = 1
    return how + 10 * more if how else 0


@_jit
def _look_scratch(n: int) -> Any:
    """The scratch arrays of :func:`_look` and :func:`rollout_look` for ``n``
    seats: ``h2, p2, t2, pts, after`` (a look's playout and its value), ``rs`` (the
    hiding generator's state), ``h3`` (the deals a look hides in), ``cb``, ``sv``,
    ``ow`` (the hiding's cards, voids shown and owners), ``kn`` (what the policy
    alone makes of the hand from the playout's position: :func:`_look`)."""
    return (
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros(1, np.int64),
        np.zeros(MAX_DEALS * n, np.int64),
        np.zeros(64, np.int64),
        np.zeros(n, np.int64),
        np.zeros(64, np.int64),
        np.zeros(2 * n + 4, np.int64),
    )


@_jit_inline
def _legal(h: int, pos: int, led: int, played: int, broken: bool, n: int) -> int:
    """The cards of ``h`` legal to play to the trick (not the hand's first lead)."""
    if pos == 0:
        if not broken and h & _NOT_HEARTS:
            return h & _NOT_HEARTS
        return h
    legal = h & (0x1FFF << (13 * led))
    if not legal:
        legal = h
        if played < n and h & _NO_POINTS:
            legal = h & _NO_POINTS
    return legal


@_jit_inline
def _split(hands: Any, seat: int, trick: Any, pos: int) -> int:
    """Cards that tell two of the seat's cards apart: the others' and the trick's."""
    alive = 0
    for s in range(hands.shape[0]):
        alive |= hands[s]
    split: int = alive & ~hands[seat]
    for i in range(pos):
        split |= 1 << trick[i]
    return split


@_jit_inline
def _look_deals(
    hands: Any, seat: int, hide: int, rs: Any, h3: Any, cb: Any, sv: Any, ow: Any
) -> int:
    """How many deals a hiding look plays its cards out in, dealt into ``h3``."""
    n = hands.shape[0]
    deals = hide // 10 + 1
    for r in range(deals):
        seen = h3[r * n : (r + 1) * n]
        for s in range(n):
            seen[s] = hands[s]
        if hide % 10 == 4:
            rs[0] = _mix(seen, seat, sv, rs[0], cb, ow)
        else:
            rs[0] = _hide(seen, seat, rs[0], cb)
    return deals


@_jit_inline
def _weighed(policy: int, rest: int, prev: int, split: int, stop: int) -> tuple[int, int, int]:
    """The next card of ``rest`` a look weighs (-1: none left), then ``rest`` and ``prev``."""
    while rest:
        c = _low(rest)
        rest &= rest - 1
        if (
            prev >= 0
            and c // 13 == prev // 13
            and c != _QS
            and prev != _QS
            and c != _JD
            and prev != _JD
            and not split & ((1 << c) - (2 << prev))
        ):
            prev = c
            continue
        prev = c
        # the policy's card stands for its run of equal cards
        lo = c
        hi = c
        while lo % 13 and not (stop >> (lo - 1)) & 1:
            lo -= 1
        while hi % 13 < 12 and not (stop >> (hi + 1)) & 1:
            hi += 1
        if policy != _QS and policy != _JD and c != _QS and c != _JD and lo <= policy <= hi:
            continue
        return c, rest, prev
    return -1, rest, prev


# 30 arguments at most: CPython passes more as *args, which numba does not inline
@_jit_inline
def _look_best(
    hands: Any, trick: Any, seat: int, pos: int, led: int, played: int, broken: bool, pen: Any,
    jd: int, qs_breaks: bool, lead_card: int, voids: int, policy: int, shoot: float, near: bool,
    totals: Any, target: int, moon: int, jd_bonus: bool, h2: Any, p2: Any, t2: Any, pts: Any,
    after: Any, hide: int, h3: Any, kn: Any, deals: int, legal: int, split: int,
) -> int:  # fmt: skip
    """The best for ``seat`` of the ``legal`` cards a look weighs (:func:`_weighed`)."""
    n = hands.shape[0]
    h = hands[seat]
    # the policy's play on (kn) holds for face-up looks only
    keep = hide == 0
    known = keep and kn[0] == 1
    stop = split | ~h | _QS_BIT | (1 << _JD)
    leader = (seat - pos) % n
    best = -1e300
    pick = policy
    prev = -2
    rest = legal
    c = policy
    first = True
    while c >= 0:
        v = 0.0
        jd2 = -1
        if first and known:
            # the policy's card, then the policy: already played out (kn)
            jd2 = kn[1]
            for s in range(n):
                p2[s] = kn[2 + s]
            v, _ = _value(p2, jd2, seat, near, totals, target, moon, jd_bonus, shoot, pts, after)
        else:
            # played out here, not in an inlined part: each array passed costs a refcount
            v2 = voids | (1 << led) if pos and c // 13 != led else voids
            now_broken = broken or c >= 39 or (qs_breaks and c == _QS)
            for r in range(deals):
                seen = h3[r * n : (r + 1) * n] if hide else hands
                for s in range(n):
                    h2[s] = seen[s]
                    p2[s] = pen[s]
                for i in range(pos):
                    t2[i] = trick[i]
                h2[seat] = h & ~(1 << c)
                t2[pos] = c
                jd2 = rollout(
                    h2, t2, pos + 1, leader, played + 1, now_broken, p2, jd, qs_breaks, lead_card,
                    v2,
                )  # fmt: skip
                vr, _ = _value(
                    p2, jd2, seat, near, totals, target, moon, jd_bonus, shoot, pts, after
                )
                v += vr
        if first or v > best:
            best = v
            pick = c
            if keep:
                kn[n + 3] = jd2
                for s in range(n):
                    kn[n + 4 + s] = p2[s]
        first = False
        c, rest, prev = _weighed(policy, rest, prev, split, stop)
    return pick


@_jit
def _look(
    hands: Any, trick: Any, seat: int, pos: int, led: int, top: int, played: int, broken: bool,
    pen: Any, jd: int, qs_breaks: bool, lead_card: int, voids: int, policy: int, shoot: float,
    near: bool, totals: Any, target: int, moon: int, jd_bonus: bool, h2: Any, p2: Any, t2: Any,
    pts: Any, after: Any, hide: int, rs: Any, h3: Any, cb: Any, sv: Any, ow: Any, kn: Any,
) -> int:  # fmt: skip
    """The card ``seat`` plays in a playout with a look ahead: each of its legal
    cards (one of each run of equal cards) played out by the plain policy from this
    position (the playout's deal, face up), the best for the seat by the search's
    value (:func:`_value`, ``shoot`` for Khó's own seat); ties keep ``policy``'s card.
    With ``hide``, the others' cards of each suit are first dealt again among them
    (each keeping its number of the suit; the generator's state in ``rs[0]``), so
    that the seat does not play on where the others' cards lie (:func:`_hide`);
    ``hide`` 4: the others' cards are mixed across suits by :func:`_mix`, the
    voids they have shown (``sv``, per seat) kept.

    ``kn`` carries the policy's own play of the hand on from a face-up look to the
    next: a face-up look to the hand's end leaves in it (``kn[0]`` = 1) the taker
    of J♦ (``kn[1]``) and the points taken (``kn[2:2 + n]``) when the card it picks
    is followed by the policy to the end, which is the playout's way on until the
    next look picks a card.  So the next face-up look takes its first candidate's
    result (the policy's card) from there instead of playing it out again: the
    same value, one playout fewer a look.  A hidden look clears it."""
    n = hands.shape[0]
    h = hands[seat]
    if pos == 0 and played == 0:
        return policy
    legal = _legal(h, pos, led, played, broken, n)
    if legal & (legal - 1) == 0:
        return policy
    # face up: the playout's own deal, not copied; hiding: ``deals`` deals in h3
    deals = _look_deals(hands, seat, hide, rs, h3, cb, sv, ow) if hide else 1
    pick = _look_best(
        hands, trick, seat, pos, led, played, broken, pen, jd, qs_breaks, lead_card, voids,
        policy, shoot, near, totals, target, moon, jd_bonus, h2, p2, t2, pts, after, hide, h3,
        kn, deals, legal, _split(hands, seat, trick, pos),
    )  # fmt: skip
    keep = hide == 0
    kn[0] = 1 if keep else 0
    if keep:
        for s in range(1, n + 2):
            kn[s] = kn[n + 2 + s]
    return pick


@_jit
def rollout_look(
    hands: Any, trick: Any, tlen: int, leader: int, played: int, broken: bool, pen: Any, jd: int,
    qs_breaks: bool, lead_card: int, voids: int, me: int, looks: Any, shoot: float, near: bool,
    totals: Any, target: int, moon: int, jd_bonus: bool, h2: Any, p2: Any, t2: Any, pts: Any,
    after: Any, hide: int, rs: Any, h3: Any, cb: Any, sv: Any, ow: Any, kn: Any,
) -> int:  # fmt: skip
    """:func:`rollout` where a seat with ``looks[seat]`` left picks its card by
    :func:`_look` instead of the policy (one fewer look each time); ``looks``
    changes in place (and ``rs[0]``, the generator of ``hide``, and ``sv``, the
    suits each seat has shown it lacks).  ``kn``: scratch of
    :func:`_look` (the policy's play on, known from the first face-up look)."""
    n = hands.shape[0]
    kn[0] = 0
    seat, pos, alive, qs_live, led, top, win, tp, jd, runner = _playout_start(
        hands, trick, tlen, leader, pen, jd, voids
    )
    while True:
        h = hands[seat]
        if not h:
            return jd
        c = _choose(
            h, alive, seat, pos, led, top, win, tp, played, broken, runner, qs_live, voids, n,
            lead_card,
        )  # fmt: skip
        if looks[seat] > 0:
            looks[seat] -= 1
            own = shoot if seat == me else 0.0
            how = _hides(hide, seat == me)
            c = _look(
                hands, trick, seat, pos, led, top, played, broken, pen, jd, qs_breaks,
                lead_card, voids, c, own, near, totals, target, moon,
                jd_bonus, h2, p2, t2, pts, after, how, rs, h3, cb, sv, ow, kn,
            )  # fmt: skip
        if pos and c // 13 != led:
            sv[seat] |= 1 << led
        bit = 1 << c
        hands[seat] = h & ~bit
        alive &= ~bit
        played += 1
        led, top, win, tp, voids, broken, qs_live = _after_card(
            c, seat, pos, led, top, win, tp, voids, broken, qs_live, qs_breaks
        )
        trick[pos] = c
        pos += 1
        if pos == n:
            if tp:
                pen[win] += tp
                runner = _runner(pen, voids)
            for i in range(n):
                if trick[i] == _JD:
                    jd = win
            if not alive & _STAKES:
                return jd
            pos = 0
            seat = win
        else:
            seat = (seat + 1) % n
