"""Moons conceded per 100 hands against moon-hungry opponents (issue 12, lever 0).

    python3 bench/moons.py [--hands N] [--first K] [--hero hard hard-2026-11 ...] [--jobs K]
    python3 bench/moons.py --load A.json B.json@40 ... [--as 'hard:iterations=500=hard']

Each hero sits with three copies of a moon-hungry player: Khó whose search adds
``--shoot`` points to the value of a moon of its own and who passes as Vừa does
(Vừa passes for a moon with a moon hand), at ``--hungry-iterations`` playouts
and with one more option pinned (``adapt_hide=14``, Khó's default until 96af3fd),
so that a run pairs with the saved runs of ``bench/results`` whatever Khó's
defaults become.
With ``--against shooter`` the three are instead bench/shooter.py's rule-based
shooter (issue 38: a second, differently built shooter, so the defence is not
tuned to one opponent); its saved runs pair only with each other.
Every deal of strength.py's fixed sequence is played four times, the hero in
each seat (duplicate).  Reported per hero, with 95% bootstrap intervals over
deals: moons the opponents shot per 100 hands (conceded), moons the hero shot,
and the hero's and the opponents' points per hand.  Heroes play the same deals.
With ``--memory N`` each table remembers how its opponents played the N deals
before (the plays of four of them; :attr:`PlayerView.earlier`), as in a match:
Khó's ``remember`` reads it.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from options import parse_options
from shooter import MOON_HEARTS, MOON_TOP_HEART, MOON_WEIGHT, ShooterBot
from strength import RULES, Seat, bootstrap, deal_for, fmt, play_deal, span

MOON = 26
#: The hungry players' options that Khó's default has changed since the saved runs
#: were made, pinned to their values then (files made before a pin do not say it):
#: ``adapt_hide`` 14 (4 since session 26), ``block_hide`` off (4 since session 34),
#: ``suspect`` off (issue 38; the hungry players shoot, they do not defend;
#: ``suspect`` 2 since session 50).
HUNGRY_PINNED: dict[str, Any] = {
    "adapt_hide": 14,
    "block_hide": None,
    "suspect": None,
}
#: Options since deleted from Khó, at the value the saved runs pinned them to (off):
#: dropped from a file's players, so that its runs still pair with today's.
RETIRED: dict[str, Any] = {"stop": 0.0, "stop_live": None}
#: The rule-based shooter (``--against shooter``), its rule's constants as saved.
SHOOTER: dict[str, Any] = {
    "shooter": "rule",
    "weight": MOON_WEIGHT,
    "hearts": MOON_HEARTS,
    "top_heart": MOON_TOP_HEART,
}


def opponent(opts: dict[str, Any]) -> Seat:
    """The three opponents' seat: the rule-based shooter or moon-hungry Khó."""
    if "shooter" not in opts:
        return Seat("hard", {k: v for k, v in opts.items() if k != "memory"})
    seat = Seat("medium", {})  # a plain seat whose bot is replaced
    seat.kind, seat.bot = "shooter", ShooterBot()
    return seat


def _run(args: tuple[int, str, dict[str, Any], dict[str, Any]]) -> tuple[int, list[float]]:
    """Deal ``index`` in four rotations: (conceded moons, hero moons, hero points,
    opponents' mean points), each summed over the rotations."""
    index, hero_spec, hero_opts, hungry_opts = args
    deal, number = deal_for(index)
    hero_kind, _, extra = hero_spec.partition(":")
    hero = Seat(hero_kind, {**hero_opts, **parse_options(extra.split(","))})
    hungry = opponent(hungry_opts)
    n = RULES.players
    memory = _memory(index, hungry_opts.get("memory", 0), hungry)
    hands = []
    for rot in range(n):
        seats = [hungry] * n
        seats[rot] = hero
        hands.append(play_deal(deal, number, seats, earlier=None if memory is None else memory[:]))
    return index, deal_row(hands)


def deal_row(hands: list[list[int]]) -> list[float]:
    """A deal's row from its hands' points, the hero in seat k in the k-th: (conceded
    moons, hero moons, hero points, opponents' mean points), each summed over them."""
    conceded = shot = mine = theirs = 0.0
    for rot, pts in enumerate(hands):
        n = len(pts)
        shooters = [s for s in range(n) if pts[s] == 0 and all(
            pts[o] == MOON for o in range(n) if o != s)]  # fmt: skip
        conceded += sum(1 for s in shooters if s != rot)
        shot += sum(1 for s in shooters if s == rot)
        mine += pts[rot]
        theirs += sum(p for s, p in enumerate(pts) if s != rot) / (n - 1)
    return [conceded, shot, mine, theirs]


def _memory(index: int, count: int, them: Seat) -> list[tuple[tuple[int, int], ...]] | None:
    """The table's memory of the match (``--memory``): the plays of the ``count``
    deals before ``index``, each played by four of the opponents (what Khó's
    memory reads is how the others play); None without one."""
    if not count:
        return None
    earlier: list[tuple[tuple[int, int], ...]] = []
    for k in range(max(0, index - count), index):
        deal, number = deal_for(k)
        play_deal(deal, number, [them] * RULES.players, earlier=earlier)
    return earlier


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=50, help="deals (x4 rotations)")
    p.add_argument("--first", type=int, default=0, help="the first deal's index")
    p.add_argument(
        "--hero",
        nargs="*",
        default=["hard-2026-11", "hard"],
        help="bot names, options after a colon: hard:moon=false,iterations=2000",
    )
    p.add_argument("--hero-iterations", type=int, default=None, help="the heroes' playouts")
    p.add_argument("--shoot", type=float, default=40.0, help="the hungry players' moon bonus")
    p.add_argument("--hungry-iterations", type=int, default=5000)
    p.add_argument(
        "--against",
        choices=["hungry", "shooter"],
        default="hungry",
        help="the three opponents: moon-hungry Khó, or bench/shooter.py's rule-based shooter",
    )
    p.add_argument(
        "--memory",
        type=int,
        default=0,
        help="each table remembers the plays of this many deals before, played by four "
        "of the opponents (PlayerView.earlier; 0: none, as in the runs before it)",
    )
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--out", default=None, help="write raw results as JSON")
    p.add_argument(
        "--load",
        nargs="+",
        default=None,
        help="report saved JSONs joined deal by deal (none run); FILE@K: its first deal is K "
        "(files made before 0c7057c do not say theirs)",
    )
    p.add_argument(
        "--as",
        dest="aliases",
        nargs="*",
        default=[],
        help="NAME=HERO: report the saved hero NAME as HERO (the same bot under two spellings)",
    )
    p.add_argument(
        "--pair-with", default=None, help="the hero the others are paired with (the first's)"
    )
    return p


def main(argv: list[str] | None = None) -> int:
    p = _parser()
    args = p.parse_args(argv)
    if args.load:
        aliases = dict(a.rsplit("=", 1) for a in args.aliases)
        joined, hungry = join(args.load, aliases)
        if args.pair_with is not None and args.pair_with not in joined:
            raise SystemExit(f"no hero {args.pair_with!r} in the files: {', '.join(joined)}")
        report(joined, hungry, {}, args.pair_with)
        return 0
    if args.pair_with is not None and args.pair_with not in args.hero:
        raise SystemExit(f"--pair-with {args.pair_with!r} is not one of the heroes")
    # Pinned: the hungry players of every saved run (bench/results), not Khó's default.
    hungry = dict(SHOOTER) if args.against == "shooter" else {
        "shoot": args.shoot,
        "passing": "medium",
        "iterations": args.hungry_iterations,
        **HUNGRY_PINNED,
    }  # fmt: skip
    if args.memory:
        hungry["memory"] = args.memory  # saved with the opponents: runs pair only alike
    hero_opts: dict[str, Any] = {}
    if args.hero_iterations is not None:
        hero_opts["iterations"] = args.hero_iterations
    raw: dict[str, Any] = {hero: {"rows": [], "seconds": 0.0} for hero in args.hero}
    # Deal by deal, every hero in turn: a run stopped early still compares them.
    tasks = [
        (i, hero, hero_opts, hungry)
        for i in range(args.first, args.first + args.hands)
        for hero in args.hero
    ]
    start = time.time()
    results: Any = _run_all(tasks, args.jobs)
    for done, ((_, row), (_, hero, _, _)) in enumerate(zip(results, tasks, strict=True), 1):
        raw[hero]["rows"].append(row)
        raw[hero]["seconds"] = time.time() - start
        if args.out:
            # The first deal's index, so a file made with --first says its range.
            saved = {"hungry": hungry, "first": args.first, "heroes": raw}
            Path(args.out).write_text(json.dumps(saved))
        print(f"\r{done}/{len(tasks)} in {time.time() - start:.0f} s", end="", file=sys.stderr)
    print(file=sys.stderr)
    # Each hero's rows are its deals in order from --first (imap keeps the order).
    by_deal = {hero: dict(enumerate(data["rows"], args.first)) for hero, data in raw.items()}
    report(by_deal, hungry, hero_opts, args.pair_with)
    return 0


def join(
    files: list[str], aliases: dict[str, str]
) -> tuple[dict[str, dict[int, list[float]]], dict[str, Any]]:
    """Saved runs' rows by hero and deal index.  A deal played twice by one hero
    must have the same row (the bots are deterministic), else the files do not
    belong together; so must the moon-hungry players."""
    joined: dict[str, dict[int, list[float]]] = {}
    hungry: dict[str, Any] | None = None
    for spec in files:
        name, at, first = spec.partition("@")
        saved = json.loads(Path(name).read_text())
        start = int(first) if at else saved.get("first")
        if start is None:
            raise SystemExit(f"{name} does not say its first deal: give it as {name}@K")
        pinned = {} if "shooter" in saved["hungry"] else HUNGRY_PINNED
        theirs = {
            k: v
            for k, v in {**pinned, **saved["hungry"]}.items()
            if k not in RETIRED or v != RETIRED[k]
        }
        if hungry is not None and theirs != hungry:
            raise SystemExit(f"{name}: other moon-hungry players {theirs} than {hungry}")
        hungry = theirs
        for hero, data in saved["heroes"].items():
            rows = joined.setdefault(aliases.get(hero, hero), {})
            for i, row in enumerate(data["rows"], start):
                if rows.setdefault(i, row) != row:
                    raise SystemExit(f"{name}: {hero} played deal {i} otherwise before")
    assert hungry is not None
    return joined, hungry


def _run_all(tasks: list[Any], jobs: int) -> Any:
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            yield from pool.imap(_run, tasks)
    else:
        for task in tasks:
            yield _run(task)


def report(
    by_deal: dict[str, dict[int, list[float]]],
    hungry: dict[str, Any],
    hero_opts: dict[str, Any],
    pair_with: str | None = None,
) -> None:
    """Each hero over the deals it played; every other hero paired with
    ``pair_with`` (the first if None) on the deals both played."""
    n = RULES.players
    if "shooter" in hungry:
        print(f"opponents: bench/shooter.py's rule-based shooter "
              f"{json.dumps(hungry)}; {n} rotations a deal")  # fmt: skip
    else:
        hide = "".join(f", {k}={hungry[k]}" for k in HUNGRY_PINNED if k in hungry)
        print(f"moon-hungry opponents: Khó with shoot={hungry['shoot']:g}, Vừa's pass, "
              f"{hungry['iterations']} playouts{hide}; {n} rotations a deal")  # fmt: skip
    them = "shooter" if "shooter" in hungry else "moon-hungry"
    first = pair_with or next(iter(by_deal))
    for hero, played in by_deal.items():
        if not played:
            continue
        deals = sorted(played)
        rows = [(played[i][0], played[i]) for i in deals]

        def per100(d: Any, k: int) -> float:
            return 100.0 * statistics.fmean(r[k] for _, r in d) / n

        def pts(d: Any, k: int) -> float:
            return statistics.fmean(r[k] for _, r in d) / n

        print(f"\n== {hero} {hero_opts or ''} vs 3 x {them}, {len(rows)} deals ({span(deals)})")
        print(f"   moons conceded / 100 hands: {fmt(bootstrap(rows, lambda d: per100(d, 0)))}")
        print(f"   moons shot / 100 hands:     {fmt(bootstrap(rows, lambda d: per100(d, 1)))}")
        print(f"   hero points/hand:           {fmt(bootstrap(rows, lambda d: pts(d, 2)))}")
        print(f"   opponents points/hand:      {fmt(bootstrap(rows, lambda d: pts(d, 3)))}")
        base = by_deal[first]
        both = [i for i in deals if i in base]
        if hero != first and both:
            paired = [(played[i][0] - base[i][0], played[i][2] - base[i][2]) for i in both]
            diff = bootstrap(paired, lambda d: 100.0 * statistics.fmean(x for x, _ in d) / n)
            gain = bootstrap(paired, lambda d: statistics.fmean(y for _, y in d) / n)
            print(f"   vs {first} on the same {len(both)} deals ({span(both)}): "
                  f"conceded / 100 hands {fmt(diff)}, points/hand {fmt(gain)}")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
