"""Slowloris: many connections that send half a request and stall must not stop the
service or flood its log (issue 7, item 2).  A real ``hearts serve`` with 1,024 open
files at most, as under a default ``ulimit -n``."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import http.client
import io
import logging
import resource
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from live_server import hearts_serve

from hearts.server.web.connections import OncePerInterval

NOFILE = 1024
STALLED = 1100  # more connections than the server may open files
DEADLINE = 10.0  # seconds a request has to arrive whole (hearts.server.web.connections)
HALF_REQUEST = b"GET /api/state HTTP/1.1\r\nHost: hearts\r\nAuthorization: Bearer "


def call(
    address: tuple[str, int], method: str, path: str, token: str | None = None
) -> tuple[int, bytes, float]:
    """One request on a fresh connection: status, body and seconds taken."""
    start = time.monotonic()
    conn = http.client.HTTPConnection(*address, timeout=10)
    try:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        conn.request(method, path, headers=headers)
        response = conn.getresponse()
        return response.status, response.read(), time.monotonic() - start
    finally:
        conn.close()


def closed_by_server(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:  # reset
        return True


@pytest.fixture
def own_files() -> None:
    """This test process holds the 1,100 client ends itself."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = STALLED + 200
    if soft < need:
        if hard != resource.RLIM_INFINITY and hard < need:
            pytest.skip(f"this process may open {hard} files, the test needs {need}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))


@pytest.mark.slow
def test_half_sent_requests_neither_stop_the_service_nor_flood_the_log(
    tmp_path: Path, own_files: None
) -> None:
    log = tmp_path / "server.log"
    with hearts_serve(tmp_path, nofile=NOFILE, log=log) as url:
        split = urlsplit(url)
        address = (split.hostname or "", split.port or 0)
        status, body, _ = call(address, "POST", "/api/players")
        assert status == 200
        token = body.split(b'"token":"')[1].split(b'"')[0].decode()

        stalled: list[socket.socket] = []
        try:
            for _ in range(STALLED):
                sock = socket.create_connection(address, timeout=10)
                sock.sendall(HALF_REQUEST)
                stalled.append(sock)

            # A trickle of bytes does not keep a request alive past its deadline.
            trickle = socket.create_connection(address, timeout=10)
            trickle.sendall(HALF_REQUEST)
            trickle_start = time.monotonic()
            trickle_closed_after: list[float] = []

            def drip() -> None:
                with contextlib.suppress(OSError):
                    while time.monotonic() - trickle_start < DEADLINE + 5:
                        trickle.sendall(b"x")
                        time.sleep(0.5)
                trickle_closed_after.append(time.monotonic() - trickle_start)

            dripping = threading.Thread(target=drip)
            dripping.start()

            # The service still answers, at once (the bound: within a second).
            for _ in range(3):
                status, body, took = call(address, "GET", "/api/state", token)
                assert status == 200, body
                assert took < 3.0, f"a normal request took {took:.2f} s"  # stuck: the 10 s deadline

            # Past the deadline, the server has closed every stalled connection.
            time.sleep(DEADLINE + 2)
            still_open = sum(not closed_by_server(sock) for sock in stalled)
            assert still_open == 0, f"{still_open} stalled connections still open"
            dripping.join()
            assert trickle_closed_after and trickle_closed_after[0] < DEADLINE + 3
            status, _, took = call(address, "GET", "/api/state", token)
            assert status == 200 and took < 3.0
        finally:
            for sock in stalled:
                sock.close()

    text = log.read_text(errors="replace")
    assert "Traceback" not in text, text[:2000]
    # The cap kept the server within its open files: it never failed to accept.
    assert "Too many open files" not in text, text[:2000]
    assert len(text) < 4096, f"{len(text)} bytes of log:\n{text[:2000]}"


def test_repeated_trouble_is_one_line_per_kind_with_a_count() -> None:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(OncePerInterval(interval=0.2))
    handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
    root = logging.getLogger("test-trouble")
    root.addHandler(handler)
    root.propagate = False
    accept_log = logging.getLogger("test-trouble.asyncio")
    app_log = logging.getLogger("test-trouble.app")

    async def flood() -> None:
        emfile = OSError(errno.EMFILE, "Too many open files")
        for fd in range(1000):  # as asyncio logs a failed accept (the socket varies)
            accept_log.error(
                "socket.accept() out of system resource\nsocket: <fd=%d>", fd, exc_info=emfile
            )
            app_log.warning("closed a connection: too slow")
        try:
            raise ValueError("a bug")
        except ValueError:
            app_log.exception("unexpected error")
        await asyncio.sleep(0.4)  # the interval ends: the counts are told

    try:
        asyncio.run(flood())
    finally:
        root.removeHandler(handler)
    lines = out.getvalue().splitlines()
    assert lines[0] == (
        "test-trouble.asyncio: socket.accept() out of system resource: "
        "[Errno 24] Too many open files"
    )
    assert lines[1] == "test-trouble.app: closed a connection: too slow"
    # A bug keeps its traceback (once per interval).
    assert lines[2] == "test-trouble.app: unexpected error"
    assert lines[3] == "Traceback (most recent call last):"
    assert out.getvalue().count("Traceback") == 1
    assert sorted(lines[-2:]) == [
        "test-trouble.app: closed a connection: too slow (999 more like this in 0.2 s)",
        "test-trouble.asyncio: socket.accept() out of system resource: "
        "[Errno 24] Too many open files (999 more like this in 0.2 s)",
    ]


def test_the_server_raises_its_open_file_limit_to_the_hard_one() -> None:
    """A default ``ulimit -n`` of 1,024 under a hard limit of more: the server takes it
    all (and sizes its connection cap from it)."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 2048:
        pytest.skip(f"the hard limit here is {hard}")
    script = (
        "import resource; from hearts.server.web.connections import server_options; "
        "server_options(); print(*resource.getrlimit(resource.RLIMIT_NOFILE))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 2048)),
    ).stdout.split()
    assert out == ["2048", "2048"]
