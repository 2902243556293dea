"""The database out of reach while the server runs (issue 37): PostgreSQL gone (a
relay in front of it cut: connections reset, nothing listening), SQLite locked by
another process. Every call that needs it answers 503 ``unavailable`` with
``Retry-After``, changes nothing, logs one line and no traceback; a socket's
action gets the same answer and the socket stays open; once the database is back
the same calls succeed and nothing was lost."""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent))
from room_guests import Guest, new_room, settled
from tcp_proxy import relay

from hearts.server.app import create_app
from hearts.server.i18n.messages import ERRORS
from hearts.server.store import outage

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

pytestmark = pytest.mark.both_databases(
    "PostgreSQL goes away over the network, SQLite is locked by another process"
)


@contextlib.contextmanager
def app_on(db_url: str) -> Iterator[tuple[TestClient, Callable[[], None], Callable[[], None]]]:
    """A client of an app on ``db_url``, and how to take its database away and give
    it back while the app runs."""
    url = sa.make_url(db_url)
    if url.get_backend_name() == "postgresql":
        with relay(url.host or "127.0.0.1", url.port or 5432) as gate:
            app = create_app(
                url.set(host="127.0.0.1", port=gate.port).render_as_string(hide_password=False),
                seed=1,
                executor=ThreadPoolExecutor(max_workers=1),
                room_pace=0.0,
            )
            with TestClient(app) as client:
                yield client, gate.cut, gate.start
        return
    app = create_app(db_url, seed=1, executor=ThreadPoolExecutor(max_workers=1), room_pace=0.0)
    engine = app.state.tables.store.engine
    # the app's connections wait 50 ms for a lock, not its usual 30 s
    sa.event.listen(engine, "connect", lambda conn, _r: conn.execute("PRAGMA busy_timeout = 50"))
    engine.dispose()
    holder = sqlite3.connect(str(url.database), isolation_level=None)
    with TestClient(app) as client:
        yield client, lambda: holder.execute("BEGIN EXCLUSIVE"), lambda: holder.execute("ROLLBACK")
    holder.close()


def unavailable(response: Any) -> None:
    assert response.status_code == 503, response.text
    assert response.json() == {
        "error": {"code": "unavailable", "message": ERRORS["unavailable"][1]}
    }
    assert response.headers["retry-after"] == str(outage.RETRY_AFTER)
    assert response.headers["cache-control"] == "no-store"
    assert response.headers["x-content-type-options"] == "nosniff"


def reply(socket: Any, kind: str) -> Any:
    """The socket's next message of type ``kind`` (pushes of the Room may come first)."""
    while (message := socket.receive_json())["type"] != kind:
        assert message["type"] == "room", message
    return message


def test_calls_answer_503_while_the_database_is_away_and_lose_nothing(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with app_on(db_url) as (client, cut, restore):
        south = Guest(client)
        before = south.call("GET", "/api/state")
        creator = Guest(client)
        code = new_room(creator)["code"]
        creator.act(code, "start", {"version": creator.room(code)["version"]})
        room = settled(creator, code)
        with client.websocket_connect(f"/api/rooms/{code}/ws") as socket:
            socket.send_json({"token": creator.token})
            assert socket.receive_json()["type"] == "room"
            socket.send_json({"type": "ping"})  # its connection is written once it answers
            assert reply(socket, "pong") == {"type": "pong"}
            caplog.clear()
            cut()
            try:
                # a write: a new match (and on PostgreSQL every read too)
                new_match = {"version": before["version"]}
                unavailable(
                    south.client.post("/api/new-match", headers=south.headers, json=new_match)
                )
                cards = room["state"]["hand"]["cards"][:3]
                pass_ = {"type": "pass", "id": 1, "version": room["version"], "cards": cards}
                socket.send_json(pass_)
                answer = reply(socket, "answer")
                assert (answer["status"], answer["error"]["code"]) == (503, "unavailable"), answer
                socket.send_json({"type": "ping"})  # still open
                assert reply(socket, "pong") == {"type": "pong"}
                if "postgresql" in db_url:
                    unavailable(south.client.get("/api/stats", headers=south.headers))
                    time.sleep(1.5)  # the rooms' sweep and LISTEN fail meanwhile
            finally:
                restore()
            failures = [r for r in caplog.records if r.name.startswith("hearts")]
            assert failures and all(r.exc_info is None for r in failures), [
                r.getMessage() for r in failures
            ]
            assert all("database unavailable" in r.getMessage() for r in failures)
            assert len([r for r in failures if "/api/new-match" in r.getMessage()]) == 1
            # back: the refused calls changed nothing and go through now
            assert south.call("GET", "/api/state") == before
            assert south.call("POST", "/api/new-match", new_match)["version"] > before["version"]
            socket.send_json(pass_)
            answer = reply(socket, "answer")
            assert answer["status"] == 200, answer


def test_other_database_errors_stay_500_with_their_traceback(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A bug that raises a database error is not an outage."""
    app = create_app(db_url, executor=ThreadPoolExecutor(max_workers=1))

    def broken(_digest: str, _create: bool) -> int:
        raise sa.exc.ProgrammingError("SELECT nothing", {}, Exception("no such column"))

    app.state.tables.store.player_for = broken
    with TestClient(app, raise_server_exceptions=False) as client:
        token = client.post("/api/players").json()["token"]
        response = client.get("/api/state", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 500 and response.json()["error"]["code"] == "internal"
    assert any(r.exc_info for r in caplog.records if r.levelno >= logging.ERROR)
