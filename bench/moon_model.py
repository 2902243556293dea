"""How far a model of the shooter takes a defender, with and without its cards (issue 38).

    python3 bench/moon_model.py [--sight face-up|view|who] [--model shooter|medium]
                                [--draws K] [--hands N] [--first F] [--jobs J] [--out F]

The hero sits with three of bench/shooter.py's rule-based shooters, each deal in
each seat, as ``moons.py --against shooter``.  It passes as Vừa does and weighs
each legal card by rollouts to the hand's end in which the others play
``--model`` (the shooter's own rule, or Vừa) and its own later cards are Vừa's;
it plays the card with the best mean of its points less the others' mean.  What
it sees (``--sight``):

- ``face-up``: every hand, one rollout a card (the rules are deterministic);
- ``view``: ``--draws`` deals drawn uniformly from its own view (Khó's
  :class:`DealSampler`), one rollout a card in each;
- ``who``: as ``view``, but each deal gives every other seat a hand the shooter
  runs with exactly when its real hand is one: the hero knows who is running;
- ``runner``: as ``view``, with the real cards of the seats whose hands the
  shooter runs with (the runners') in every deal.  (The other seats' real cards
  instead would be every card: at four seats they and the hero's leave the runner's.)

So the question ``moon_floor.py`` leaves (is ≤ 6 moons per 100 hands a matter of
the model of the others or of what a seat can see?) is asked by parts.  The JSON
(``--out``) is ``moons.py``'s: ``moons.py --load`` reports it and pairs it with
Khó's saved runs.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from moons import SHOOTER, deal_row
from shooter import ShooterBot, shooter_hand
from strength import RULES, deal_for

from hearts.bots.base import Bot, get_bot
from hearts.bots.hard.bot import candidates
from hearts.bots.hard.sampling import DealSampler
from hearts.cards import cards_of
from hearts.hand import HandState
from hearts.view import PlayerView

#: Tries to draw a deal that names the runners rightly (``who``) before taking one that does not.
WHO_TRIES = 300


class Hero:
    """The hero of one hand: its seat, what it sees, the others' model."""

    def __init__(self, seat: int, sight: str, model: Bot, draws: int, runners: list[bool]):
        self.seat, self.sight, self.model, self.draws = seat, sight, model, draws
        self.runners = runners  # per seat: does its hand after the pass meet the shooter's rule?
        self.vua = get_bot("medium")

    def rollout(self, state: HandState) -> float:
        """The hand played out: the hero's points less the others' mean."""
        while not state.is_terminal():
            s = state.turn
            bot = self.vua if s == self.seat else self.model
            state.play(bot.choose_play(state.view(s, hand_number=0)))
        pts = state.points()
        return pts[self.seat] - (sum(pts) - pts[self.seat]) / (len(pts) - 1)

    def choose(self, state: HandState, number: int) -> int:
        view = state.view(self.seat, hand_number=number)
        cands = candidates(view)
        if len(cands) == 1:
            return cands[0]
        worlds = [state] if self.sight == "face-up" else self._worlds(view, state)
        sums = [0.0] * len(cands)
        for world in worlds:
            for i, card in enumerate(cands):
                after = world.copy()
                after.play(card)
                sums[i] += self.rollout(after)
        return cands[min(range(len(cands)), key=lambda i: sums[i])]

    def _worlds(self, view: PlayerView, state: HandState) -> list[HandState]:
        """``draws`` deals from the view, each as a hand replayed to this point."""
        runner = self.sight == "runner"
        shown = [s for s in range(state.n) if runner and s != self.seat and self.runners[s]]
        sampler = DealSampler(view, place=[(s, c) for s in shown for c in cards_of(state.hands[s])])
        rng = random.Random(view.seed())
        worlds = []
        for _ in range(self.draws):
            for _ in range(WHO_TRIES if self.sight == "who" else 1):
                start = list(sampler.draw(rng))
                for s, c in view.plays:
                    start[s] |= 1 << c
                if self.sight != "who" or all(
                    shooter_hand(start[s]) == self.runners[s] for s in range(len(start))
                    if s != self.seat
                ):  # fmt: skip
                    break
            world = HandState(RULES, start, "none")
            for _, c in view.plays:
                world.play(c)
            worlds.append(world)
        return worlds


def play(index: int, hero_seat: int, sight: str, model_name: str, draws: int) -> list[int]:
    """Deal ``index`` with the hero in ``hero_seat``: the points of the hand."""
    deal, number = deal_for(index)
    shooter = ShooterBot()
    model = shooter if model_name == "shooter" else get_bot("medium")
    state = HandState(RULES, deal, RULES.pass_direction(number))
    vua = get_bot("medium")
    if state.offset:
        passes = [
            (vua if s == hero_seat else shooter).choose_pass(state.view(s, hand_number=number))
            for s in range(state.n)
        ]
        for s, mask in enumerate(passes):
            state.pass_cards(s, mask)
    runners = [shooter_hand(state.view(s, hand_number=number).hand) for s in range(state.n)]
    hero = Hero(hero_seat, sight, model, draws, runners)
    while not state.is_terminal():
        s = state.turn
        if s == hero_seat:
            state.play(hero.choose(state, number))
        else:
            state.play(shooter.choose_play(state.view(s, hand_number=number)))
    return state.points()


def _run(task: tuple[int, str, str, int]) -> tuple[int, list[float]]:
    """Deal ``index`` in four rotations, as moons.py's row: (conceded moons, hero
    moons, hero points, opponents' mean points), each summed over the rotations."""
    index, sight, model, draws = task
    return index, deal_row([play(index, rot, sight, model, draws) for rot in range(RULES.players)])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sight", choices=["face-up", "view", "who", "runner"], default="face-up")
    p.add_argument("--model", choices=["shooter", "medium"], default="shooter")
    p.add_argument("--draws", type=int, default=20, help="deals drawn a decision (view, who)")
    p.add_argument("--hands", type=int, default=100, help="deals (x4 rotations)")
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--out", default=None, help="write moons.py's JSON")
    args = p.parse_args(argv)
    name = f"model:sight={args.sight},model={args.model}" + (
        "" if args.sight == "face-up" else f",draws={args.draws}"
    )
    tasks = [
        (i, args.sight, args.model, args.draws) for i in range(args.first, args.first + args.hands)
    ]
    with multiprocessing.Pool(args.jobs) as pool:
        rows = dict(pool.imap_unordered(_run, tasks))
    ordered = [rows[i] for i in sorted(rows)]
    hands = RULES.players * len(ordered)
    print(f"{name} vs 3 x shooter, {len(ordered)} deals: conceded "
          f"{100 * sum(r[0] for r in ordered) / hands:.2f} per 100 hands, own "
          f"{100 * sum(r[1] for r in ordered) / hands:.2f}, points a hand "
          f"{statistics.mean(r[2] for r in ordered) / RULES.players:.2f} (the shooters "
          f"{statistics.mean(r[3] for r in ordered) / RULES.players:.2f})")  # fmt: skip
    if args.out:
        saved = {"hungry": dict(SHOOTER), "first": args.first,
                 "heroes": {name: {"rows": ordered, "seconds": 0.0}}}  # fmt: skip
        Path(args.out).write_text(json.dumps(saved))
    return 0


if __name__ == "__main__":
    sys.exit(main())
