"""Phân tích across real server processes: two ``hearts serve`` on one database
(a SQLite file, and PostgreSQL when HEARTS_TEST_PG_URL is set).  An analysis
started through one is polled through the other until done; and when the process
running one is killed (SIGKILL, mid-search), the other takes it over once its
heartbeat is stale and finishes it."""

from __future__ import annotations

import os
import queue
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from processes import hearts_command, kill_group, stop_group

from hearts.server.coach import analysis

START_TIMEOUT = 60.0
LIVE = 60.0  # liveness bound only
SMALL = 48  # playouts per decision: a quick analysis
SLOW = 3000  # looking ahead at every turn: about a fifth of a second a decision, 14 of them
# Seconds of silence before the other process takes an analysis over (the setting's
# default is 15): 2.5 heartbeats (analysis_store.HEARTBEAT), not a wait of 15 s.
STALE = "5"


class Server:
    def __init__(self, database: str, log: Path, *args: str) -> None:
        cmd = hearts_command(
            "serve",
            "--port",
            "0",
            "--database-url",
            database,
            "--bot-processes",
            "1",
            "--new-player-interval",
            "0",
            *args,
        )
        env = {k: v for k, v in os.environ.items() if not k.startswith("HEARTS_")}
        self.proc = subprocess.Popen(
            cmd,
            stdout=subprocess.PIPE,
            stderr=log.open("a"),
            text=True,
            env=env,
            start_new_session=True,  # its own group: killed with its bot worker
        )
        lines: queue.Queue[str] = queue.Queue()
        stdout = self.proc.stdout
        assert stdout is not None
        threading.Thread(target=lambda: [lines.put(x) for x in stdout], daemon=True).start()
        try:
            self.url = lines.get(timeout=START_TIMEOUT).strip().rstrip("/")
        except queue.Empty:
            stop_group(self.proc)
            raise RuntimeError(log.read_text()) from None


class Browser:
    """One player's token, talking to either server."""

    def __init__(self, url: str) -> None:
        self.token = httpx.post(f"{url}/api/players", timeout=30).json()["token"]

    def call(self, url: str, method: str, path: str, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {self.token}"}
        r = httpx.request(method, url + path, headers=headers, json=body, timeout=30)
        assert r.status_code == 200, (r.status_code, r.text)
        return r.json()

    def careless_hand(self, url: str) -> None:
        """South passes its lowest cards and plays its highest legal card, its lowest
        when it leads (the highest every time can shoot the moon: nothing to analyse)."""
        self.call(url, "PUT", "/api/settings", {"level": "easy"})
        state = self.call(url, "GET", "/api/state")
        body = {"version": state["version"], "cards": state["hand"]["cards"][:3]}
        state = self.call(url, "POST", "/api/pass", body)
        while state["hand"]["phase"] != "done":
            v = {"version": state["version"]}
            if state["hand"]["turn"] == "S":
                pick = max if state["hand"]["trick"] else min
                card = pick(state["hand"]["legal"], key=lambda c: "23456789TJQKA".index(c[0]))
                state = self.call(url, "POST", "/api/play", v | {"card": card})
            else:
                state = self.call(url, "POST", "/api/step", v)


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgres":
        return str(request.getfixturevalue("fresh_pg_url"))
    return f"sqlite:///{tmp_path / 'hearts.db'}"


@pytest.fixture
def servers(database: str, tmp_path: Path) -> Iterator[list[Server]]:
    started: list[Server] = []
    try:
        for i, budget in enumerate((str(SLOW), str(SMALL))):
            log = tmp_path / f"server{i}.log"
            started.append(
                Server(database, log, "--analysis-iterations", budget, "--analysis-stale", STALE)
            )
        yield started
    finally:
        for server in started:
            stop_group(server.proc)


def _poll(browser: Browser, url: str, until: Any) -> Any:
    deadline = time.monotonic() + LIVE
    while time.monotonic() < deadline:
        got = browser.call(url, "GET", "/api/analysis/1")
        if until(got):
            return got
        time.sleep(0.1)
    raise AssertionError(f"the analysis never got there: {got}")


@pytest.mark.slow  # two servers start: 20-30 s on a loaded machine
def test_an_analysis_started_in_one_process_is_polled_in_the_other(
    servers: list[Server],
) -> None:
    small, other = servers[1].url, servers[0].url
    south = Browser(small)
    south.careless_hand(small)
    started = south.call(small, "POST", "/api/analysis", {"hand": 1})
    assert started["status"] == "running"
    got = _poll(south, other, lambda got: got["status"] != "running")
    assert got["status"] == "done" and got["done"] == got["total"] == 14
    assert got == south.call(small, "GET", "/api/analysis/1")
    # the findings of Khó at this budget on South's views (deterministic)
    record = south.call(other, "GET", "/api/hands/1")
    steps = analysis.decisions(record, (0, 0, 0, 0))
    found = [f for s in steps if (f := analysis.weigh(s.view, s.chosen, SMALL))]
    assert got["decisions"] == analysis.Analysis(1, 0, 1, 14, found=found).to_json()["decisions"]


@pytest.mark.slow
def test_a_killed_process_s_analysis_is_finished_by_the_other(
    servers: list[Server], tmp_path: Path
) -> None:
    dying, other = servers
    south = Browser(dying.url)
    south.careless_hand(dying.url)
    south.call(dying.url, "POST", "/api/analysis", {"hand": 1})  # SLOW playouts a decision
    under_way = _poll(south, other.url, lambda got: got["done"] >= 1)
    assert under_way["status"] == "running" and under_way["done"] < under_way["total"]
    kill_group(dying.proc)  # the server and its bot worker, mid-search
    got = _poll(south, other.url, lambda got: got["status"] != "running")
    # taken over once its heartbeat was stale (STALE s), and finished
    assert got["status"] == "done" and got["done"] == got["total"] == 14
    assert "went silent" in (tmp_path / "server1.log").read_text()
