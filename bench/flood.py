"""The background flood of the audit (issues 37 and 57, bench/audit.py ``--only
flood``): one player on Khó steps through its hands while, all at once, fifteen
tokens of one address each finish a hand on Vừa and ask for its analysis, five ask
for a hint (Gợi ý) before each of their own moves, and five finish a hand and ask
what the computers knew (``Retry-After`` obeyed on 429); its ``/api/step`` p50/p95
beside a quiet run of the same length on the same server (goal: p95 at most 1.5
times the quiet one)."""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from typing import Any

import httpx
from web import Browser, pct

ANALYSTS = 15
HINTERS = 5
KNOWERS = 5


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
        await finish_hand(player)
        hand = {"hand": player.state["match"]["hand_number"]}
        return await asked_until_taken(
            client, "POST", "/api/analysis", json=hand, headers=player.headers
        )


async def finish_hand(player: Browser) -> None:
    """The player's moves until its hand is over (a 409: the state asked again)."""
    while player.state["hand"]["phase"] != "done":
        try:
            await player.move()
        except RuntimeError:
            player.state = await player.call("state", "GET", "/api/state")


async def asked_until_taken(client: httpx.AsyncClient, method: str, path: str, **kw: Any) -> int:
    """``method path`` until it is not refused 429 (obeying Retry-After): the 429s."""
    busy = 0
    while True:
        r = await client.request(method, path, **kw)
        if r.status_code != 429:
            return busy
        busy += 1
        await asyncio.sleep(float(r.headers.get("retry-after", "1")))


async def hinter(base: str, seconds: float) -> int:
    """Hands on Vừa for ``seconds``, a hint asked before each of South's moves."""
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        player = Browser(client, defaultdict(list))
        await player.start("medium")
        end = time.perf_counter() + seconds
        busy = 0
        while time.perf_counter() < end:
            if player.souths_move():
                v = {"version": player.state["version"]}
                busy += await asked_until_taken(
                    client, "POST", "/api/hint", json=v, headers=player.headers
                )
            try:
                await player.move()
            except RuntimeError:
                player.state = await player.call("state", "GET", "/api/state")
        return busy


async def knower(base: str) -> int:
    """A hand on Vừa, then what the computers knew in it, asked until accepted."""
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        player = Browser(client, defaultdict(list))
        await player.start("medium")
        await finish_hand(player)
        hand = player.state["match"]["hand_number"]
        return await asked_until_taken(client, "GET", f"/api/knew/{hand}", headers=player.headers)


async def flood_run(base: str, seconds: float, analysts: int = ANALYSTS) -> dict[str, Any]:
    quiet = await khó_steps(base, seconds)
    loud, *busy = await asyncio.gather(
        khó_steps(base, seconds),
        *(analyst(base) for _ in range(analysts)),
        *(hinter(base, seconds) for _ in range(HINTERS)),
        *(knower(base) for _ in range(KNOWERS)),
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
        f" analysis, {HINTERS} ask for a hint before each of their moves and {KNOWERS}"
        " finish a hand and ask what the computers knew (obeying 429's Retry-After)."
        " Goal: the flood's p95 at most 1.5× the quiet one."
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
    report(f"p95 flood/quiet: {res['ratio']:.2f}×; background asks refused 429: {res['busy']}")
