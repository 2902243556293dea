"""Engine speed beside OpenSpiel's ``hearts`` through its Python binding, same run.

    python3 bench/engine.py [--seconds S] [--repeats R]

(a) random full hands per second: deal, random passes, 13 tricks picking uniformly
among the legal cards, score.  (b) play-and-undo steps per second: from a dealt and
passed hand, ``legal_mask`` + random pick + ``push`` to the end of the hand, then
``undo`` back; one step is one card pushed (and later undone).  OpenSpiel has no undo
for hearts, so its step is ``legal_actions`` + ``clone`` + ``apply_action`` (see
``bench/openspiel_ref.py``); the like-for-like row "copy+play" steps ours the same way.
Runs alternate ours/theirs; medians are printed, per wall-clock second and per CPU
second of this process (the machine may be shared).

(c) Khó's playouts per second, in whole play decisions (deal draws, playouts,
values, the halving): today's Khó (compiled kernel) beside the yardstick
``hard-2026-11`` (the pure-Python Khó of 2026-11-30, bench/yardstick) on the same
positions, same run, alternating; and the reference engine's check that the
compiled search chose the same cards as its pure-Python twin.  ``--khó`` runs
only these rows.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from hearts.bots.base import get_bot
from hearts.bots.hard import HardBot
from hearts.hand import HandState
from hearts.rules import Rules
from hearts.view import PlayerView

sys.path.insert(0, str(Path(__file__).resolve().parent))

from yardstick import yardstick


def _openspiel_ref() -> ModuleType | None:
    """``bench/openspiel_ref.py`` loaded by path; None without pyspiel."""
    if importlib.util.find_spec("pyspiel") is None:
        return None
    path = Path(__file__).resolve().parent / "openspiel_ref.py"
    spec = importlib.util.spec_from_file_location("openspiel_ref", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _picker(rng: random.Random) -> Callable[[int], int]:
    """A uniform choice among the set bits of a mask (the r-th card, counted from
    whichever end of the mask is nearer)."""
    rand = rng.random

    def pick(mask: int) -> int:
        k = mask.bit_count()
        if k == 1:
            return mask.bit_length() - 1
        r = int(rand() * k)
        if r + r < k:
            while r:
                mask &= mask - 1
                r -= 1
            return (mask & -mask).bit_length() - 1
        r = k - 1 - r
        while r:
            mask ^= 1 << (mask.bit_length() - 1)
            r -= 1
        return mask.bit_length() - 1

    return pick


def _random_passes(state: HandState, pick: Callable[[int], int]) -> None:
    """Every seat passes ``pass_count`` cards drawn uniformly from its hand."""
    for seat in range(state.n):
        held = state.hands[seat]
        chosen = 0
        for _ in range(state.rules.pass_count):
            card = pick(held)
            chosen |= 1 << card
            held ^= 1 << card
        state.pass_cards(seat, chosen)


def random_hands_per_second(seconds: float, seed: int = 0) -> float:
    """Full random hands per second through ``HandState`` (hands 1-4: every pass)."""
    rng = random.Random(seed)
    pick = _picker(rng)
    rules = Rules()
    deal = HandState.deal
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for number in (1, 2, 3, 4):
            state = deal(rules, number, rng)
            if state.phase == "pass":
                _random_passes(state, pick)
            legal = state.legal_mask
            push = state.push
            while state.phase != "done":
                push(pick(legal()))
            state.points()
        hands += 4
    return hands / (time.perf_counter() - start)


def _starts(rng: random.Random) -> list[HandState]:
    """32 hands dealt and passed, ready for the first card (built outside the timing)."""
    pick = _picker(rng)
    starts = []
    for number in range(32):
        state = HandState.deal(Rules(), number % 4 + 1, rng)
        if state.phase == "pass":
            _random_passes(state, pick)
        starts.append(state)
    return starts


def _steps_per_second(
    seconds: float, seed: int, walk: Callable[[HandState, Callable[[int], int]], int]
) -> float:
    """Cards per second of ``walk(start, pick)`` (which returns the cards it
    stepped) over the prepared starts in turn until ``seconds`` have passed."""
    rng = random.Random(seed)
    pick = _picker(rng)
    starts = _starts(rng)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    i = 0
    while time.perf_counter() < deadline:
        steps += walk(starts[i % len(starts)], pick)
        i += 1
    return steps / (time.perf_counter() - start)


def _push_undo(state: HandState, pick: Callable[[int], int]) -> int:
    """A random line to the end of the hand with ``push``, then ``undo`` back."""
    legal = state.legal_mask
    push = state.push
    undo = state.undo
    depth = 0
    while state.phase != "done":
        push(pick(legal()))
        depth += 1
    for _ in range(depth):
        undo()
    return depth


def _copy_push(state: HandState, pick: Callable[[int], int]) -> int:
    """A random line to the end of the hand, ``copy`` + ``push`` for each card."""
    steps = 0
    while state.phase != "done":
        child = state.copy()
        child.push(pick(child.legal_mask()))
        state = child
        steps += 1
    return steps


def play_undo_steps_per_second(seconds: float, seed: int = 0) -> float:
    """Cards pushed (and undone) per second, walking random lines to the end of a hand."""
    return _steps_per_second(seconds, seed, _push_undo)


def copy_push_steps_per_second(seconds: float, seed: int = 0) -> float:
    """Cards played per second the way OpenSpiel must step: ``copy`` + ``push`` each card."""
    return _steps_per_second(seconds, seed, _copy_push)


def khó_positions(count: int = 24, seed: int = 0) -> list[PlayerView]:
    """Play positions with a choice from hands played by Vừa (a pass, trick 2 to 12)."""
    medium = get_bot("medium")
    out = []
    for i in range(count):
        number = i % 4 + 1
        state = HandState.deal(Rules(), number, random.Random(seed * 1000 + i))
        if state.phase == "pass":
            for s in range(4):
                state.pass_cards(s, medium.choose_pass(state.view(s, hand_number=number)))
        stop = 4 + (11 * i) % 40
        k = 0
        while not state.is_terminal():
            view = state.view(state.turn, hand_number=number)
            if k >= stop and view.legal & (view.legal - 1):
                out.append(view)
                break
            state.play(medium.choose_play(view))
            k += 1
    return out


def playouts_per_cpu_second(bot: Any, views: list[PlayerView]) -> tuple[float, float, list[int]]:
    """(playouts per CPU second, CPU seconds per decision, cards chosen) over whole
    play decisions (``weigh_play``: the search a decision runs)."""
    playouts = 0
    cards = []
    cpu = time.process_time()
    for view in views:
        weighing = bot.weigh_play(view)
        playouts += sum(weighing.deals.values())
        cards.append(weighing.choice)
    cpu = time.process_time() - cpu
    return playouts / cpu, cpu / len(views), cards


def khó_rows(repeats: int, iterations: int) -> None:
    views = khó_positions()
    old = yardstick()
    # The playout's speed: plain playouts (the policy at every turn), as the
    # yardstick's; Khó's default looks ahead at every turn, ~30 plain playouts each.
    plain = {"lookahead": 0, "lookahead_others": 0}
    new = HardBot(iterations=iterations, **plain)
    same = HardBot()  # the default budget of today's Khó
    HardBot(iterations=8).weigh_play(views[0])  # compile (or load) the kernel first
    rates: dict[str, list[float]] = {"old": [], "new": [], "default": []}
    per: dict[str, list[float]] = {"old": [], "new": [], "default": []}
    for rep in range(repeats):
        order = [("old", old), ("new", new), ("default", same)]
        for name, bot in order if rep % 2 == 0 else order[::-1]:
            rate, each, _ = playouts_per_cpu_second(bot, views)
            rates[name].append(rate)
            per[name].append(each)
    ref = HardBot(iterations=200, engine="reference", **plain)
    fast = HardBot(iterations=200, **plain)
    agree = sum(ref.choose_play(v) == fast.choose_play(v) for v in views)
    old_rate = statistics.median(rates["old"])
    print(f"\nKhó: playouts per CPU second over {len(views)} play decisions, median of {repeats}")
    print(f"{'':<44} {'playouts/s':>12} {'CPU s/decision':>15} {'ratio':>7}")
    print(
        f"{'yardstick hard-2026-11 (2000/play, Python)':<44} {old_rate:>12,.0f} "
        f"{statistics.median(per['old']):>15.4f} {1.0:>6.2f}x"
    )
    labels = (
        ("new", f"Khó compiled, {iterations}/play, plain"),
        ("default", "Khó default (looks ahead)"),
    )
    for name, label in labels:
        rate = statistics.median(rates[name])
        print(
            f"{label:<44} {rate:>12,.0f} {statistics.median(per[name]):>15.4f} "
            f"{rate / old_rate:>6.2f}x"
        )
    print(
        f"compiled vs pure-Python reference engine (plain playouts): same card in "
        f"{agree}/{len(views)} decisions"
    )


def _row(name: str, ours: list[float], theirs: list[float]) -> str:
    mine = statistics.median(ours)
    if not theirs:
        return f"{name:<34} {mine:>12,.0f} {'-':>12} {'-':>7}"
    ref = statistics.median(theirs)
    return f"{name:<34} {mine:>12,.0f} {ref:>12,.0f} {mine / ref:>6.2f}x"


def _measure(rate: Callable[[float, int], float], seconds: float, seed: int) -> tuple[float, float]:
    """(per wall-clock second, per CPU second of this process) for one timed run.

    The CPU figure is the same count over the process's CPU time: other programs
    sharing the machine slow the wall clock but not it.
    """
    wall, cpu = time.perf_counter(), time.process_time()
    per_wall = rate(seconds, seed)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return per_wall, per_wall * wall / cpu if cpu > 0 else per_wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of each timed run")
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--khó", dest="kho", action="store_true", help="only Khó's playouts/s")
    parser.add_argument("--iterations", type=int, default=2000, help="Khó's playouts per play")
    args = parser.parse_args(argv)
    if args.kho:
        khó_rows(args.repeats, args.iterations)
        return 0
    osr = _openspiel_ref()
    ours = {
        "hands": random_hands_per_second,
        "steps": play_undo_steps_per_second,
        "copies": copy_push_steps_per_second,
    }
    theirs = (
        {"hands": osr.random_hands_per_second, "steps": osr.clone_apply_steps_per_second}
        if osr is not None
        else {}
    )
    # figures[(what, clock)] = (our runs, OpenSpiel's runs)
    figures: dict[tuple[str, str], tuple[list[float], list[float]]] = {
        (what, clock): ([], []) for what in ours for clock in ("wall", "cpu")
    }
    for rep in range(args.repeats):
        # Alternate who goes first, so drift in machine load falls on both sides.
        sides = [(0, ours), (1, theirs)]
        for side, funcs in sides if rep % 2 == 0 else sides[::-1]:
            for what, func in funcs.items():
                wall, cpu = _measure(func, args.seconds, rep + 1)
                figures[(what, "wall")][side].append(wall)
                figures[(what, "cpu")][side].append(cpu)
                if side == 1 and what == "steps":  # OpenSpiel's only way to step
                    figures[("copies", "wall")][1].append(wall)
                    figures[("copies", "cpu")][1].append(cpu)
    print(f"medians of {args.repeats} runs x {args.seconds:g} s, alternating ours/OpenSpiel")
    print(f"{'':<34} {'ours':>12} {'OpenSpiel':>12} {'ratio':>7}")
    names = {"hands": "random full hands", "steps": "play+undo steps", "copies": "copy+play steps"}
    for clock, unit in (("wall", "/ s"), ("cpu", "/ CPU s")):
        for what in ours:
            print(_row(f"{names[what]} {unit}", *figures[(what, clock)]))
    if osr is None:
        print("(OpenSpiel not installed: pip install -e '.[bench]')")
    else:
        print("OpenSpiel step = legal_actions + clone + apply_action (it has no undo for hearts)")
    khó_rows(args.repeats, args.iterations)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
