"""How far the other seats play unlike the playout policy, as Khó's ``adapt`` reads it.

Seat 0 (Khó at 200 playouts) plays ``--hands`` hands against three of Vừa
(``medium``), the frozen yardstick (``yardstick``) or Khó at its default with
``adapt`` off (``hard``); at each of its turns the share of the others' plays so far
that are not of the kind the playout policy would have played, averaged over
``--draws`` sampled deals (:func:`hearts.bots.hard.reference.likeness`), is printed per
trick: mean and standard deviation.  Players of habit (Vừa) score low, players
who search high; :data:`hearts.bots.hard.DEFAULT_ADAPT` lies between.

    python3 bench/unlike.py medium yardstick hard [--hands 12] [--draws 30]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from yardstick import yardstick

from hearts.bots.base import get_bot
from hearts.bots.hard import HardBot, reference, search_position
from hearts.bots.hard.sampling import DealSampler
from hearts.hand import HandState
from hearts.rules import Rules
from hearts.view import PlayerView


def share_unlike(view: PlayerView, rng: random.Random, draws: int) -> float | None:
    """The others' plays unlike the policy's kind, a share of their plays."""
    pos = search_position(view, 0.5)
    others = sum(1 for s, _ in view.plays if s != view.seat)
    if not others:
        return None
    sampler = DealSampler(view)
    total = sum(-math.log2(reference.likeness(sampler.draw(rng), pos)) for _ in range(draws))
    return total / draws / others


def opponent(kind: str) -> object:
    if kind == "yardstick":
        return yardstick()
    if kind == "hard":
        return HardBot(adapt=0)
    return get_bot(kind)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("opponents", nargs="+", help="medium, yardstick or hard")
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--draws", type=int, default=30)
    args = parser.parse_args()
    hero = HardBot(iterations=200, adapt=0)
    for kind in args.opponents:
        by_trick: dict[int, list[float]] = {}
        for i in range(args.hands):
            bots = [hero, *(opponent(kind) for _ in range(3))]
            number = i % 4 + 1
            state = HandState.deal(Rules(), number, random.Random(1000 + i))
            if state.phase == "pass":
                for s in range(4):
                    state.pass_cards(s, bots[s].choose_pass(state.view(s, hand_number=number)))  # type: ignore[attr-defined]
            rng = random.Random(i)
            while not state.is_terminal():
                view = state.view(state.turn, hand_number=number)
                if state.turn == 0:
                    share = share_unlike(view, rng, args.draws)
                    if share is not None:
                        by_trick.setdefault(len(view.plays) // 4, []).append(share)
                state.play(bots[state.turn].choose_play(view))  # type: ignore[attr-defined]
        print(f"3 x {kind}: share of the others' plays unlike the policy, per trick")
        for trick in sorted(by_trick):
            xs = by_trick[trick]
            print(
                f"  trick {trick:2d}  n={len(xs):3d}  {statistics.mean(xs):.3f}"
                f"  sd {statistics.pstdev(xs):.3f}"
            )


if __name__ == "__main__":
    main()
