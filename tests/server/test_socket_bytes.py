"""A socket's text frame that is not UTF-8 (issue 57 item 8): the socket is closed with
1007 as the WebSocket protocol says, as the hello or after it, and the server's log
says so in one line, with no traceback (the fault is the client's bytes, not ours).
A real ``hearts serve``: uvicorn decodes the frame before the app sees it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from live_server import hearts_serve

pytestmark = pytest.mark.slow

NOT_UTF8 = b"\xff\xfe{"


def test_a_frame_that_is_not_utf8_closes_1007_and_logs_one_line(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with hearts_serve(tmp_path, log=log) as url:
        http = httpx.Client(base_url=url.rstrip("/"), timeout=30)
        token = http.post("/api/players").json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        code = http.post("/api/rooms", headers=auth, json={}).json()["code"]
        ws = url.rstrip("/").replace("http://", "ws://") + f"/api/rooms/{code}/ws"
        for hello_first in (False, True):
            with connect(ws, open_timeout=30) as socket:
                if hello_first:
                    socket.send(json.dumps({"token": token}))
                    assert json.loads(socket.recv(timeout=30))["type"] == "room"
                socket.send(NOT_UTF8, text=True)
                with pytest.raises(ConnectionClosed) as closed:
                    socket.recv(timeout=30)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
        assert http.get("/api/state", headers=auth).status_code == 200  # serving on
    text = log.read_text()
    assert "Invalid UTF-8" in text, text
    assert "Traceback" not in text, text
