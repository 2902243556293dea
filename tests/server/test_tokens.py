"""A token costs the database nothing until it is used: ``POST /api/players`` runs
no SQL; the first authenticated call makes the row (once, however many calls race);
a token the server did not issue is 403 and makes nothing."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from hearts.server.app import create_app
from hearts.server.store.db import Store, players, token_hash
from hearts.server.store.tokens import Tokens


def count_players(store: Store) -> int:
    with store.read() as conn:
        return int(conn.execute(sa.select(sa.func.count()).select_from(players)).scalar_one())


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """A server without its retention task (whose statements would be counted)."""
    app = create_app(db_url, seed=1, executor=ThreadPoolExecutor(1), prune_every=None)
    with TestClient(app) as c:
        yield c


@pytest.fixture
def statements(client: Any) -> Iterator[list[str]]:
    """Every SQL statement the app's database runs while the test goes on."""
    seen: list[str] = []
    engine = client.app.state.tables.store.engine

    def on_execute(*args: Any) -> None:
        seen.append(str(args[2]))

    sa.event.listen(engine, "before_cursor_execute", on_execute)
    yield seen
    sa.event.remove(engine, "before_cursor_execute", on_execute)


def test_a_new_token_touches_no_database_until_used(client: Any, statements: list[str]) -> None:
    store = client.app.state.tables.store
    before = count_players(store)
    statements.clear()
    tokens = [client.post("/api/players").json()["token"] for _ in range(5)]
    assert statements == []
    assert count_players(store) == before
    headers = {"Authorization": f"Bearer {tokens[0]}"}
    assert client.get("/api/state", headers=headers).json()["version"] == 1
    assert count_players(store) == before + 1
    assert store.player_id(tokens[0]) is not None and store.player_id(tokens[1]) is None


def test_a_token_not_issued_here_is_403_and_makes_no_row(client: Any) -> None:
    store = client.app.state.tables.store
    token = client.post("/api/players").json()["token"]
    body, _, tag = token.partition(".")
    flip = {"A": "B"}.get(body[0], "A")
    other_server = Tokens(bytes(32)).issue()
    before = count_players(store)
    for forged in (flip + body[1:] + "." + tag, body + "." + tag[:-1], body, other_server):
        response = client.get("/api/state", headers={"Authorization": f"Bearer {forged}"})
        assert response.status_code == 403
        assert response.json()["error"]["code"] == "bad_token"
    assert count_players(store) == before


@pytest.mark.both_databases("racing first inserts of one row: each database's unique index")
def test_first_calls_at_once_make_one_row(client: Any, db_url: str) -> None:
    """Threads of this app and of a second one (another process) race on one token."""
    token = client.post("/api/players").json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    other = Store(db_url)
    try:
        start = threading.Barrier(8)

        def first_call(i: int) -> Any:
            start.wait()
            if i % 2:
                return other.player_for(token_hash(token), create=True)
            return client.get("/api/stats", headers=headers).status_code

        with ThreadPoolExecutor(8) as pool:
            results = list(pool.map(first_call, range(8)))
        with other.read() as conn:
            rows = conn.execute(
                sa.select(players.c.id).where(players.c.token_hash == token_hash(token))
            ).all()
    finally:
        other.close()
    assert len(rows) == 1
    assert results[0::2] == [200] * 4 and results[1::2] == [rows[0].id] * 4


@pytest.mark.both_databases("the token secret stored and read back")
def test_a_token_outlives_a_restart(client: Any, app_client: Callable[..., Any]) -> None:
    """The signing key is in the database: every server of it accepts its tokens."""
    token = client.post("/api/players").json()["token"]
    second = app_client()
    response = second.get("/api/state", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200
