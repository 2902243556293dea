"""Rooms under load: N rooms of 4 simulated humans over WebSockets (issue 9).

Starts ``hearts serve`` (one process on SQLite in a temporary directory, or, with
``--pg URL``, two processes on a fresh PostgreSQL database, the humans of each room
split between them), then for each room: one human makes it, three join, all four
open the room's WebSocket, the match starts, and every human passes and plays its
lowest legal card ``--think`` seconds (uniform 0.5x-1.5x) after its turn comes (over
the room's WebSocket, as the page sends its actions while its socket is open), for
``--seconds`` (a new hand is dealt when one ends).  The rooms start at random moments
within ``--stagger`` seconds (a real server's rooms are each at its own point of a
hand, not all passing at once), and the measure begins once all have started.
With four humans a room moves about once per ``--think`` seconds (one human at a
time plays), so N rooms make about N / think actions a second; the rate measured is
printed.

Measured, once every room is ready: from sending an action to the moment the LAST
of the three other humans received a Room frame at (or past) the version it made,
p50/p95; beside a trivial static GET (``/static/js/api.js``) sent every 50 ms
meanwhile; and the CPU seconds of the server(s) and of this client in that time.

The client is one asyncio process kept lean (a few lines of HTTP/1.1 with one
kept-alive connection per human, as a browser has), since it shares the machine's
cores with the server: its CPU share is printed too.

    nice python3 bench/rooms.py [--rooms 10,50,100] [--think 1.0] [--seconds 30]
        [--repeat 1] [--pg postgresql+psycopg://postgres@127.0.0.1:5433/postgres]
        [--base /tmp/base]  # another commit's worktree, its runs alternating with this one's
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import sqlalchemy as sa
from web import cpu_seconds, pct
from websockets.asyncio.client import connect


class Http:
    """One kept-alive HTTP/1.1 connection (a browser's), with nothing but JSON."""

    def __init__(self, base: str, source: str = "127.0.0.1") -> None:
        parts = urlsplit(base)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.source = source  # the address it connects from
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def call(
        self, method: str, path: str, token: str | None = None, body: Any = None
    ) -> tuple[int, Any]:
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(data)}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        request = (head + "\r\n").encode() + data
        for attempt in range(2):
            if self.streams is None:
                self.streams = await asyncio.open_connection(
                    self.host, self.port, local_addr=(self.source, 0)
                )
            reader, writer = self.streams
            writer.write(request)
            try:
                status_line = await reader.readline()
                if not status_line:
                    raise ConnectionError("closed")
                status = int(status_line.split()[1])
                length, close = 0, False
                while (line := await reader.readline()) not in (b"\r\n", b""):
                    name, _, value = line.decode("latin-1").partition(":")
                    name = name.strip().lower()
                    if name == "content-length":
                        length = int(value)
                    elif name == "connection" and value.strip().lower() == "close":
                        close = True
                payload = await reader.readexactly(length)
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt:
                    raise
                continue
            if close:
                self.close()
            ctype_json = payload[:1] in (b"{", b"[")
            return status, json.loads(payload) if ctype_json else payload
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


_sources = itertools.count(2)


def next_source() -> str:
    """A loopback address of its own for each human (127.0.0.2, ...): the server's caps
    on one address (64 sockets, its joins) are a household's, not a benchmark's."""
    n = next(_sources)
    return f"127.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"


@dataclass
class Human:
    base: str
    http: Http
    token: str = ""
    #: (version, when) of every Room frame received
    frames: list[tuple[int, float]] = field(default_factory=list)
    room: Any = None
    event: asyncio.Event = field(default_factory=asyncio.Event)
    #: the room's WebSocket once open, and the actions sent on it awaiting their answer
    socket: Any = None
    asked: dict[int, asyncio.Future[Any]] = field(default_factory=dict)
    last_id: int = 0


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
    source = (human.http.source, 0)
    async with connect(url, open_timeout=120, max_size=2**22, local_addr=source) as socket:
        await socket.send(json.dumps({"token": human.token}))
        human.socket = socket
        try:
            await receive(human, socket, stop)
        finally:
            for asked in human.asked.values():
                if not asked.done():
                    asked.set_exception(ConnectionError("the socket closed"))


async def receive(human: Human, socket: Any, stop: asyncio.Event) -> None:
    while not stop.is_set():
        try:
            text = await asyncio.wait_for(socket.recv(), 1.0)
        except TimeoutError:
            continue
        now = time.perf_counter()
        message = json.loads(text)
        if message.get("type") == "answer":  # to an action sent on this socket
            asked = human.asked.pop(message["id"], None)
            if asked is not None and not asked.done():
                asked.set_result(message)
            message = {"room": message["room"]} if message["status"] == 200 else {}
        elif message.get("type") != "room":
            continue
        if "room" not in message:
            continue
        room = message["room"]
        human.frames.append((room["version"], now))
        if human.room is None or room["version"] >= human.room["version"]:
            human.room = room
            human.event.set()


async def act(human: Human, what: str, body: dict[str, Any]) -> tuple[int, Any]:
    """An action over the room's socket, as the page sends it when its socket is open
    (docs/api.md): the answer's status and its Room (or its refusal, as REST's body)."""
    human.last_id += 1
    asked = asyncio.get_running_loop().create_future()
    human.asked[human.last_id] = asked
    await human.socket.send(json.dumps({"type": what, "id": human.last_id, **body}))
    answer = await asked
    return answer["status"], answer["room"] if answer["status"] == 200 else answer


async def play(
    human: Human,
    code: str,
    think: float,
    actions: list[Action],
    calls: dict[str, int],
    stop: asyncio.Event,
) -> None:
    again = False  # a 409 stale: at once at the new version, as the page does
    while not stop.is_set():
        await human.event.wait()
        human.event.clear()
        room = human.room
        state = room["state"] if room else None
        if state is None or room["phase"] != "playing":
            continue
        hand = state["hand"]
        if hand["phase"] == "pass" and hand["passed"] is None:
            what, body = "pass", {"cards": hand["cards"][:3]}
        elif hand["phase"] == "play" and hand["turn"] == "S":
            what, body = "play", {"card": hand["legal"][0]}
        elif hand["phase"] == "done" and room["you"] == room["creator"]:
            what, body = "next-hand", {}
        else:
            continue
        if not again:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), think * random.uniform(0.5, 1.5))
        if stop.is_set():
            return
        # the version it decided on, as a page does: changed meanwhile, it is a 409
        body["version"] = room["version"]
        sent = time.perf_counter()
        try:
            status, answer = await act(human, what, body)
        except ConnectionError:
            return  # the run is over
        if status == 200:
            actions.append(Action(human, sent, answer["version"]))
        newer = answer if status == 200 else answer.get("room")
        if newer and newer["version"] >= human.room["version"]:
            human.room = newer  # the answer is the Room after it
        key = "ok" if status == 200 else f"{what} {answer['error']['code']}"
        calls[key] = calls.get(key, 0) + 1
        again = status == 409 and answer["error"]["code"] == "stale" and not again
        human.event.set()  # look again


class Barrier:
    """Set-up first: the play (and the clock) starts once every room is ready."""

    def __init__(self, n: int) -> None:
        self.left = n
        self.go = asyncio.Event()

    def set_ready(self) -> None:
        self.left -= 1
        if self.left == 0:
            print("  (every room is ready: the clock starts)", flush=True)
            self.go.set()


async def one_room(
    bases: list[str],
    think: float,
    actions: list[Action],
    calls: dict[str, int],
    humans_out: list[list[Human]],
    stop: asyncio.Event,
    ready: Barrier,
    setup: asyncio.Semaphore,
    stagger: float,
) -> None:
    async with setup:  # not every room at once: the set-up is not what is measured
        humans = [
            Human(bases[i % len(bases)], Http(bases[i % len(bases)], next_source()))
            for i in range(4)
        ]
        for h in humans:
            h.token = (await h.http.call("POST", "/api/players"))[1]["token"]
        humans_out.append(humans)
        body = {"level": "easy", "turn_seconds": None}
        code = (await humans[0].http.call("POST", "/api/rooms", humans[0].token, body))[1]["code"]
        for h in humans[1:]:
            await h.http.call("POST", f"/api/rooms/{code}/join", h.token, {})
        listeners = [asyncio.create_task(listen(h, code, stop)) for h in humans]
        while any(h.room is None or h.socket is None for h in humans):
            await asyncio.sleep(0.05)
    ready.set_ready()
    await ready.go.wait()  # every room is made and connected
    # Rooms start at different moments (not all passing at once, as a real server's
    # rooms are each at its own point of its hand)
    await asyncio.sleep(random.uniform(0, stagger))
    version = max(h.room["version"] for h in humans)
    start = {"version": version}
    await humans[0].http.call("POST", f"/api/rooms/{code}/start", humans[0].token, start)
    players = [asyncio.create_task(play(h, code, think, actions, calls, stop)) for h in humans]
    await stop.wait()
    for h in humans:
        h.event.set()
    await asyncio.gather(*players, return_exceptions=True)
    await asyncio.gather(*listeners, return_exceptions=True)
    for h in humans:
        h.http.close()


async def static_reference(base: str, stop: asyncio.Event) -> list[float]:
    out = []
    http = Http(base)
    while not stop.is_set():
        t = time.perf_counter()
        status, _ = await http.call("GET", "/static/js/api.js")
        out.append(time.perf_counter() - t)
        assert status == 200
        await asyncio.sleep(0.05)
    http.close()
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


def own_cpu() -> float:
    t = os.times()
    return t.user + t.system


async def run(
    bases: list[str], pids: list[int], n: int, think: float, seconds: float, stagger: float
) -> dict[str, Any]:
    actions: list[Action] = []
    calls: dict[str, int] = {}  # answers: "ok", or the refusal's call and code
    rooms: list[list[Human]] = []
    stop = asyncio.Event()
    ready = Barrier(n)
    setup = asyncio.Semaphore(10)
    args = (bases, think, actions, calls, rooms, stop, ready, setup, stagger)
    rooms_done = asyncio.gather(*(one_room(*args) for _ in range(n)))
    await ready.go.wait()
    await asyncio.sleep(stagger)  # every room has started: the clock starts now
    started = time.perf_counter()
    server0 = sum(cpu_seconds(p) for p in pids)
    client0 = own_cpu()
    reference = asyncio.create_task(static_reference(bases[0], stop))
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - started
    server = sum(cpu_seconds(p) for p in pids) - server0
    client = own_cpu() - client0
    measured = [a for a in actions if 0 <= a.sent - started <= seconds]
    stop.set()
    static = await reference
    await rooms_done
    lat = delivery(measured, rooms)
    return {
        "rooms": n,
        "actions": len(measured),
        "delivered": len(lat),
        "seconds": elapsed,
        "push": lat,
        "static": static,
        "server_cpu": server,
        "refused": sum(v for k, v in calls.items() if k != "ok") / elapsed,
        "calls": calls,
        "client_cpu": client,
    }


def figures(result: dict[str, Any]) -> dict[str, float]:
    push = [v * 1000 for v in result["push"]]
    static = [v * 1000 for v in result["static"]]
    return {
        "rate": result["actions"] / result["seconds"],
        "refused": result["refused"],
        "p50": pct(push, 50),
        "p95": pct(push, 95),
        "static50": pct(static, 50),
        "static95": pct(static, 95),
        "server": result["server_cpu"] / result["seconds"],
        "client": result["client_cpu"] / result["seconds"],
        "cpu_per_action": 1000 * result["server_cpu"] / max(1, result["actions"]),
    }


def report(n: int, f: dict[str, float], note: str = "") -> str:
    return (
        f"  {n:>4} rooms{note}: {f['rate']:.0f} actions/s ({f['refused']:.1f}/s refused);"
        f" action -> last other screen p50={f['p50']:.1f} ms p95={f['p95']:.1f} ms"
        f" | static GET p50={f['static50']:.1f} ms p95={f['static95']:.1f} ms"
        f" | server CPU {100 * f['server']:.0f}% ({f['cpu_per_action']:.1f} ms/action),"
        f" this client {100 * f['client']:.0f}%"
    )


def fresh_pg(url: str) -> tuple[str, sa.Engine, str]:
    name = f"bench_rooms_{secrets.token_hex(4)}"
    admin = sa.create_engine(sa.make_url(url), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    return sa.make_url(url).set(database=name).render_as_string(hide_password=False), admin, name


def calibration() -> float:
    """Milliseconds of CPU a fixed pure-Python loop takes here now (a shared machine's
    cores are slower when its neighbours are busy): to compare runs."""
    t = time.process_time()
    x = 0
    for i in range(1_000_000):
        x += i * i
    return 1000 * (time.process_time() - t)


def load_average() -> str:
    with contextlib.suppress(OSError):
        return " ".join(open("/proc/loadavg").read().split()[:3])
    return "?"


def one_run(args: argparse.Namespace, n: int, env: dict[str, str]) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as data:
        procs = []
        admin = None
        if args.pg:
            url, admin, name = fresh_pg(args.pg)
            procs = [serve(["--database-url", url], env) for _ in range(2)]
        else:
            procs = [serve(["--data-dir", data], env)]
        try:
            pids = [p.pid for p, _ in procs]
            result = asyncio.run(
                run([b for _, b in procs], pids, n, args.think, args.seconds, args.stagger)
            )
        finally:
            for proc, _ in procs:
                proc.terminate()
                proc.wait(30)
            if admin is not None:
                with admin.connect() as conn:
                    conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                admin.dispose()
    if args.verbose:
        print(f"    answers: {dict(sorted(result['calls'].items()))}")
    return figures(result)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", default="10,50,100")
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--seconds", type=float, default=30.0, help="measured, after --stagger")
    parser.add_argument("--stagger", type=float, default=10.0, help="rooms start within this")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each size: medians")
    parser.add_argument("--pg", default=None, help="PostgreSQL server: two processes")
    parser.add_argument("--verbose", action="store_true", help="the answers, by refusal")
    parser.add_argument(
        "--base", default=None, help="another tree (a git worktree): its server alternates"
    )
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEARTS_")}
    trees = {"this": env}
    if args.base:  # the same runs from the other tree's sources, each after one of this
        trees["base"] = {**env, "PYTHONPATH": str(Path(args.base).resolve() / "src")}
        env["PYTHONPATH"] = str(Path(__file__).resolve().parent.parent / "src")
    where = "2 processes, PostgreSQL" if args.pg else "1 process, SQLite (synchronous=FULL)"
    print(
        f"{where}; each human acts {args.think:g} s (0.5x-1.5x) after its turn comes;"
        f" the rooms start within {args.stagger:g} s, then {args.seconds:g} s are measured"
    )
    print(
        f"  machine: {os.cpu_count()} cores, load average {load_average()} at the start;"
        f" a fixed loop takes {calibration():.0f} ms of CPU"
    )
    for n in [int(x) for x in args.rooms.split(",")]:
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
        for i in range(args.repeat):
            for name, tree_env in trees.items():
                f = one_run(args, n, tree_env)
                runs[name].append(f)
                tree = f" {name}" if len(trees) > 1 else ""
                note = f"{tree} (run {i + 1}, load {load_average()}, loop {calibration():.0f} ms)"
                print(report(n, f, note), flush=True)
        for name, got in runs.items():
            if args.repeat > 1:
                median = {k: statistics.median(r[k] for r in got) for k in got[0]}
                tree = f" {name}" if len(trees) > 1 else ""
                print(report(n, median, f"{tree} MEDIAN of {args.repeat}"), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
