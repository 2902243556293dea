"""How well Khó's weighed deals place the hidden cards (issue 12, lever 2b).

Hands are played by a chosen player (Khó at a small budget by default, or Vừa, or
the yardstick); at every decision with a choice, the deciding seat's view is
taken and deals are drawn as Khó draws them.  Each deal is weighed by
:func:`hearts.bots.hard.reference.likeness` (``mismatch`` to the power of the other
seats' plays that the playout policy would not have made with that deal's
hands) for several values of ``mismatch`` (1.0: every deal the same, as before).
Reported per value: the mean probability the weighed deals give to the true
holder of a hidden card (all hidden cards; Q♠; hearts J♥ and above), and the
effective number of deals (Kish) as a share of those drawn.  Higher is better;
the true hands are read only here, to score the guess.

    python3 bench/likeness.py [--hands 6] [--draws 400] [--player hard|medium|yardstick]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from strength import deal_for
from yardstick import yardstick

from hearts.bots.base import get_bot
from hearts.bots.hard import HardBot, kernel, queen_doubts, search_position
from hearts.bots.hard.moon import moon_sampler
from hearts.bots.hard.sampling import WeightedSampler, deal_tables
from hearts.cards import QUEEN_SPADES, cards_of
from hearts.hand import HandState
from hearts.rules import Rules

MISMATCH = (1.0, 0.8, 0.6, 0.4, 0.2, 0.1, 0.05)
HIGH_HEARTS = sum(1 << c for c in range(48, 52))  # J♥ Q♥ K♥ A♥


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--draws", type=int, default=400)
    parser.add_argument("--player", default="hard")
    parser.add_argument("--iterations", type=int, default=20000)
    args = parser.parse_args()
    rules = Rules()
    if args.player == "hard":
        bot = HardBot(iterations=args.iterations)
    elif args.player == "yardstick":
        bot = yardstick()
    else:
        bot = get_bot(args.player)
    acc: dict[float, dict[str, list[float]]] = {
        m: {"all": [], "qs": [], "hearts": [], "ess": []} for m in MISMATCH
    }
    for i in range(args.hands):
        deal, number = deal_for(i)
        state = HandState(rules, deal, rules.pass_direction(number))
        if state.phase == "pass":
            for s in range(4):
                state.pass_cards(s, bot.choose_pass(state.view(s, hand_number=number)))
        while not state.is_terminal():
            view = state.view(state.turn, hand_number=number)
            card = bot.choose_play(view)
            if view.legal & (view.legal - 1) and len(view.plays) >= 8:
                base = WeightedSampler(view, QUEEN_SPADES, queen_doubts(view, 0.1))
                tables = deal_tables(moon_sampler(view, base))
                seed = view.seed()
                worlds = [kernel.draw_deal(tables, seed, w) for w in range(args.draws)]
                hidden = list(cards_of(view.unseen()))
                holder = {c: s for s in range(4) for c in hidden if state.hands[s] >> c & 1}
                for m in MISMATCH:
                    pos = search_position(view, m)
                    wts = np.array(
                        [_weight(w, pos, m) for w in worlds] if m != 1.0 else [1.0] * len(worlds)
                    )
                    total = float(wts.sum())
                    acc[m]["ess"].append(total**2 / float((wts**2).sum()) / len(worlds))
                    for c in hidden:
                        right = sum(
                            wt for wt, w in zip(wts, worlds, strict=True) if w[holder[c]] >> c & 1
                        )
                        p = float(right) / total
                        acc[m]["all"].append(p)
                        if c == QUEEN_SPADES:
                            acc[m]["qs"].append(p)
                        if HIGH_HEARTS >> c & 1:
                            acc[m]["hearts"].append(p)
            state.play(card)
        print(f"hand {i + 1}/{args.hands}", file=sys.stderr, flush=True)
    print(f"player {args.player}, {args.hands} hands, {args.draws} deals a position")
    print("mismatch | P(true holder): all   Q♠   J♥+  | effective deals")
    for m in MISMATCH:
        a = acc[m]
        print(
            f"  {m:.2f}   | {statistics.fmean(a['all']):.4f} {statistics.fmean(a['qs']):.4f} "
            f"{statistics.fmean(a['hearts']):.4f} | {statistics.fmean(a['ess']):.2f} "
            f"(n={len(a['ess'])} positions)"
        )


def _weight(world: list[int], pos: object, m: float) -> float:
    hist = np.array(pos.history, dtype=np.int64).reshape(-1, 2)  # type: ignore[attr-defined]
    n = len(world)
    return float(
        kernel.likeness(
            np.array(world, dtype=np.int64),
            hist[:, 0].copy(),
            hist[:, 1].copy(),
            pos.me,  # type: ignore[attr-defined]
            m,
            False,
            0,
            np.zeros(n, np.int64),
            np.zeros(n, np.int64),
        )
    )


if __name__ == "__main__":
    main()
