"""Past one machine (issue 60, item 2): N ``hearts serve`` hosts on one PostgreSQL.

docs/deploy.md's layout with several hosts: each host a ``hearts serve`` with its own
bot workers, nginx handing the requests round, one PostgreSQL for all. This bench runs
that layout on this machine, in the same run: one server process (its bot workers
about the cores), then ``--hosts`` server processes on other ports (the cores' bot
workers shared out among them), every simulated page's requests going to the hosts in
turn, as nginx's round robin sends them (a page is not kept on one host: any host
answers any table; the rooms' pushes cross hosts by the database).

For each layout: the most concurrent Dễ/Vừa matches answered at p95 < 100 ms and the
most Khó matches whose computer cards answer at p95 ≤ 1 s (web.py's measures and load:
its Browser, its think time), the servers' CPU per request, and the static GET beside
them. On one machine the hosts share its two cores: the figure shows what the layout
costs or gains before any second machine is added, not a second machine's capacity.

    nice python3 bench/hosts.py --pg postgresql+psycopg://postgres@127.0.0.1:55432/postgres
        [--hosts 2] [--levels 25,50,100,150] [--hard-levels 8,16,32,48,64] [--seconds 8]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web import Browser, cpu_seconds, pct, play_for, reference, start_server


class RoundRobin(httpx.AsyncBaseTransport):
    """nginx's upstream in round robin: each request to the next host."""

    def __init__(self, bases: list[str], players: int) -> None:
        limits = httpx.Limits(max_connections=players + 4, max_keepalive_connections=players + 4)
        self.hosts = [httpx.AsyncHTTPTransport(limits=limits) for _ in bases]
        self.bases = [httpx.URL(b) for b in bases]
        self.turn = itertools.cycle(range(len(bases)))

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        i = next(self.turn)
        base = self.bases[i]
        request.url = request.url.copy_with(host=base.host, port=base.port)
        return await self.hosts[i].handle_async_request(request)

    async def aclose(self) -> None:
        for host in self.hosts:
            await host.aclose()


async def load(
    bases: list[str], pids: list[int], players: int, seconds: float, think: float, level: str
) -> dict[str, Any]:
    """``players`` pages at ``level`` for ``seconds``: latencies, errors, CPU/request."""
    lat: dict[str, list[float]] = defaultdict(list)
    transport = RoundRobin(bases, players)
    async with httpx.AsyncClient(base_url=bases[0], timeout=60, transport=transport) as client:
        browsers = [Browser(client, lat) for _ in range(players)]
        await asyncio.gather(*(b.start(level) for b in browsers))
        lat.clear()
        cpu0 = sum(cpu_seconds(p) for p in pids)
        errors = await play_for(browsers, seconds, think)
        cpu = sum(cpu_seconds(p) for p in pids) - cpu0
        ref = await reference(client, 50)
    every = [x for k, v in lat.items() if k != "state" for x in v]
    return {"lat": lat, "all": every, "errors": errors, "ref": ref, "cpu": cpu / max(1, len(every))}


async def capacity(
    args: argparse.Namespace, bases: list[str], pids: list[int], label: str
) -> tuple[int, int]:
    """(Dễ/Vừa matches held at p95 < 100 ms, Khó matches at computer cards' p95 ≤ 1 s)."""
    think = args.think / 1000
    print(f"== {label}")
    easy = 0
    for n in args.levels:
        res = await load(bases, pids, n, args.seconds, think, "medium")
        p95 = pct(res["all"], 95) * 1000
        print(
            f"  Vừa N={n:>4}: p50={pct(res['all'], 50) * 1000:7.2f} ms  p95={p95:7.2f} ms"
            f"  server CPU/request {res['cpu'] * 1000:.2f} ms  errors={res['errors']}"
            f"  static p50={pct(res['ref'], 50) * 1000:.2f} ms  load {os.getloadavg()[0]:.1f}"
        )
        if p95 >= 100:
            break
        easy = n
    await load(bases, pids, len(bases), 5.0, think, "hard")  # the bot workers warm up
    hard = 0
    for n in args.hard_levels:
        res = await load(bases, pids, n, args.hard_seconds, think, "hard")
        steps = res["lat"]["step"]
        p95 = pct(steps, 95) * 1000
        print(
            f"  Khó N={n:>4}: computer cards n={len(steps):>5}  p50={pct(steps, 50) * 1000:7.1f} ms"
            f"  p95={p95:7.1f} ms  errors={res['errors']}  load {os.getloadavg()[0]:.1f}"
        )
        if not steps or p95 > 1000:
            break
        hard = n
    print(f"  held: {easy} Vừa matches (p95 < 100 ms), {hard} Khó matches (cards p95 ≤ 1 s)")
    return easy, hard


def start_hosts(n: int, pg: str, bots: int) -> list[tuple[subprocess.Popen[str], str]]:
    env = {"HEARTS_DATABASE_URL": pg, "HEARTS_BOT_PROCESSES": str(bots)}
    started = []
    for _ in range(n):
        data_dir = tempfile.mkdtemp(prefix="hearts-hosts-")
        started.append(start_server(data_dir, "NORMAL", env))
    return started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pg", required=True, help="the PostgreSQL URL every host shares")
    parser.add_argument("--hosts", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=8.0, help="per Vừa level")
    parser.add_argument("--hard-seconds", type=float, default=15.0, help="per Khó level")
    parser.add_argument("--think", type=float, default=250.0, help="ms between a page's calls")
    ints = lambda s: [int(x) for x in s.split(",") if x]  # noqa: E731
    parser.add_argument("--levels", type=ints, default=[25, 50, 100, 150, 200])
    parser.add_argument("--hard-levels", type=ints, default=[8, 16, 32, 48, 64])
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    layouts = [(1, cores), (args.hosts, max(1, cores // args.hosts))]
    print(f"{cores} CPUs, one PostgreSQL ({args.pg.rsplit('@', 1)[-1]})")
    held = {}
    for hosts, bots in layouts:
        servers = start_hosts(hosts, args.pg, bots)
        label = f"{hosts} host(s), {bots} bot worker(s) each"
        try:
            bases = [base for _proc, base in servers]
            pids = [proc.pid for proc, _base in servers]
            time.sleep(3)  # Khó's kernel loaded by every host's workers
            held[hosts] = asyncio.run(capacity(args, bases, pids, label))
        finally:
            for proc, _base in servers:
                proc.terminate()
            for proc, _base in servers:
                proc.wait(timeout=30)
    (one_easy, one_hard), (n_easy, n_hard) = held[1], held[args.hosts]
    print(
        f"{args.hosts} hosts against one, same run: Vừa {n_easy} vs {one_easy} matches,"
        f" Khó {n_hard} vs {one_hard}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
