"""Fixtures for the API tests: an app on a fresh database, and a South player.

Every test that takes ``db_url`` (or ``client``, ``south``, ``app_client``) runs twice:
``[sqlite]`` on a fresh SQLite file and ``[postgres]`` on a fresh PostgreSQL database
(``fresh_pg_url`` of tests/conftest.py: skipped only when ``HEARTS_TEST_PG_URL`` is not
set; scripts/test.sh sets it). ``shared_db_url`` is the same per module, for fixtures
shared by a module's tests. ``HEARTS_TEST_DATABASE_URL`` replaces both cases with
that one database, as before (``[env]``).
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from hearts.server.app import create_app


class South:
    """One browser: its token, and helpers that play through the API."""

    def __init__(self, client: TestClient, token: str | None = None) -> None:
        self.client = client
        self.token = token or client.post("/api/players").json()["token"]
        self.responses: list[Any] = []  # every JSON body this browser received

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def call(self, method: str, path: str, body: Any = None, status: int = 200) -> Any:
        response = self.client.request(method, path, headers=self.headers, json=body)
        data = response.json()
        self.responses.append(data)
        assert response.status_code == status, (response.status_code, data)
        return data

    def state(self) -> Any:
        return self.call("GET", "/api/state")

    def pass_cards(self, state: Any, cards: list[str] | None = None) -> Any:
        cards = cards if cards is not None else state["hand"]["cards"][-3:]
        return self.call("POST", "/api/pass", {"version": state["version"], "cards": cards})

    def play(self, state: Any, card: str | None = None) -> Any:
        card = card or state["hand"]["legal"][0]
        return self.call("POST", "/api/play", {"version": state["version"], "card": card})

    def step(self, state: Any) -> Any:
        return self.call("POST", "/api/step", {"version": state["version"]})

    def advance(self, state: Any) -> Any:
        """One move of whoever must move: South passes or plays its lowest legal card,
        or a computer acts."""
        hand = state["hand"]
        if hand["phase"] == "pass" and hand["passed"] is None:
            return self.pass_cards(state)
        if hand["turn"] == "S":
            return self.play(state)
        return self.step(state)

    def play_hand(self, state: Any, until: Callable[[Any], bool] | None = None) -> Any:
        """Advance until the hand is done (or ``until`` holds)."""
        for _ in range(200):
            if state["hand"]["phase"] == "done" or (until and until(state)):
                return state
            state = self.advance(state)
        raise AssertionError("the hand did not finish")


def make_client(url: str, **options: Any) -> TestClient:
    options.setdefault("seed", 1)
    options.setdefault("executor", ThreadPoolExecutor(max_workers=1))
    return TestClient(create_app(url, **options))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "hearts.db"


DATABASES = ["env"] if os.environ.get("HEARTS_TEST_DATABASE_URL") else ["sqlite", "postgres"]


@pytest.fixture(params=DATABASES)
def db_url(request: pytest.FixtureRequest, db_path: Path) -> str:
    """A fresh SQLite file, a fresh PostgreSQL database (the same tests prove the SQL
    portable), or the database named by ``HEARTS_TEST_DATABASE_URL``."""
    if request.param == "env":
        return os.environ["HEARTS_TEST_DATABASE_URL"]
    if request.param == "postgres":
        return str(request.getfixturevalue("fresh_pg_url"))
    return f"sqlite:///{db_path}"


@pytest.fixture(scope="module", params=DATABASES)
def shared_db_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """``db_url`` for one module's tests together."""
    if request.param == "env":
        yield os.environ["HEARTS_TEST_DATABASE_URL"]
    elif request.param == "postgres":
        databases = request.getfixturevalue("pg_databases")
        url = databases.create()
        yield url
        databases.drop(url)
    else:
        yield f"sqlite:///{tmp_path_factory.mktemp('shared') / 'hearts.db'}"


@pytest.fixture
def client(request: pytest.FixtureRequest, db_url: str) -> Iterator[TestClient]:
    """The app on ``db_url``; a module's ``CLIENT_OPTIONS`` (a dict of ``create_app``
    options: its own seed, ``room_pace=0.0`` ...) are its server's."""
    with make_client(db_url, **getattr(request.module, "CLIENT_OPTIONS", {})) as c:
        yield c


@pytest.fixture
def history(monkeypatch: pytest.MonkeyPatch) -> dict[tuple[str, int], Any]:
    """Every saved room's true hands by (code, version) (room_guests.record_history)."""
    from room_guests import record_history

    return record_history(monkeypatch)


@pytest.fixture
def south(client: TestClient) -> South:
    player = South(client)
    player.call("PUT", "/api/settings", {"level": "easy"})
    return player


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


@pytest.fixture(scope="session")
def new_south_class() -> type[South]:
    return South


@pytest.fixture
def new_south() -> Callable[..., South]:
    """Make another browser on a client (optionally with a known token)."""
    return South


@pytest.fixture
def app_client(db_url: str) -> Iterator[Callable[..., TestClient]]:
    """Open more apps on the same database (a server restart), closed at the end."""
    opened: list[TestClient] = []

    def factory(**options: Any) -> TestClient:
        c = make_client(db_url, **options)
        c.__enter__()
        opened.append(c)
        return c

    yield factory
    for c in opened:
        c.__exit__(None, None, None)


@pytest.fixture(params=DATABASES)
def fresh_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database nobody has opened: a new SQLite file, an empty PostgreSQL database
    (``fresh_pg_url``), or, when ``HEARTS_TEST_DATABASE_URL`` names PostgreSQL, a new
    database on that server (dropped after the test)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'fresh.db'}"
        return
    if request.param == "postgres":
        yield str(request.getfixturevalue("fresh_pg_url"))
        return
    base = os.environ.get("HEARTS_TEST_DATABASE_URL", "")
    if not base.startswith("postgresql"):
        yield f"sqlite:///{tmp_path / 'fresh.db'}"
        return
    import secrets

    import sqlalchemy as sa

    url = sa.make_url(base)
    name = f"hearts_test_{secrets.token_hex(4)}"
    admin = sa.create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()
