"""Server CPU per solo hand, this tree beside another commit's, alternating.

Each round starts ``hearts serve`` from one source tree (this one, then ``--base``'s),
plays ``--hands`` hands of Vừa's table through the API as the page does (web.py's
Browser: pass, play, one step per computer card, next hand), and reads the server
process's CPU time before and after. The rounds alternate the two trees, so a busy
moment of the machine falls on both; the medians and their ratio are printed.

    git worktree add /tmp/base <commit>
    python3 bench/solo_cpu.py --base /tmp/base --rounds 5 --hands 20
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import statistics
import sys
import tempfile
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web import Browser, cpu_seconds, start_server

HERE = Path(__file__).resolve().parent.parent


async def hands(base: str, pid: int, count: int, level: str) -> float:
    """Server CPU seconds for ``count`` hands played one after another."""
    lat: dict[str, list[float]] = collections.defaultdict(list)
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        page = Browser(client, lat)
        await page.start(level)
        for _ in range(2):  # warm: the first requests import and compile
            await page.answered()
        before = cpu_seconds(pid)
        for _ in range(count):
            while page.state["hand"]["phase"] != "done":
                await page.move()
            await page.move()  # the next hand (or a new match)
        return cpu_seconds(pid) - before


def one_round(tree: Path, count: int, level: str) -> float:
    env = {"PYTHONPATH": str(tree / "src")}
    with tempfile.TemporaryDirectory() as data:
        proc, base = start_server(data, "NORMAL", env)
        try:
            return asyncio.run(hands(base, proc.pid, count, level)) / count
        finally:
            proc.terminate()
            proc.wait(30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", required=True, help="the other tree (a git worktree)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--level", default="medium")
    args = parser.parse_args()
    trees = {"this": HERE, "base": Path(args.base).resolve()}
    got: dict[str, list[float]] = {name: [] for name in trees}
    for r in range(args.rounds):
        for name, tree in trees.items():
            got[name].append(one_round(tree, args.hands, args.level))
            print(f"round {r + 1} {name}: {got[name][-1] * 1000:.1f} ms CPU a hand", flush=True)
    this, base = (statistics.median(got[n]) for n in ("this", "base"))
    print(f"server CPU per {args.level} hand, median of {args.rounds} rounds of {args.hands}:")
    print(f"  this tree {this * 1000:.1f} ms, base {base * 1000:.1f} ms, ratio {this / base:.3f}")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    raise SystemExit(main())
