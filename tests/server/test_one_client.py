"""One client cannot make the server refuse others (issue 57, items 1 and 10): a real
``hearts serve`` with 256 open files at most (a connection cap of 80), one token
holding as many room sockets and long polls as its caps let it and a few hundred
connections that never read their answers; another client's State and a static file
are still answered within a second (the median of five; each well before a reader's
write deadline could have made room), the readers that read nothing are reset by the
write deadline, and no static file stays open for them."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import statistics
import struct
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from websockets.sync.client import ClientConnection, connect

import hearts.server

sys.path.insert(0, str(Path(__file__).resolve().parent))
from live_server import hearts_serve

NOFILE = 256
SOCKETS = 12  # the token's cap is 8
POLLS = 12  # the token's cap is 8
READERS = 200  # more than the connection cap (80 at 256 files)
PIPELINED = 64  # a few MB of answers: more than the kernel takes for a client reading nothing
WRITE_DEADLINE = 10.0  # hearts.server.web.connections
TCP_ESTABLISHED = 1
#: the static files of the package the server runs (this process's)
STATIC = Path(hearts.server.__file__).resolve().parent / "static"


def call(
    address: tuple[str, int], method: str, path: str, token: str | None = None, body: Any = None
) -> tuple[int, bytes, float]:
    """One request on a fresh connection: status, body and seconds taken."""
    start = time.monotonic()
    conn = http.client.HTTPConnection(*address, timeout=10)
    try:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        data = None if body is None else json.dumps(body)
        if data is not None:
            headers["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        return response.status, response.read(), time.monotonic() - start
    finally:
        conn.close()


def slow_reader(address: tuple[str, int]) -> socket.socket:
    """A connection that asks for a static file again and again and reads nothing:
    its answers fill the server's write buffer, the last ones wait on it."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    sock.settimeout(10)
    sock.connect(address)
    sock.sendall(b"GET /static/layout.css HTTP/1.1\r\nHost: hearts\r\n\r\n" * PIPELINED)
    return sock


def established(sock: socket.socket) -> bool:
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)
    return struct.unpack("B", info[:1])[0] == TCP_ESTABLISHED


def server_pid() -> int:
    """The ``hearts serve`` this test started (a child of this process)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = (entry / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if ppid == os.getpid() and b"serve" in (entry / "cmdline").read_bytes():
                return int(entry.name)
    raise AssertionError("no hearts serve among this process's children")


def open_files(pid: int, kind: str) -> int:
    """How many of the server's open files' names start with ``kind``."""
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            count += os.readlink(fd).startswith(kind)
    return count


def open_sockets(pid: int) -> int:
    return open_files(pid, "socket:")


@contextlib.contextmanager
def room_sockets(url: str, code: str, token: str) -> Iterator[list[ClientConnection]]:
    """As many of the room's sockets as the token may hold (the rest are refused)."""
    held: list[ClientConnection] = []
    with contextlib.ExitStack() as stack:
        for _ in range(SOCKETS):
            ws = stack.enter_context(connect(f"{url}/api/rooms/{code}/ws", open_timeout=10))
            ws.send(json.dumps({"token": token}))
            with contextlib.suppress(Exception):  # refused: closed 4429
                if "room" in json.loads(ws.recv(timeout=10)):
                    held.append(ws)
        yield held


@pytest.mark.slow
def test_one_token_holding_all_it_can_does_not_keep_others_out(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with hearts_serve(tmp_path, nofile=NOFILE, log=log) as base:
        split = urlsplit(base)
        address = (split.hostname or "", split.port or 0)
        tokens = []
        for _ in range(2):
            status, body, _ = call(address, "POST", "/api/players")
            assert status == 200, body
            tokens.append(json.loads(body)["token"])
        hog, other = tokens
        pid = server_pid()
        quiet = open_sockets(pid)
        status, body, _ = call(address, "POST", "/api/rooms", hog, {"name": "Hog"})
        assert status == 200, body
        room = json.loads(body)
        code, version = room["code"], room["version"]

        polls: list[socket.socket] = []
        readers: list[socket.socket] = []
        ws_url = base.replace("http://", "ws://").rstrip("/")
        with room_sockets(ws_url, code, hog) as held:
            assert len(held) == 8
            try:
                for _ in range(POLLS):
                    poll = socket.create_connection(address, timeout=10)
                    poll.sendall(
                        f"GET /api/rooms/{code}/events?after={version} HTTP/1.1\r\n"
                        f"Host: hearts\r\nAuthorization: Bearer {hog}\r\n\r\n".encode()
                    )
                    polls.append(poll)
                for _ in range(READERS):
                    with contextlib.suppress(OSError):  # refused while the cap is full
                        readers.append(slow_reader(address))
                burst = list(readers)
                time.sleep(2)  # a whole look at the unsent bytes: they read nothing
                stop = threading.Event()

                def keep_coming() -> None:  # the hog goes on opening readers meanwhile
                    while not stop.wait(0.05):
                        with contextlib.suppress(OSError):
                            readers.append(slow_reader(address))

                coming = threading.Thread(target=keep_coming)
                coming.start()
                try:
                    assert open_files(pid, str(STATIC)) == 0, "static files held open"
                    times: dict[str, list[float]] = {"/api/state": [], "/static/js/api.js": []}
                    for _ in range(5):
                        for path, token in (("/api/state", other), ("/static/js/api.js", None)):
                            status, body, took = call(address, "GET", path, token)
                            assert status == 200, (path, status, body[:200])
                            # Let in only once a reader's deadline reset it would be 10 s.
                            assert took < WRITE_DEADLINE / 2, f"{path} took {took:.2f} s"
                            times[path].append(took)
                        time.sleep(0.2)
                    for path, took in times.items():  # the median: these cores are shared
                        assert statistics.median(took) < 1.0, (path, took)
                finally:
                    stop.set()
                    coming.join()
                    last = time.monotonic()  # the last reader the hog opened
                # Past the write deadline of every reader, the last one's too, none is
                # still open.
                time.sleep(max(0.0, last + WRITE_DEADLINE + 5 - time.monotonic()))
                still = sum(established(sock) for sock in burst)
                assert still == 0, f"{still} of {len(burst)} connections reading nothing open"
                # Nor does the server hold any but the token's sockets and polls.
                assert open_sockets(pid) <= quiet + len(held) + 8 + 2
                status, _, took = call(address, "GET", "/api/state", other)
                assert status == 200 and took < WRITE_DEADLINE / 2
            finally:
                for sock in polls + readers:
                    sock.close()

    text = log.read_text(errors="replace")
    assert "Traceback" not in text, text[:2000]
    assert "Too many open files" not in text, text[:2000]
    assert "unexpected error" not in text, text[:2000]
