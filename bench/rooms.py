"""Rooms under load: N rooms of 4 simulated humans over WebSockets (issue 9).

Starts ``hearts serve`` (one process on SQLite in a temporary directory, or, with
``--pg URL``, two processes on a fresh PostgreSQL database, the humans of each room
split between them), then for each room: one human makes it, three join, all four
open the room's WebSocket, the match starts, and every human passes and plays its
lowest legal card ``--think`` seconds (uniform 0.5x-1.5x) after its turn comes, for
one hand or ``--seconds``.

Measured, in this run: from sending an action to the moment the LAST of the three
other humans received a Room frame at (or past) the version it made, p50/p95; beside
a trivial static GET (``/static/js/api.js``) sent every 50 ms meanwhile.

    nice python3 bench/rooms.py [--rooms 10,50,100] [--think 1.0] [--seconds 40]
        [--pg postgresql+psycopg://postgres@127.0.0.1:5433/postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import sqlalchemy as sa
from web import pct
from websockets.asyncio.client import connect


@dataclass
class Human:
    base: str
    token: str
    #: (version, when) of every Room frame received
    frames: list[tuple[int, float]] = field(default_factory=list)
    room: Any = None
    event: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Action:
    actor: Human
    sent: float
    version: int  # the version it made


def serve(args: list[str], env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    cmd = [sys.executable, "-m", "hearts", "serve", "--port", "0", "--host", "127.0.0.1"]
    proc = subprocess.Popen(
        [*cmd, "--new-player-interval", "0", *args], stdout=subprocess.PIPE, text=True, env=env
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    if not line.startswith("http://127.0.0.1:"):
        proc.kill()
        raise SystemExit(f"hearts serve did not start: {line!r}")
    return proc, line.rstrip("/")


async def listen(human: Human, code: str, stop: asyncio.Event) -> None:
    url = human.base.replace("http://", "ws://") + f"/api/rooms/{code}/ws"
    async with connect(url, open_timeout=60, max_size=2**22) as socket:
        await socket.send(json.dumps({"token": human.token}))
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(socket.recv(), 1.0)
            except TimeoutError:
                continue
            message = json.loads(text)
            if message.get("type") != "room":
                continue
            now = time.perf_counter()
            room = message["room"]
            human.frames.append((room["version"], now))
            if human.room is None or room["version"] >= human.room["version"]:
                human.room = room
                human.event.set()


async def play(
    human: Human,
    client: httpx.AsyncClient,
    code: str,
    think: float,
    actions: list[Action],
    stop: asyncio.Event,
) -> None:
    headers = {"Authorization": f"Bearer {human.token}"}
    while not stop.is_set():
        await human.event.wait()
        human.event.clear()
        room = human.room
        state = room["state"] if room else None
        if state is None:
            continue
        hand = state["hand"]
        if room["phase"] != "playing" or hand["phase"] == "done":
            stop.set()  # one hand per room
            return
        if hand["phase"] == "pass" and hand["passed"] is None:
            what, body = "pass", {"cards": hand["cards"][:3]}
        elif hand["phase"] == "play" and hand["turn"] == "S":
            what, body = "play", {"card": hand["legal"][0]}
        else:
            continue
        await asyncio.sleep(think * random.uniform(0.5, 1.5))
        body["version"] = human.room["version"]
        sent = time.perf_counter()
        r = await client.post(f"/api/rooms/{code}/{what}", headers=headers, json=body)
        if r.status_code == 200:
            actions.append(Action(human, sent, r.json()["version"]))
        human.event.set()  # look again (a 409 carries the newer Room)


async def one_room(
    bases: list[str],
    think: float,
    actions: list[Action],
    humans_out: list[list[Human]],
    deadline: float,
) -> None:
    clients = {b: httpx.AsyncClient(base_url=b, timeout=60) for b in bases}
    humans = []
    for i in range(4):
        base = bases[i % len(bases)]
        token = (await clients[base].post("/api/players")).json()["token"]
        humans.append(Human(base, token))
    humans_out.append(humans)

    def call(h: Human, path: str, body: Any) -> Any:
        headers = {"Authorization": f"Bearer {h.token}"}
        return clients[h.base].post(path, headers=headers, json=body)

    made = await call(humans[0], "/api/rooms", {"level": "easy", "turn_seconds": None})
    code = made.json()["code"]
    for h in humans[1:]:
        await call(h, f"/api/rooms/{code}/join", {})
    stop = asyncio.Event()
    listeners = [asyncio.create_task(listen(h, code, stop)) for h in humans]
    while any(h.room is None for h in humans):
        await asyncio.sleep(0.05)
    version = max(h.room["version"] for h in humans)
    await call(humans[0], f"/api/rooms/{code}/start", {"version": version})
    players = [
        asyncio.create_task(play(h, clients[h.base], code, think, actions, stop)) for h in humans
    ]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), max(1.0, deadline - time.perf_counter()))
    stop.set()
    for h in humans:
        h.event.set()
    await asyncio.gather(*players, return_exceptions=True)
    await asyncio.gather(*listeners, return_exceptions=True)
    for c in clients.values():
        await c.aclose()


async def static_reference(base: str, stop: asyncio.Event) -> list[float]:
    out = []
    async with httpx.AsyncClient(base_url=base) as client:
        while not stop.is_set():
            t = time.perf_counter()
            r = await client.get("/static/js/api.js")
            out.append(time.perf_counter() - t)
            assert r.status_code == 200
            await asyncio.sleep(0.05)
    return out


def delivery(actions: list[Action], rooms: list[list[Human]]) -> list[float]:
    """For each action: until the last other human of its room had a frame at its version."""
    room_of = {id(h): humans for humans in rooms for h in humans}
    out = []
    for a in actions:
        last = 0.0
        for h in room_of[id(a.actor)]:
            if h is a.actor:
                continue
            got = [t for v, t in h.frames if v >= a.version]
            if not got:
                last = float("inf")
                break
            last = max(last, min(got))
        if last != float("inf"):
            out.append(last - a.sent)
    return out


async def run(bases: list[str], n: int, think: float, seconds: float) -> dict[str, Any]:
    actions: list[Action] = []
    rooms: list[list[Human]] = []
    stop = asyncio.Event()
    reference = asyncio.create_task(static_reference(bases[0], stop))
    deadline = time.perf_counter() + seconds
    started = time.perf_counter()
    await asyncio.gather(*(one_room(bases, think, actions, rooms, deadline) for _ in range(n)))
    stop.set()
    static = await reference
    lat = delivery(actions, rooms)
    return {
        "rooms": n,
        "actions": len(actions),
        "delivered": len(lat),
        "seconds": time.perf_counter() - started,
        "push": lat,
        "static": static,
    }


def report(result: dict[str, Any]) -> str:
    push = [v * 1000 for v in result["push"]]
    static = [v * 1000 for v in result["static"]]
    return (
        f"  {result['rooms']:>4} rooms: {result['actions']} actions in {result['seconds']:.0f} s,"
        f" {result['delivered']} seen by all 3 others;"
        f" action -> last other screen p50={pct(push, 50):.1f} ms p95={pct(push, 95):.1f} ms"
        f" | static GET p50={pct(static, 50):.1f} ms p95={pct(static, 95):.1f} ms"
    )


def fresh_pg(url: str) -> tuple[str, sa.Engine, str]:
    name = f"bench_rooms_{secrets.token_hex(4)}"
    admin = sa.create_engine(sa.make_url(url), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    return sa.make_url(url).set(database=name).render_as_string(hide_password=False), admin, name


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", default="10,50,100")
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--pg", default=None, help="PostgreSQL server: two processes")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEARTS_")}
    for n in [int(x) for x in args.rooms.split(",")]:
        with tempfile.TemporaryDirectory() as data:
            procs = []
            admin = None
            if args.pg:
                url, admin, name = fresh_pg(args.pg)
                procs = [serve(["--database-url", url], env) for _ in range(2)]
                where = "2 processes, PostgreSQL"
            else:
                procs = [serve(["--data-dir", data], env)]
                where = "1 process, SQLite"
            try:
                result = asyncio.run(run([b for _, b in procs], n, args.think, args.seconds))
                print(f"{where}, think {args.think:g} s:")
                print(report(result), flush=True)
            finally:
                for proc, _ in procs:
                    proc.terminate()
                    proc.wait(30)
                if admin is not None:
                    with admin.connect() as conn:
                        conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                    admin.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
