"""Khó's compiled kernel: the value of a finished hand for a seat
(:func:`hearts.bots.hard.reference.value`, bit for bit)."""

from __future__ import annotations

import math
from typing import Any

from hearts.bots.hard.kernel.jit import _jit


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
    """:func:`hearts.bots.hard.reference.value` (``pts``, ``after``: scratch arrays)."""
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
