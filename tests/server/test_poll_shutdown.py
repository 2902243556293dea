"""A room's long poll (GET /api/rooms/{code}/events) holds a call up to ~25 s; a
``hearts serve`` stopped (SIGTERM: a restart, a deploy) must not wait that out for a
poll, whether its page is still there or already gone, and a poll still answers the
Room as soon as it changes."""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from processes import hearts_command, stop_group

START_TIMEOUT = 60.0  # seconds for the server to print its address (a loaded machine)
EXIT_TIMEOUT = 10.0  # generous on a loaded machine, well under the poll's 25 s


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEARTS_")}
    cmd = hearts_command("serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", str(tmp_path))
    with (tmp_path / "server.log").open("a") as err:
        proc = subprocess.Popen(
            cmd,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env=env | {"HEARTS_BOT_PROCESSES": "1"},
            start_new_session=True,
        )
    try:
        lines: queue.Queue[str] = queue.Queue()
        stdout = proc.stdout
        assert stdout is not None
        threading.Thread(target=lambda: [lines.put(x) for x in stdout], daemon=True).start()
        yield proc, lines.get(timeout=START_TIMEOUT).strip().rstrip("/")
    finally:
        stop_group(proc)


def a_room(url: str) -> tuple[dict[str, str], str, int]:
    """A player's headers, a new room's code and its version."""
    token = httpx.post(f"{url}/api/players").json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    body = {"level": "easy", "turn_seconds": None, "rules": {"target": 50}}
    room = httpx.post(f"{url}/api/rooms", headers=headers, json=body).json()
    return headers, room["code"], room["version"]


def open_poll(url: str, headers: dict[str, str], code: str, after: int) -> socket.socket:
    """A long poll sent on a raw socket (so that the test can drop it unanswered)."""
    where = urlsplit(url)
    sock = socket.create_connection((where.hostname, where.port))
    auth = headers["Authorization"]
    sock.sendall(
        f"GET /api/rooms/{code}/events?after={after} HTTP/1.1\r\nHost: x\r\n"
        f"Authorization: {auth}\r\n\r\n".encode()
    )
    return sock


def exits(proc: subprocess.Popen[str]) -> bool:
    try:
        proc.wait(timeout=EXIT_TIMEOUT)
    except subprocess.TimeoutExpired:
        return False
    return True


@pytest.mark.parametrize("page", ["gone", "there"])
def test_a_stop_does_not_wait_for_an_open_long_poll(server: Any, page: str) -> None:
    proc, url = server
    headers, code, version = a_room(url)
    sock = open_poll(url, headers, code, version)
    sock.settimeout(0.5)
    with pytest.raises(TimeoutError):
        sock.recv(1)  # held: nothing changed in the room
    if page == "gone":
        sock.close()
        time.sleep(0.5)  # the server sees the connection closed
    os.killpg(proc.pid, signal.SIGTERM)
    assert exits(proc), "the server waited for the long poll"
    if page == "there":
        sock.settimeout(5)
        answer = sock.recv(65536)
        sock.close()
        # the page got the Room as it is, as after a quiet poll, and polls again
        assert answer.startswith(b"HTTP/1.1 200"), answer


def test_a_long_poll_answers_the_change_it_waits_for(server: Any) -> None:
    _, url = server
    headers, code, version = a_room(url)
    answers: queue.Queue[Any] = queue.Queue()

    def poll() -> None:
        answer = httpx.get(
            f"{url}/api/rooms/{code}/events",
            params={"after": version},
            headers=headers,
            timeout=60,
        )
        answers.put(answer)

    threading.Thread(target=poll, daemon=True).start()
    with pytest.raises(queue.Empty):
        answers.get(timeout=0.5)  # held: nothing changed yet
    seat = httpx.post(f"{url}/api/rooms/{code}/start", headers=headers, json={"version": version})
    assert seat.status_code == 200, seat.text
    answer = answers.get(timeout=20)
    assert answer.status_code == 200 and answer.json()["version"] > version, answer.text
    # asked again from where it got: the same Room (nothing missed, nothing new)
    again = httpx.get(
        f"{url}/api/rooms/{code}/events",
        params={"after": version},
        headers=headers,
        timeout=60,
    )
    assert again.json()["version"] == answer.json()["version"]
