"""The analysis flood of the audit (issue 37, bench/audit.py ``--only flood``): one
player on Khó steps through its hands while fifteen tokens of one address each finish
a hand on Vừa and ask for its analysis (``Retry-After`` obeyed on 429); its
``/api/step`` p50/p95 beside a quiet run of the same length on the same server
(goal: p95 at most 1.5 times the quiet one)."""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from typing import Any

import httpx
from web import Browser, pct

ANALYSTS = 15


async def khó_steps(base: str, seconds: float) -> list[float]:
    """The seconds of each ``/api/step`` of one player on Khó for ``seconds``."""
    lat: dict[str, list[float]] = defaultdict(list)
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        player = Browser(client, lat)
        await player.start("hard")
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            try:
                await player.move()
            except RuntimeError:  # a 409: the page reads its state again
                player.state = await player.call("state", "GET", "/api/state")
    return lat["step"]


async def analyst(base: str) -> int:
    """A hand on Vừa, then its analysis asked until accepted: the 429s it got."""
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        player = Browser(client, defaultdict(list))
        await player.start("medium")
        while player.state["hand"]["phase"] != "done":
            try:
                await player.move()
            except RuntimeError:
                player.state = await player.call("state", "GET", "/api/state")
        hand = {"hand": player.state["match"]["hand_number"]}
        busy = 0
        while True:
            r = await client.post("/api/analysis", json=hand, headers=player.headers)
            if r.status_code != 429:
                return busy
            busy += 1
            await asyncio.sleep(float(r.headers.get("retry-after", "1")))


async def flood_run(base: str, seconds: float, analysts: int = ANALYSTS) -> dict[str, Any]:
    quiet = await khó_steps(base, seconds)
    loud, *busy = await asyncio.gather(
        khó_steps(base, seconds), *(analyst(base) for _ in range(analysts))
    )
    out = {f"quiet_p{q}": pct(quiet, q) * 1000 for q in (50, 95)}
    out |= {f"flood_p{q}": pct(loud, q) * 1000 for q in (50, 95)}
    out |= {"quiet_steps": len(quiet), "flood_steps": len(loud), "busy": sum(busy)}
    out["ratio"] = out["flood_p95"] / max(out["quiet_p95"], 1e-9)
    return out


def report_flood(report: Any, server: Any, seconds: float) -> None:
    """Run the flood on ``server`` (an audit.Server, started) and report it."""
    res = asyncio.run(flood_run(server.base, seconds))
    report(
        f"One player on Khó stepping for {seconds:.0f} s, alone, then again while"
        f" {ANALYSTS} tokens of one address finish a hand on Vừa and ask for its"
        " analysis (obeying 429's Retry-After). Goal: the flood's p95 at most 1.5× the"
        " quiet one."
    )
    report()
    report("| run | Khó steps | step p50 | step p95 |")
    report("|---|---|---|---|")
    for run in ("quiet", "flood"):
        report(
            f"| {run} | {res[f'{run}_steps']} | {res[f'{run}_p50']:.0f} ms"
            f" | {res[f'{run}_p95']:.0f} ms |"
        )
    report()
    report(f"p95 flood/quiet: {res['ratio']:.2f}×; analyses refused 429 first: {res['busy']}")
