"""The reference twin's value of a finished hand for a seat: its points under
the table's rules, or near the match's end its chance to win the match
(:func:`hearts.bots.hard.bot.hand_utility`, as numbers the kernels read)."""

from __future__ import annotations

import math

from hearts.bots.hard.masks import JD_POINTS, MOON
from hearts.bots.hard.position import Judge


def score(pen: list[int], jd: int, judge: Judge) -> list[int]:
    """The hand's points per seat (:meth:`hearts.rules.Rules.score`, the shooter
    choosing as :meth:`~hearts.rules.Rules.moon_choice` does)."""
    n = len(pen)
    out = list(pen)
    for shooter in range(n):
        if pen[shooter] == MOON:
            how = judge.moon
            if how == 2:
                how = 0
                added = [0 if s == shooter else MOON for s in range(n)]
                if judge.jd_bonus and jd >= 0:
                    added[jd] += JD_POINTS
                after = [a + b for a, b in zip(judge.totals, added, strict=True)]
                if max(after) >= judge.target:
                    low = min(after)
                    if after[shooter] != low or after.count(low) > 1:
                        how = 1
            if how == 0:
                out = [0 if s == shooter else MOON for s in range(n)]
            else:
                out[shooter] = -MOON
            break
    if judge.jd_bonus and jd >= 0:
        out[jd] += JD_POINTS
    return out


def value(pen: list[int], jd: int, judge: Judge) -> tuple[float, int]:
    """(Khó's value of the finished hand, the points its seat scores)."""
    v, mine = _value(pen, jd, judge)
    if pen[judge.me] == MOON:
        v += judge.shoot
    return v, mine


def _value(pen: list[int], jd: int, judge: Judge) -> tuple[float, int]:
    pts = score(pen, jd, judge)
    n = len(pts)
    me = judge.me
    mine = pts[me]
    if not judge.near:
        return (sum(pts) - mine) * (1.0 / (n - 1)) - mine, mine
    after = [a + b for a, b in zip(judge.totals, pts, strict=True)]
    high = max(after)
    low = min(after)
    if high >= judge.target:
        if after[me] != low:
            return 0.0, mine
        return 100.0 * (1.0 / after.count(low)), mine
    temp = 4.5 * math.sqrt(1.0 + (judge.target - high) / 9.0)
    total = 0.0
    for a in after:
        total += math.exp((low - a) / temp)
    return 100.0 * (math.exp((low - after[me]) / temp) / total), mine
