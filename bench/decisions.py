"""Khó's time per decision, every decision of a hand, and per pass.

Every play decision with two or more candidates (first trick to last) in
``--hands`` hands played by Vừa (bench deals 300 and on), decided by Khó at its
default and by the variants named with ``--variant key=value[,key=value...]``
(e.g. ``lookahead=0,lookahead_others=0,iterations=10000``: Khó before the look
ahead); CPU and wall-clock p50 and p95 per decision, the bots in turn on the same
positions.  Then the same for every
seat's pass in ``--pass-hands`` deals with a pass (bench deals 300 and on).

    python3 bench/decisions.py [--hands 4] [--pass-hands 12] [--variant k=v,k=v]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from options import parse_options
from strength import RULES, deal_for

from hearts.bots.base import get_bot
from hearts.bots.hard import HardBot, candidates
from hearts.hand import HandState
from hearts.view import PlayerView


def positions(hands: int) -> list[PlayerView]:
    medium = get_bot("medium")
    out = []
    for i in range(hands):
        deal, number = deal_for(300 + i)
        state = HandState(RULES, deal, RULES.pass_direction(number))
        if state.phase == "pass":
            for s in range(RULES.players):
                state.pass_cards(s, medium.choose_pass(state.view(s, hand_number=number)))
        while not state.is_terminal():
            view = state.view(state.turn, hand_number=number)
            if len(candidates(view)) > 1:
                out.append(view)
            state.play(medium.choose_play(view))
    return out


def pass_positions(hands: int) -> list[PlayerView]:
    out = []
    i = 0
    while len(out) < hands * RULES.players:
        deal, number = deal_for(300 + i)
        i += 1
        state = HandState(RULES, deal, RULES.pass_direction(number))
        if state.phase == "pass":
            out.extend(state.view(s, hand_number=number) for s in range(RULES.players))
    return out


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--pass-hands", type=int, default=12)
    parser.add_argument(
        "--variant",
        nargs="*",
        default=["lookahead=0,lookahead_others=0,iterations=10000"],
        help="Khó's options, key=value joined by commas (one variant each)",
    )
    args = parser.parse_args()
    views = positions(args.hands)
    late = sum(v.hand.bit_count() <= 3 for v in views)
    print(f"{len(views)} play decisions with 2+ candidates ({late} with 3 cards or fewer)")
    bots: list[tuple[str, HardBot]] = [("default", HardBot())]
    for variant in args.variant:
        bots.append((variant, HardBot(**parse_options(variant.split(",")))))
    passes = pass_positions(args.pass_hands)
    print(f"{len(passes)} passes")
    HardBot(iterations=8).choose_play(views[0])  # compile (or load) the kernel first
    if passes:
        HardBot(iterations=8).choose_pass(passes[0])
    for what, decide, where in (
        ("play", HardBot.choose_play, views),
        ("pass", HardBot.choose_pass, passes),
    ):
        if not where:  # --pass-hands 0
            continue
        first: list[int] = []
        for name, bot in bots:
            cpu, wall, chosen = [], [], []
            for view in where:
                c0, w0 = time.process_time(), time.perf_counter()
                chosen.append(decide(bot, view))
                cpu.append(time.process_time() - c0)
                wall.append(time.perf_counter() - w0)
            first = first or chosen
            same = sum(a == b for a, b in zip(chosen, first, strict=True))
            print(
                f"Khó {what} {name:<12}\n    CPU p50 {pct(cpu, 0.5):.3f} s  "
                f"p95 {pct(cpu, 0.95):.3f} s  mean {statistics.fmean(cpu):.3f} s   "
                f"wall p50 {pct(wall, 0.5):.3f} s  p95 {pct(wall, 0.95):.3f} s   "
                f"same choice as the default {same}/{len(chosen)}"
            )


if __name__ == "__main__":
    main()
