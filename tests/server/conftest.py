"""Fixtures for the API tests: an app on a database of the test's own, and a South player.

``db_url`` (and ``client``, ``south``, ``app_client`` on it) is a database already at
the schema's head: a copy of one migrated once per session (a SQLite file copied, a
PostgreSQL ``CREATE DATABASE ... TEMPLATE``), so an app's start finds nothing to do.
``fresh_db_url`` is one nobody has opened, for the tests of the migrations themselves.
``shared_db_url`` is ``db_url`` for one module's tests together.

SQLite is the default. The tests of what the two databases do differently (the store's
SQL, versions and concurrent writers, migrations, retention, several processes on one
database, room storage) run on PostgreSQL too: their module or test is marked
``both_databases(why)`` (``[sqlite]`` and ``[postgres]`` cases; the PostgreSQL case is
skipped only when ``HEARTS_TEST_PG_URL`` is not set, and scripts/test.sh sets it).
``HEARTS_TEST_DATABASE_URL`` replaces every case with that one database (``[env]``).
"""

from __future__ import annotations

import json
import os
import shutil
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from hearts.server.app import create_app
from hearts.server.store import migrate
from hearts.server.store.db import make_engine


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


def make_client(url: str, peer: str = "testclient", **options: Any) -> TestClient:
    """The app on ``url`` with ``create_app``'s ``options``; its calls come from
    ``peer`` (a trusted proxy's address lets a test name each caller's)."""
    options.setdefault("seed", 1)
    options.setdefault("executor", ThreadPoolExecutor(max_workers=1))
    return TestClient(create_app(url, **options), client=(peer, 50000))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "hearts.db"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "both_databases(why): the test's database fixtures run on PostgreSQL as well as"
        " SQLite (tests/server/conftest.py)",
    )


# The database fixtures, by scope; the marker chooses their cases.
DATABASE_FIXTURES = {"db_url": "function", "fresh_db_url": "function", "shared_db_url": "module"}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    names = [name for name in DATABASE_FIXTURES if name in metafunc.fixturenames]
    if not names:
        return
    if os.environ.get("HEARTS_TEST_DATABASE_URL"):
        cases = ["env"]
    elif (mark := metafunc.definition.get_closest_marker("both_databases")) is not None:
        if not (mark.args or mark.kwargs):
            raise pytest.UsageError(f"{metafunc.definition.nodeid}: both_databases(why) says why")
        cases = ["sqlite", "postgres"]
    else:
        cases = ["sqlite"]
    scope = "module" if names == ["shared_db_url"] else "function"
    values = cases if len(names) == 1 else [tuple([case] * len(names)) for case in cases]
    metafunc.parametrize(",".join(names), values, indirect=True, ids=cases, scope=scope)


def migrated(url: str) -> None:
    """Bring the database at ``url`` to the schema's head, as a server's start does."""
    engine = make_engine(url)
    try:
        with migrate.maintenance_lock(engine):
            migrate.upgrade(engine)
    finally:
        engine.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file at the schema's head, migrated once; tests get copies."""
    path = tmp_path_factory.mktemp("template") / "hearts.db"
    migrated(f"sqlite:///{path}")
    assert not path.with_name("hearts.db-wal").exists(), "the template is one file"
    return path


@pytest.fixture(scope="session")
def pg_template(pg_databases: Any) -> str:
    """The name of a PostgreSQL database at the schema's head, migrated once; tests
    get databases made from it (``CREATE DATABASE ... TEMPLATE``)."""
    url = pg_databases.create()
    migrated(url)
    return str(sa.make_url(url).database)


def migrated_copy(request: pytest.FixtureRequest, path: Path) -> str:
    """A new database at the schema's head, as ``request.param`` says: a copy of the
    SQLite template at ``path``, or a PostgreSQL database made from its template
    (given back at the end of ``request``'s scope)."""
    if request.param == "env":
        return os.environ["HEARTS_TEST_DATABASE_URL"]
    if request.param == "postgres":
        databases = request.getfixturevalue("pg_databases")
        url = databases.create(template=request.getfixturevalue("pg_template"))
        request.addfinalizer(lambda: databases.drop(url))
        return str(url)
    assert request.param == "sqlite", request.param
    shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
    return f"sqlite:///{path}"


@pytest.fixture
def db_url(request: pytest.FixtureRequest, db_path: Path) -> str:
    """A database of the test's own at the schema's head: SQLite, PostgreSQL (the same
    tests prove the SQL portable), or the one named by ``HEARTS_TEST_DATABASE_URL``."""
    return migrated_copy(request, db_path)


@pytest.fixture(scope="module")
def shared_db_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """``db_url`` for one module's tests together."""
    return migrated_copy(request, tmp_path_factory.mktemp("shared") / "hearts.db")


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


@pytest.fixture
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
    assert request.param == "env", request.param
    base = os.environ.get("HEARTS_TEST_DATABASE_URL", "")
    if not base.startswith("postgresql"):
        yield f"sqlite:///{tmp_path / 'fresh.db'}"
        return
    import secrets

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
