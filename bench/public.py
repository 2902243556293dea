"""Public tables under load (issue 40, "Scale"): players press "Tìm bàn" in waves on
two ``hearts serve`` processes over one fresh PostgreSQL database.

Each player has its own kept-alive HTTP/1.1 connection (a browser's) to one of the
two processes (alternately); ``--players`` players seek in ``--waves`` waves
``--gap`` seconds apart, each wave all at once.  Measured: from sending
``POST /api/public/seek`` to its answer (the player is then at a table: seated, or
queued for the next deal), p50/p95/max, beside a trivial static GET
(``/static/js/api.js``) sent every 50 ms meanwhile; the servers' CPU seconds.  Then
the database is checked: every player at exactly one table, no table over-full.
Goal (issue 40): p95 from "Tìm bàn" to a seat <= 2 s.

    nice python3 bench/public.py --pg postgresql+psycopg://postgres@127.0.0.1:55432/postgres
        [--players 400] [--waves 8] [--gap 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rooms import Http, calibration, fresh_pg, load_average, serve
from web import cpu_seconds, pct

STATIC = "/static/js/api.js"


async def static_gets(base: str, stop: asyncio.Event, times: list[float]) -> None:
    http = Http(base)
    while not stop.is_set():
        t = time.perf_counter()
        status, _ = await http.call("GET", STATIC)
        assert status == 200, status
        times.append(time.perf_counter() - t)
        await asyncio.sleep(0.05)
    http.close()


async def run(bases: list[str], players: int, waves: int, gap: float) -> dict[str, object]:
    https = [Http(bases[i % 2]) for i in range(players)]
    tokens = []
    for http in https:
        status, body = await http.call("POST", "/api/players")
        assert status == 200, body
        tokens.append(body["token"])
    stop = asyncio.Event()
    statics: list[float] = []
    background = asyncio.create_task(static_gets(bases[0], stop, statics))
    seeks: list[float] = []
    answers: dict[int, str] = {}
    refused: Counter[int] = Counter()

    async def seek(i: int) -> None:
        t = time.perf_counter()
        status, body = await https[i].call("POST", "/api/public/seek", tokens[i], {"level": "easy"})
        seeks.append(time.perf_counter() - t)
        if status == 200:
            answers[i] = body["code"]
        else:
            refused[status] += 1

    per_wave = -(-players // waves)
    tasks = []
    for w in range(waves):
        wave = range(w * per_wave, min(players, (w + 1) * per_wave))
        tasks += [asyncio.create_task(seek(i)) for i in wave]
        await asyncio.sleep(gap)
    await asyncio.gather(*tasks)
    stop.set()
    await background
    for http in https:
        http.close()
    return {"seeks": seeks, "statics": statics, "answers": answers, "refused": refused}


def check(url: str, answers: dict[int, str], players: int) -> str:
    """Every player at one table, none over-full (from the database)."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            at = conn.execute(sa.text("SELECT player_id FROM public_players")).scalars().all()
            sizes = Counter(
                conn.execute(
                    sa.text(
                        "SELECT s.room_id FROM room_seats s JOIN public_tables t"
                        " ON t.room_id = s.room_id"
                    )
                ).scalars()
            )
            humans = conn.execute(
                sa.text("SELECT room_id, player_id FROM room_seats WHERE kind = 'human'")
            ).all()
            queues = conn.execute(
                sa.text("SELECT id, public FROM rooms WHERE public IS NOT NULL")
            ).all()
    finally:
        engine.dispose()
    every = Counter(pid for _r, pid in humans)
    full = Counter(r for r, _pid in humans)
    for room_id, public in queues:
        waiting = [q["player_id"] for q in json.loads(public).get("queue", [])]
        every.update(waiting)
        full[room_id] += len(waiting)
    over = [r for r, n in full.items() if n > sizes[r]]
    twice = [p for p, n in every.items() if n > 1]
    ok = len(answers) == players and len(at) == players and not over and not twice
    return (
        f"  {'OK' if ok else 'FAILED'}: {len(answers)}/{players} answered with a table,"
        f" {len(at)} at a table in the database, {len(sizes)} tables,"
        f" over-full: {len(over)}, at two tables: {len(twice)}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pg", required=True, help="PostgreSQL server: two processes")
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--waves", type=int, default=8)
    parser.add_argument("--gap", type=float, default=1.0, help="seconds between waves")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEARTS_")}
    print(
        f"2 processes, PostgreSQL; {args.players} players seek in {args.waves} waves"
        f" {args.gap:g} s apart; machine: {os.cpu_count()} cores, load average"
        f" {load_average()}; a fixed loop takes {calibration():.0f} ms of CPU"
    )
    url, admin, name = fresh_pg(args.pg)
    procs = [serve(["--database-url", url, "--bot-processes", "1"], env) for _ in range(2)]
    try:
        before = [cpu_seconds(p.pid) for p, _ in procs]
        started = time.perf_counter()
        result = asyncio.run(run([b for _, b in procs], args.players, args.waves, args.gap))
        wall = time.perf_counter() - started
        cpu = sum(cpu_seconds(p.pid) for p, _ in procs) - sum(before)
        seeks = [t * 1000 for t in result["seeks"]]  # type: ignore[attr-defined]
        statics = [t * 1000 for t in result["statics"]]  # type: ignore[attr-defined]
        print(
            f"  Tìm bàn -> a table   n={len(seeks):>4}  p50={pct(seeks, 50):7.1f} ms"
            f"  p95={pct(seeks, 95):7.1f} ms  max={max(seeks):7.1f} ms"
            f"  (goal: p95 <= 2000 ms)"
        )
        print(
            f"  static GET           n={len(statics):>4}  p50={pct(statics, 50):7.1f} ms"
            f"  p95={pct(statics, 95):7.1f} ms  max={max(statics):7.1f} ms"
        )
        print(f"  servers' CPU {cpu:.1f} s over {wall:.1f} s; refused: {dict(result['refused'])}")  # type: ignore[arg-type]
        print(check(url, result["answers"], args.players))  # type: ignore[arg-type]
    finally:
        for proc, _ in procs:
            proc.terminate()
            proc.wait(30)
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
