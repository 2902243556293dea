"""Rooms on PostgreSQL across server processes (issue 9, "Scale"): two ``hearts
serve`` processes on one database, two humans connected to different ones, a whole
hand played live on both screens through LISTEN/NOTIFY; then one process is killed
with SIGKILL mid-hand and its player goes on through the other."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from processes import hearts_command, kill_group, stop_group
from websockets.sync.client import connect

START_TIMEOUT = 60.0
LIVE = 30.0  # generous bound for "it got there" on a loaded machine


def serve(url: str, log: Path) -> tuple[subprocess.Popen[str], str]:
    cmd = hearts_command(
        "serve",
        "--port",
        "0",
        "--database-url",
        url,
        "--room-pace",
        "0.05",
        "--new-player-interval",
        "0",
        "--bot-processes",
        "1",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEARTS_")}
    err = log.open("a")
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=err, text=True, env=env, start_new_session=True
    )
    lines: queue.Queue[str] = queue.Queue()
    stdout = proc.stdout
    assert stdout is not None
    threading.Thread(target=lambda: [lines.put(x) for x in stdout], daemon=True).start()
    try:
        return proc, lines.get(timeout=START_TIMEOUT).strip().rstrip("/")
    except queue.Empty:
        stop_group(proc)
        raise RuntimeError(log.read_text()) from None


@pytest.fixture
def two_servers(fresh_pg_url: str, tmp_path: Path) -> Iterator[list[Any]]:
    started = [serve(fresh_pg_url, tmp_path / f"server{i}.log") for i in range(2)]
    yield started
    for proc, _ in started:
        stop_group(proc)


class Human:
    """A browser talking to one server process: REST calls and a socket's frames."""

    def __init__(self, base: str, token: str | None = None) -> None:
        self.http = httpx.Client(base_url=base, timeout=30)
        self.base = base
        self.token = token or self.http.post("/api/players").json()["token"]
        self.frames: list[Any] = []
        self.socket: Any = None
        self.sockets = contextlib.ExitStack()  # closed with the test's servers

    def move_to(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=30)
        self.base = base

    def call(self, method: str, path: str, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {self.token}"}
        return self.http.request(method, path, headers=headers, json=body).json()

    def listen(self, code: str) -> None:
        url = self.base.replace("http://", "ws://") + f"/api/rooms/{code}/ws"
        self.socket = self.sockets.enter_context(connect(url, open_timeout=30))
        self.socket.send(json.dumps({"token": self.token}))

        def read(socket: Any = self.socket) -> None:
            try:
                for text in socket:
                    self.frames.append(json.loads(text))
            except Exception:
                pass

        threading.Thread(target=read, daemon=True).start()

    def last(self) -> Any:
        return self.frames[-1]["room"] if self.frames else None

    def step(self, code: str) -> bool:
        """Pass or play if it is this human's turn; whether it did."""
        room = self.call("GET", f"/api/rooms/{code}")
        hand = room["state"]["hand"]
        v = room["version"]
        if hand["phase"] == "pass" and hand["passed"] is None:
            self.call("POST", f"/api/rooms/{code}/pass", {"version": v, "cards": hand["cards"][:3]})
            return True
        if hand["phase"] == "play" and hand["turn"] == "S":
            self.call("POST", f"/api/rooms/{code}/play", {"version": v, "card": hand["legal"][0]})
            return True
        return False


def play_until(humans: list[Human], code: str, done: Any) -> Any:
    deadline = time.monotonic() + 4 * LIVE
    while time.monotonic() < deadline:
        room = humans[0].call("GET", f"/api/rooms/{code}")
        if done(room):
            return room
        if not any(h.step(code) for h in humans):
            time.sleep(0.05)
    raise AssertionError("the hand did not go on")


def wait_frame(human: Human, check: Any) -> Any:
    deadline = time.monotonic() + LIVE
    while time.monotonic() < deadline:
        found = [f["room"] for f in list(human.frames) if f.get("type") == "room"]
        for room in reversed(found):
            if check(room):
                return room
        time.sleep(0.05)
    raise AssertionError(f"no such frame; last: {human.last()}")


@pytest.mark.slow
def test_two_processes_serve_one_room_and_survive_a_kill(two_servers) -> None:
    """Also: a room's socket outlives the server's 10 s request deadline."""
    (proc_a, url_a), (_proc_b, url_b) = two_servers
    lan, minh = Human(url_a), Human(url_b)
    body = {"level": "easy", "turn_seconds": None, "name": "Lan"}
    code = lan.call("POST", "/api/rooms", body)["code"]
    minh.call("POST", f"/api/rooms/{code}/join", {"name": "Minh"})
    lan.listen(code)  # Lan's screen is on process A, Minh's on process B
    minh.listen(code)
    version = lan.call("GET", f"/api/rooms/{code}")["version"]
    lan.call("POST", f"/api/rooms/{code}/start", {"version": version})

    def hand_done(room: Any) -> bool:
        return room["state"]["hand"]["phase"] == "done"

    end = play_until([lan, minh], code, hand_done)
    # every change made through either process reached both screens
    for human in (lan, minh):
        seen = wait_frame(human, lambda r, v=end["version"]: r["version"] >= v)
        assert seen["state"]["hand"]["phase"] == "done"
    lan_cards = {
        p["card"]
        for t in end["state"]["hand"]["tricks"]
        for p in t["cards"]
        if p["seat"] == "S"  # from Lan's seat
    }
    minh_saw = {
        p["card"]
        for f in minh.frames
        if f.get("type") == "room" and f["room"]["state"]
        for p in f["room"]["state"]["hand"]["trick"]
    }
    assert lan_cards & minh_saw  # Lan's cards (played on A) appeared live on B

    # the next hand; a few tricks in, process A dies without a word
    lan.call("POST", f"/api/rooms/{code}/next-hand", {"version": end["version"]})
    play_until([lan, minh], code, lambda r: len(r["state"]["hand"]["tricks"]) >= 2)
    kill_group(proc_a)
    lan.move_to(url_b)  # Lan reloads: the page reaches the live process
    lan.frames.clear()
    lan.listen(code)
    again = wait_frame(lan, lambda r: r["you"] == "S" and r["state"] is not None)
    assert again["state"]["hand"]["tricks"][:2] == end_tricks_of(lan, code)[:2]
    final = play_until([lan, minh], code, hand_done)
    assert final["state"]["match"]["hand_number"] == 2
    wait_frame(lan, lambda r: r["version"] >= final["version"])
    wait_frame(minh, lambda r: r["version"] >= final["version"])


def end_tricks_of(human: Human, code: str) -> Any:
    return human.call("GET", f"/api/rooms/{code}")["state"]["hand"]["tricks"]
