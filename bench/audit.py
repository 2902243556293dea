"""The server audit: real ``hearts serve`` processes tried as an attacker and an operator would.

    python3 bench/audit.py [--quick] [--only crash,double,hidden,slowloris,load,flood,
        hog,unknown,churn,outsiders,readers]
        [--pg postgresql+psycopg://postgres@127.0.0.1:5432/postgres]

Prints a report and writes it to ``--out`` (by default ``hearts-audit-<date>.md`` in the
temporary directory, so a run leaves the working tree clean; a report worth keeping
goes to ``bench/results/``, named in its row); the current figures, one row a part, are
kept by hand in ``bench/audit_results.md``:

- crash: a ``kill -9`` loop under several clients, on SQLite and on PostgreSQL
  (audit_crash.py). Solo clients keep every state the server answered 200 and now and
  then move to another browser (a transfer); others play at public tables (seek,
  play, react, leave, seek again). The server is killed at random moments and
  restarted on the same data, the clients go on. At the end: no acknowledged state
  (solo, or a public room's version) is ahead of the server, every acknowledged card
  is in the stored hand of that deal (its passes too), every stored ``hearts-hand/1``
  record (the ``hands`` table and each match's hand on the table) replays legally
  with the deal its seeds give, no state showed a server seed before its hand was
  over, and every token moved away answers 410 ``moved``. Only the server process is
  killed: its bot workers must leave by themselves (counted when one is still there
  5 s later).
- double: N concurrent identical actions at one version from two tabs (two
  connections pools) of one token: exactly one 200, the rest 409, the version +1.
- hidden: every response of a few whole hands (refused calls included) against the
  stored deal afterwards: no card another seat holds appears before it is played,
  nor a hand's server seed before the hand is over.
- slowloris: the server under ``RLIMIT_NOFILE`` 1024, 1,100 half-sent requests, then
  a normal request timed, and the size of the server's log.
- load: 8 clients without think time (Dễ/Vừa), requests/s and p50/p95 of ``play``
  beside a static GET in the same run, with ``--workers 1`` and ``--workers 2``.
- flood: a Khó player's ``/api/step`` p95, quiet and beside analyses, hints and what
  the computers knew, together (flood.py; issue 57 item 9).
- hog, unknown, churn, outsiders, readers: issue 57's items 1, 2, 5, 6 and 10, each
  with its figure (audit_holes.py): one token holding all the sockets and long polls
  it can beside another client; memory after 20,000 long polls of unknown rooms;
  seek → leave churn; outsiders' sockets on a room; connections that never read.

Every refusal the crash, double and hidden clients meet is checked against the one
error shape ``{"error": {"code", "message"[, "reason"]}}`` (audit_checks.py).

PostgreSQL: ``--pg`` (default ``$HEARTS_AUDIT_PG_URL`` or ``$HEARTS_TEST_PG_URL``)
names a server where a database ``audit_<random>`` is made for each part and dropped
after; without one, the PostgreSQL parts say "not run". Every figure is of this run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import os
import resource
import secrets
import select
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from audit_checks import ErrorShapes, deal_key_of_state, plays_of_state, stored_records
from audit_crash import PUBLIC_TRANSFER_EVERY, STALL_SECONDS, TRANSFER_EVERY, crash_run
from audit_holes import (
    report_churn,
    report_hog,
    report_outsiders,
    report_readers,
    report_unknown,
)
from flood import report_flood
from web import Browser, concurrent, pct

from hearts.cards import card_name, cards_of
from hearts.record import read_record

HERE = Path(__file__).resolve().parent
ALL_CARDS = frozenset(card_name(c) for c in range(52))
PARTS = (
    "crash",
    "double",
    "hidden",
    "slowloris",
    "load",
    "flood",
    *("hog", "unknown", "churn", "outsiders", "readers"),
)
#: issue 57's parts (audit_holes.py): their headings
HOLES = {
    "hog": "One token holding all it can (issue 57 item 1)",
    "unknown": "Long polls of unknown rooms: memory (item 2)",
    "churn": "Seek → leave churn (item 5)",
    "outsiders": "Outsiders' sockets (item 6)",
    "readers": "Connections that never read (item 10)",
}
#: every refusal any part's clients meet (the load and the flood keep their own clients)
SHAPES = ErrorShapes()
Connect = Callable[[], httpx.AsyncClient]


# -- servers and databases ----------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: seconds a killed server's bot workers have to leave by themselves
ORPHAN_SECONDS = 5.0


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


class Server:
    """One ``hearts serve`` in its own process group (what its kill leaves behind is
    counted), restartable on the same port and data."""

    def __init__(self, args: list[str], log: Path, nofile: int | None = None) -> None:
        self.args = args
        self.log = log
        self.nofile = nofile
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[str] | None = None
        self.starts = 0
        self.left_behind = 0  # kills after which a process of the server's stayed

    def __enter__(self) -> Server:
        """Started; stopped when the ``with`` block is left, whatever happened in it."""
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    def _limit(self) -> None:
        if self.nofile is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (self.nofile, self.nofile))

    def start(self, timeout: float = 180) -> None:
        cmd = [sys.executable, "-m", "hearts", "serve", "--host", "127.0.0.1"]
        with open(self.log, "ab") as err:
            self.proc = subprocess.Popen(
                [*cmd, "--port", str(self.port), *self.args],
                stdout=subprocess.PIPE,
                stderr=err,
                text=True,
                start_new_session=True,
                preexec_fn=self._limit if self.nofile is not None else None,
            )
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        line = self.proc.stdout.readline().strip() if ready else ""
        if not line.startswith("http://"):
            self.kill()
            tail = self.log.read_text(errors="replace")[-500:]
            raise RuntimeError(f"hearts serve {' '.join(self.args)} did not start: {tail}")
        self.starts += 1

    def kill(self) -> None:
        """SIGKILL to the server process alone, as a crash would: its bot workers must
        leave by themselves; one still there after :data:`ORPHAN_SECONDS` is counted
        in ``left_behind`` (then ended, so that the loop goes on)."""
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            deadline = time.monotonic() + ORPHAN_SECONDS
            while _group_alive(self.proc.pid) and time.monotonic() < deadline:
                time.sleep(0.1)
            if _group_alive(self.proc.pid):
                self.left_behind += 1
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.proc is not None:  # bot workers left behind by a SIGTERM that hung
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)


@contextlib.contextmanager
def database(kind: str, pg_admin: str | None, workdir: Path) -> Iterator[tuple[list[str], str]]:
    """(``hearts serve`` arguments, SQLAlchemy URL) of a fresh database of ``kind``."""
    if kind == "sqlite":
        data = workdir / f"data-{secrets.token_hex(4)}"
        data.mkdir()
        yield ["--data-dir", str(data)], f"sqlite:///{data / 'hearts.db'}"
        return
    assert pg_admin is not None
    admin = sa.make_url(pg_admin)
    name = f"audit_{secrets.token_hex(6)}"
    engine = sa.create_engine(admin, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with engine.connect() as conn:
        conn.exec_driver_sql(f"CREATE DATABASE {name}")
    url = admin.set(database=name).render_as_string(hide_password=False)
    try:
        yield ["--database", url], url
    finally:
        with engine.connect() as conn:
            conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        engine.dispose()


# -- (b) double click / two tabs -----------------------------------------------------
class _Plan(Browser):
    """The request the page would send next, not sent."""

    async def call(self, name: str, method: str, path: str, body: Any = None) -> Any:
        self.plan = (method, path, body)
        return self.state


async def next_request(state: Any) -> tuple[str, str, Any]:
    plan = _Plan(None, defaultdict(list))  # type: ignore[arg-type]
    plan.state = state
    await plan.move()
    return plan.plan


def connector(base: str) -> Connect:
    """Clients of the server at ``base`` (tests pass clients of an app in-process)."""
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    return lambda: SHAPES.client(base_url=base, timeout=60, limits=limits)


async def double_click(connect: Connect, rounds: int, n: int) -> dict[str, Any]:
    codes_seen: dict[int, int] = defaultdict(int)
    good = 0
    bad: list[str] = []
    async with connect() as tab1, connect() as tab2:
        token = (await tab1.post("/api/players")).json()["token"]
        h = {"Authorization": f"Bearer {token}"}
        await tab1.put("/api/settings", headers=h, json={"level": "easy"})
        state = (await tab1.get("/api/state", headers=h)).json()
        for _ in range(rounds):
            method, path, body = await next_request(state)
            tabs = [tab1 if i % 2 else tab2 for i in range(n)]
            answers = await asyncio.gather(
                *(t.request(method, path, headers=h, json=body) for t in tabs)
            )
            codes = [r.status_code for r in answers]
            for code in codes:
                codes_seen[code] += 1
            after = (await tab1.get("/api/state", headers=h)).json()
            if (
                codes.count(200) == 1
                and codes.count(409) == n - 1
                and after["version"] == state["version"] + 1
            ):
                good += 1
            else:
                bad.append(f"{path}: {sorted(codes)} v{state['version']}→{after['version']}")
            state = after
    return {"rounds": rounds, "good": good, "codes": dict(codes_seen), "bad": bad[:5]}


# -- (c) hidden cards ---------------------------------------------------------------
class _Recorder(Browser):
    """A page that keeps every response body, with the state it was answered in."""

    seen: list[tuple[Any, Any]]

    async def call(self, name: str, method: str, path: str, body: Any = None) -> Any:
        r = await self.client.request(method, path, headers=self.headers, json=body)
        data = r.json()
        state = data if r.status_code == 200 and "hand" in data else None
        state = state or (data.get("state") if isinstance(data, dict) else None) or self.state
        if state is not None:
            self.seen.append((data, state))
        if r.status_code != 200:
            raise RuntimeError(f"{method} {path}: {r.status_code}")
        return data


async def hidden_scan(connect: Connect, url: str, players: int, hands: int) -> dict[str, Any]:
    pages: list[_Recorder] = []
    async with connect() as c:

        async def one(i: int) -> None:
            b = _Recorder(c, defaultdict(list))
            b.seen = []
            pages.append(b)
            await b.start("easy" if i % 2 else "medium")
            done = 0
            while done < hands:
                s = b.state
                h = s["hand"]
                if h["phase"] == "play" and h["turn"] == "S":
                    # Refused calls answer too: a stale version and a card the rules forbid.
                    with contextlib.suppress(RuntimeError):
                        await b.call("x", "POST", "/api/step", {"version": s["version"] - 1})
                    wrong = sorted(set(h["cards"]) - set(h["legal"]))
                    if wrong:
                        with contextlib.suppress(RuntimeError):
                            body = {"version": s["version"], "card": wrong[0]}
                            await b.call("x", "POST", "/api/play", body)
                kind = await b.move()
                if b.state["hand"]["phase"] == "done" and kind != "next-hand":
                    done += 1
                    await b.call("stats", "GET", "/api/stats")

        await asyncio.gather(*(one(i) for i in range(players)))
    scanned = leaks = 0
    examples = []
    for b in pages:
        # This player's hands only: with --seed every player gets the same deals.
        deals, seeds = {}, {}
        for row in stored_records(url, [b.headers["Authorization"].split()[1]]):
            data = json.loads(row["record"])
            deals[frozenset(data["deal"]["S"])] = read_record(data)[0]
            seeds[frozenset(data["deal"]["S"])] = data["fairness"]["server_seed"]
        # A hand's server seed is hidden like a card until that hand is over.
        secret = {seed for seed in seeds.values() if seed is not None}
        for body, state in b.seen:
            if state["hand"]["phase"] == "done":
                secret.discard(seeds[deal_key_of_state(state)])
            hand = deals[deal_key_of_state(state)]
            south = {card_name(c) for c in cards_of(hand.deal_masks[0] | hand.received(0))}
            hidden = set(ALL_CARDS) - south
            if state["hand"]["phase"] != "pass":
                hidden -= set(plays_of_state(state))
            else:
                hidden = set(ALL_CARDS) - {card_name(c) for c in cards_of(hand.deal_masks[0])}
            leaked = strings_in(body) & (hidden | secret)
            scanned += 1
            if leaked:
                leaks += 1
                examples.append(f"{sorted(leaked)} in {json.dumps(body)[:120]}")
    return {"responses": scanned, "leaks": leaks, "examples": examples[:5]}


def strings_in(data: Any) -> set[str]:
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set(data) | {s for v in data.values() for s in strings_in(v)}
    if isinstance(data, list):
        return {s for v in data for s in strings_in(v)}
    return set()


# -- (d) slowloris -------------------------------------------------------------------
def timed_get(base: str, timeout: float) -> str:
    t = time.perf_counter()
    try:
        r = httpx.get(f"{base}/static/js/api.js", timeout=timeout)
        return f"{r.status_code} in {(time.perf_counter() - t) * 1000:.0f} ms"
    except httpx.HTTPError as exc:
        return f"no answer within {timeout:.0f} s ({type(exc).__name__})"


def slowloris(workdir: Path, sockets: int, hold: float) -> dict[str, Any]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < sockets + 100:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, sockets + 500), hard))
    log = workdir / "slowloris.log"
    data = workdir / "slowloris-data"
    server = Server(["--data-dir", str(data)], log, nofile=1024)
    server.start()
    held: list[socket.socket] = []
    out: dict[str, Any] = {"before": timed_get(server.base, 10)}
    try:
        connect_failed = 0
        for _ in range(sockets):
            s = socket.socket()
            s.settimeout(5)
            try:
                s.connect(("127.0.0.1", server.port))
                s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                held.append(s)
            except OSError:
                connect_failed += 1
                s.close()
        since = time.perf_counter()
        out["held"] = len(held)
        out["connect_failed"] = connect_failed
        time.sleep(1)
        out["during"] = timed_get(server.base, 10)
        time.sleep(max(0.0, hold - 1))
        out["during_late"] = timed_get(server.base, 10)
        closed = 0
        for s in held:  # how many the server hung up on (a header timeout)
            try:
                s.setblocking(False)
                if s.recv(1) == b"":
                    closed += 1
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
        out["closed_by_server"] = closed
        out["hold"] = time.perf_counter() - since
    finally:
        for s in held:
            s.close()
    time.sleep(1)
    out["after"] = timed_get(server.base, 10)
    server.stop()
    text = log.read_text(errors="replace")
    out["log_bytes"] = len(text.encode())
    out["log_lines"] = text.count("\n")
    out["emfile"] = text.count("Too many open files")
    out["tracebacks"] = text.count("Traceback")
    return out


# -- (e) load -----------------------------------------------------------------------
def has_workers_option() -> bool:
    helped = subprocess.run(
        [sys.executable, "-m", "hearts", "serve", "--help"], capture_output=True, text=True
    )
    return "--workers" in helped.stdout


def load(args: list[str], log: Path, seconds: float, workers: int | None) -> dict[str, Any]:
    with Server([*args, *(["--workers", str(workers)] if workers else [])], log) as server:
        assert server.proc is not None
        res = asyncio.run(concurrent(server.base, 8, seconds, 0.0, server.proc.pid))
    return {
        "rate": res["rate"],
        "p50": pct(res["all"], 50) * 1000,
        "p95": pct(res["all"], 95) * 1000,
        "play_p50": pct(res["lat"]["play"], 50) * 1000,
        "play_p95": pct(res["lat"]["play"], 95) * 1000,
        "plays": len(res["lat"]["play"]),
        "errors": res["errors"],
        "static_p50": statistics.median(res["ref"]) * 1000,
        "static_p95": pct(res["ref"], 95) * 1000,
    }


# -- the report ---------------------------------------------------------------------
class Report:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, line: str = "") -> None:
        print(line, flush=True)
        self.lines.append(line)


def heading(report: Report, title: str) -> None:
    """A part's heading, a blank line either side."""
    report()
    report(f"## {title}")
    report()


def report_crash(
    report: Report, kinds: list[str], pg: str | None, work: Path, q: bool, seed: int
) -> None:
    heading(report, "Crash consistency (kill -9 under traffic)")
    kill_counts = {"sqlite": 6 if q else 35, "postgres": 4 if q else 12}
    clients = 4 if q else 6
    report(
        f"{clients} solo clients acting without pause, each moving to another browser"
        f" (a transfer) every {TRANSFER_EVERY} actions, and {max(4, clients * 2 // 3)}"
        " players at public tables (seek, play, react every 4 s, leave at random once"
        f" a hand is over and seek again; a seat moved to another browser every"
        f" {PUBLIC_TRANSFER_EVERY} public actions: the new token keeps the seat); the server"
        " (`--trusted-proxy 127.0.0.1`: each client an address of its own,"
        " `HEARTS_ROOM_PACE=0`) killed with SIGKILL at a random"
        " moment (0–1 s) after at least 20 solo actions since its restart, and restarted"
        " on the same data."
    )
    report()
    report(
        "| database | kills | acknowledged solo actions (+ states read) | public actions"
        " | behind | lost | stored hands | bad hands | states of hands over checked"
        " against their seeds | unfair"
        " | transfers solo + public seats (old token 410 moved) | claims cut"
        " | public tables / hands dealt / reactions / leaves"
        " | stalled | refused (409…) | connection errors | workers left behind |"
    )
    report("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for kind in kinds:
        with (
            database(kind, pg, work) as (serve_args, url),
            Server(
                [*serve_args, "--trusted-proxy", "127.0.0.1"], work / f"crash-{kind}.log"
            ) as server,
        ):
            res = asyncio.run(crash_run(server, url, clients, kill_counts[kind], seed, SHAPES))
        report(
            f"| {kind} | {res.kills} | {res.actions} (+{res.acknowledged - res.actions})"
            f" | {res.public_actions} | {res.behind} | {res.lost} | {res.hands}"
            f" | {res.bad_hands} | {res.revealed} | {res.unfair}"
            f" | {res.transfers} + {res.public_transfers} ({res.moved_ok} ok, {res.moved_bad} not)"
            f" | {res.transfer_cut}"
            f" | {res.public_rooms} / {res.public_hands} / {res.reactions} / {res.leaves}"
            f" | {res.stalled}"
            f" | {res.refused} | {res.transport_errors} | {res.left_behind} |"
        )
        for e in res.examples[:8]:
            report(f"  - {kind}: {e}")
    report()
    report(
        "behind: a client was told a version (solo, or a public room's) the server no"
        " longer has; lost: an acknowledged solo state whose plays or pass are not in the"
        " stored hand of its deal; bad hands: stored records that do not replay"
        " (`hearts.record.validate`); states checked: states of hands over whose revealed"
        " server seed matches the commitment and whose every seat's cards are the"
        " `hearts.fairness.deal` of the seeds; unfair: a state showing a server seed or"
        " deal before its hand is over, or a seed or stored record that does not give its"
        " deal; old token: checked right after each claim and again at the end; claims"
        " cut: claims whose answer a kill cut, asked again with the same claim id as the"
        " page does (the same token comes back, so the seat is not lost; a seat lost"
        " anyway shows as a 410 and is counted as not ok); stalled: a public match with"
        " no new version for"
        f" {STALL_SECONDS:g} s; workers left behind: kills after which a process of the"
        f" server's was still running {ORPHAN_SECONDS:g} s later (only the server process"
        " is killed)."
    )


def report_shapes(report: Report) -> None:
    heading(report, "Refusals and their shape")
    report(
        "Every answer of 400 or more that the crash, double-click and hidden-card clients"
        ' met, against the one error shape `{"error": {"code", "message"[, "reason"]}}`'
        " (beside it only the current `state` or `room`):"
        f" {sum(SHAPES.codes.values())} refusals, {SHAPES.bad} of another shape."
    )
    report()
    report(", ".join(f"{k}: {v}" for k, v in sorted(SHAPES.codes.items())) or "none met")
    for e in SHAPES.examples:
        report(f"  - {e}")


def report_double(report: Report, kinds: list[str], pg: str | None, work: Path, q: bool) -> None:
    heading(report, "Double click / two tabs")
    n = 8 if q else 16
    rounds = 12 if q else 40
    report(
        f"{n} identical requests at once (the page's next action, split over two"
        " tabs' connections) at one version, round after round."
    )
    report()
    report("| database | rounds | exactly one 200, rest 409, version +1 | codes |")
    report("|---|---|---|---|")
    for kind in kinds:
        with (
            database(kind, pg, work) as (serve_args, _url),
            Server(serve_args, work / f"double-{kind}.log") as server,
        ):
            res = asyncio.run(double_click(connector(server.base), rounds, n))
        codes = ", ".join(f"{k}: {v}" for k, v in sorted(res["codes"].items()))
        report(f"| {kind} | {res['rounds']} | {res['good']} | {codes} |")
        for e in res["bad"]:
            report(f"  - {kind}: {e}")


def report_hidden(report: Report, work: Path, q: bool) -> None:
    heading(report, "Hidden cards in responses")
    players, hands = (2, 2) if q else (8, 6)
    report(
        f"{players} players × {hands} whole hands, every response (200s, a stale"
        " step and a forbidden card on each of South's turns, stats) against the"
        " stored deal: a card another seat holds, not yet played, or a hand's server"
        " seed before that hand is over, is a leak."
    )
    report()
    with (
        database("sqlite", None, work) as (serve_args, url),
        Server(serve_args, work / "hidden.log") as server,
    ):
        res = asyncio.run(hidden_scan(connector(server.base), url, players, hands))
    report(f"responses scanned: {res['responses']}, with a hidden card: {res['leaks']}")
    for e in res["examples"]:
        report(f"  - {e}")


def report_slowloris(report: Report, work: Path, q: bool) -> None:
    heading(report, "Slowloris")
    res = slowloris(work, 1100, 5.0 if q else 25.0)
    report(
        f"Server under RLIMIT_NOFILE 1024; {res['held']} connections each holding a"
        f" half-sent request ({res['connect_failed']} could not connect), held"
        f" {res['hold']:.0f} s (the requests below included)."
    )
    report()
    report(f"- a static GET before: {res['before']}")
    report(f"- during (after 1 s): {res['during']}")
    report(f"- during (at the end): {res['during_late']}")
    report(f"- after the connections close: {res['after']}")
    report(f"- half-sent connections the server closed itself: {res['closed_by_server']}")
    report(
        f"- server log: {res['log_bytes']:,} bytes, {res['log_lines']:,} lines,"
        f" {res['tracebacks']:,} tracebacks, {res['emfile']:,} 'Too many open files'"
    )


def report_load(report: Report, kinds: list[str], pg: str | None, work: Path, q: bool) -> None:
    heading(report, "Load")
    seconds = 5.0 if q else 15.0
    workers_ok = has_workers_option()
    report(
        f"8 clients, no think time, Dễ/Vừa, {seconds:.0f} s each; the static GET"
        " (`/static/js/api.js`) measured right after, same server. The machine's"
        " load average is printed: compare rows of one run, not runs of a busy"
        " machine with a quiet one."
    )
    report()
    report(
        "| database | processes | req/s | p50 | p95 | play p50 | play p95 | plays"
        " | errors | static GET p50 | static p95 | load average |"
    )
    report("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for kind in kinds:
        for workers in (1, 2):
            label = f"--workers {workers}" if workers_ok else "(no --workers)"
            if not workers_ok and workers == 2:
                report(f"| {kind} | --workers 2 | not available: no `--workers` option |")
                continue
            with database(kind, pg, work) as (serve_args, _url):
                res = load(
                    serve_args,
                    work / f"load-{kind}-{workers}.log",
                    seconds,
                    workers if workers_ok else None,
                )
            report(
                f"| {kind} | {label} | {res['rate']:.0f} | {res['p50']:.1f} ms"
                f" | {res['p95']:.1f} ms | {res['play_p50']:.1f} ms"
                f" | {res['play_p95']:.1f} ms | {res['plays']} | {res['errors']}"
                f" | {res['static_p50']:.1f} ms | {res['static_p95']:.1f} ms"
                f" | {os.getloadavg()[0]:.1f} |"
            )


def report_analysis_flood(report: Report, work: Path, q: bool) -> None:
    heading(report, "Background flood (live Khó beside analyses, hints and knew)")
    with Server(["--data-dir", str(work / "flood")], work / "flood.log") as server:
        report_flood(report, server, 20.0 if q else 60.0)


def report_holes(
    report: Report, only: list[str], kinds: list[str], pg: str | None, work: Path, q: bool
) -> None:
    """Issue 57's parts that ``only`` names, in their order."""
    for part, title in HOLES.items():
        if part not in only:
            continue
        heading(report, title)
        if part == "churn":
            report_churn(report, Server, database, kinds, pg, work, q)
        else:
            run = {
                "hog": report_hog,
                "unknown": report_unknown,
                "outsiders": report_outsiders,
                "readers": report_readers,
            }[part]
            run(report, Server, work, q)


def arguments() -> tuple[argparse.Namespace, list[str]]:
    """The command line, and the parts it asks for (all known)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer kills, rounds and seconds")
    parser.add_argument("--only", default=",".join(PARTS), help=f"some of {','.join(PARTS)}")
    parser.add_argument(
        "--pg",
        default=os.environ.get("HEARTS_AUDIT_PG_URL") or os.environ.get("HEARTS_TEST_PG_URL"),
        help="a PostgreSQL server's URL (a database whose user may create databases)",
    )
    parser.add_argument("--seed", type=int, default=1, help="the kill moments")
    parser.add_argument(
        "--out",
        default=str(Path(tempfile.gettempdir()) / f"hearts-audit-{dt.date.today():%Y-%m-%d}.md"),
        help="where the report is written (default: the temporary directory)",
    )
    args = parser.parse_args()
    only = [p for p in args.only.split(",") if p]
    unknown = set(only) - set(PARTS)
    if unknown:
        parser.error(f"unknown parts: {', '.join(sorted(unknown))}")
    return args, only


def report_header(report: Report, args: argparse.Namespace, only: list[str]) -> None:
    """The command, the time, the commit measured and the machine."""
    git = ["git", "-C", str(HERE.parent)]
    commit = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    changed = subprocess.run(  # the code measured, not this report
        [*git, "status", "--porcelain", "--", "src", "bench", ":!bench/*results*"],
        capture_output=True,
        text=True,
    )
    commit_id = commit.stdout.strip() + ("-dirty" if changed.stdout.strip() else "")
    report("# Server audit")
    report()
    report(
        f"`python3 bench/audit.py{' --quick' if args.quick else ''} --only {','.join(only)}`,"
        f" {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, commit {commit_id or '?'},"
        f" {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}"
        f"{'' if args.pg else ', no PostgreSQL (--pg)'}."
    )


def main() -> int:
    args, only = arguments()
    # Every client of the audit comes from 127.0.0.1: the per-address limit on new
    # tokens (config.md) would refuse most of them; it is tested on its own.
    os.environ.setdefault("HEARTS_NEW_PLAYER_INTERVAL", "0")
    # Public tables' computers at once, so that the crash loop's tables keep moving.
    os.environ.setdefault("HEARTS_ROOM_PACE", "0")
    q = args.quick
    kinds = ["sqlite"] + (["postgres"] if args.pg else [])
    report = Report()
    report_header(report, args, only)
    with tempfile.TemporaryDirectory(prefix="hearts-audit-") as tmp:
        work = Path(tmp)
        if "crash" in only:
            report_crash(report, kinds, args.pg, work, q, args.seed)
        if "double" in only:
            report_double(report, kinds, args.pg, work, q)
        if "hidden" in only:
            report_hidden(report, work, q)
        if "slowloris" in only:
            report_slowloris(report, work, q)
        if "load" in only:
            report_load(report, kinds, args.pg, work, q)
        if "flood" in only:
            report_analysis_flood(report, work, q)
        report_holes(report, only, kinds, args.pg, work, q)
    if {"crash", "double", "hidden"} & set(only):
        report_shapes(report)
    Path(args.out).write_text("\n".join(report.lines) + "\n", encoding="utf-8")
    print(f"\nwritten to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
