"""Khó's imagined deals against what the rules reveal (issue 12, inference).

A heart led before hearts broke shows that its player held only hearts; a point
card thrown on the first trick shows that its player held only hearts and Q♠.
In positions from hands played by Vừa where a seat showed one of these, count the
sampled deals that contradict the rules (each draw replayed card by card), with
the deductions of :meth:`PlayerView.excluded` (now) and with suit voids only (the
reference: the sampler before them), in the same run.

    python3 bench/inference.py [--positions 60] [--draws 200]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "bots"))

from test_sampling import consistent, rule_fact_position

from hearts.bots.hard.sampling import DealSampler
from hearts.bots.medium import MediumBot
from hearts.cards import SUIT_MASKS
from hearts.hand import HandState
from hearts.rules import Rules
from hearts.view import PlayerView


def voids_only(view: PlayerView) -> list[int]:
    out = [0] * view.n
    for s, mask in enumerate(view.voids()):
        for k in range(4):
            if mask >> k & 1:
                out[s] |= SUIT_MASKS[k]
    return out


def positions(wanted: int) -> tuple[list[PlayerView], int]:
    """Views just after another seat revealed a rule fact, in hands Vừa plays."""
    out: list[PlayerView] = []
    bot = MediumBot()
    seed = 0
    while len(out) < wanted:
        seed += 1
        state = HandState.deal(Rules(), 4, random.Random(seed))
        view = rule_fact_position(state, lambda st: bot.choose_play(st.view(st.turn)))
        if view is not None:
            out.append(view)
    return out, seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--draws", type=int, default=200)
    args = parser.parse_args()
    views, hands = positions(args.positions)
    print(f"{len(views)} positions from {hands} hands played by Vừa")
    now = PlayerView.excluded
    for name, fn in (("suit voids only (reference)", voids_only), ("PlayerView.excluded", now)):
        PlayerView.excluded = fn  # type: ignore[method-assign]
        bad = total = 0
        for view in views:
            sampler, rng = DealSampler(view), random.Random(1)
            for _ in range(args.draws):
                total += 1
                bad += not consistent(view, sampler.draw(rng))
        share = f"{bad / total:.0%}"
        print(f"{name:30} {bad:6} of {total} sampled deals contradict the rules ({share})")
    PlayerView.excluded = now  # type: ignore[method-assign]


if __name__ == "__main__":
    main()
