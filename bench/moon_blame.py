"""Where a hero loses the moons it could have stopped (issue 38).

    python3 bench/moon_blame.py [--hero hard:suspect=null] [--hands N] [--first K] [--jobs J]

The hero plays each deal of strength.py's sequence against three of
bench/shooter.py's rule-based shooter, in each seat (as ``moons.py --against
shooter``).  Every hand in which an opponent shot the moon is then replayed with
bench/moon_floor.py's search, which sees every card and knows the shooter's rule:
after the hero's pass, was the moon still stoppable?  Before and after each of the
hero's cards?  A conceded moon is put down to

- ``pass``: no line of play stops it after the hero's pass (though another pass
  might have);
- ``play``: stoppable before one of the hero's cards and not after it, with the
  trick and what the table had taken then (nobody a point, a seat alone with Q♠,
  or a seat alone with hearts);
- ``undecided``: the search gave up (``--nodes`` of the hero's decisions).
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from moon_floor import Floor, OutOfNodes
from options import parse_options
from shooter import ShooterBot
from strength import RULES, Seat, deal_for

from hearts.hand import HandState


def stoppable(state: HandState, hero: int, number: int, nodes: int) -> bool | None:
    """Whether the hero can still stop every opponent's moon from ``state`` (None:
    the search gave up)."""
    try:
        return Floor(hero, number, nodes).stops(state.copy())
    except OutOfNodes:
        return None


def _table(state: HandState) -> str:
    """What the table has taken: ``none``, ``queen`` (a seat alone with Q♠, 13 or
    14 points) or ``hearts`` (a seat alone with hearts only)."""
    taken = [p for p in state.penalties() if p]
    if not taken:
        return "none"
    return "queen" if taken[0] >= 13 else "hearts"


def blame(deal: list[int], number: int, hero: int, seat: Seat, nodes: int) -> tuple[str, ...]:
    """The hand played with ``seat`` as the hero: () if no opponent shot the moon,
    else why it was lost (see the module's docstring)."""
    shooter = ShooterBot()
    state = HandState(RULES, deal, RULES.pass_direction(number))
    if state.offset:
        passes = [
            (seat.bot if s == hero else shooter).choose_pass(state.view(s, hand_number=number))
            for s in range(state.n)
        ]
        for s, mask in enumerate(passes):
            state.pass_cards(s, mask)
    start = state.copy()
    while not state.is_terminal():
        s = state.turn
        player = seat.bot if s == hero else shooter
        state.play(player.choose_play(state.view(s, hand_number=number)))
    moon = state.shooter()
    if moon < 0 or moon == hero:
        return ()
    at_start = stoppable(start, hero, number, nodes)
    if not at_start:
        return ("undecided",) if at_start is None else ("pass",)
    # The others' cards are the search's own (the shooter's rule), so a stop that
    # exists after the hero's card still exists at its next choice: only the
    # positions after its cards need a search.
    for card in state.plays:
        if start.turn == hero and start.legal_mask() & (start.legal_mask() - 1):
            start.push(card)
            after = stoppable(start, hero, number, nodes)
            start.undo()
            if after is None:
                return ("undecided",)
            if not after:
                return ("play", str(len(start.plays) // start.n + 1), _table(start))
        start.push(card)
    return ("undecided",)


def _run(task: tuple[int, str, int]) -> tuple[int, list[tuple[str, ...]]]:
    index, spec, nodes = task
    deal, number = deal_for(index)
    kind, _, extra = spec.partition(":")
    options = parse_options(extra.split(",")) if extra else {}
    out = []
    for hero in range(RULES.players):
        out.append(blame(deal, number, hero, Seat(kind, options), nodes))
    return index, out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hero", default="hard", help="a bot, options after a colon")
    p.add_argument("--hands", type=int, default=40, help="deals (x4 rotations)")
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--nodes", type=int, default=50_000, help="hero decisions a search at most")
    args = p.parse_args(argv)
    tasks = [(i, args.hero, args.nodes) for i in range(args.first, args.first + args.hands)]
    with multiprocessing.Pool(args.jobs) as pool:
        rows = dict(pool.imap_unordered(_run, tasks))
    report(rows, args.hero)
    return 0


def report(rows: dict[int, list[tuple[str, ...]]], hero: str) -> None:
    lost = [why for i in sorted(rows) for why in rows[i] if why]
    hands = RULES.players * len(rows)
    kinds = collections.Counter(why[0] for why in lost)
    tricks = collections.Counter(int(why[1]) for why in lost if why[0] == "play")
    tables = collections.Counter(why[2] for why in lost if why[0] == "play")
    rate = 100.0 * len(lost) / hands
    print(f"{hero} vs 3 x shooter, {len(rows)} deals x {RULES.players} seats: "
          f"{len(lost)} moons conceded ({rate:.2f} per 100 hands)")  # fmt: skip
    print(f"   lost at the pass: {kinds['pass']}; at a play: {kinds['play']}; "
          f"undecided: {kinds['undecided']}")  # fmt: skip
    print(f"   plays by trick: {dict(sorted(tricks.items()))}")
    print(f"   plays by what the table had taken: {dict(tables)}")


if __name__ == "__main__":
    sys.exit(main())
