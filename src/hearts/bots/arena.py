"""The arena: bots play each other on duplicate deals (``hearts arena``).

Every deal is played once per rotation of the seats, so each bot plays every
seat's cards and the luck of the deal cancels.  The sample unit of the figures is
the deal: a bot's points on a deal are its average over the rotations, and the 95%
confidence interval is taken over those per-deal averages.

Bots are named by picklable specs ``(name, options)`` and built inside each worker
process, so deals run on every core.  Bots only ever see the
:class:`~hearts.view.PlayerView` of their seat.

>>> r = duplicate([("easy", {}), ("easy", {}), ("medium", {}), ("easy", {})], 2, seed=5, jobs=1)
>>> r.n_deals, len(r.per_deal[0]), sorted(r.to_json()["bots"][0])[:3]
(2, 4, ['ci95', 'moons_shot', 'moons_suffered'])
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hearts.bots.base import Bot, get_bot
from hearts.hand import HandState
from hearts.match import match_winner
from hearts.rules import Rules
from hearts.view import PlayerView

#: A bot as a picklable recipe: a level name (or a registered bench name) and options.
BotSpec = tuple[str, dict[str, Any]]

#: Extra bot factories by name (bench-only references such as ``ismcts``).  Register
#: them at import time of the registering module, before the arena forks its workers.
REGISTRY: dict[str, Callable[..., Bot]] = {}

#: Hands after which a match is cut short (a safety net: matches end long before).
MAX_MATCH_HANDS = 200


def register(name: str, factory: Callable[..., Bot]) -> None:
    """Make ``name`` usable as a bot name in the arena (e.g. a bench reference)."""
    REGISTRY[name] = factory


def make_bot(spec: BotSpec | str) -> Bot:
    """Build the bot a spec names."""
    name, options = (spec, {}) if isinstance(spec, str) else spec
    if name in REGISTRY:
        return REGISTRY[name](**options)
    return get_bot(name, **options)


# -- one hand, one match ----------------------------------------------------------


@dataclass
class Clock:
    """Decision count and time per seat (filled in by :func:`play_hand`), for a
    table of ``seats`` players."""

    decisions: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)

    @classmethod
    def for_seats(cls, seats: int) -> Clock:
        return cls([0] * seats, [0.0] * seats)


def _timed(choose: Callable[[PlayerView], int], view: PlayerView, clock: Clock | None) -> int:
    """``choose(view)``, counted in ``clock`` for the view's seat."""
    t0 = time.perf_counter()
    out = choose(view)
    if clock is not None:
        if len(clock.decisions) < view.n:  # sized on first use: any table size
            clock.decisions += [0] * (view.n - len(clock.decisions))
            clock.seconds += [0.0] * (view.n - len(clock.seconds))
        clock.decisions[view.seat] += 1
        clock.seconds[view.seat] += time.perf_counter() - t0
    return out


def play_hand(
    bots: Sequence[Bot],
    state: HandState,
    hand_number: int = 1,
    totals: Sequence[int] | None = None,
    clock: Clock | None = None,
) -> list[int]:
    """Play ``state`` to its end with ``bots[seat]`` choosing for each seat; return
    the hand's points after moon scoring (``state.shooter()`` tells who shot).

    Each bot sees only ``state.view(seat, hand_number=..., totals=...)``.  An illegal
    choice raises :class:`~hearts.legal.IllegalAction`.
    """
    n = state.n
    tot = tuple(totals) if totals is not None else (0,) * n
    if state.phase == "pass":
        for seat in range(n):
            if state.passes[seat]:
                continue
            view = state.view(seat, hand_number=hand_number, totals=tot)
            mask = _timed(bots[seat].choose_pass, view, clock)
            state.pass_cards(seat, mask)
    while not state.is_terminal():
        seat = state.turn
        view = state.view(seat, hand_number=hand_number, totals=tot)
        card = _timed(bots[seat].choose_play, view, clock)
        state.play(card, seat)
    return state.points(state.rules.moon_choice(tot, state.penalties(), state.jd_taker()))


@dataclass(frozen=True)
class MatchOutcome:
    winner: int  # seat; -1 if cut short
    totals: tuple[int, ...]
    hands: int
    shooters: tuple[int, ...]  # the shooter seat of each hand that had one


def play_match(
    bots: Sequence[Bot],
    deal: Callable[[int], HandState],
    rules: Rules | None = None,
    clock: Clock | None = None,
) -> MatchOutcome:
    """Play hands ``deal(1), deal(2), ...`` until the match ends (SPEC §1.10)."""
    rules = rules or Rules()
    totals = [0] * rules.players
    shooters = []
    hand_number = 0
    while hand_number < MAX_MATCH_HANDS:
        hand_number += 1
        state = deal(hand_number)
        points = play_hand(bots, state, hand_number, tuple(totals), clock)
        if state.shooter() >= 0:
            shooters.append(state.shooter())
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        if match_winner(rules, totals) >= 0:
            break
    return MatchOutcome(match_winner(rules, totals), tuple(totals), hand_number, tuple(shooters))


# -- duplicate deals --------------------------------------------------------------


def deal_for(
    rules: Rules, seed: int, index: int, hand_number: int, kind: str = "deal"
) -> HandState:
    """The reproducible deal number ``index`` of an arena run (independent of --jobs)."""
    return HandState.deal(rules, hand_number, random.Random(f"hearts-arena:{kind}:{seed}:{index}"))


def seat_of(entry: int, rotation: int, n: int) -> int:
    """The seat entry ``entry`` plays in ``rotation`` (rotation 0: entry i sits at seat i)."""
    return (entry + rotation) % n


@dataclass(frozen=True)
class DealOutcome:
    index: int
    points: tuple[tuple[int, ...], ...]  # [rotation][entry]
    shooters: tuple[int, ...]  # per rotation: the entry that shot, -1 if none
    decisions: tuple[int, ...]  # per entry
    seconds: tuple[float, ...]  # per entry


_WORKER: dict[str, Any] = {}


def _init_worker(specs: Sequence[BotSpec], rules: Rules, seed: int) -> None:
    _WORKER["bots"] = [make_bot(s) for s in specs]
    _WORKER["rules"] = rules
    _WORKER["seed"] = seed


def _play_deal(index: int) -> DealOutcome:
    bots: list[Bot] = _WORKER["bots"]
    rules: Rules = _WORKER["rules"]
    n = rules.players
    hand_number = index % rules.pass_cycle_length + 1  # every pass direction in turn
    base = deal_for(rules, _WORKER["seed"], index, hand_number)
    points = []
    shooters = []
    decisions = [0] * n
    seconds = [0.0] * n
    for rotation in range(n):
        at_seat = [bots[(seat - rotation) % n] for seat in range(n)]
        state = HandState(rules, base.deal_masks, base.direction)
        clock = Clock.for_seats(n)
        pts = play_hand(at_seat, state, hand_number, None, clock)
        points.append(tuple(pts[seat_of(e, rotation, n)] for e in range(n)))
        shooter = state.shooter()
        shooters.append((shooter - rotation) % n if shooter >= 0 else -1)
        for e in range(n):
            decisions[e] += clock.decisions[seat_of(e, rotation, n)]
            seconds[e] += clock.seconds[seat_of(e, rotation, n)]
    return DealOutcome(index, tuple(points), tuple(shooters), tuple(decisions), tuple(seconds))


@dataclass(frozen=True)
class MatchGame:
    index: int
    rotation: int
    winner: int  # entry, -1 if cut short
    totals: tuple[int, ...]  # per entry
    hands: int


def _play_match_task(index: int) -> MatchGame:
    bots: list[Bot] = _WORKER["bots"]
    rules: Rules = _WORKER["rules"]
    n = rules.players
    group, rotation = divmod(index, n)  # each group of n matches shares its deals
    seed = _WORKER["seed"]
    at_seat = [bots[(seat - rotation) % n] for seat in range(n)]

    def deal(hand_number: int) -> HandState:
        return deal_for(rules, seed, group * MAX_MATCH_HANDS + hand_number, hand_number, "match")

    out = play_match(at_seat, deal, rules)
    totals = tuple(out.totals[seat_of(e, rotation, n)] for e in range(n))
    winner = (out.winner - rotation) % n if out.winner >= 0 else -1
    return MatchGame(index, rotation, winner, totals, out.hands)


def _run(
    task: Callable[[int], Any],
    count: int,
    specs: Sequence[BotSpec],
    rules: Rules,
    seed: int,
    jobs: int,
    progress: Callable[[int, int], None] | None,
) -> list[Any]:
    jobs = jobs or os.cpu_count() or 1
    results: list[Any] = []
    if jobs <= 1 or count <= 1:
        _init_worker(specs, rules, seed)
        for i in range(count):
            results.append(task(i))
            if progress:
                progress(len(results), count)
        return results
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    chunk = max(1, min(8, count // (jobs * 8)))
    with ctx.Pool(min(jobs, count), _init_worker, (list(specs), rules, seed)) as pool:
        for r in pool.imap_unordered(task, range(count), chunk):
            results.append(r)
            if progress:
                progress(len(results), count)
    results.sort(key=lambda r: r.index)
    return results


# -- figures ----------------------------------------------------------------------


def mean_ci95(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and normal 95% interval of the mean."""
    k = len(values)
    if k == 0:
        return (math.nan, math.nan, math.nan)
    m = sum(values) / k
    if k == 1:
        return (m, m, m)
    var = sum((v - m) ** 2 for v in values) / (k - 1)
    half = 1.96 * math.sqrt(var / k)
    return (m, m - half, m + half)


def wilson95(wins: int, k: int) -> tuple[float, float]:
    """Wilson 95% interval of a proportion."""
    if k == 0:
        return (math.nan, math.nan)
    z = 1.96
    p = wins / k
    den = 1 + z * z / k
    mid = (p + z * z / (2 * k)) / den
    half = z * math.sqrt(p * (1 - p) / k + z * z / (4 * k * k)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


@dataclass
class ArenaResult:
    """Figures of an arena run, per seat entry (entry i sits at seat i in rotation 0)."""

    specs: list[BotSpec]
    names: list[str]
    seed: int
    deals: list[DealOutcome]
    matches: list[MatchGame] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.specs)

    @property
    def n_deals(self) -> int:
        return len(self.deals)

    @property
    def per_deal(self) -> list[tuple[float, ...]]:
        """Per deal, each entry's points averaged over the seat rotations."""
        n = self.n
        return [
            tuple(sum(rot[e] for rot in d.points) / len(d.points) for e in range(n))
            for d in self.deals
        ]

    def points_per_hand(self, entry: int) -> tuple[float, float, float]:
        """Mean points per hand of ``entry`` and its 95% interval (deal = sample unit)."""
        return mean_ci95([row[entry] for row in self.per_deal])

    def moons_shot(self, entry: int) -> int:
        return sum(s == entry for d in self.deals for s in d.shooters)

    def moons_suffered(self, entry: int) -> int:
        return sum(s >= 0 and s != entry for d in self.deals for s in d.shooters)

    def ratio_to_others(self, entry: int, resamples: int = 1000) -> tuple[float, float, float]:
        """``entry``'s points per hand over the other entries' average, with a 95%
        interval from a bootstrap over deals (seeded: the same run gives the same
        interval)."""
        rows = self.per_deal
        if not rows:
            return (math.nan, math.nan, math.nan)
        n = self.n
        mine = [r[entry] for r in rows]
        rest = [(sum(r) - r[entry]) / (n - 1) for r in rows]

        def ratio(idx: Sequence[int]) -> float:
            den = sum(rest[i] for i in idx)
            return sum(mine[i] for i in idx) / den if den else math.nan

        k = len(rows)
        point = ratio(range(k))
        rng = random.Random(f"hearts-arena-bootstrap:{self.seed}:{entry}:{k}")
        stats = sorted(ratio([rng.randrange(k) for _ in range(k)]) for _ in range(resamples))
        return (point, stats[int(0.025 * resamples)], stats[int(0.975 * resamples) - 1])

    def ms_per_decision(self, entry: int) -> float:
        k = sum(d.decisions[entry] for d in self.deals)
        s = sum(d.seconds[entry] for d in self.deals)
        return 1000.0 * s / k if k else math.nan

    def match_wins(self, entry: int) -> int:
        return sum(m.winner == entry for m in self.matches)

    def to_json(self) -> dict[str, Any]:
        bots = []
        for e in range(self.n):
            mean, lo, hi = self.points_per_hand(e)
            row: dict[str, Any] = {
                "name": self.names[e],
                "seat_entry": e,
                "options": self.specs[e][1],
                "points_per_hand": round(mean, 4),
                "ci95": [round(lo, 4), round(hi, 4)],
                "moons_shot": self.moons_shot(e),
                "moons_suffered": self.moons_suffered(e),
                "ms_per_decision": round(self.ms_per_decision(e), 4),
            }
            ratio, r_lo, r_hi = self.ratio_to_others(e)
            row["ratio_to_others"] = round(ratio, 4)
            row["ratio_ci95"] = [round(r_lo, 4), round(r_hi, 4)]
            if self.matches:
                wins = self.match_wins(e)
                lo_w, hi_w = wilson95(wins, len(self.matches))
                row["matches_won"] = wins
                row["match_win_rate"] = round(wins / len(self.matches), 4)
                row["match_win_ci95"] = [round(lo_w, 4), round(hi_w, 4)]
            bots.append(row)
        return {
            "bots": bots,
            "hands": self.n_deals,
            "hands_played": self.n_deals * self.n,
            "rotations": self.n,
            "seed": self.seed,
            "matches": len(self.matches),
            "sample_unit": "deal: each bot's points averaged over the seat rotations",
        }

    def report(self) -> str:
        lines = [
            f"{self.n_deals} deals × {self.n} seat rotations = {self.n_deals * self.n} hands "
            f"(duplicate: every bot plays every seat's cards; seed {self.seed}).",
            "Points per hand (lower is better), 95% CI over per-deal averages:",
        ]
        for e in range(self.n):
            mean, lo, hi = self.points_per_hand(e)
            line = (
                f"  seat {e} {self.names[e]:<8} {mean:6.2f}  [{lo:5.2f}, {hi:5.2f}]"
                f"  moons shot {self.moons_shot(e):3d}  suffered {self.moons_suffered(e):3d}"
                f"  {self.ms_per_decision(e):7.2f} ms/decision"
            )
            ratio, r_lo, r_hi = self.ratio_to_others(e)
            line += f"  {100 * ratio:5.1f}% of the others [{100 * r_lo:.1f}, {100 * r_hi:.1f}]"
            if self.matches:
                wins = self.match_wins(e)
                lo_w, hi_w = wilson95(wins, len(self.matches))
                line += f"  matches won {wins}/{len(self.matches)} [{lo_w:.2f}, {hi_w:.2f}]"
            lines.append(line)
        return "\n".join(lines)


def duplicate(
    bot_factories: Sequence[BotSpec | str],
    n_deals: int,
    seed: int = 1,
    jobs: int = 0,
    rules: Rules | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ArenaResult:
    """Play ``n_deals`` deals, each once per seat rotation; figures per seat entry."""
    specs = _specs(bot_factories)
    rules = rules or Rules()
    if len(specs) != rules.players:
        raise ValueError(f"need {rules.players} bots, got {len(specs)}")
    deals = _run(_play_deal, n_deals, specs, rules, seed, jobs, progress)
    return ArenaResult(specs, [make_bot(s).name for s in specs], seed, deals)


def matches(
    bot_factories: Sequence[BotSpec | str],
    n_matches: int,
    seed: int = 1,
    jobs: int = 0,
    rules: Rules | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[MatchGame]:
    """Play ``n_matches`` matches to the target; consecutive groups of four share
    their deals with the seats rotated."""
    specs = _specs(bot_factories)
    rules = rules or Rules()
    return _run(_play_match_task, n_matches, specs, rules, seed, jobs, progress)


def _specs(bots: Sequence[BotSpec | str]) -> list[BotSpec]:
    return [(b, {}) if isinstance(b, str) else (b[0], dict(b[1])) for b in bots]


# -- the command ------------------------------------------------------------------


def parse_value(text: str) -> Any:
    """A command-line option value: int, float, true/false, or the text."""
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_specs(bots: str, opts: Sequence[str]) -> list[BotSpec]:
    """``"hard,medium,medium,medium"`` and ``["hard.budget_ms=300"]`` into specs.

    An option's prefix is a bot name (all entries of that name) or a seat entry
    number (``0.budget_ms=300``).
    """
    names = [b.strip() for b in bots.split(",") if b.strip()]
    specs: list[BotSpec] = [(name, {}) for name in names]
    for opt in opts:
        target, sep, rest = opt.partition(".")
        key, eq, value = rest.partition("=")
        if not sep or not eq or not key:
            raise ValueError(f"bad option {opt!r}: expected BOT.KEY=VALUE")
        hits = [i for i, (name, _) in enumerate(specs) if name == target or target == str(i)]
        if not hits:
            raise ValueError(f"option {opt!r} names no bot in {bots!r}")
        for i in hits:
            specs[i][1][key] = parse_value(value)
    return specs


def _progress_line(label: str) -> Callable[[int, int], None] | None:
    if not sys.stderr.isatty():
        return None
    start = time.monotonic()

    def show(done: int, total: int) -> None:
        rate = done / max(1e-9, time.monotonic() - start)
        end = "\n" if done == total else ""
        print(f"\r{label}: {done}/{total} ({rate:.1f}/s)", end=end, file=sys.stderr, flush=True)

    return show


def run_cli(args: argparse.Namespace) -> int:
    """``hearts arena``: see :func:`hearts.cli.build_parser` for the arguments."""
    try:
        specs = parse_specs(args.bots, args.opt or [])
        for spec in specs:
            make_bot(spec)  # unknown names and options fail here, before any work
    except (ValueError, TypeError, ImportError) as exc:
        print(f"hearts arena: {exc}", file=sys.stderr)
        return 2
    try:
        given = json.loads(args.rules) if getattr(args, "rules", None) else {}
        if isinstance(given, dict):
            given.setdefault("players", len(specs))
        rules = Rules.from_json(given)
    except ValueError as exc:  # bad JSON or bad rules (RulesError is a ValueError)
        print(f"hearts arena: --rules: {exc}", file=sys.stderr)
        return 2
    if len(specs) != rules.players:
        print(f"hearts arena: --bots needs {rules.players} names", file=sys.stderr)
        return 2
    result = duplicate(specs, args.hands, args.seed, args.jobs, rules, _progress_line("deals"))
    if args.matches:
        result.matches = matches(
            specs, args.matches, args.seed, args.jobs, rules, _progress_line("matches")
        )
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.report())
    return 0
