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

_QS = QUEEN_SPADES
_QS_BIT = 1 << _QS
_JD = 22  # J♦
_HEARTS = 0x1FFF << 39
_NOT_HEARTS = ~_HEARTS
_HIGH_SPADES = (1 << 37) | (1 << 38)  # K♠, A♠
_NO_POINTS = ~(_HEARTS | _QS_BIT)
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
) -> int:
    """Play the hand to its end from the given position; return the J♦ taker (-1).

    ``hands`` (a mask per seat), ``trick`` (cards of the trick in progress, leader
    first) and ``pen`` (hearts + 13 for Q♠ taken per seat) are updated in place,
    so pass copies.  ``played`` counts the cards played so far in the hand;
    ``record``, when given, receives every card played (for tests).  With
    ``noise``, each card is a random legal one with probability ``eps``.
    """
    n = len(hands)
    pos = len(trick)
    qs_live = _QS not in trick and any(h & _QS_BIT for h in hands)
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
    while True:
        h = hands[seat]
        if not h:
            return jd
        if noise is not None and noise.random() < eps:
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
            c = (legal & -legal).bit_length() - 1
        elif pos == 0:
            # Lead.
            if played == 0:
                c = lead_card
            else:
                legal = h
                if not broken and h & _NOT_HEARTS:
                    legal = h & _NOT_HEARTS
                c = -1
                best = 99
                for s in (0, 1, 2, 3):
                    m = (legal >> (13 * s)) & 0x1FFF
                    if m:
                        r = (m & -m).bit_length() - 1
                        v = r
                        if s == 3:
                            v += 3
                        elif s == 2 and r >= 10 and qs_live:
                            v += 20
                        if v < best:
                            best = v
                            c = 13 * s + r
        else:
            follow = h & _SUIT[led]
            if follow:
                if pos == n - 1 and tp == 0:
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
                    else:
                        rest = follow & ~_QS_BIT or follow
                        c = (rest & -rest).bit_length() - 1
            else:
                legal = h
                if played < n and h & _NO_POINTS:
                    legal = h & _NO_POINTS
                if legal & _QS_BIT:
                    c = _QS
                elif qs_live and legal & _HIGH_SPADES:
                    c = (legal & _HIGH_SPADES).bit_length() - 1
                elif legal & _HEARTS:
                    c = legal.bit_length() - 1
                else:
                    c = -1
                    best = -1
                    for s in (0, 1, 2):
                        m = (legal >> (13 * s)) & 0x1FFF
                        if m:
                            r = m.bit_length() - 1
                            if r > best:
                                best = r
                                c = 13 * s + r
        hands[seat] = h & ~(1 << c)
        played += 1
        if record is not None:
            record.append(c)
        if pos == 0:
            trick.clear()
            led = c // 13
            top = c
            win = seat
            tp = 0
        elif c > top and c // 13 == led:
            top = c
            win = seat
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
            pen[win] += tp
            if _JD in trick:
                jd = win
            pos = 0
            seat = win
        else:
            seat = (seat + 1) % n
