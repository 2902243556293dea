"""How Khó values a finished hand: for the match, not just the hand."""

from __future__ import annotations

import math
from collections.abc import Callable

from hearts.rules import SHOOTER_CHOOSES, Rules

Utility = Callable[[list[int], int], float]


def near_the_end(rules: Rules, totals: tuple[int, ...]) -> bool:
    """Whether this hand may end the match: then Khó plays for the match's win."""
    return max(totals) + 26 >= rules.target - 20


def hand_utility(rules: Rules, totals: tuple[int, ...], me: int) -> Utility:
    """How good a finished hand is for ``me``: ``f(pen, jd_taker) -> float``.

    ``pen`` is hearts + 13 for Q♠ taken per seat.  Far from the target the value
    is the points the others took minus mine (on average), which counts a moon
    at its real worth (+26 to each other seat).  When the hand may end the match
    it is a win probability: 1 for a win, else a soft-min of the totals whose
    temperature shrinks as the target nears.
    """
    n = rules.players
    target = rules.target
    near = near_the_end(rules, totals)
    score = rules.score
    chooses = rules.moon == SHOOTER_CHOOSES

    def points(pen: list[int], jd: int) -> list[int]:
        # The shooter, if any, scores the moon as the rules (or its own choice) say.
        return score(pen, jd, rules.moon_choice(totals, pen, jd) if chooses else None)

    if not near:
        scale = 1.0 / (n - 1)

        def linear(pen: list[int], jd: int) -> float:
            pts = points(pen, jd)
            mine = pts[me]
            return (sum(pts) - mine) * scale - mine

        return linear

    def win_chance(pen: list[int], jd: int) -> float:
        pts = points(pen, jd)
        after = [t + p for t, p in zip(totals, pts, strict=True)]
        if max(after) >= target:
            low = min(after)
            if after[me] != low:
                return 0.0
            ties = after.count(low)
            return 1.0 / ties
        hands_left = 1.0 + (target - max(after)) / 9.0
        temp = 4.5 * math.sqrt(hands_left)
        low = min(after)
        weights = [math.exp((low - a) / temp) for a in after]
        return weights[me] / sum(weights)

    # On the same footing as the linear value (points), so budgets compare.
    return lambda pen, jd: 100.0 * win_chance(pen, jd)


def seat_points(rules: Rules, totals: tuple[int, ...], me: int) -> Callable[[list[int], int], int]:
    """``f(pen, jd_taker)``: the points ``me`` scores for a finished hand (a moon
    scored as the shooter would choose), what a coach calls expected points."""
    chooses = rules.moon == SHOOTER_CHOOSES

    def points(pen: list[int], jd: int) -> int:
        return rules.score(pen, jd, rules.moon_choice(totals, pen, jd) if chooses else None)[me]

    return points
