"""Web game latency under load: `hearts serve` on loopback and a load generator.

Starts ``hearts serve --port 0`` with a temporary data directory, then measures,
with httpx on loopback only:

1. the reference: a trivial static GET (``/static/js/api.js``), same run;
2. a human action answered: South's play (or pass) and the computers' replies
   through ``/api/step`` until it is South's turn again, with Dễ and Vừa bots,
   one match at a time: p50/p95 of each call and of the whole answer;
3. concurrent matches: N simulated browsers, each acting then pausing ``--think``
   ms (a quick-play page shows each card about that long), for ``--seconds`` per
   level; N grows along ``--levels`` until p95 passes 100 ms;

each with SQLite's ``synchronous=FULL`` (the default: an fsync per action) and
``NORMAL`` (WAL: no fsync per commit; survives a server crash, not a power cut);

4. Khó's capacity: N concurrent matches on Khó (each browser acting as in 3),
   N along ``--hard-levels``; a computer card is one ``/api/step``, and the
   figure is the most matches whose computer cards answer at p95 ≤ 1 s. The
   same is measured, in the same run, on a server whose Khó is the frozen
   yardstick ``hard-2026-11`` (bench/yardstick, swapped in by a
   ``sitecustomize`` that only this bench puts on the server's path), and on a
   server for each ``--hard-variant`` (Khó with those options, the same way).

Bounded by count and time; every figure is a median/percentile of this run.

    nice python3 bench/web.py [--seconds 6] [--think 250] [--levels 10,25,50,100]
        [--sync FULL,NORMAL] [--hard-levels 1,2,4,8,16] [--hard-seconds 20]
        [--no-hard-reference] [--hard-variant iterations=1000,adapt_hide=4 ...]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from typing import Any

import httpx
from options import parse_options

#: The label of the server whose Khó is the frozen yardstick (the reference).
YARDSTICK = "yardstick hard-2026-11"


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def row(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (
        f"  {name:<34} n={len(ms):>5}  p50={pct(ms, 50):7.2f} ms  p95={pct(ms, 95):7.2f} ms"
        f"  max={max(ms) if ms else float('nan'):7.2f} ms"
    )


class Browser:
    """One simulated page: a token and the state it last saw."""

    def __init__(self, client: httpx.AsyncClient, lat: dict[str, list[float]]) -> None:
        self.client = client
        self.lat = lat
        self.headers: dict[str, str] = {}
        self.state: Any = None

    async def call(self, name: str, method: str, path: str, body: Any = None) -> Any:
        t = time.perf_counter()
        try:
            r = await self.client.request(method, path, headers=self.headers, json=body)
        except httpx.TransportError as lost:
            # A kept-alive connection the server closed as the request left (its idle
            # timeout): counted as an error, the page asks for its state again.
            raise RuntimeError(f"{method} {path}: {lost!r}") from lost
        self.lat[name].append(time.perf_counter() - t)
        if r.status_code != 200:
            raise RuntimeError(f"{method} {path}: {r.status_code} {r.text[:200]}")
        return r.json()

    async def start(self, level: str) -> None:
        r = await self.client.post("/api/players")
        self.headers = {"Authorization": f"Bearer {r.json()['token']}"}
        await self.call("settings", "PUT", "/api/settings", {"level": level, "quick": True})
        self.state = await self.call("state", "GET", "/api/state")

    def souths_move(self) -> bool:
        h = self.state["hand"]
        return bool(
            (h["phase"] == "pass" and h["passed"] is None)
            or (h["phase"] == "play" and h["turn"] == "S")
        )

    async def move(self) -> str:
        """One request, as the page would send it next; returns its kind."""
        s = self.state
        h = s["hand"]
        v = {"version": s["version"]}
        if s["match"]["over"]:
            self.state = await self.call("new-match", "POST", "/api/new-match", v)
            return "new-match"
        if h["phase"] == "done":
            self.state = await self.call("next-hand", "POST", "/api/next-hand", v)
            return "next-hand"
        if h["phase"] == "pass" and h["passed"] is None:
            body = {**v, "cards": h["cards"][-3:]}
            self.state = await self.call("pass", "POST", "/api/pass", body)
            return "pass"
        if h["phase"] == "play" and h["turn"] == "S":
            body = {**v, "card": h["legal"][len(h["legal"]) // 2]}
            self.state = await self.call("play", "POST", "/api/play", body)
            return "play"
        self.state = await self.call("step", "POST", "/api/step", v)
        return "step"

    async def answered(self) -> float:
        """South acts; the computers reply until South may act again (or the hand ends)."""
        while not self.souths_move():
            await self.move()
        t = time.perf_counter()
        await self.move()
        while not self.souths_move() and self.state["hand"]["phase"] != "done":
            await self.move()
        return time.perf_counter() - t


async def reference(client: httpx.AsyncClient, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        r = await client.get("/static/js/api.js")
        out.append(time.perf_counter() - t)
        assert r.status_code == 200
    return out


async def one_match_at_a_time(base: str, level: str, actions: int) -> dict[str, list[float]]:
    lat: dict[str, list[float]] = defaultdict(list)
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        b = Browser(client, lat)
        await b.start(level)
        for _ in range(actions):
            lat["answered"].append(await b.answered())
            if b.state["match"]["over"] or b.state["hand"]["phase"] == "done":
                await b.move()
    return lat


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def play_for(browsers: list[Browser], seconds: float, think: float) -> int:
    """Each page acts, then pauses ``think`` s, for ``seconds`` (their starts spread over
    one think time); the errors met (each followed by the page asking for its State)."""
    deadline = time.perf_counter() + seconds
    errors = 0

    async def run(b: Browser, offset: float) -> None:
        nonlocal errors
        await asyncio.sleep(offset)
        while time.perf_counter() < deadline:
            try:
                await b.move()
            except RuntimeError:
                errors += 1
                with contextlib.suppress(RuntimeError):  # tried again next move
                    b.state = await b.call("state", "GET", "/api/state")
            await asyncio.sleep(think)

    n = len(browsers)
    await asyncio.gather(*(run(b, think * i / n) for i, b in enumerate(browsers)))
    return errors


async def concurrent(
    base: str,
    players: int,
    seconds: float,
    think: float,
    pid: int,
    levels: tuple[str, ...] = ("medium", "easy"),
) -> dict[str, Any]:
    lat: dict[str, list[float]] = defaultdict(list)
    limits = httpx.Limits(max_connections=players + 4, max_keepalive_connections=players + 4)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        browsers = [Browser(client, lat) for _ in range(players)]
        await asyncio.gather(*(b.start(levels[i % len(levels)]) for i, b in enumerate(browsers)))
        lat.clear()
        t0 = time.perf_counter()
        cpu0 = cpu_seconds(pid)
        errors = await play_for(browsers, seconds, think)
        cpu = cpu_seconds(pid) - cpu0
        elapsed = time.perf_counter() - t0
        ref = await reference(client, 50)
    every = [x for k, v in lat.items() if k != "state" for x in v]
    return {
        "lat": lat,
        "all": every,
        "rate": len(every) / elapsed,
        "errors": errors,
        "ref": ref,
        "cpu_per_request": cpu / max(1, len(every)),
    }


def start_server(
    data_dir: str, sync: str, env: dict[str, str] | None = None
) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "hearts",
            "serve",
            "--port",
            "0",
            "--host",
            "127.0.0.1",
            "--seed",
            "7",
            "--data-dir",
            data_dir,
        ],
        stdout=subprocess.PIPE,
        text=True,
        # every simulated browser comes from this one address: no per-address limit
        env={
            **os.environ,
            "HEARTS_SQLITE_SYNCHRONOUS": sync,
            "HEARTS_NEW_PLAYER_INTERVAL": "0",
            **(env or {}),
        },
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    if not line.startswith("http://127.0.0.1:"):
        proc.kill()
        raise SystemExit(f"hearts serve did not start: {line!r}")
    return proc, line


async def main_async(
    args: argparse.Namespace, base: str, pid: int, sync: str, answered: bool
) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        await reference(client, 20)  # warm up
        cpu0 = cpu_seconds(pid)
        ref = await reference(client, args.ref)
        ref_cpu = (cpu_seconds(pid) - cpu0) / args.ref
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"== hearts serve on {base} (SQLite WAL, synchronous={sync})")
    print(f"   {os.cpu_count()} CPUs, load average {load} (other work on the machine)")
    print("reference, same run:")
    print(row("static GET /static/js/api.js", ref))
    print(f"  server CPU per static GET: {ref_cpu * 1000:.2f} ms")
    if answered:
        print("a human action answered (one match at a time):")
        for level in ("easy", "medium"):
            lat = await one_match_at_a_time(base, level, args.actions)
            print(f" level {level}:")
            for name, label in (
                ("answered", "South's action + bots' replies"),
                ("play", "POST /api/play"),
                ("pass", "POST /api/pass"),
                ("step", "POST /api/step (one bot card)"),
                ("next-hand", "POST /api/next-hand"),
            ):
                if lat.get(name):
                    print(row(label, lat[name]))
    print(
        f"concurrent matches (Dễ/Vừa), {args.think:.0f} ms think time, {args.seconds:.0f} s each:"
    )
    held = 0
    for n in args.levels:
        res = await concurrent(base, n, args.seconds, args.think / 1000, pid)
        p95 = pct(res["all"], 95) * 1000
        print(
            f"  N={n:>4}: {res['rate']:6.1f} req/s  p50={pct(res['all'], 50) * 1000:6.2f} ms"
            f"  p95={p95:7.2f} ms  (step {pct(res['lat']['step'], 95) * 1000:6.2f},"
            f" play {pct(res['lat']['play'], 95) * 1000:6.2f})"
            f"  server CPU/request {res['cpu_per_request'] * 1000:.2f} ms"
            f"  errors={res['errors']}"
            f"  static p50={statistics.median(res['ref']) * 1000:.2f} ms"
            f"  load {os.getloadavg()[0]:.1f}"
        )
        if p95 < 100:
            held = max(held, n)
        elif p95 > 1000:
            break  # saturated: larger N only queues longer
    print(f"held with p95 under 100 ms (synchronous={sync}): {held} concurrent matches")


# Swaps Khó for the frozen yardstick in the server and in its spawned bot workers
# (they inherit PYTHONPATH, so each runs this at start-up too).
YARDSTICK_SITECUSTOMIZE = """
import hearts.server.table.computers as game
from yardstick import yardstick

_get_bot = game.get_bot


def get_bot(level, **options):
    return yardstick(**options) if level == "hard" else _get_bot(level, **options)


game.get_bot = get_bot
"""

# Swaps Khó for Khó with other options (a screen of a cheaper default), the same way.
VARIANT_SITECUSTOMIZE = """
import hearts.server.table.computers as game

_get_bot = game.get_bot
_OPTIONS = {options!r}


def get_bot(level, **options):
    if level == "hard":
        options = {{**_OPTIONS, **options}}
    return _get_bot(level, **options)


game.get_bot = get_bot
"""


async def hard_capacity(args: argparse.Namespace, base: str, pid: int, label: str) -> int:
    """The most concurrent Khó matches whose computer cards answer at p95 ≤ 1 s."""
    print(f"Khó capacity ({label}), {args.think:.0f} ms think, {args.hard_seconds:.0f} s each:")
    # One match first, not counted: the bot workers' first decisions load the
    # kernel and warm their caches.
    await concurrent(base, 1, 5.0, args.think / 1000, pid, ("hard",))
    held = 0
    for n in args.hard_levels:
        res = await concurrent(base, n, args.hard_seconds, args.think / 1000, pid, ("hard",))
        steps = res["lat"]["step"]
        p95 = pct(steps, 95) * 1000
        print(
            f"  N={n:>3}: computer cards n={len(steps):>4}"
            f"  p50={pct(steps, 50) * 1000:7.1f} ms  p95={p95:7.1f} ms"
            f"  (pass p95 {pct(res['lat']['pass'], 95) * 1000:7.1f} ms)"
            f"  server CPU/request {res['cpu_per_request'] * 1000:.1f} ms"
            f"  errors={res['errors']}  load {os.getloadavg()[0]:.1f}"
        )
        if steps and p95 <= 1000:
            held = n
        else:
            break
    print(f"  held with computer cards at p95 ≤ 1 s ({label}): {held} concurrent Khó matches")
    return held


def hard_server(data_dir: str, site_code: str | None) -> tuple[subprocess.Popen[str], str]:
    """A server whose Khó is the default (``site_code`` None) or what the
    ``sitecustomize`` ``site_code`` swaps in."""
    if site_code is None:
        return start_server(data_dir, "NORMAL")
    site = os.path.join(data_dir, "site")
    os.makedirs(site)
    with open(os.path.join(site, "sitecustomize.py"), "w") as fh:
        fh.write(site_code)
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.pathsep.join(p for p in (site, here, os.environ.get("PYTHONPATH")) if p)
    return start_server(data_dir, "NORMAL", {"PYTHONPATH": path})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="per concurrency level")
    parser.add_argument("--think", type=float, default=250.0, help="ms between a page's calls")
    parser.add_argument("--actions", type=int, default=40, help="South actions per level")
    parser.add_argument("--ref", type=int, default=300, help="static GETs for the reference")
    parser.add_argument(
        "--levels",
        type=lambda s: [int(x) for x in s.split(",")],
        default=[10, 25, 50, 100, 150, 200],
        help="concurrent matches to try, in order",
    )
    parser.add_argument(
        "--sync",
        default="FULL,NORMAL",
        help="SQLite synchronous modes to measure (HEARTS_SQLITE_SYNCHRONOUS)",
    )
    parser.add_argument(
        "--hard-levels",
        type=lambda s: [int(x) for x in s.split(",")] if s else [],
        default=[1, 2, 4, 8, 16],
        help="concurrent Khó matches to try, in order ('' skips Khó)",
    )
    parser.add_argument("--hard-seconds", type=float, default=20.0, help="per Khó level")
    parser.add_argument(
        "--no-hard-reference",
        action="store_true",
        help="skip the same measure on the yardstick hard-2026-11",
    )
    parser.add_argument(
        "--hard-variant",
        nargs="*",
        default=[],
        help="Khó options, key=value joined by commas: one more server each",
    )
    args = parser.parse_args()
    # label: the server's sitecustomize (None: Khó as the server has it)
    servers: dict[str, str | None] = {"Khó": None}
    if not args.no_hard_reference:
        servers[YARDSTICK] = YARDSTICK_SITECUSTOMIZE
    for v in args.hard_variant:
        options = parse_options(v.split(","))
        servers[f"Khó {v}"] = VARIANT_SITECUSTOMIZE.format(options=options)
    held = {}
    for label, site_code in servers.items() if args.hard_levels else []:
        with tempfile.TemporaryDirectory(prefix="hearts-bench-") as data_dir:
            proc, base = hard_server(data_dir, site_code)
            try:
                held[label] = asyncio.run(hard_capacity(args, base, proc.pid, label))
            finally:
                proc.terminate()
                proc.wait(timeout=30)
    if YARDSTICK in held:
        ref = held[YARDSTICK]
        for label, n in held.items():
            if label != YARDSTICK:
                ratio = f"{n / ref:.1f}×" if ref else "n/a (the yardstick held none)"
                print(f"{label} matches held: {n} vs {ref} with the yardstick ({ratio})")
    for i, sync in enumerate(x for x in args.sync.upper().split(",") if x):
        with tempfile.TemporaryDirectory(prefix="hearts-bench-") as data_dir:
            proc, base = start_server(data_dir, sync)
            try:
                asyncio.run(main_async(args, base, proc.pid, sync, answered=i == 0))
            finally:
                proc.terminate()
                proc.wait(timeout=30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
