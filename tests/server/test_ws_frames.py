"""A room socket's frame over the message limit (16 KiB) is refused by the real server
from the frame's header, before its payload is read (issue 37: uvicorn's default read
up to 16 MiB per frame first): the socket closes with 1009."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import sys
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from live_server import hearts_serve

from hearts.server import run
from hearts.server.web.middleware import BODY_LIMIT

ANNOUNCED = 16 * 2**20  # the frame's length as its header says
SENT = 64 * 1024  # what is sent of it: the server must not wait for the rest


def _post(url: str, path: str, body: object, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url.rstrip("/") + path, json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def _open_socket(address: tuple[str, int], code: str) -> socket.socket:
    """A WebSocket handshake by hand (the frame below is one no client library sends)."""
    sock = socket.create_connection(address, timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET /api/rooms/{code}/ws HTTP/1.1\r\nHost: {address[0]}:{address[1]}\r\n"
        f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def test_every_way_of_serving_reads_frames_up_to_the_limit() -> None:
    """``hearts serve`` and its ``--workers N`` build uvicorn's settings alike."""
    for options in ({}, {"factory": True, "workers": 2}):
        assert run._uvicorn_config(run.APP_FACTORY, **options).ws_max_size == BODY_LIMIT


def test_a_frame_over_the_limit_is_refused_from_its_header(tmp_path: Path) -> None:
    with hearts_serve(tmp_path) as url:
        split = urlsplit(url)
        address = (split.hostname or "", split.port or 0)
        token = _post(url, "/api/players", {})["token"]
        code = _post(url, "/api/rooms", {}, token)["code"]
        sock = _open_socket(address, code)
        with sock:
            mask = os.urandom(4)
            sock.sendall(struct.pack("!BBQ", 0x81, 0x80 | 127, ANNOUNCED) + mask)
            sock.sendall(b"\x00" * SENT)
            sock.settimeout(5)
            try:
                frame = sock.recv(4)
            except TimeoutError:
                pytest.fail("the server waits for the frame's megabytes")
        assert frame[0] == 0x88, frame  # a close frame
        assert struct.unpack("!H", frame[2:4])[0] == 1009  # message too big
