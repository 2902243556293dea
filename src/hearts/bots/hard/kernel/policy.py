"""Khó's compiled kernel: the playout policy, and a hand played out by it
(:func:`hearts.bots.hard.reference.rollout`, bit for bit)."""

from __future__ import annotations

from typing import Any

from hearts.bots.hard.kernel.jit import (
    _FLUSH,
    _HEART_DUMP,
    _HEARTS,
    _HIGH_SPADES,
    _JD,
    _LOW_SPADES,
    _NO_POINTS,
    _NOT_HEARTS,
    _POINTS,
    _QS,
    _QS_BIT,
    _STAKES,
    _VOID_RISK,
    _bitlen,
    _jit,
    _jit_inline,
    _low,
    _pop,
)
from hearts.bots.hard.reference import QUEEN_RUNS, SUSPECT_SHIFT

#: Added to the runner's seat (:func:`_runner`) while it holds Q♠ alone (13 or
#: 14 points, with :data:`QUEEN_RUNS` in ``voids``): the others do not block it yet.
_QUEEN_ALONE = 16


@_jit
def _runner(pen: Any, voids: int) -> int:
    """:func:`hearts.bots.hard.reference._runner`, its two answers in one int: the seat,
    plus :data:`_QUEEN_ALONE` when the others do not block it yet (-1: none)."""
    suspect = ((voids >> SUSPECT_SHIFT) & 7) - 1
    who = -1
    for s in range(pen.shape[0]):
        if pen[s]:
            if who >= 0:
                return -1
            who = s
    if who < 0:
        return suspect
    p = pen[who]
    if p >= 15 or 4 <= p < 13 or who == suspect:
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
    """The playout policy's card for ``seat`` holding ``h``
    (:func:`hearts.bots.hard.reference.rollout`): ``alive`` the cards still in
    hands, the trick so far (``pos`` cards, the suit ``led``, its ``top`` card and
    who ``win``s it, ``tp`` points in it), ``played`` cards played in the hand, the
    seat ``runner`` running for the moon (-1; plus :data:`_QUEEN_ALONE`: not
    blocked yet)."""
    chase = runner < _QUEEN_ALONE  # the others block the runner
    if not chase:
        runner -= _QUEEN_ALONE
    if pos == 0:
        if played == 0:
            return lead_card
        return _lead(h, alive, seat, broken, runner, chase, qs_live, voids)
    follow = h & (0x1FFF << (13 * led))
    if follow:
        return _follow(
            follow, seat, pos, led, top, win, tp, played, runner, chase, qs_live, voids, n
        )
    return _discard(h, alive, seat, pos, win, played, runner, chase, qs_live, voids, n)


@_jit_inline
def _lead(
    h: int, alive: int, seat: int, broken: bool, runner: int, chase: bool, qs_live: bool,
    voids: int,
) -> int:  # fmt: skip
    """The policy's lead, not the hand's first (:func:`hearts.bots.hard.reference.policy._lead`)."""
    legal = h
    if not broken and h & _NOT_HEARTS:
        legal = h & _NOT_HEARTS
    others = alive & ~h
    if runner == seat:
        side = legal & _NOT_HEARTS
        return _bitlen(side if side else legal) - 1
    if (
        runner >= 0
        and chase
        and legal & _HEARTS
        and not others & _HEARTS & ~((2 << (_bitlen(legal) - 1)) - 1)
    ):
        return _bitlen(legal) - 1
    c = -1
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
    return c


@_jit_inline
def _follow(
    follow: int, seat: int, pos: int, led: int, top: int, win: int, tp: int, played: int,
    runner: int, chase: bool, qs_live: bool, voids: int, n: int,
) -> int:  # fmt: skip
    """The policy's card of the suit led, ``follow`` the seat's cards of it
    (:func:`hearts.bots.hard.reference.policy._follow`)."""
    if runner >= 0 and chase and runner != seat and (tp or led == 3):
        ahead = (seat - runner) % n
        t = _bitlen(follow) - 1
        if t > top and (win == runner or ahead > pos):
            return t
        below = follow & ((1 << top) - 1)
        return _bitlen(below if below else follow) - 1
    if runner == seat:
        return _bitlen(follow) - 1
    if played < n or (pos == n - 1 and tp == 0):
        c = _bitlen(follow) - 1
        if c == _QS and follow != _QS_BIT:
            c = _bitlen(follow ^ _QS_BIT) - 1
        return c
    below = follow & ((1 << top) - 1)
    if below:
        return _bitlen(below) - 1
    if pos == n - 1:
        c = _bitlen(follow) - 1
        if c == _QS and follow != _QS_BIT:
            c = _bitlen(follow ^ _QS_BIT) - 1
        return c
    if tp == 0 and led != 2 and not (voids >> led) & 1:
        return _bitlen(follow) - 1
    rest = follow & ~_QS_BIT
    if led == 2 and qs_live:
        rest &= ~_HIGH_SPADES
    if not rest:
        rest = follow
    return _low(rest)


@_jit_inline
def _discard(
    h: int, alive: int, seat: int, pos: int, win: int, played: int, runner: int,
    chase: bool, qs_live: bool, voids: int, n: int,
) -> int:  # fmt: skip
    """The policy's card when the seat cannot follow suit
    (:func:`hearts.bots.hard.reference.policy._discard`)."""
    legal = h
    if played < n and h & _NO_POINTS:
        legal = h & _NO_POINTS
    safe = legal & _NO_POINTS
    if (
        runner >= 0
        and safe
        and (runner == seat or (chase and (win == runner or ((runner - seat) % n < n - pos))))
    ):
        legal = safe
    if legal & _QS_BIT:
        return _QS
    if qs_live and legal & _HIGH_SPADES and _pop(h & _LOW_SPADES) < 3:
        return _bitlen(legal & _HIGH_SPADES) - 1
    others = alive & ~h
    c = -1
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


@_jit_inline
def _playout_start(
    hands: Any, trick: Any, tlen: int, leader: int, pen: Any, jd: int, voids: int
) -> tuple[int, int, int, bool, int, int, int, int, int, int]:
    """A playout's first seat and trick (a full one taken), cards alive, J♦'s taker, runner."""
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
    return seat, pos, alive, qs_live, led, top, win, tp, jd, runner


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
    """:func:`hearts.bots.hard.reference.rollout` without noise; ``trick[:tlen]`` is the
    trick in progress (a buffer of n cards); ``hands`` and ``pen`` change in place."""
    n = hands.shape[0]
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
