"""16 concurrent /api/step at one version on Khó vs one step, on a real ``hearts serve``.

Each burst is answered once one decision is made (the others are 409 stale), so the
wall time of a burst should stay close to that of one step (before the decisions
were shared: 13×).  Usage: ``python3 bench/step_burst.py [--rounds 8] [--burst 16]``
(PYTHONPATH decides which code is measured).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx


async def to_computer_turn(c: httpx.AsyncClient, h: dict[str, str], s: Any) -> Any:
    """Act for South until it is a computer's card to play."""
    while True:
        hand = s["hand"]
        if hand["phase"] == "play" and hand["turn"] != "S":
            return s
        if s.get("match_over") or s.get("match", {}).get("over"):
            r = await c.post("/api/new-match", headers=h, json={"version": s["version"]})
        elif hand["phase"] == "done":
            r = await c.post("/api/next-hand", headers=h, json={"version": s["version"]})
        elif hand["phase"] == "pass" and hand["passed"] is None:
            body = {"version": s["version"], "cards": hand["cards"][:3]}
            r = await c.post("/api/pass", headers=h, json=body)
        elif hand["phase"] == "pass" or hand["turn"] != "S":
            r = await c.post("/api/step", headers=h, json={"version": s["version"]})
        else:
            body = {"version": s["version"], "card": hand["legal"][0]}
            r = await c.post("/api/play", headers=h, json=body)
        if r.status_code == 409 and r.json()["error"]["code"] in ("wrong_phase", "match_over"):
            r = await c.post("/api/new-match", headers=h, json={"version": s["version"]})
        s = r.json() if r.status_code == 200 else r.json()["state"]


async def measure(url: str, rounds: int, burst: int) -> tuple[list[float], list[float]]:
    limits = httpx.Limits(max_connections=burst + 2)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as c:
        token = (await c.post("/api/players")).json()["token"]
        h = {"Authorization": f"Bearer {token}"}
        s = (await c.put("/api/settings", headers=h, json={"level": "hard"})).json()
        one: list[float] = []
        many: list[float] = []
        for _ in range(rounds):
            for times, n in ((one, 1), (many, burst)):
                s = await to_computer_turn(c, h, s)
                body = {"version": s["version"]}
                t0 = time.perf_counter()
                answers = await asyncio.gather(
                    *(c.post("/api/step", headers=h, json=body) for _ in range(n))
                )
                times.append(time.perf_counter() - t0)
                codes = sorted(a.status_code for a in answers)
                assert codes == [200] + [409] * (n - 1), codes
                s = next(a.json() for a in answers if a.status_code == 200)
        return one, many


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--burst", type=int, default=16)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        env = {k: v for k, v in os.environ.items() if not k.startswith("HEARTS_")}
        proc = subprocess.Popen(
            [sys.executable, "-m", "hearts", "serve", "--port", "0", "--data-dir", data],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            start_new_session=True,
        )
        try:
            assert proc.stdout is not None
            url = proc.stdout.readline().strip()
            one, many = asyncio.run(measure(url, args.rounds, args.burst))
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
    m1, mn = statistics.median(one), statistics.median(many)
    print(f"one step on Khó: median {m1 * 1000:.0f} ms over {len(one)}")
    print(f"{args.burst} concurrent steps at one version: median {mn * 1000:.0f} ms")
    print(f"ratio: {mn / m1:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
