"""The fast playout kernel: a whole hand played to the end by a heuristic policy.

This is the search's hot path, so it works on raw int masks and small lists,
with the policy inlined and no objects created per card.  The policy is a
careful player's habits, cheap to compute: duck under the trick when possible,
take a pointless trick when last, dump Q♠ then A♠/K♠ then the highest heart when
void, lead the lowest card (high spades last while Q♠ is out).
"""

from __future__ import annotations

import random

from hearts.cards import QUEEN_SPADES

#: A bit of the playouts' ``voids`` word above its four suits (bit k: some seat is
#: void in suit k), carried with it through every playout and look: set, a seat
#: alone with Q♠ runs for the moon (:func:`_runner`).  Khó sets it where its
#: memory of the match opens the rule (:class:`hearts.bots.hard.HardBot`'s ``remember``).
QUEEN_RUNS = 1 << 4

_QS = QUEEN_SPADES
_QS_BIT = 1 << _QS
_JD = 22  # J♦
_HEARTS = 0x1FFF << 39
_NOT_HEARTS = ~_HEARTS
_HIGH_SPADES = (1 << 37) | (1 << 38)  # K♠, A♠
_NO_POINTS = ~(_HEARTS | _QS_BIT)
_LOW_SPADES = 0x3FF << 26  # 2♠..J♠
_POINTS = _HEARTS | _QS_BIT
_VOID_RISK = 6
_FLUSH = 6
_HEART_DUMP = 4
_STAKES = _HEARTS | _QS_BIT | (1 << _JD)  # cards that still change the score
_SUIT = (0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39)


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
    """Play the hand to its end from the given position; return the J♦ taker (-1).

    ``hands`` (a mask per seat), ``trick`` (cards of the trick in progress, leader
    first) and ``pen`` (hearts + 13 for Q♠ taken per seat) are updated in place,
    so pass copies.  ``played`` counts the cards played so far in the hand;
    ``record``, when given, receives every card played (for tests).  With
    ``noise``, each card is a random legal one with probability ``eps``.
    ``voids`` has bit k set when some seat is known to be void in suit k.

    Each seat plays on what a player in its seat could know: its own hand and the
    cards still out (``alive``), never where those cards lie.
    """
    n = len(hands)
    pos = len(trick)
    alive = 0
    for h in hands:
        alive |= h
    qs_live = bool(alive & _QS_BIT)
    # Standing of the trick in progress.
    led = top = win = tp = 0
    if pos:
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
            k = noise.randrange(legal.bit_count())  # type: ignore[union-attr]
            while k:
                legal &= legal - 1
                k -= 1
            c = (legal & -legal).bit_length() - 1
        elif pos == 0:
            # Lead.
            if played == 0:
                c = lead_card
            else:
                legal = h
                if not broken and h & _NOT_HEARTS:
                    legal = h & _NOT_HEARTS
                others = alive & ~h
                if runner == seat:
                    # Running for the moon: cash the highest card, hearts last.
                    side = legal & _NOT_HEARTS
                    c = (side or legal).bit_length() - 1
                elif (
                    runner >= 0
                    and chase
                    and legal & _HEARTS
                    and not others & _HEARTS & ~((2 << (legal.bit_length() - 1)) - 1)
                ):
                    # A moon under way: win a heart trick with a sure winner.
                    c = legal.bit_length() - 1
                else:
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
        else:
            follow = h & _SUIT[led]
            if follow:
                if runner >= 0 and chase and runner != seat and (tp or led == 3):
                    # Stop the moon: take a point trick the runner would win.
                    ahead = (seat - runner) % n  # runner already played if < pos
                    t = follow.bit_length() - 1
                    if t > top and (win == runner or ahead > pos):
                        c = t
                    else:
                        below = follow & ((1 << top) - 1)
                        c = (below or follow).bit_length() - 1
                elif runner == seat:
                    c = follow.bit_length() - 1
                elif played < n or (pos == n - 1 and tp == 0):
                    # First trick (no points allowed) or a free last place: shed high.
                    c = follow.bit_length() - 1
                    if c == _QS and follow != _QS_BIT:
                        c = (follow ^ _QS_BIT).bit_length() - 1
                else:
                    below = follow & ((1 << top) - 1)
                    if below:
                        c = below.bit_length() - 1
                    elif pos == n - 1:
                        c = follow.bit_length() - 1
                        if c == _QS and follow != _QS_BIT:
                            c = (follow ^ _QS_BIT).bit_length() - 1
                    elif tp == 0 and led != 2 and not voids >> led & 1:
                        # Forced over a pointless trick: win it with the top card.
                        c = follow.bit_length() - 1
                    else:
                        rest = follow & ~_QS_BIT
                        if led == 2 and qs_live:
                            rest &= ~_HIGH_SPADES
                        rest = rest or follow
                        c = (rest & -rest).bit_length() - 1
            else:
                legal = h
                if played < n and h & _NO_POINTS:
                    legal = h & _NO_POINTS
                safe = legal & _NO_POINTS
                if (
                    runner >= 0
                    and safe
                    and (
                        runner == seat
                        or (chase and (win == runner or ((runner - seat) % n < n - pos)))
                    )
                ):
                    # Never feed a runner (nor ourselves a point while running).
                    legal = safe
                if legal & _QS_BIT:
                    c = _QS
                elif qs_live and legal & _HIGH_SPADES and (h & _LOW_SPADES).bit_count() < 3:
                    c = (legal & _HIGH_SPADES).bit_length() - 1
                else:
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
        bit = 1 << c
        hands[seat] = h & ~bit
        alive &= ~bit
        played += 1
        if record is not None:
            record.append(c)
        if pos == 0:
            trick.clear()
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


def runs_for_the_moon(points: int) -> bool:
    """Whether a seat that alone took ``points`` is running and chased (the
    playouts' rule, :func:`_runner`; with :data:`QUEEN_RUNS` a seat alone with Q♠
    runs there too, unchased, as Vừa does not chase it).  The compiled kernel
    writes the same thresholds in ``kernel._runner``.

    >>> [p for p in (3, 4, 12, 13, 14, 15) if runs_for_the_moon(p)]
    [4, 12, 15]
    """
    return points >= 15 or 4 <= points < 13


def _runner(pen: list[int], voids: int = 0) -> tuple[int, bool]:
    """The seat running for the moon (-1 if none), and whether the others chase it.

    A seat that alone took points runs once it has Q♠ and two hearts or four
    hearts (:func:`runs_for_the_moon`), and the others block it.  With
    :data:`QUEEN_RUNS` in ``voids`` it runs from Q♠ alone (13 or 14 points: a seat
    handed the queen that controls the play goes on taking tricks), unchased until
    Q♠ and two hearts, as Vừa chases (:data:`hearts.bots.medium.WATCH`): the others
    still feed it.  In Khó's pass search that pays against Vừa and costs against
    players who search (bench/strength_results.md, sessions 28 and 29;
    :data:`hearts.bots.hard.DEFAULT_QUEEN_RUNS`).
    """
    who = -1
    for s, p in enumerate(pen):
        if p:
            if who >= 0:
                return -1, False
            who = s
    if who < 0:
        return -1, False
    p = pen[who]
    if runs_for_the_moon(p):
        return who, True
    return (who, False) if p >= 13 and voids & QUEEN_RUNS else (-1, False)
