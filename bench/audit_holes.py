"""The audit's parts for the holes of issue 57 (bench/audit.py ``--only
hog,unknown,churn,outsiders,readers``), each with the issue's figure:

- hog (item 1): one token holds as many room sockets and long polls as it can; another
  client's State and a static file, timed.
- unknown (item 2): the server's memory before and after 20,000 long polls of codes of
  no room (goal: within 10 MB).
- churn (item 5): 30 clients looping seek → leave at public tables: answers other than
  2xx, 409 and 503 (goal: none, no 500), and leavers still at a table.
- outsiders (item 6): 4 tokens not in a room × 8 sockets on it, then a seated guest's.
- readers (item 10): 800 connections that never read their answers, under
  ``RLIMIT_NOFILE`` 1024: how many the server still holds 15 s on, another client's
  requests meanwhile, any 500.

Each takes the audit's ``Server`` class (a started server per part) from audit.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import resource
import socket
import statistics
import struct
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

import hearts.server

CODE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"  # hearts.server.rooms.service
STATIC_FILE = "/static/layout.css"  # the biggest of the page's files
#: the static files of the package the servers run (the audit's own)
STATIC_DIR = Path(hearts.server.__file__).resolve().parent / "static"


# -- helpers --------------------------------------------------------------------------
def new_token(base: str) -> str:
    return str(httpx.post(f"{base}/api/players", timeout=30).json()["token"])


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def timed(base: str, path: str, token: str | None = None, n: int = 20) -> dict[str, Any]:
    """``n`` GETs of ``path``, each on a fresh connection: statuses, p50 and max (ms)."""
    took: list[float] = []
    statuses: Counter[str] = Counter()
    for _ in range(n):
        t = time.perf_counter()
        try:
            r = httpx.get(f"{base}{path}", headers=bearer(token) if token else {}, timeout=10)
            statuses[str(r.status_code)] += 1
        except httpx.HTTPError as exc:
            statuses[type(exc).__name__] += 1
        took.append((time.perf_counter() - t) * 1000)
        time.sleep(0.05)
    return {"p50": statistics.median(took), "max": max(took), "statuses": dict(statuses)}


def timed_text(res: dict[str, Any]) -> str:
    codes = ", ".join(f"{k}: {v}" for k, v in sorted(res["statuses"].items()))
    return f"p50 {res['p50']:.0f} ms, max {res['max']:.0f} ms ({codes})"


def raw_request(port: int, head: str, rcvbuf: int | None = None) -> socket.socket:
    sock = socket.socket()
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(10)
    try:
        sock.connect(("127.0.0.1", port))
        sock.sendall(head.encode())
    except OSError:
        sock.close()
        raise
    return sock


def answered(sock: socket.socket) -> bool:
    """Whether the server has answered (or closed) the connection by now."""
    sock.setblocking(False)
    try:
        return sock.recv(1, socket.MSG_PEEK) is not None
    except BlockingIOError:
        return False
    except OSError:
        return True


def established(sock: socket.socket) -> bool:
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)
    return struct.unpack("B", info[:1])[0] == 1


def open_files(pid: int, kind: str) -> int:
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            count += os.readlink(fd).startswith(kind)
    return count


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def log_counts(log: Path) -> str:
    text = log.read_text(errors="replace")
    return (
        f"{text.count('Traceback')} tracebacks, {text.count('unexpected error')} 500s"
        f" logged, {text.count('Too many open files')} 'Too many open files'"
    )


def own_files(need: int) -> None:
    """This audit process holds the clients' ends itself."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, need), hard))


def sockets_on(base: str, code: str, token: str, n: int) -> tuple[list[Any], Counter[str]]:
    """``n`` sockets of ``token`` on room ``code``: those held open, and how each ended
    (``held``, or the close code it was refused with)."""
    held: list[Any] = []
    ends: Counter[str] = Counter()
    url = base.replace("http://", "ws://") + f"/api/rooms/{code}/ws"
    for _ in range(n):
        ws = connect(url, open_timeout=10)
        ws.send(json.dumps({"token": token}))
        try:
            first = json.loads(ws.recv(timeout=10))
        except Exception:
            ends[str(ws.close_code)] += 1
            ws.close()
            continue
        if "room" in first:
            held.append(ws)
            ends["held"] += 1
        else:
            ends[str(first.get("error", {}).get("code"))] += 1
            ws.close()
    return held, ends


def made_room(base: str, token: str) -> dict[str, Any]:
    r = httpx.post(f"{base}/api/rooms", headers=bearer(token), json={"name": "Chủ"}, timeout=30)
    r.raise_for_status()
    return dict(r.json())


def poll_head(code: str, version: int, token: str) -> str:
    return (
        f"GET /api/rooms/{code}/events?after={version} HTTP/1.1\r\nHost: hearts\r\n"
        f"Authorization: Bearer {token}\r\n\r\n"
    )


# -- 1: one token holding all it can --------------------------------------------------
def report_hog(report: Any, server_class: Any, work: Path, q: bool) -> None:
    polls_n = 200 if q else 800
    own_files(polls_n + 200)
    log = work / "hog.log"
    with server_class(["--data-dir", str(work / "hog")], log, nofile=1024) as server:
        hog, other = new_token(server.base), new_token(server.base)
        room = made_room(server.base, hog)
        quiet = timed(server.base, "/api/state", other)
        held, ends = sockets_on(server.base, room["code"], hog, 12)
        polls = []
        for _ in range(polls_n):
            with contextlib.suppress(OSError):
                polls.append(
                    raw_request(server.port, poll_head(room["code"], room["version"], hog))
                )
        time.sleep(2)
        at_once = sum(answered(s) for s in polls)
        state = timed(server.base, "/api/state", other)
        static = timed(server.base, "/static/js/api.js")
        for s in polls:
            s.close()
        for ws in held:
            ws.close()
    heading_text = (
        f"One token (the server under RLIMIT_NOFILE 1024) opens 12 sockets on its room and"
        f" {polls_n} long polls of it; another client then asks for its State and a static"
        " file, 20 times each on fresh connections (goal: each within 1 s)."
    )
    report(heading_text)
    report()
    sockets = ", ".join(f"{k}: {v}" for k, v in sorted(ends.items()))
    report(f"- sockets: {sockets}")
    report(
        f"- long polls: {len(polls)} open, {len(polls) - at_once} still held after 2 s,"
        f" {at_once} answered at once (the token's oldest, over its cap)"
    )
    report(f"- the other client's State, quiet: {timed_text(quiet)}")
    report(f"- the other client's State meanwhile: {timed_text(state)}")
    report(f"- a static file meanwhile: {timed_text(static)}")
    report(f"- server log: {log_counts(log)}")


# -- 2: memory after long polls of unknown rooms --------------------------------------
async def unknown_polls(base: str, token: str, n: int, clients: int = 32) -> Counter[str]:
    statuses: Counter[str] = Counter()
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as c:
        left = iter(range(n))

        async def one() -> None:
            for _ in left:
                code = "".join(random.choices(CODE_ALPHABET, k=16))
                r = await c.get(f"/api/rooms/{code}/events", headers=bearer(token))
                statuses[str(r.status_code)] += 1

        await asyncio.gather(*(one() for _ in range(clients)))
    return statuses


def report_unknown(report: Any, server_class: Any, work: Path, q: bool) -> None:
    n = 20_000
    with server_class(["--data-dir", str(work / "unknown")], work / "unknown.log") as server:
        token = new_token(server.base)
        asyncio.run(unknown_polls(server.base, token, 500))  # imports, pools, caches
        time.sleep(1)
        before = rss_mb(server.proc.pid)
        t = time.perf_counter()
        statuses = asyncio.run(unknown_polls(server.base, token, n))
        took = time.perf_counter() - t
        time.sleep(2)
        after = rss_mb(server.proc.pid)
    codes = ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items()))
    report(
        f"{n:,} long polls of random codes of no room (32 at a time, one token) after 500"
        f" to warm up, in {took:.0f} s ({codes}). Goal: the server's memory within 10 MB"
        " of where it was."
    )
    report()
    report(f"RSS before {before:.1f} MB, after {after:.1f} MB: {after - before:+.1f} MB")


# -- 5: seek → leave churn -------------------------------------------------------------
CHURN_ARGS = [
    "--trusted-proxy",
    "127.0.0.1",
    "--public-seek-interval",
    "0",
    "--public-seek-address-interval",
    "0",
]


async def churner(base: str, i: int, until: float, out: dict[str, Any]) -> None:
    # Each client an address of its own (through the trusted proxy), as the issue's.
    forwarded = {"X-Forwarded-For": f"10.57.{i // 250}.{i % 250 + 1}"}
    async with httpx.AsyncClient(base_url=base, timeout=60, headers=forwarded) as c:
        token = (await c.post("/api/players")).json()["token"]
        h = bearer(token)
        left_ok = True
        while time.perf_counter() < until:
            r = await c.post("/api/public/seek", headers=h, json={"level": "easy"})
            out["seek"][str(r.status_code)] += 1
            if r.status_code != 200:
                await asyncio.sleep(0.2)
                continue
            code = r.json()["code"]
            r = await c.post(f"/api/public/{code}/leave", headers=h)
            refused = r.json()["error"]["code"] if r.status_code >= 400 else ""
            out["leave"][f"{r.status_code} {refused}".strip()] += 1
            left_ok = r.status_code == 200
            if r.status_code >= 500 and len(out["examples"]) < 5:
                out["examples"].append(f"leave {r.status_code}: {r.text[:160]}")
        table = (await c.get("/api/public/table", headers=h)).json()
        out["still_seated"] += left_ok and table["code"] is not None


def churn(base: str, clients: int, seconds: float) -> dict[str, Any]:
    out: dict[str, Any] = {"seek": Counter(), "leave": Counter(), "examples": []}
    out["still_seated"] = 0
    until = time.perf_counter() + seconds

    async def run() -> None:
        await asyncio.gather(*(churner(base, i, until, out) for i in range(clients)))

    asyncio.run(run())
    return out


def report_churn(
    report: Any,
    server_class: Any,
    database: Any,
    kinds: list[str],
    pg: str | None,
    work: Path,
    q: bool,
) -> None:
    clients, seconds = 30, 15.0 if q else 60.0
    report(
        f"{clients} clients (an address each) looping seek → leave for {seconds:.0f} s."
        " Goal: no answer but 2xx, 409 and 503 (no 500), and nobody who was told"
        " they left still at a table."
    )
    report()
    report(
        "| database | seeks | leaves | leave answers | other than 2xx/409/503 | left yet seated |"
    )
    report("|---|---|---|---|---|---|")
    for kind in kinds:
        with (
            database(kind, pg, work) as (serve_args, _url),
            server_class([*serve_args, *CHURN_ARGS], work / f"churn-{kind}.log") as server,
        ):
            res = churn(server.base, clients, seconds)
        answers = res["seek"] + res["leave"]
        odd = sum(v for k, v in answers.items() if not (k[0] == "2" or k[:3] in ("409", "503")))
        leaves = ", ".join(f"{k}: {v}" for k, v in sorted(res["leave"].items()))
        report(
            f"| {kind} | {sum(res['seek'].values())} | {sum(res['leave'].values())}"
            f" | {leaves} | {odd} | {res['still_seated']} |"
        )
        for e in res["examples"]:
            report(f"  - {kind}: {e}")


# -- 6: outsiders' sockets ---------------------------------------------------------------
def report_outsiders(report: Any, server_class: Any, work: Path, q: bool) -> None:
    with server_class(["--data-dir", str(work / "outsiders")], work / "outsiders.log") as s:
        creator, guest = new_token(s.base), new_token(s.base)
        room = made_room(s.base, creator)
        code = room["code"]
        r = httpx.post(
            f"{s.base}/api/rooms/{code}/join", headers=bearer(guest), json={"name": "Khách"}
        )
        r.raise_for_status()
        outsider_ends: Counter[str] = Counter()
        polls: Counter[str] = Counter()
        for _ in range(4):
            token = new_token(s.base)
            held, ends = sockets_on(s.base, code, token, 8)
            outsider_ends += ends
            for ws in held:
                ws.close()
            p = httpx.get(f"{s.base}/api/rooms/{code}/events", headers=bearer(token), timeout=30)
            polls[str(p.status_code)] += 1
        mine, guest_ends = sockets_on(s.base, code, guest, 1)
        for ws in mine:
            ws.close()
    ends_text = ", ".join(f"{k}: {v}" for k, v in sorted(outsider_ends.items()))
    report(
        "A room with its creator and a seated guest; 4 tokens not in it open 8 sockets"
        " each on it, then the guest opens one. Goal: every outsider refused, the guest's"
        " held."
    )
    report()
    report(f"- outsiders' sockets: {ends_text} (4403 not_in_room)")
    report(f"- outsiders' long polls: {', '.join(f'{k}: {v}' for k, v in polls.items())}")
    report(f"- the guest's socket: {', '.join(f'{k}: {v}' for k, v in guest_ends.items())}")


# -- 10: slow readers --------------------------------------------------------------------
READER_HEAD = f"GET {STATIC_FILE} HTTP/1.1\r\nHost: hearts\r\n\r\n" * 64


def report_readers(report: Any, server_class: Any, work: Path, q: bool) -> None:
    n = 800
    own_files(n + 300)
    log = work / "readers.log"
    with server_class(["--data-dir", str(work / "readers")], log, nofile=1024) as server:
        pid = server.proc.pid
        other = new_token(server.base)
        quiet = open_files(pid, "socket:")
        readers: list[socket.socket] = []
        refused = 0
        for _ in range(n):
            try:
                readers.append(raw_request(server.port, READER_HEAD, rcvbuf=1024))
            except OSError:
                refused += 1
        opened = time.monotonic()
        time.sleep(2)
        held_files = open_files(pid, str(STATIC_DIR))
        state = timed(server.base, "/api/state", other, 10)
        static = timed(server.base, "/static/js/api.js", None, 10)
        time.sleep(max(0.0, opened + 15 - time.monotonic()))
        server_held = open_files(pid, "socket:") - quiet
        client_open = sum(established(s) for s in readers)
        for s in readers:
            s.close()
    report(
        f"{n} connections (the server under RLIMIT_NOFILE 1024) each asking for"
        f" `{STATIC_FILE}` 64 times over and reading nothing; another client meanwhile."
        " Goal: none open at 15 s, no 500."
    )
    report()
    report(f"- opened {len(readers)} ({refused} could not connect)")
    report(f"- static files the server held open at 2 s: {held_files}")
    report(f"- another client's State at 2 s: {timed_text(state)}")
    report(f"- a static file at 2 s: {timed_text(static)}")
    report(
        f"- still open at 15 s: {server_held} of the server's sockets beyond its quiet"
        f" {quiet}, {client_open} connections established as the clients see them"
    )
    report(f"- server log: {log_counts(log)}")
