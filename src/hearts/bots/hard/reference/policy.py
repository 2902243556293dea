"""The fast playout kernel: a whole hand played to the end by a heuristic policy.

This is the search's hot path, so it works on raw int masks and small lists,
with the policy inlined and no objects created per card.  The policy is a
careful player's habits, cheap to compute: duck under the trick when possible,
take a pointless trick when last, dump Q♠ then A♠/K♠ then the highest heart when
void, lead the lowest card (high spades last while Q♠ is out).
"""

from __future__ import annotations

import random

from hearts.bots.hard.masks import FLUSH as _FLUSH
from hearts.bots.hard.masks import HEART_DUMP as _HEART_DUMP
from hearts.bots.hard.masks import HEARTS_BITS as _HEARTS
from hearts.bots.hard.masks import HIGH_SPADES as _HIGH_SPADES
from hearts.bots.hard.masks import JD as _JD
from hearts.bots.hard.masks import LOW_SPADES as _LOW_SPADES
from hearts.bots.hard.masks import NO_POINTS as _NO_POINTS
from hearts.bots.hard.masks import NOT_HEARTS as _NOT_HEARTS
from hearts.bots.hard.masks import POINTS as _POINTS
from hearts.bots.hard.masks import QS as _QS
from hearts.bots.hard.masks import STAKES as _STAKES
from hearts.bots.hard.masks import SUIT_BITS as _SUIT
from hearts.bots.hard.masks import VOID_RISK as _VOID_RISK

#: A bit of the playouts' ``voids`` word above its four suits (bit k: some seat is
#: void in suit k), carried with it through every playout and look: set, a seat
#: alone with Q♠ runs for the moon (:func:`_runner`).  Khó sets it where its
#: memory of the match opens the rule (:class:`hearts.bots.hard.HardBot`'s ``remember``).
QUEEN_RUNS = 1 << 4
#: Bits 6–8: a seat suspected of running for the moon before its run shows (its
#: number plus one; 0: none), running and chased while no other seat has a point
#: (:func:`_runner`): Khó's ``suspect``, :func:`suspect_bits`.
SUSPECT_SHIFT = 6
SUSPECT = 7 << SUSPECT_SHIFT
#: The policy's switches in the ``voids`` word (beside the voids seen).
SWITCHES = QUEEN_RUNS | SUSPECT

_QS_BIT = 1 << _QS


def rollout(
    hands: list[int],
    trick: list[int],
    leader: int,
    played: int,
    broken: bool,
    pen: list[int],
    jd: int,
    qs_breaks: bool,
    lead_card: int,
    record: list[int] | None = None,
    noise: random.Random | None = None,
    eps: float = 0.0,
    voids: int = 0,
) -> int:
    """Play the hand to its end from here; the J♦ taker (-1).  ``hands``, ``trick``
    (leader first) and ``pen`` change in place; ``record`` receives every card
    played; with ``noise`` a card is random with probability ``eps``; ``voids``:
    bit k, some seat void in suit k.  A seat plays on its hand and the cards out."""
    n = len(hands)
    pos = len(trick)
    alive = 0
    for h in hands:
        alive |= h
    qs_live = bool(alive & _QS_BIT)
    led, top, win, tp = _trick_now(trick, leader, n)
    seat = (leader + pos) % n
    if pos == n:
        # The caller's card completed the trick.
        pen[win] += tp
        if _JD in trick:
            jd = win
        pos = 0
        seat = win
    runner, chase = _runner(pen, voids)
    noisy = noise is not None and eps > 0.0
    while True:
        h = hands[seat]
        if not h:
            return jd
        if noisy and noise.random() < eps:  # type: ignore[union-attr]
            c = _random_card(h, pos, led, played, broken, lead_card, n, noise)  # type: ignore[arg-type]
        elif pos == 0:
            c = (
                lead_card
                if played == 0
                else _lead(h, alive, seat, broken, runner, chase, qs_live, voids)
            )
        elif h & _SUIT[led]:
            c = _follow(h & _SUIT[led], seat, pos, led, top, win, tp, played, runner, chase,
                        qs_live, voids, n)  # fmt: skip
        else:
            c = _discard(h, alive, seat, pos, win, played, runner, chase, qs_live, voids, n)
        bit = 1 << c
        hands[seat] = h & ~bit
        alive &= ~bit
        played += 1
        if record is not None:
            record.append(c)
        if pos == 0:
            trick.clear()
        led, top, win, tp, voids, broken, qs_live = _after_card(
            c, seat, pos, led, top, win, tp, voids, broken, qs_live, qs_breaks
        )
        trick.append(c)
        pos += 1
        if pos == n:
            if tp:
                pen[win] += tp
                runner, chase = _runner(pen, voids)
            if _JD in trick:
                jd = win
            if not alive & _STAKES:
                return jd  # nothing left that scores
            pos = 0
            seat = win
        else:
            seat = (seat + 1) % n


def _trick_now(trick: list[int], leader: int, n: int) -> tuple[int, int, int, int]:
    """The trick in progress: the suit led, its top card, who wins it, its points."""
    led = top = win = tp = 0
    if trick:
        led = trick[0] // 13
        top = trick[0]
        win = leader
        for i, c in enumerate(trick):
            if c // 13 == led and c > top:
                top = c
                win = (leader + i) % n
            if c >= 39:
                tp += 1
            elif c == _QS:
                tp += 13
    return led, top, win, tp


def _after_card(
    c: int, seat: int, pos: int, led: int, top: int, win: int, tp: int, voids: int,
    broken: bool, qs_live: bool, qs_breaks: bool,
) -> tuple[int, int, int, int, int, bool, bool]:  # fmt: skip
    """The trick's standing, the voids shown and hearts broken once ``seat`` has
    played ``c`` at position ``pos``."""
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


def _random_card(
    h: int, pos: int, led: int, played: int, broken: bool, lead_card: int, n: int,
    noise: random.Random,
) -> int:  # fmt: skip
    """A random legal card of ``h`` (the noisy playouts of the bench's oracle)."""
    if pos == 0:
        if played == 0:
            legal = 1 << lead_card
        elif not broken and h & _NOT_HEARTS:
            legal = h & _NOT_HEARTS
        else:
            legal = h
    else:
        legal = h & _SUIT[led]
        if not legal:
            legal = h & _NO_POINTS if played < n and h & _NO_POINTS else h
    k = noise.randrange(legal.bit_count())
    while k:
        legal &= legal - 1
        k -= 1
    return (legal & -legal).bit_length() - 1


def _lead(
    h: int, alive: int, seat: int, broken: bool, runner: int, chase: bool, qs_live: bool,
    voids: int,
) -> int:  # fmt: skip
    """The policy's lead (not the hand's first)."""
    legal = h
    if not broken and h & _NOT_HEARTS:
        legal = h & _NOT_HEARTS
    others = alive & ~h
    if runner == seat:
        # Running for the moon: cash the highest card, hearts last.
        side = legal & _NOT_HEARTS
        return (side or legal).bit_length() - 1
    if (
        runner >= 0
        and chase
        and legal & _HEARTS
        and not others & _HEARTS & ~((2 << (legal.bit_length() - 1)) - 1)
    ):
        # A moon under way: win a heart trick with a sure winner.
        return legal.bit_length() - 1
    c = -1
    best = 999
    for s in (0, 1, 2, 3):
        m = (legal >> (13 * s)) & 0x1FFF
        if not m:
            continue
        r = (m & -m).bit_length() - 1
        om = (others >> (13 * s)) & 0x1FFF
        if not om:
            v = 60 + r
        else:
            lower = (om & ((1 << r) - 1)).bit_count()
            if lower:
                higher = (om >> r).bit_count()
                v = 10 * lower // (lower + higher) + (8 if not higher else 2)
                if voids >> s & 1 and alive & _POINTS:
                    v += _VOID_RISK  # a void seat may dump points on it
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
                    v -= _FLUSH  # flush the queen out
        if v < best:
            best = v
            c = 13 * s + r
    return c


def _follow(
    follow: int, seat: int, pos: int, led: int, top: int, win: int, tp: int, played: int,
    runner: int, chase: bool, qs_live: bool, voids: int, n: int,
) -> int:  # fmt: skip
    """The policy's card of the suit led (``follow``: the seat's cards of it)."""
    if runner >= 0 and chase and runner != seat and (tp or led == 3):
        # Stop the moon: take a point trick the runner would win.
        ahead = (seat - runner) % n  # runner already played if < pos
        t = follow.bit_length() - 1
        if t > top and (win == runner or ahead > pos):
            return t
        below = follow & ((1 << top) - 1)
        return (below or follow).bit_length() - 1
    if runner == seat:
        return follow.bit_length() - 1
    if played < n or (pos == n - 1 and tp == 0):
        # First trick (no points allowed) or a free last place: shed high.
        c = follow.bit_length() - 1
        if c == _QS and follow != _QS_BIT:
            c = (follow ^ _QS_BIT).bit_length() - 1
        return c
    below = follow & ((1 << top) - 1)
    if below:
        return below.bit_length() - 1
    if pos == n - 1:
        c = follow.bit_length() - 1
        if c == _QS and follow != _QS_BIT:
            c = (follow ^ _QS_BIT).bit_length() - 1
        return c
    if tp == 0 and led != 2 and not voids >> led & 1:
        # Forced over a pointless trick: win it with the top card.
        return follow.bit_length() - 1
    rest = follow & ~_QS_BIT
    if led == 2 and qs_live:
        rest &= ~_HIGH_SPADES
    rest = rest or follow
    return (rest & -rest).bit_length() - 1


def _discard(
    h: int, alive: int, seat: int, pos: int, win: int, played: int, runner: int,
    chase: bool, qs_live: bool, voids: int, n: int,
) -> int:  # fmt: skip
    """The policy's card when the seat cannot follow suit."""
    legal = h
    if played < n and h & _NO_POINTS:
        legal = h & _NO_POINTS
    safe = legal & _NO_POINTS
    if (
        runner >= 0
        and safe
        and (runner == seat or (chase and (win == runner or ((runner - seat) % n < n - pos))))
    ):
        # Never feed a runner (nor ourselves a point while running).
        legal = safe
    if legal & _QS_BIT:
        return _QS
    if qs_live and legal & _HIGH_SPADES and (h & _LOW_SPADES).bit_count() < 3:
        return (legal & _HIGH_SPADES).bit_length() - 1
    # The most dangerous card: high, with many cards below it out.
    others = alive & ~h
    c = -1
    best = -999
    for s in (0, 1, 2, 3):
        m = (legal >> (13 * s)) & 0x1FFF
        if not m:
            continue
        r = m.bit_length() - 1
        om = (others >> (13 * s)) & 0x1FFF
        if om:
            lower = (om & ((1 << r) - 1)).bit_count()
            higher = (om >> r).bit_count()
            v = r + 2 * lower - 3 * higher + (8 if lower and not higher else 0)
        else:
            v = r - 8
        if s == 3:
            v += _HEART_DUMP
        v -= 2 * (((h >> (13 * s)) & 0x1FFF) & ((1 << r) - 1)).bit_count()
        if v > best:
            best = v
            c = 13 * s + r
    return c


def runs_for_the_moon(points: int) -> bool:
    """Whether a seat that alone took ``points`` is running and chased (the
    playouts' rule, :func:`_runner`; with :data:`QUEEN_RUNS` a seat alone with Q♠
    runs there too, unchased, as Vừa does not chase it).  The compiled kernel
    writes the same thresholds in ``kernel._runner``.

    >>> [p for p in (3, 4, 12, 13, 14, 15) if runs_for_the_moon(p)]
    [4, 12, 15]
    """
    return points >= 15 or 4 <= points < 13


def suspect_bits(seat: int) -> int:
    """The ``voids`` word's switch that names ``seat`` the suspected runner (-1: none).

    >>> suspect_bits(2) >> SUSPECT_SHIFT, suspect_bits(-1)
    (3, 0)
    """
    return (seat + 1) << SUSPECT_SHIFT


def _runner(pen: list[int], voids: int = 0) -> tuple[int, bool]:
    """The seat running for the moon (-1 if none), and whether the others chase it.

    A seat that alone took points runs once it has Q♠ and two hearts or four
    hearts (:func:`runs_for_the_moon`), and the others block it.  With
    :data:`QUEEN_RUNS` in ``voids`` it runs from Q♠ alone (13 or 14 points: a seat
    handed the queen that controls the play goes on taking tricks), unchased until
    Q♠ and two hearts, as Vừa chases (:data:`hearts.bots.medium.WATCH`): the others
    still feed it: a model of players of habit (:data:`hearts.bots.hard.options.DEFAULT_REMEMBER`;
    the measures are in docs/kho.md).  A seat named in :data:`SUSPECT` runs and is
    chased from its first trick, while no other seat has a point.
    """
    suspect = (voids >> SUSPECT_SHIFT & 7) - 1
    who = -1
    for s, p in enumerate(pen):
        if p:
            if who >= 0:
                return -1, False
            who = s
    if who < 0:
        return (suspect, True) if suspect >= 0 else (-1, False)
    p = pen[who]
    if runs_for_the_moon(p) or who == suspect:
        return who, True
    return (who, False) if p >= 13 and voids & QUEEN_RUNS else (-1, False)
