"""How close is "too close to matter" for Gợi ý's why (hearts.server.coach.hint).

    python3 bench/coach_margins.py [--positions N] [--near] [--seed S]

South's turns with two legal cards or more, in hands Vừa plays (hand 4: no
pass), far from the target (totals 10 20 30 5) or, with ``--near``, near it
(70 82 64 77 of 100).  Per position Khó's search (``HardBot().weigh_play``) gives
the gap between its choice and the runner-up in the measure it chose by (points
far from the target, chance to win in percentage points near it); Khó with
another seed (``HardBot(seed=7)``) chooses again.  Printed per bin of the gap:
the positions and how often the other seed chose another card, the search's own
noise, which sets ``hint.CLOSE_POINTS`` and ``hint.CLOSE_CHANCE``.
"""

from __future__ import annotations

import argparse
import collections
import random

from hearts.bots.base import get_bot
from hearts.bots.hard import HardBot
from hearts.hand import HandState
from hearts.rules import Rules

FAR = (10, 20, 30, 5)
NEAR = (70, 82, 64, 77)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=260)
    ap.add_argument("--near", action="store_true")
    ap.add_argument("--seed", type=int, default=33)
    args = ap.parse_args()
    totals, step = (NEAR, 1.0) if args.near else (FAR, 0.25)
    medium = get_bot("medium")
    rng = random.Random(args.seed)
    hard, other = HardBot(), HardBot(seed=7)
    bins: dict[float, list[int]] = collections.defaultdict(lambda: [0, 0])
    n = 0
    while n < args.positions:
        state = HandState.deal(Rules(), 4, rng)
        while not state.is_terminal():
            view = state.view(state.turn, hand_number=4, totals=totals)
            if state.turn == 0 and view.legal.bit_count() >= 2 and rng.random() < 0.5:
                w = hard.weigh_play(view)
                if len(w.options) >= 2:
                    c, r = w.choice, w.options[1]
                    gap = w.value[c] - w.value[r]
                    if not w.near:
                        gap *= (view.n - 1) / view.n  # the value's units, in points
                    k = min(int(gap / step), 8) * step
                    bins[k][0] += 1
                    bins[k][1] += other.choose_play(view) != c
                    n += 1
            state.play(medium.choose_play(view))
    unit = "percentage points" if args.near else "points"
    for k in sorted(bins):
        total, differ = bins[k]
        print(f"gap >= {k:.2f} {unit}: {total} positions, another seed chose otherwise in "
              f"{differ} ({100 * differ / total:.0f}%)")  # fmt: skip


if __name__ == "__main__":
    main()
