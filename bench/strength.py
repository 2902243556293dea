"""How strong are the computer players?  Duplicate deals, fixed seeds, 95% CIs.

    python3 bench/strength.py [--hands N] [--quick] [--only NAME ...] [--jobs K]

Each section seats one *hero* against three copies of an opponent and plays
every deal four times, the hero taking each seat in turn (duplicate play: the
luck of the deal cancels).  Points per hand are the hand's points after moon
scoring; the 95% intervals come from a bootstrap over deals (the four
rotations of a deal stay together, as they are not independent).

Sections:

* ``medium-easy``: Vừa vs 3 × Dễ (goal: Vừa at most 60% of Dễ's points).
* ``hard-medium``: Khó vs 3 × Vừa (goal: at most 75%).
* ``hard-ismcts-sims``: Khó at its budget vs 3 × OpenSpiel ISMCTS given a fixed
  number of simulations per move (``--ismcts-sims``; by default calibrated at
  the start to Khó's median CPU per play on the same positions), so load on the
  machine cannot move either side's budget (ISMCTS only plays; Vừa passes for
  it); an OpenSpiel state is kept in lockstep with ours and checked card by card.
* ``hard-ismcts``: the same with both on one wall-clock budget (``--ismcts-ms``).
* ``oracle-medium``: the face-up oracle (bench/oracle.py) vs 3 × Vừa, and the
  fraction of the Vừa-to-oracle gap that Khó closes (on the same deals).
* the other tables (issue 8), each hero against n - 1 copies, every deal played
  n times: ``medium-easy-3p``, ``hard-medium-3p``, ``medium-easy-5p``,
  ``hard-medium-5p`` (3 and 5 players), ``medium-easy-qsjd`` and
  ``hard-medium-qsjd`` (four players, Q♠ breaks hearts and J♦ −10).  Not in the
  default run: ask with ``--only``.
* ``hard-yardstick`` and ``yardstick-hard`` (issue 12): Khó (``--iterations``
  for equal CPU per card) vs 3 × the frozen yardstick ``hard-2026-11``
  (bench/yardstick), and the yardstick vs 3 × Khó.  Ask with ``--only``.
* ``hard-hard``: Khó with ``--hard`` options vs 3 × Khó with ``--opp-hard``
  options (a cheap screen of one lever at a small budget).  Ask with ``--only``.
* decision times per level (p50, p95) over every decision with 2+ choices.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from options import parse_options
from oracle import OracleBot
from yardstick import NAME as YARDSTICK
from yardstick import yardstick

from hearts.bots.base import get_bot
from hearts.bots.hard import HardBot, any_void
from hearts.bots.hard.reference import rollout
from hearts.bots.hard.sampling import DealSampler
from hearts.hand import HandState
from hearts.rules import Rules

RULES = Rules()
SEED = 20261129


#: The tables of the variant sections: rules by name suffix.
TABLES = {
    "3p": Rules(players=3),
    "5p": Rules(players=5),
    "qsjd": Rules(qs_breaks_hearts=True, jd_bonus=True),
}


def deal_for(index: int, rules: Rules = RULES) -> tuple[list[int], int]:
    """Deal ``index`` of the fixed benchmark sequence: a mask per seat and a hand
    number (the pass direction cycles through the table's cycle)."""
    rng = random.Random(SEED * 1000 + index)
    hand_number = index % rules.pass_cycle_length + 1
    state = HandState.deal(rules, hand_number, rng)
    return list(state.deal_masks), hand_number


class PolicyBot:
    """The playout policy as a player (a yardstick while tuning Khó)."""

    name = "policy"

    def __init__(self, **_: Any) -> None:
        self._hard = HardBot(passing="medium")

    def choose_pass(self, view: Any) -> int:
        return self._hard.choose_pass(view)

    def choose_play(self, view: Any) -> int:
        legal = view.legal
        if legal & (legal - 1) == 0:
            return int(legal.bit_length() - 1)
        hands = DealSampler(view).draw(random.Random(0))
        rec: list[int] = []
        pen = [0] * view.n
        rollout(
            hands,
            [c for _, c in view.trick],
            view.leader,
            len(view.plays),
            view.broken,
            pen,
            -1,
            RULES.qs_breaks_hearts,
            RULES.lead_card,
            rec,
            voids=any_void(view),
        )
        return rec[0]


class TimedIsmcts:
    """OpenSpiel ISMCTS on a wall-clock budget per move.

    On a loaded machine a short budget can expire before the first simulation
    (OpenSpiel then fails a check); the move is retried with twice the time.
    """

    def __init__(self, seconds: float, seed: int) -> None:
        from openspiel_ref import ISMCTSPlayer

        self.seconds = seconds
        self.seed = seed
        self.make = ISMCTSPlayer
        self.player = ISMCTSPlayer(simulations=10_000_000, seed=seed, time_budget=seconds)
        self.retries = 0

    def choose_play(self, os_state: Any) -> int:
        import pyspiel

        budget = self.seconds
        for _ in range(4):
            try:
                return int(self.player.choose_play(os_state))
            except pyspiel.SpielError:
                self.retries += 1
                budget *= 2
                self.player = self.make(simulations=10_000_000, seed=self.seed, time_budget=budget)
        return int(self.make(simulations=200, seed=self.seed).choose_play(os_state))


class Seat:
    """A player at the table: a bot of ours, the oracle, or OpenSpiel ISMCTS."""

    def __init__(self, kind: str, options: dict[str, Any]) -> None:
        self.kind = kind
        self.options = options
        self.times: list[float] = []
        self.cpu_times: list[float] = []
        self.pass_times: list[float] = []
        self.pass_cpu_times: list[float] = []
        if kind == "policy":
            self.bot = PolicyBot()
        elif kind == "oracle":
            self.bot: Any = OracleBot(**options)
        elif kind == YARDSTICK:
            self.bot = yardstick(**options)
        elif kind == "ismcts" and "simulations" in options:
            from openspiel_ref import ISMCTSPlayer

            self.bot = ISMCTSPlayer(simulations=options["simulations"], seed=options.get("seed", 0))
            self.passer = get_bot("medium")
        elif kind == "ismcts":
            self.bot = TimedIsmcts(options["time_budget"], options.get("seed", 0))
            self.passer = get_bot("medium")
        else:
            self.bot = get_bot(kind, **options)


def play_deal(
    deal: list[int],
    hand_number: int,
    seats: Sequence[Seat],
    lockstep: bool = False,
    rules: Rules = RULES,
    earlier: list[tuple[tuple[int, int], ...]] | None = None,
    taken: list[tuple[int, int]] | None = None,
) -> list[int]:
    """Play one hand with ``seats[s]`` in seat s; the hand's points per seat.
    ``earlier``: the plays of hands this table played before (given to every
    view as the match's memory); this hand's plays are appended to it; ``taken``
    gets the seat that took J♦ and the seat that shot the moon (-1: none)."""
    state = HandState(rules, deal, rules.pass_direction(hand_number))
    memory = tuple(earlier or ())
    os_state = None
    if lockstep or any(s.kind == "ismcts" for s in seats):
        import openspiel_ref as osr

        os_state = osr.new_state(deal, state.direction)
    if state.phase == "pass":
        passes = []
        for seat, player in enumerate(seats):
            view = state.view(seat, hand_number=hand_number, earlier=memory)
            bot = player.passer if player.kind == "ismcts" else player.bot
            t0 = time.perf_counter()
            c0 = time.process_time()
            mask = bot.choose_pass(view)
            player.pass_times.append(time.perf_counter() - t0)
            player.pass_cpu_times.append(time.process_time() - c0)
            passes.append(mask)
        for seat, mask in enumerate(passes):
            state.pass_cards(seat, mask)
        if os_state is not None:
            osr.apply_passes(os_state, passes)
    while not state.is_terminal():
        seat = state.turn
        player = seats[seat]
        view = state.view(seat, hand_number=hand_number, earlier=memory)
        several = view.legal & (view.legal - 1) != 0
        t0 = time.perf_counter()
        c0 = time.process_time()
        if player.kind == "ismcts":
            assert os_state is not None
            card = player.bot.choose_play(os_state)
        elif player.kind == "oracle":
            card = player.bot.choose_play_face_up(view, state.hands[:])
        else:
            card = player.bot.choose_play(view)
        if several:
            player.times.append(time.perf_counter() - t0)
            player.cpu_times.append(time.process_time() - c0)
        state.play(card, seat)
        if os_state is not None:
            osr.apply_play(os_state, card)
    points = state.points()
    if os_state is not None:
        assert osr.hand_points(os_state) == points, "OpenSpiel disagrees on the points"
    if earlier is not None:
        earlier.append(state.seat_plays())
    if taken is not None:
        taken.append((state.jd_taker(), state.shooter()))
    return points


#: The hands each table (hero, opponents, rotation) played last in this process,
#: for ``--memory``: a bot's memory of how the others play (PlayerView.earlier).
_MEMORY: dict[tuple[str, int], list[tuple[tuple[int, int], ...]]] = {}


def calibrate_ismcts(hard_opts: dict[str, Any], deals: int = 2, probe: int = 400) -> int:
    """Simulations per move that cost ISMCTS what a play costs Khó in CPU: both
    timed (process CPU, which other load hardly moves) on the same positions,
    those of ``deals`` hands played by Vừa at every seat."""
    import openspiel_ref as osr

    hard, medium = get_bot("hard", **hard_opts), get_bot("medium")
    ismcts = osr.ISMCTSPlayer(simulations=probe, seed=1)
    hard_cpu: list[float] = []
    ismcts_cpu: list[float] = []
    for index in range(deals):
        deal, hand_number = deal_for(10_000 + index, RULES)
        state = HandState(RULES, deal, RULES.pass_direction(hand_number))
        os_state = osr.new_state(deal, state.direction)
        if state.phase == "pass":
            passes = [
                medium.choose_pass(state.view(seat, hand_number=hand_number)) for seat in range(4)
            ]
            for seat, mask in enumerate(passes):
                state.pass_cards(seat, mask)
            osr.apply_passes(os_state, passes)
        while not state.is_terminal():
            view = state.view(state.turn, hand_number=hand_number)
            if view.legal & (view.legal - 1):
                c0 = time.process_time()
                hard.choose_play(view)
                c1 = time.process_time()
                ismcts.choose_play(os_state)
                hard_cpu.append(c1 - c0)
                ismcts_cpu.append(time.process_time() - c1)
            card = medium.choose_play(view)
            state.play(card, state.turn)
            osr.apply_play(os_state, card)
    k, i = statistics.median(hard_cpu), statistics.median(ismcts_cpu)
    sims = max(1, round(probe * k / i))
    print(
        f"calibration: Khó {k * 1000:.1f} ms CPU per play, ISMCTS {i * 1000:.1f} ms per"
        f" {probe} simulations (medians of {len(hard_cpu)} positions): {sims} simulations",
        flush=True,
    )
    return sims


def _run_deal(
    args: tuple[int, str, dict[str, Any], str, dict[str, Any], dict[str, Any], int],
) -> tuple[int, list[float], list[float], dict[str, list[float]], list[int], int, list[int]]:
    """Play deal ``index`` in one rotation per seat: the hero's points and the
    opponents' mean, per rotation, the decision times, the moons and J♦ taken (by
    the hero, by an opponent) and the rotations whose memory opened.  With ``memory`` > 0 each
    rotation's table remembers that many of the hands it played before in this
    process (the deals before, in a run with one job), as a match would."""
    index, hero_kind, hero_opts, opp_kind, opp_opts, rules_json, memory = args
    rules = Rules.from_json(rules_json)
    n = rules.players
    deal, hand_number = deal_for(index, rules)
    hero = Seat(hero_kind, hero_opts)
    opp = Seat(opp_kind, opp_opts)
    mine, theirs = [], []
    moons = [0, 0]  # moons the hero shot, moons an opponent shot
    jd = [0, 0]  # J♦ taken by the hero, by an opponent
    opened = 0  # rotations whose memory shows the hero players of habit (--memory)
    opp_label = opp_kind if opp_kind != hero_kind else f"{opp_kind}-opp"
    for rot in range(n):
        seats = [opp] * n
        seats[rot] = hero
        earlier = None
        if memory:
            key = (repr((hero_kind, hero_opts, opp_kind, opp_opts, rules_json)), rot)
            earlier = _MEMORY.setdefault(key, [])
            del earlier[: max(0, len(earlier) - memory)]
            opened += _habit_remembered(rules, rot, earlier, hero_opts)
        taken: list[tuple[int, int]] = []
        pts = play_deal(deal, hand_number, seats, rules=rules, earlier=earlier, taken=taken)
        taker, shooter = taken[0]
        if taker >= 0:
            jd[0 if taker == rot else 1] += 1
        mine.append(float(pts[rot]))
        if shooter >= 0:
            moons[0 if shooter == rot else 1] += 1
        theirs.append(sum(p for s, p in enumerate(pts) if s != rot) / (n - 1))
    times = {
        f"{hero_kind}:play": hero.times,
        f"{opp_label}:play": opp.times,
        f"{hero_kind}:play-cpu": hero.cpu_times,
        f"{opp_label}:play-cpu": opp.cpu_times,
        f"{hero_kind}:pass": hero.pass_times,
        f"{hero_kind}:pass-cpu": hero.pass_cpu_times,
        f"{opp_label}:pass": opp.pass_times,
    }
    return index, mine, theirs, times, moons, opened, jd


def _habit_remembered(
    rules: Rules, seat: int, earlier: list[tuple[tuple[int, int], ...]], opts: dict[str, Any]
) -> bool:
    """Whether Khó in ``seat`` with this memory judges the others players of habit
    (``HardBot(remember=...)`` then opens its places)."""
    from hearts.bots.hard import DEFAULT_REMEMBER_FROM, DEFAULT_REMEMBER_SHARE
    from hearts.bots.hard.memory import unlike_share_in

    share, made = unlike_share_in(earlier, seat, rules)
    least = opts.get("remember_from", DEFAULT_REMEMBER_FROM)
    return made >= least and share < opts.get("remember_share", DEFAULT_REMEMBER_SHARE)


def moon_shooter(points: Sequence[int]) -> int:
    """The seat that shot the moon in a hand scored ``points`` (-1: none).  At the
    bench's rules (moons add 26 to the others) that seat scored 0, every other 26
    (or more, with the J♦ bonus off)."""
    zero = [s for s, p in enumerate(points) if p == 0]
    if len(zero) == 1 and all(p >= 26 for s, p in enumerate(points) if s != zero[0]):
        return zero[0]
    return -1


def run_section(
    hero: tuple[str, dict[str, Any]],
    opp: tuple[str, dict[str, Any]],
    deals: int,
    jobs: int,
    progress: str,
    rules: Rules = RULES,
    save: Callable[[dict[str, Any]], None] | None = None,
    first: int = 0,
    memory: int = 0,
) -> dict[str, Any]:
    """Play the section; with ``save``, the section so far is handed to it after
    every deal (a long run stopped early keeps what it played); ``memory``: hands
    each table remembers (:func:`_run_deal`)."""
    tasks = [
        (i, hero[0], hero[1], opp[0], opp[1], rules.to_json(), memory)
        for i in range(first, first + deals)
    ]
    results: list[Any] = []
    start = time.time()
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            iterator = pool.imap_unordered(_run_deal, tasks)
            for done, res in enumerate(iterator, 1):
                results.append(res)
                _progress(progress, done, deals, start)
                if save is not None:
                    save(_section(hero, opp, rules, results, start))
    else:
        for done, task in enumerate(tasks, 1):
            results.append(_run_deal(task))
            _progress(progress, done, deals, start)
            if save is not None:
                save(_section(hero, opp, rules, results, start))
    return _section(hero, opp, rules, results, start)


def _section(
    hero: tuple[str, dict[str, Any]],
    opp: tuple[str, dict[str, Any]],
    rules: Rules,
    results: list[Any],
    start: float,
) -> dict[str, Any]:
    results = sorted(results)
    times: dict[str, list[float]] = defaultdict(list)
    for r in results:
        for k, v in r[3].items():
            times[k].extend(v)
    per_deal = [(statistics.fmean(r[1]), statistics.fmean(r[2])) for r in results]
    return {
        "hero": hero[0],
        "hero_options": hero[1],
        "opponent": opp[0],
        "opponent_options": opp[1],
        "deals": len(results),
        "rules": rules.to_json(),
        "hands": rules.players * len(results),
        "per_deal": per_deal,
        "moons": [r[4] for r in results],
        "memory_opened": [r[5] for r in results],
        "jd": [r[6] for r in results],
        "times": dict(times),
        "seconds": time.time() - start,
        "first": results[0][0] if results else 0,
    }


def join(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Section ``b`` played after ``a`` (a run's sequel, ``--first``, or a later
    block of deals): their deals in that order, for the same players, options and
    rules only.  Blocks with deals missing between them keep their deal indices
    (``indices``), so they still pair deal by deal."""
    same = ("hero", "hero_options", "opponent", "opponent_options", "rules")
    if any(a[k] != b[k] for k in same):
        raise SystemExit(f"--load: sections of {a['hero']} vs {a['opponent']} differ")
    ia = deals_of(a)
    ib = deals_of(b, ia[-1] + 1 if ia else 0)
    if ia and ib and ib[0] <= ia[-1]:
        raise SystemExit(
            f"--load: deals from {ib[0]} do not follow {span(ia)} (give the runs in deal order)"
        )
    # Saved results may have no decision times (bench/results drops them).
    times = {k: list(v) for k, v in a.get("times", {}).items()}
    for k, v in b.get("times", {}).items():
        times.setdefault(k, []).extend(v)
    out = {
        **a,
        "deals": a["deals"] + b["deals"],
        "hands": a["hands"] + b["hands"],
        "per_deal": [*a["per_deal"], *b["per_deal"]],
        "moons": [*a.get("moons", []), *b.get("moons", [])],
        "times": times,
        "seconds": a["seconds"] + b["seconds"],
    }
    for key in ("memory_opened", "jd"):
        if key in a and key in b:
            out[key] = [*a[key], *b[key]]
        else:
            out.pop(key, None)
    indices = [*ia, *ib]
    if indices and indices != list(range(indices[0], indices[0] + len(indices))):
        out["indices"] = indices
    return out


def deals_of(sec: dict[str, Any], first: int = 0) -> list[int]:
    """A section's deal indices in order: from its ``first`` (else ``first``), or
    its ``indices`` where blocks with gaps between them were joined."""
    if "indices" in sec:
        return list(sec["indices"])
    start = sec.get("first", first)
    return list(range(start, start + sec["deals"]))


def span(deals: list[int]) -> str:
    """Deal indices as ranges: ``0–39, 80–119``."""
    runs: list[list[int]] = []
    for d in deals:
        if runs and d == runs[-1][1] + 1:
            runs[-1][1] = d
        else:
            runs.append([d, d])
    return ", ".join(f"{lo}–{hi}" for lo, hi in runs)


def by_deal(sec: dict[str, Any]) -> dict[int, tuple[float, float]]:
    """A section's (hero, opponents) points a hand by deal index."""
    return {i: (row[0], row[1]) for i, row in zip(deals_of(sec), sec["per_deal"], strict=True)}


def report_pairs(sections: dict[str, dict[str, Any]], base: dict[str, dict[str, Any]]) -> None:
    """Each section beside the same section of ``base`` (another Khó, say) on the
    deals both played: the change of the hero's points a hand and of its margin
    (hero minus opponents), with 95% bootstrap intervals over deals."""
    for name, sec in sections.items():
        if name not in base:
            continue
        mine, theirs = by_deal(sec), by_deal(base[name])
        both = sorted(set(mine) & set(theirs))
        if not both:
            continue
        pairs = [
            (mine[i][0] - theirs[i][0], (mine[i][0] - mine[i][1]) - (theirs[i][0] - theirs[i][1]))
            for i in both
        ]
        other = base[name]
        print(f"\n== {name}: {_who(sec)}\n   against {_who(other)}")
        print(f"   on the same {len(both)} deals ({span(both)}), "
              f"{sum(1 for x, y in pairs if x or y)} of them played otherwise")  # fmt: skip
        print(f"   hero points/hand: {fmt(bootstrap(pairs, _hero))}")
        print(f"   margin (hero - opponents): {fmt(bootstrap(pairs, _opp))}")
        n = Rules.from_json(sec.get("rules", {})).players
        moons, their_moons = counts_by_deal(sec, "moons"), counts_by_deal(other, "moons")
        if all(i in moons and i in their_moons for i in both):
            # Per 100 hands: (conceded, shot), the hero's minus the other's.
            diffs = [
                tuple(100.0 * (moons[i][k] - their_moons[i][k]) / n for k in (1, 0)) for i in both
            ]
            print(f"   moons per 100 hands, conceded: {fmt(bootstrap(diffs, _hero))}; "
                  f"shot: {fmt(bootstrap(diffs, _opp))}")  # fmt: skip
        jd, their_jd = counts_by_deal(sec, "jd"), counts_by_deal(other, "jd")
        if Rules.from_json(sec.get("rules", {})).jd_bonus and all(
            i in jd and i in their_jd for i in both
        ):
            diffs = [(100.0 * (jd[i][0] - their_jd[i][0]) / n, 0.0) for i in both]
            print(f"   J♦ taken by the hero per 100 hands: {fmt(bootstrap(diffs, _hero))}")


def counts_by_deal(sec: dict[str, Any], key: str) -> dict[int, tuple[int, int]]:
    """A section's ``moons`` or ``jd`` (the hero's, the opponents') by deal index;
    none for sections saved without them."""
    counts = sec.get(key) or []
    if len(counts) != sec["deals"]:
        return {}
    return {i: (m[0], m[1]) for i, m in zip(deals_of(sec), counts, strict=True)}


def _who(sec: dict[str, Any]) -> str:
    """A section's players and their options: ``hero {...} vs 3 x opponent {...}``."""
    n = Rules.from_json(sec.get("rules", {})).players
    hero = f"{sec['hero']} {sec.get('hero_options') or ''}".rstrip()
    opponent = f"{sec['opponent']} {sec.get('opponent_options') or ''}".rstrip()
    return f"{hero} vs {n - 1} x {opponent}"


def _progress(label: str, done: int, total: int, start: float) -> None:
    if sys.stderr.isatty() or done % 10 == 0 or done == total:
        rate = (time.time() - start) / done
        print(
            f"\r{label}: {done}/{total} deals, {rate:.1f} s/deal",
            end="\n" if done == total else "",
            file=sys.stderr,
            flush=True,
        )


def bootstrap(
    per_deal: Sequence[tuple[float, float]],
    stat: Callable[[Sequence[tuple[float, float]]], float],
    reps: int = 2000,
) -> tuple[float, float, float]:
    """The statistic and its 95% percentile-bootstrap interval (resampling deals)."""
    rng = random.Random(7)
    value = stat(per_deal)
    k = len(per_deal)
    samples = sorted(stat([per_deal[rng.randrange(k)] for _ in range(k)]) for _ in range(reps))
    return value, samples[int(0.025 * reps)], samples[int(0.975 * reps) - 1]


def _hero(d: Sequence[tuple[float, float]]) -> float:
    return statistics.fmean(h for h, _ in d)


def _opp(d: Sequence[tuple[float, float]]) -> float:
    return statistics.fmean(o for _, o in d)


def _ratio(d: Sequence[tuple[float, float]]) -> float:
    return _hero(d) / _opp(d)


def summarize(sec: dict[str, Any]) -> dict[str, Any]:
    d = sec["per_deal"]
    return {
        "hero": bootstrap(d, _hero),
        "opponent": bootstrap(d, _opp),
        "ratio": bootstrap(d, _ratio),
    }


def fmt(t: Sequence[float]) -> str:
    return f"{t[0]:.2f} [{t[1]:.2f}, {t[2]:.2f}]"


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def report(sections: dict[str, dict[str, Any]]) -> None:
    goals = {"medium-easy": 0.60, "hard-medium": 0.75}
    for name, sec in sections.items():
        s = summarize(sec)
        rules = Rules.from_json(sec.get("rules", {}))
        n = rules.players
        print(f"\n== {name}: {_who(sec)}")
        if rules != RULES:
            print(f"   rules: {json.dumps(rules.to_json())}")
        print(
            f"   {sec['deals']} deals x {n} rotations = {sec['hands']} hands, "
            f"{sec['seconds']:.0f} s"
        )
        if "indices" in sec:
            print(f"   deals {span(sec['indices'])}")
        print(f"   {sec['hero']:>8} points/hand: {fmt(s['hero'])}")
        print(f"   {sec['opponent']:>8} points/hand: {fmt(s['opponent'])}")
        goal = goals.get(name)
        tail = f"  (goal <= {goal:.2f})" if goal else ""
        print(f"   ratio hero/opponent: {fmt(s['ratio'])}{tail}")
        moons = sec.get("moons") or []
        if len(moons) == sec["deals"] and moons:
            per_100 = [(100 * m[0] / n, 100 * m[1] / n) for m in moons]
            shot, conceded = bootstrap(per_100, _hero), bootstrap(per_100, _opp)
            hero = sec["hero"]
            print(f"   moons per 100 hands: {hero} shot {fmt(shot)}, opponents {fmt(conceded)}")
        jd = sec.get("jd") or []
        if rules.jd_bonus and len(jd) == sec["deals"] and jd:
            # Per 100 hands a seat holds: the hero's, and one opponent's (their mean).
            per_seat = [(100 * j[0] / n, 100 * j[1] / (n - 1) / n) for j in jd]
            mine, each = bootstrap(per_seat, _hero), bootstrap(per_seat, _opp)
            print(f"   J♦ taken per 100 hands: {sec['hero']} {fmt(mine)}, "
                  f"each {sec['opponent']} {fmt(each)}")  # fmt: skip
        if name.startswith("hard-ismcts"):
            sep = s["hero"][2] < s["opponent"][1]
            print(f"   Khó lower with non-overlapping 95% intervals: {'yes' if sep else 'no'}")
    if "oracle-medium" in sections and "hard-medium" in sections:
        hm, om = sections["hard-medium"], sections["oracle-medium"]
        k = min(hm["deals"], om["deals"])
        paired = [
            (h[0] - h[1], o[0] - o[1])
            for h, o in zip(hm["per_deal"][:k], om["per_deal"][:k], strict=True)
        ]

        def closed(d: Sequence[tuple[float, float]]) -> float:
            return statistics.fmean(x for x, _ in d) / statistics.fmean(y for _, y in d)

        print(f"\n== gap closed: Khó's (hero - Vừa) margin / the oracle's, {k} paired deals")
        print(f"   fraction of the Vừa-to-oracle gap Khó closes: {fmt(bootstrap(paired, closed))}")
    times: dict[str, list[float]] = defaultdict(list)
    for sec in sections.values():
        for k, v in sec.get("times", {}).items():
            times[k].extend(v)
    print("\n== decision times (s), decisions with 2+ choices; wall clock, and the")
    print("   process CPU time (what the decision costs without other load)")
    print(f"   load average now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for k in sorted(times):
        v = times[k]
        if v:
            print(f"   {k:>14}: p50 {pct(v, 0.5):.4f}  p95 {pct(v, 0.95):.4f}  (n={len(v)})")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--hands", type=int, default=200, help="deals per section (x4 rotations)")
    p.add_argument("--first", type=int, default=0, help="index of the first deal (a run's sequel)")
    p.add_argument("--quick", action="store_true", help="few deals, reduced Khó budget")
    p.add_argument("--only", nargs="*", default=None, help="sections to run")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--iterations", type=int, default=None, help="Khó's playouts per play")
    p.add_argument(
        "--ismcts-ms",
        type=float,
        default=100.0,
        help="wall-clock ms per move for both Khó and ISMCTS (hard-ismcts)",
    )
    p.add_argument(
        "--ismcts-sims",
        type=int,
        default=None,
        help="ISMCTS simulations per move (hard-ismcts-sims); default: calibrated",
    )
    p.add_argument("--opponent", default="medium", help="opponent of Khó and the oracle")
    p.add_argument("--hard", nargs="*", default=[], help="Khó options, key=value")
    p.add_argument(
        "--opp-hard",
        nargs="*",
        default=[],
        help="options of the 3 Khó opponents in hard-hard, key=value (screening a lever)",
    )
    p.add_argument(
        "--memory",
        type=int,
        default=0,
        help="each table remembers this many hands it played before (PlayerView.earlier)",
    )
    p.add_argument("--out", type=str, default=None, help="write raw results as JSON")
    p.add_argument(
        "--load",
        nargs="*",
        default=[],
        help="report saved JSON results too; to run nothing, give a bare --only (--only "
        "NAME runs NAME as well); a section in several files is joined in their order (a "
        "run and its sequels, --first)",
    )
    p.add_argument(
        "--pair-with",
        nargs="*",
        default=[],
        help="saved JSON results (joined as --load's) to set each section beside, deal by deal",
    )
    return p


def _plan(args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, Any], dict[str, Rules]]:
    """Khó's options, (hero, opponent) by section, and each variant section's rules."""
    hard_opts: dict[str, Any] = {}
    if args.iterations is not None:
        hard_opts["iterations"] = args.iterations
    elif args.quick:
        hard_opts["iterations"] = 1000
    hard_opts.update(parse_options(args.hard))
    opp_opts = parse_options(args.opp_hard)
    plan = {
        "medium-easy": (("medium", {}), ("easy", {})),
        "hard-medium": (("hard", hard_opts), (args.opponent, {})),
        "oracle-medium": (("oracle", hard_opts), (args.opponent, {})),
        "policy-medium": (("policy", {}), ("medium", {})),
        # Issue 12: today's Khó against the frozen yardstick, both ways.
        "hard-yardstick": (("hard", hard_opts), (YARDSTICK, {})),
        "yardstick-hard": ((YARDSTICK, {}), ("hard", hard_opts)),
        # Screening a lever cheaply: Khó (--hard) vs 3 × Khó (--opp-hard).
        "hard-hard": (("hard", hard_opts), ("hard", opp_opts)),
    }
    tables: dict[str, Rules] = {}
    for suffix, table in TABLES.items():
        plan[f"medium-easy-{suffix}"] = (("medium", {}), ("easy", {}))
        plan[f"hard-medium-{suffix}"] = (("hard", hard_opts), (args.opponent, {}))
        tables[f"medium-easy-{suffix}"] = tables[f"hard-medium-{suffix}"] = table
    return hard_opts, plan, tables


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    deals = 12 if args.quick and args.hands == 200 else args.hands
    hard_opts, plan, tables = _plan(args)
    sections = load(args.load)
    base = load(args.pair_with)
    if args.only is not None:
        want = args.only
    elif args.load:
        want = []  # report what was loaded; run nothing more
    else:
        want = ["medium-easy", "hard-medium", "oracle-medium", "hard-ismcts-sims"]
    for name in want:
        if name == "hard-ismcts":
            # Equal time: both on the same wall-clock budget per move.
            ms = args.ismcts_ms
            timed = {k: v for k, v in hard_opts.items() if k != "iterations"}
            timed["budget_ms"] = ms
            plan[name] = (("hard", timed), ("ismcts", {"time_budget": ms / 1000.0}))
        if name == "hard-ismcts-sims":
            # Equal CPU, fixed counts: Khó's playouts against ISMCTS's simulations.
            sims = args.ismcts_sims or calibrate_ismcts(hard_opts)
            plan[name] = (("hard", hard_opts), ("ismcts", {"simulations": sims}))
        hero, opp = plan[name]

        def save(section: dict[str, Any], name: str = name) -> None:
            if args.out:
                Path(args.out).write_text(json.dumps({**sections, name: section}))

        sections[name] = run_section(
            hero, opp, deals, args.jobs, name, tables.get(name, RULES), save, args.first,
            args.memory,
        )  # fmt: skip
        save(sections[name])
    report(sections)
    report_pairs(sections, base)
    return 0


def load(paths: list[str]) -> dict[str, dict[str, Any]]:
    """Saved results by section, a section in several files joined in their order."""
    sections: dict[str, dict[str, Any]] = {}
    for path in paths:
        for name, sec in json.loads(Path(path).read_text()).items():
            sections[name] = join(sections[name], sec) if name in sections else sec
    return sections


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
