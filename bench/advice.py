"""Do Gợi ý and the analysis give the advice a larger budget gives? (issue 38)

    python3 bench/advice.py [--positions 200] [--passes 60] [--near] [--seed S]
        [--hint-reference 16000] [--analysis-reference 32000] [--variant k=v,...]

Positions as bench/coach_margins.py takes them: South's turns with two cards or
more worth telling apart (:func:`hearts.bots.hard.candidates`), in hands Vừa plays
(hand 4: no pass), far from the target (totals 10 20 30 5) or, with ``--near``,
near it (70 82 64 77 of 100); and South's passes of hands 1–3.  For each, three
searches of South's view:

- the hint (:func:`hearts.server.coach.hint.hint`'s bot: Khó as players meet it,
  with ``--variant``'s options, as a changed default would give it);
- the analysis (the search of :func:`hearts.server.coach.analysis.weigh`: its
  budget, every playout spent, with ``--variant``'s options too);
- the reference: Khó with every playout spent on a larger budget
  (``--hint-reference`` for plays, 32× that for passes; another seed, so its deals
  are not the hint's).

Printed: the share of positions where each gives the reference's card (or one the
rules make equal), with a 95% interval, and where they differ, how much worse the
reference judges their card (in its measure: points far from the target, the
chance to win in percentage points near it), and how often that is under the
hint's "too close to matter" (``hint.CLOSE_POINTS`` / ``CLOSE_CHANCE``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from coach_margins import FAR, NEAR
from options import parse_options

from hearts.bots.arena import wilson95
from hearts.bots.base import get_bot
from hearts.bots.hard import HardBot, Weighing, candidates
from hearts.hand import HandState
from hearts.rules import Rules
from hearts.server.coach import analysis, hint
from hearts.view import PlayerView


def regret(ref: Weighing, card: int, n: int) -> float:
    """How much worse the reference judges ``card`` than its own choice, in the
    hint's units (points far from the target, percentage points near it)."""
    gap = ref.value[ref.choice] - ref.value.get(card, ref.value[ref.choice])
    # Near the end the value is already 100 × the chance to win (hint.why).
    return gap if ref.near else gap * (n - 1) / n


def positions(args: argparse.Namespace) -> list[PlayerView]:
    """South's views: ``args.positions`` plays, then ``args.passes`` passes."""
    totals = NEAR if args.near else FAR
    medium = get_bot("medium")
    rng = random.Random(args.seed)
    plays: list[PlayerView] = []
    while len(plays) < args.positions:
        state = HandState.deal(Rules(), 4, rng)
        while not state.is_terminal():
            view = state.view(state.turn, hand_number=4, totals=totals)
            if state.turn == 0 and len(candidates(view)) >= 2 and rng.random() < 0.5:
                plays.append(view)
            state.play(medium.choose_play(view))
    passes = []
    for i in range(args.passes):
        number = i % 3 + 1
        state = HandState.deal(Rules(), number, rng)
        passes.append(state.view(0, hand_number=number, totals=totals))
    return plays[: args.positions] + passes


class Tally:
    """Agreements with the reference and the regrets of the disagreements."""

    def __init__(self) -> None:
        self.n = 0
        self.same = 0
        self.regrets: list[float] = []

    def add(self, same: bool, regret: float) -> None:
        self.n += 1
        self.same += same
        if not same:
            self.regrets.append(regret)

    def line(self, name: str, close: float) -> str:
        """The tally as a line: the share with the reference's card, the share
        with it or a card within ``close`` of it (the hint's "either will do")."""
        near = self.same + sum(r < close for r in self.regrets)
        out = f"{name}: the reference's card {_share(self.same, self.n)}"
        out += f"; it or one within {close} of it {_share(near, self.n)}"
        if self.regrets:
            mean = sum(self.regrets) / len(self.regrets)
            top = max(self.regrets)
            out += f"; where not the same, worse by {mean:.2f} (mean), {top:.2f} (max)"
        return out


def _share(hits: int, n: int) -> str:
    lo, hi = wilson95(hits, n)
    return f"{hits}/{n} = {hits / max(n, 1):.0%} [{lo:.0%}, {hi:.0%}]"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--passes", type=int, default=60)
    ap.add_argument("--near", action="store_true")
    ap.add_argument("--seed", type=int, default=38)
    ap.add_argument("--hint-reference", type=int, default=16_000)
    ap.add_argument("--analysis-reference", type=int, default=32_000)
    ap.add_argument("--variant", default="", help="Khó's options for hint and analysis: k=v,...")
    args = ap.parse_args(argv)
    options = parse_options([o for o in args.variant.split(",") if o])
    # Each with its reference: Khó as the hint meets it, the analysis's bot
    # (analysis.weigh's: its budget, every playout spent), a larger budget's.
    analysis_bot = HardBot(**options, iterations=analysis.ITERATIONS, clear=0)
    bots = {
        "hint": (HardBot(**options), reference(options, args.hint_reference)),
        "analysis": (analysis_bot, reference(options, args.analysis_reference)),
    }
    close = hint.CLOSE_CHANCE if args.near else hint.CLOSE_POINTS
    views = positions(args)
    tallies = {k: Tally() for k in ("hint play", "hint pass", "analysis play", "analysis pass")}
    t0 = time.process_time()
    for i, view in enumerate(views):
        kind = "pass" if view.phase == "pass" else "play"
        for name, (bot, ref_bot) in bots.items():
            ref = weigh(ref_bot, view)
            mine = weigh(bot, view).choice
            same = mine == ref.choice or (
                kind == "play" and analysis._equivalent(view, mine, ref.choice)
            )
            tallies[f"{name} {kind}"].add(same, regret(ref, mine, view.n))
        print(
            f"{i + 1}/{len(views)} in {time.process_time() - t0:.0f} CPU-s",
            end="\r",
            file=sys.stderr,
        )
    print(file=sys.stderr)
    where = "near the target" if args.near else "far from the target"
    print(f"== Gợi ý and the analysis against a larger budget, {where} (seed {args.seed}; "
          f"options {options or 'default'})")  # fmt: skip
    print(f"   references: plays {args.hint_reference} (hint) and {args.analysis_reference} "
          f"(analysis) playouts, passes 3x that; every playout spent, seed 1")  # fmt: skip
    for name, tally in tallies.items():
        print("   " + tally.line(name, close))
    return 0


def reference(options: dict[str, object], budget: int) -> HardBot:
    """Khó on a larger budget, every playout spent, another seed (its deals are
    not the advice's); passes on 3× the budget."""
    return HardBot(**options, seed=1, iterations=budget, clear=0, pass_iterations=budget * 3)


def weigh(bot: HardBot, view: PlayerView) -> Weighing:
    """``bot``'s search of South's pass or play."""
    return bot.weigh_pass(view) if view.phase == "pass" else bot.weigh_play(view)


if __name__ == "__main__":
    raise SystemExit(main())
