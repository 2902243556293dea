"""Khó's search kernel compiled to machine code with numba: deal draws, playouts,
the value of a finished hand, over int masks and small numpy arrays.

It is the exact algorithm of :mod:`hearts.bots.kernel_ref` (the draw and the
value) and :func:`hearts.bots.playout.rollout` (the policy), with the same
random stream (:mod:`hearts.bots.splitmix`, here in wrapping int64 arithmetic
with logical shifts): for the same seed both give the same results, bit for
bit.  Cards fit in 52 bits, so every mask is a non-negative int64.

Compiled code is cached on disk (``cache=True``).  Numba writes the cache next
to this file, or, where that is read-only, under ``NUMBA_CACHE_DIR`` or the
user's cache directory; where none can be written it compiles in memory on
every start (:func:`_jit`).  :func:`warm_up` compiles (or loads) everything, so
the server calls it when a worker starts, not on a player's card.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

from hearts.bots.kernel_ref import MAX_DEALS, MIX_SWAPS, Judge, Passing, Position
from hearts.bots.playout import QUEEN_RUNS
from hearts.bots.sampling import DealTables
from hearts.bots.splitmix import GOLDEN, HIDE_SALT, MIX1, MIX2

F = TypeVar("F", bound=Callable[..., Any])


def _jit(fn: F) -> F:
    """``numba.njit(cache=True)``, or without the disk cache when no cache
    directory can be written (numba refuses ``cache=True`` then)."""
    try:
        return cast(F, numba.njit(cache=True)(fn))
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return cast(F, numba.njit(cache=False)(fn))


def _jit_inline(fn: F) -> F:
    """:func:`_jit`, the body inlined where it is called (the playouts' hot loop)."""
    try:
        return cast(F, numba.njit(cache=True, inline="always")(fn))
    except RuntimeError:
        return cast(F, numba.njit(cache=False, inline="always")(fn))


def _signed(x: int) -> int:
    return x - (1 << 64) if x >= 1 << 63 else x


_GOLDEN = _signed(GOLDEN)
_MIX1 = _signed(MIX1)
_MIX2 = _signed(MIX2)
_LOW30 = (1 << 34) - 1  # logical shifts of a 64-bit pattern held in an int64
_LOW27 = (1 << 37) - 1
_LOW31 = (1 << 33) - 1
_LOW11 = (1 << 53) - 1
_HIDE_SALT = _signed(HIDE_SALT)

_QS = 36
_QS_BIT = 1 << _QS
_JD = 22
_HEARTS = 0x1FFF << 39
_NOT_HEARTS = ~_HEARTS
_HIGH_SPADES = (1 << 37) | (1 << 38)
_NO_POINTS = ~(_HEARTS | _QS_BIT)
_LOW_SPADES = 0x3FF << 26
_POINTS = _HEARTS | _QS_BIT
_STAKES = _HEARTS | _QS_BIT | (1 << _JD)
_VOID_RISK = 6
_FLUSH = 6
_HEART_DUMP = 4


@_jit
def _next(state: int) -> tuple[int, int]:
    state = state + _GOLDEN
    z = state
    z = (z ^ ((z >> 30) & _LOW30)) * _MIX1
    z = (z ^ ((z >> 27) & _LOW27)) * _MIX2
    return state, z ^ ((z >> 31) & _LOW31)


@_jit
def _unit(x: int) -> float:
    return ((x >> 11) & _LOW11) * (1.0 / 9007199254740992.0)


@_jit
def _world_state(seed: int, world: int) -> int:
    return seed ^ ((world + 1) * _MIX2)


@_jit
def _bitlen(x: int) -> int:
    n = 0
    if x >> 32:
        x >>= 32
        n += 32
    if x >> 16:
        x >>= 16
        n += 16
    if x >> 8:
        x >>= 8
        n += 8
    if x >> 4:
        x >>= 4
        n += 4
    if x >> 2:
        x >>= 2
        n += 2
    if x >> 1:
        x >>= 1
        n += 1
    return n + x


@_jit
def _pop(x: int) -> int:
    k = 0
    while x:
        x &= x - 1
        k += 1
    return k


@_jit
def _low(x: int) -> int:
    return _bitlen(x & -x) - 1


@_jit_inline
def _shuffle(buf: Any, size: int, state: int) -> int:
    """Fisher-Yates over ``buf[:size]`` (from the top down, as the reference's
    draws); the generator's new state."""
    for i in range(size - 1, 0, -1):
        state, x = _next(state)
        r = (((x >> 11) & _LOW11) * (i + 1)) >> 53
        tmp = buf[i]
        buf[i] = buf[r]
        buf[r] = tmp
    return state


@_jit
def draw(
    others: Any,
    part_cum: Any,
    part_fixed: Any,
    part_root: Any,
    st_class: Any,
    st_first: Any,
    st_count: Any,
    sp_take: Any,
    sp_cum: Any,
    sp_next: Any,
    cl_first: Any,
    cl_len: Any,
    cl_cards: Any,
    state: int,
    hands: Any,
    buf: Any,
) -> int:
    """One deal into ``hands`` (a mask per seat); the generator's new state."""
    p = 0
    parts = part_cum.shape[0]
    if parts > 1:
        state, x = _next(state)
        u = _unit(x) * part_cum[parts - 1]
        while p < parts - 1 and part_cum[p] <= u:
            p += 1
    for s in range(hands.shape[0]):
        hands[s] = part_fixed[p, s]
    st = part_root[p]
    m = others.shape[0]
    while st_class[st] >= 0:
        k = st_class[st]
        first = st_first[st]
        count = st_count[st]
        j = 0
        if count > 1:
            state, x = _next(state)
            u = _unit(x) * sp_cum[first + count - 1]
            while j < count - 1 and sp_cum[first + j] <= u:
                j += 1
        start = cl_first[k]
        size = cl_len[k]
        for i in range(size):
            buf[i] = cl_cards[start + i]
        state = _shuffle(buf, size, state)
        at = 0
        for o in range(m):
            seat = others[o]
            for _ in range(sp_take[first + j, o]):
                hands[seat] |= 1 << buf[at]
                at += 1
        st = sp_next[first + j]
    return state


#: Added to the runner's seat (:func:`_runner`) while it holds Q♠ alone (13 or
#: 14 points, with :data:`QUEEN_RUNS` in ``voids``): the others do not block it yet.
_QUEEN_ALONE = 16


@_jit
def _runner(pen: Any, voids: int) -> int:
    """:func:`hearts.bots.playout._runner`, its two answers in one int: the seat,
    plus :data:`_QUEEN_ALONE` when the others do not block it yet (-1: none)."""
    who = -1
    for s in range(pen.shape[0]):
        if pen[s]:
            if who >= 0:
                return -1
            who = s
    if who < 0:
        return -1
    p = pen[who]
    if p >= 15 or 4 <= p < 13:
        return who
    return who + _QUEEN_ALONE if p >= 13 and voids & QUEEN_RUNS else -1


@_jit_inline
def _choose(
    h: int,
    alive: int,
    seat: int,
    pos: int,
    led: int,
    top: int,
    win: int,
    tp: int,
    played: int,
    broken: bool,
    runner: int,
    qs_live: bool,
    voids: int,
    n: int,
    lead_card: int,
) -> int:
    """The playout policy's card for ``seat`` holding ``h`` (:func:`hearts.bots.playout.rollout`):
    ``alive`` the cards still in hands, the trick so far (``pos`` cards, the suit
    ``led``, its ``top`` card and who ``win``s it, ``tp`` points in it), ``played``
    cards played in the hand, the seat ``runner`` running for the moon (-1; plus
    :data:`_QUEEN_ALONE`: not blocked yet)."""
    c = -1
    chase = runner < _QUEEN_ALONE  # the others block the runner
    if not chase:
        runner -= _QUEEN_ALONE
    if pos == 0:
        if played == 0:
            c = lead_card
        else:
            legal = h
            if not broken and h & _NOT_HEARTS:
                legal = h & _NOT_HEARTS
            others = alive & ~h
            if runner == seat:
                side = legal & _NOT_HEARTS
                c = _bitlen(side if side else legal) - 1
            elif (
                runner >= 0
                and chase
                and legal & _HEARTS
                and not others & _HEARTS & ~((2 << (_bitlen(legal) - 1)) - 1)
            ):
                c = _bitlen(legal) - 1
            else:
                best = 999
                for s in range(4):
                    m = (legal >> (13 * s)) & 0x1FFF
                    if not m:
                        continue
                    r = _low(m)
                    om = (others >> (13 * s)) & 0x1FFF
                    if not om:
                        v = 60 + r
                    else:
                        lower = _pop(om & ((1 << r) - 1))
                        if lower:
                            higher = _pop(om >> r)
                            v = 10 * lower // (lower + higher) + (8 if not higher else 2)
                            if (voids >> s) & 1 and alive & _POINTS:
                                v += _VOID_RISK
                        else:
                            v = 0
                        if s == 3:
                            v += 2 if lower else -1
                        elif s == 2 and qs_live:
                            if r == 10:
                                v += 40
                            elif r > 10:
                                v += 30
                            elif not h & (_QS_BIT | _HIGH_SPADES):
                                v -= _FLUSH
                    if v < best:
                        best = v
                        c = 13 * s + r
    else:
        follow = h & (0x1FFF << (13 * led))
        if follow:
            if runner >= 0 and chase and runner != seat and (tp or led == 3):
                ahead = (seat - runner) % n
                t = _bitlen(follow) - 1
                if t > top and (win == runner or ahead > pos):
                    c = t
                else:
                    below = follow & ((1 << top) - 1)
                    c = _bitlen(below if below else follow) - 1
            elif runner == seat:
                c = _bitlen(follow) - 1
            elif played < n or (pos == n - 1 and tp == 0):
                c = _bitlen(follow) - 1
                if c == _QS and follow != _QS_BIT:
                    c = _bitlen(follow ^ _QS_BIT) - 1
            else:
                below = follow & ((1 << top) - 1)
                if below:
                    c = _bitlen(below) - 1
                elif pos == n - 1:
                    c = _bitlen(follow) - 1
                    if c == _QS and follow != _QS_BIT:
                        c = _bitlen(follow ^ _QS_BIT) - 1
                elif tp == 0 and led != 2 and not (voids >> led) & 1:
                    c = _bitlen(follow) - 1
                else:
                    rest = follow & ~_QS_BIT
                    if led == 2 and qs_live:
                        rest &= ~_HIGH_SPADES
                    if not rest:
                        rest = follow
                    c = _low(rest)
        else:
            legal = h
            if played < n and h & _NO_POINTS:
                legal = h & _NO_POINTS
            safe = legal & _NO_POINTS
            if (
                runner >= 0
                and safe
                and (
                    runner == seat or (chase and (win == runner or ((runner - seat) % n < n - pos)))
                )
            ):
                legal = safe
            if legal & _QS_BIT:
                c = _QS
            elif qs_live and legal & _HIGH_SPADES and _pop(h & _LOW_SPADES) < 3:
                c = _bitlen(legal & _HIGH_SPADES) - 1
            else:
                others = alive & ~h
                best = -999
                for s in range(4):
                    m = (legal >> (13 * s)) & 0x1FFF
                    if not m:
                        continue
                    r = _bitlen(m) - 1
                    om = (others >> (13 * s)) & 0x1FFF
                    if om:
                        lower = _pop(om & ((1 << r) - 1))
                        higher = _pop(om >> r)
                        v = r + 2 * lower - 3 * higher + (8 if lower and not higher else 0)
                    else:
                        v = r - 8
                    if s == 3:
                        v += _HEART_DUMP
                    v -= 2 * _pop(((h >> (13 * s)) & 0x1FFF) & ((1 << r) - 1))
                    if v > best:
                        best = v
                        c = 13 * s + r
    return c


@_jit_inline
def _trick_now(trick: Any, pos: int, leader: int, n: int) -> tuple[int, int, int, int]:
    """The trick so far (``trick[:pos]``, led by ``leader``): the suit led, its top
    card, who wins it and the points in it (zeros, and ``leader``, before a lead)."""
    led = 0
    top = 0
    win = leader if pos else 0
    tp = 0
    if pos:
        led = trick[0] // 13
        top = trick[0]
        for i in range(pos):
            c = trick[i]
            if c // 13 == led and c > top:
                top = c
                win = (leader + i) % n
            if c >= 39:
                tp += 1
            elif c == _QS:
                tp += 13
    return led, top, win, tp


@_jit_inline
def _after_card(
    c: int,
    seat: int,
    pos: int,
    led: int,
    top: int,
    win: int,
    tp: int,
    voids: int,
    broken: bool,
    qs_live: bool,
    qs_breaks: bool,
) -> tuple[int, int, int, int, int, bool, bool]:
    """The trick's suit led, top, winner and points, the voids shown, hearts broken
    and Q♠ still out once ``seat`` has played ``c`` as the trick's ``pos``-th card."""
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
        qs_live = False
        if qs_breaks:
            broken = True
    return led, top, win, tp, voids, broken, qs_live


@_jit
def rollout(
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
) -> int:
    """:func:`hearts.bots.playout.rollout` without noise; ``trick[:tlen]`` is the
    trick in progress (a buffer of n cards); ``hands`` and ``pen`` change in place."""
    n = hands.shape[0]
    pos = tlen
    alive = 0
    for s in range(n):
        alive |= hands[s]
    qs_live = (alive & _QS_BIT) != 0
    led, top, win, tp = _trick_now(trick, pos, leader, n)
    seat = (leader + pos) % n
    if pos == n:
        pen[win] += tp
        for i in range(n):
            if trick[i] == _JD:
                jd = win
        pos = 0
        seat = win
    runner = _runner(pen, voids)
    while True:
        h = hands[seat]
        if not h:
            return jd
        c = _choose(
            h, alive, seat, pos, led, top, win, tp, played, broken, runner, qs_live, voids, n,
            lead_card,
        )  # fmt: skip
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
    """:func:`hearts.bots.kernel_ref.mix`: the generator's new state."""
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
    """:func:`hearts.bots.kernel_ref.hides`."""
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


@_jit
def _look(
    hands: Any,
    trick: Any,
    seat: int,
    pos: int,
    led: int,
    top: int,
    played: int,
    broken: bool,
    pen: Any,
    jd: int,
    qs_breaks: bool,
    lead_card: int,
    voids: int,
    policy: int,
    shoot: float,
    near: bool,
    totals: Any,
    target: int,
    moon: int,
    jd_bonus: bool,
    h2: Any,
    p2: Any,
    t2: Any,
    pts: Any,
    after: Any,
    hide: int,
    rs: Any,
    h3: Any,
    cb: Any,
    sv: Any,
    ow: Any,
    kn: Any,
) -> int:
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
    if pos == 0:
        if played == 0:
            return policy
        legal = h
        if not broken and h & _NOT_HEARTS:
            legal = h & _NOT_HEARTS
    else:
        legal = h & (0x1FFF << (13 * led))
        if not legal:
            legal = h
            if played < n and h & _NO_POINTS:
                legal = h & _NO_POINTS
    if legal & (legal - 1) == 0:
        return policy
    # the policy's play on (kn) holds for face-up looks only
    keep = hide == 0
    known = keep and kn[0] == 1
    # face up: the playout's own deal, not copied; hiding: ``deals`` deals in h3
    deals = 1
    if hide:
        deals = hide // 10 + 1
        for r in range(deals):
            seen = h3[r * n : (r + 1) * n]
            for s in range(n):
                seen[s] = hands[s]
            if hide % 10 == 4:
                rs[0] = _mix(seen, seat, sv, rs[0], cb, ow)
            else:
                rs[0] = _hide(seen, seat, rs[0], cb)
    alive = 0
    for s in range(n):
        alive |= hands[s]
    # Cards that tell two of the seat's cards apart: the others' and the trick's.
    split = alive & ~h
    for i in range(pos):
        split |= 1 << trick[i]
    leader = (seat - pos) % n
    best = -1e300
    pick = policy
    prev = -2
    rest = legal
    first = True
    while True:
        if first:
            c = policy
        else:
            if not rest:
                break
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
            stop = split | ~h | _QS_BIT | (1 << _JD)
            while lo % 13 and not (stop >> (lo - 1)) & 1:
                lo -= 1
            while hi % 13 < 12 and not (stop >> (hi + 1)) & 1:
                hi += 1
            if policy != _QS and policy != _JD and c != _QS and c != _JD and lo <= policy <= hi:
                continue
        v = 0.0
        jd2 = -1
        if first and known:
            # the policy's card, then the policy: already played out (kn)
            jd2 = kn[1]
            for s in range(n):
                p2[s] = kn[2 + s]
            v, _ = _value(p2, jd2, seat, near, totals, target, moon, jd_bonus, shoot, pts, after)
        else:
            for r in range(deals):
                seen = h3[r * n : (r + 1) * n] if hide else hands
                for s in range(n):
                    h2[s] = seen[s]
                    p2[s] = pen[s]
                for i in range(pos):
                    t2[i] = trick[i]
                bit = 1 << c
                h2[seat] = h & ~bit
                t2[pos] = c
                v2 = voids
                if pos and c // 13 != led:
                    v2 |= 1 << led
                jd2 = rollout(
                    h2,
                    t2,
                    pos + 1,
                    leader,
                    played + 1,
                    broken or c >= 39 or (qs_breaks and c == _QS),
                    p2,
                    jd,
                    qs_breaks,
                    lead_card,
                    v2,
                )
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
    kn[0] = 1 if keep else 0
    if keep:
        for s in range(1, n + 2):
            kn[s] = kn[n + 2 + s]
    return pick


@_jit
def rollout_look(
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
    me: int,
    looks: Any,
    shoot: float,
    near: bool,
    totals: Any,
    target: int,
    moon: int,
    jd_bonus: bool,
    h2: Any,
    p2: Any,
    t2: Any,
    pts: Any,
    after: Any,
    hide: int,
    rs: Any,
    h3: Any,
    cb: Any,
    sv: Any,
    ow: Any,
    kn: Any,
) -> int:
    """:func:`rollout` where a seat with ``looks[seat]`` left picks its card by
    :func:`_look` instead of the policy (one fewer look each time); ``looks``
    changes in place (and ``rs[0]``, the generator of ``hide``, and ``sv``, the
    suits each seat has shown it lacks).  ``kn``: scratch of
    :func:`_look` (the policy's play on, known from the first face-up look)."""
    n = hands.shape[0]
    kn[0] = 0
    pos = tlen
    alive = 0
    for s in range(n):
        alive |= hands[s]
    qs_live = (alive & _QS_BIT) != 0
    led, top, win, tp = _trick_now(trick, pos, leader, n)
    seat = (leader + pos) % n
    if pos == n:
        pen[win] += tp
        for i in range(n):
            if trick[i] == _JD:
                jd = win
        pos = 0
        seat = win
    runner = _runner(pen, voids)
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


@_jit_inline
def _kind(c: int, pos: int, led: int, top: int) -> int:
    """:func:`hearts.bots.kernel_ref.kind`."""
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
    """:func:`hearts.bots.kernel_ref.likeness`: the deal's weight, ``mismatch`` to
    the power of the others' plays so far not of the kind the playout policy would
    have played holding that deal's hands (``hands``, ``pen``: scratch arrays;
    ``flags``: the policy's switches, :data:`~hearts.bots.playout.QUEEN_RUNS`)."""
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
    runner = -1
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
    others: Any,
    part_cum: Any,
    part_fixed: Any,
    part_root: Any,
    st_class: Any,
    st_first: Any,
    st_count: Any,
    sp_take: Any,
    sp_cum: Any,
    sp_next: Any,
    cl_first: Any,
    cl_len: Any,
    cl_cards: Any,
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
    n = part_fixed.shape[1]
    world = np.zeros(n, np.int64)
    hands = np.zeros(n, np.int64)
    pen = np.zeros(n, np.int64)
    buf = np.zeros(64, np.int64)
    total = 0
    for w in range(w0, w1):
        draw(
            others,
            part_cum,
            part_fixed,
            part_root,
            st_class,
            st_first,
            st_count,
            sp_take,
            sp_cum,
            sp_next,
            cl_first,
            cl_len,
            cl_cards,
            _world_state(seed, w),
            world,
            buf,
        )
        wt = likeness(world, hist_seat, hist_card, me, 0.5, qs_breaks, lead_card, hands, pen, flags)
        total += round(-np.log2(wt))
    return total / (w1 - w0)


@_jit
def _value(
    pen: Any,
    jd: int,
    me: int,
    near: bool,
    totals: Any,
    target: int,
    moon: int,
    jd_bonus: bool,
    shoot: float,
    pts: Any,
    after: Any,
) -> tuple[float, int]:
    v, mine = _value0(pen, jd, me, near, totals, target, moon, jd_bonus, pts, after)
    if pen[me] == 26:
        v += shoot
    return v, mine


@_jit
def _value0(
    pen: Any,
    jd: int,
    me: int,
    near: bool,
    totals: Any,
    target: int,
    moon: int,
    jd_bonus: bool,
    pts: Any,
    after: Any,
) -> tuple[float, int]:
    """:func:`hearts.bots.kernel_ref.value` (``pts``, ``after``: scratch arrays)."""
    n = pen.shape[0]
    for s in range(n):
        pts[s] = pen[s]
    for shooter in range(n):
        if pen[shooter] == 26:
            how = moon
            if how == 2:
                how = 0
                for s in range(n):
                    after[s] = totals[s] + (0 if s == shooter else 26)
                if jd_bonus and jd >= 0:
                    after[jd] -= 10
                high = after[0]
                low = after[0]
                for s in range(1, n):
                    high = max(high, after[s])
                    low = min(low, after[s])
                if high >= target:
                    ties = 0
                    for s in range(n):
                        if after[s] == low:
                            ties += 1
                    if after[shooter] != low or ties > 1:
                        how = 1
            if how == 0:
                for s in range(n):
                    pts[s] = 0 if s == shooter else 26
            else:
                pts[shooter] = -26
            break
    if jd_bonus and jd >= 0:
        pts[jd] -= 10
    mine = pts[me]
    if not near:
        total = 0
        for s in range(n):
            total += pts[s]
        return (total - mine) * (1.0 / (n - 1)) - mine, mine
    for s in range(n):
        after[s] = totals[s] + pts[s]
    high = after[0]
    low = after[0]
    for s in range(1, n):
        high = max(high, after[s])
        low = min(low, after[s])
    if high >= target:
        if after[me] != low:
            return 0.0, mine
        ties = 0
        for s in range(n):
            if after[s] == low:
                ties += 1
        return 100.0 * (1.0 / ties), mine
    temp = 4.5 * math.sqrt(1.0 + (target - high) / 9.0)
    acc = 0.0
    for s in range(n):
        acc += math.exp((low - after[s]) / temp)
    return 100.0 * (math.exp((low - after[me]) / temp) / acc), mine


@_jit
def _play_batch(
    others: Any,
    part_cum: Any,
    part_fixed: Any,
    part_root: Any,
    st_class: Any,
    st_first: Any,
    st_count: Any,
    sp_take: Any,
    sp_cum: Any,
    sp_next: Any,
    cl_first: Any,
    cl_len: Any,
    cl_cards: Any,
    seed: int,
    w0: int,
    w1: int,
    cands: Any,
    alive: Any,
    me: int,
    trick0: Any,
    leader: int,
    played: int,
    broken: bool,
    pen0: Any,
    jd0: int,
    qs_breaks: bool,
    lead_card: int,
    voids: int,
    near: bool,
    totals: Any,
    target: int,
    moon: int,
    jd_bonus: bool,
    shoot: float,
    hist_seat: Any,
    hist_card: Any,
    mismatch: float,
    look_me: int,
    look_others: int,
    hide: int,
    sv0: Any,
    sums: Any,
    points: Any,
    mass: Any,
) -> None:
    n = pen0.shape[0]
    looks = np.zeros(n, np.int64)
    h2, p2, t2, pts, after, rs, h3, cb, sv, ow, kn = _look_scratch(n)
    world = np.zeros(n, np.int64)
    hands = np.zeros(n, np.int64)
    pen = np.zeros(n, np.int64)
    trick = np.zeros(n, np.int64)
    buf = np.zeros(64, np.int64)
    tlen = trick0.shape[0]
    for w in range(w0, w1):
        draw(
            others,
            part_cum,
            part_fixed,
            part_root,
            st_class,
            st_first,
            st_count,
            sp_take,
            sp_cum,
            sp_next,
            cl_first,
            cl_len,
            cl_cards,
            _world_state(seed, w),
            world,
            buf,
        )
        wt = 1.0
        if mismatch != 1.0:
            wt = likeness(
                world, hist_seat, hist_card, me, mismatch, qs_breaks, lead_card, hands, pen,
                voids & QUEEN_RUNS,
            )  # fmt: skip
        for a in range(alive.shape[0]):
            i = alive[a]
            card = cands[i]
            for s in range(n):
                hands[s] = world[s]
                pen[s] = pen0[s]
            hands[me] &= ~(1 << card)
            for k in range(tlen):
                trick[k] = trick0[k]
            trick[tlen] = card
            now_broken = broken or card >= 39 or (qs_breaks and card == _QS)
            if look_me or look_others:
                for s in range(n):
                    looks[s] = look_me if s == me else look_others
                if hide:
                    rs[0] = _world_state(seed ^ _HIDE_SALT, w)
                    for s in range(n):
                        sv[s] = sv0[s]
                    if tlen and card // 13 != trick0[0] // 13:
                        sv[me] |= 1 << (trick0[0] // 13)
                jd = rollout_look(
                    hands, trick, tlen + 1, leader, played + 1, now_broken, pen, jd0, qs_breaks,
                    lead_card, voids, me, looks, shoot, near, totals, target, moon, jd_bonus,
                    h2, p2, t2, pts, after, hide, rs, h3, cb, sv, ow, kn,
                )  # fmt: skip
            else:
                jd = rollout(
                    hands,
                    trick,
                    tlen + 1,
                    leader,
                    played + 1,
                    now_broken,
                    pen,
                    jd0,
                    qs_breaks,
                    lead_card,
                    voids,
                )
            v, mine = _value(pen, jd, me, near, totals, target, moon, jd_bonus, shoot, pts, after)
            sums[i] += wt * v
            points[i] += wt * mine
            mass[i] += wt


@_jit
def quick_pass(hand: int, count: int, jd_bonus: bool) -> int:
    """:func:`hearts.bots.kernel_ref.quick_pass`: the ``count`` cards of highest
    :func:`~hearts.bots.kernel_ref.pass_scores` (ties: the higher card), as a mask."""
    low_spades = _pop(hand & (0x3FF << 26))
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
    others: Any,
    part_cum: Any,
    part_fixed: Any,
    part_root: Any,
    st_class: Any,
    st_first: Any,
    st_count: Any,
    sp_take: Any,
    sp_cum: Any,
    sp_next: Any,
    cl_first: Any,
    cl_len: Any,
    cl_cards: Any,
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
    look_me: int,
    look_others: int,
    sums: Any,
    points: Any,
) -> None:
    n = totals.shape[0]
    looks = np.zeros(n, np.int64)
    h2, p2, t2, pts, after, rs, h3, cb, sv, ow, kn = _look_scratch(n)
    world = np.zeros(n, np.int64)
    passes = np.zeros(n, np.int64)
    hands = np.zeros(n, np.int64)
    pen = np.zeros(n, np.int64)
    trick = np.zeros(n, np.int64)
    buf = np.zeros(64, np.int64)
    lead_bit = 1 << lead_card
    for w in range(w0, w1):
        draw(
            others,
            part_cum,
            part_fixed,
            part_root,
            st_class,
            st_first,
            st_count,
            sp_take,
            sp_cum,
            sp_next,
            cl_first,
            cl_len,
            cl_cards,
            _world_state(seed, w),
            world,
            buf,
        )
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
            if look_me or look_others:
                for s in range(n):
                    looks[s] = look_me if s == me else look_others
                jd = rollout_look(
                    hands, trick, 0, leader, 0, False, pen, -1, qs_breaks, lead_card, voids,
                    me, looks, 0.0, near, totals, target, moon, jd_bonus, h2, p2, t2, pts,
                    after, 0, rs, h3, cb, sv, ow, kn,
                )  # fmt: skip
            else:
                jd = rollout(
                    hands, trick, 0, leader, 0, False, pen, -1, qs_breaks, lead_card, voids
                )
            v, mine = _value0(pen, jd, me, near, totals, target, moon, jd_bonus, pts, after)
            sums[i] += v
            points[i] += mine


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
    """:func:`hearts.bots.kernel_ref.play_batch`, compiled; ``sums``, ``points``
    and ``mass`` are float64 arrays.  ``lookahead``: in each playout Khó's next
    this many turns are chosen by :func:`_look` (plain playouts of each of its
    cards) instead of the policy; ``lookahead_others`` the same for the other
    seats (0 and 0: the reference's playouts, bit for bit); ``hide``: each look
    plays its cards out in a deal where the others' cards of each suit are dealt
    again among them (:func:`_hide`)."""
    _play_batch(
        *t,
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
    lookahead: int = 0,
    lookahead_others: int = 0,
) -> None:
    """:func:`hearts.bots.kernel_ref.pass_batch`, compiled; ``sums`` and ``points``
    are float64 arrays; ``lookahead`` and ``lookahead_others`` as in :func:`play_batch`
    (from the first lead)."""
    _pass_batch(
        *t,
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
        lookahead,
        lookahead_others,
        sums,
        points,
    )


def unlike(t: DealTables, seed: int, w0: int, w1: int, pos: Position) -> float:
    """:func:`hearts.bots.kernel_ref.unlike`, compiled."""
    return float(
        _unlike(
            *t,
            _seed64(seed),
            w0,
            w1,
            pos.me,
            np.array([s for s, _ in pos.history], dtype=np.int64),
            np.array([c for _, c in pos.history], dtype=np.int64),
            pos.qs_breaks,
            pos.lead_card,
            pos.voids & QUEEN_RUNS,
        )
    )


def draw_deal(t: DealTables, seed: int, world: int) -> list[int]:
    """Deal number ``world`` of a search seeded ``seed`` (as the search draws it)."""
    n = t.part_fixed.shape[1]
    hands = np.zeros(n, np.int64)
    draw(*t, _world_state(_seed64(seed), world), hands, np.zeros(64, np.int64))
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


def warm_up() -> None:
    """Compile (or load from the cache) every kernel now: a short search."""
    from hearts.bots.hard import HardBot
    from hearts.rules import Rules
    from hearts.view import PlayerView

    rules = Rules()
    hand = sum(1 << c for c in range(0, 52, 4))  # 2♣ 6♣ ... a hand of every suit
    view = PlayerView(rules, 0, 4, "play", "none", hand, 0, 0, (), 0, 1, False,
                      (13, 13, 13, 13), (0, 0, 0, 0), rules.target)  # fmt: skip
    bot = HardBot(iterations=8)
    bot.weigh_play(view)
    bot.weigh_pass(dataclasses.replace(view, phase="pass", direction="left", turn=-1, legal=hand))
