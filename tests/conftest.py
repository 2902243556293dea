"""Fixtures for every test folder: PostgreSQL databases of a test's own.

``HEARTS_TEST_PG_URL`` names a PostgreSQL server as a SQLAlchemy URL to a database
whose user may create databases (e.g.
``postgresql+psycopg://postgres@127.0.0.1:5433/postgres``). ``scripts/test.sh`` starts
a throw-away cluster and sets it, so CI always runs the PostgreSQL cases; without it
they are skipped (and only then).

- ``fresh_pg_url``: the URL of an empty database of the test's own, given back after
  it (connections still open are closed then).
- ``make_pg_url``: a factory of such URLs, for a test that needs several.
- ``pg_databases``: the session's helper behind both (``create()``/``drop(url)``), for
  fixtures of a wider scope. Databases are ``t_<random>``, all dropped at the end.

The server tests run on SQLite, and where the two databases differ on PostgreSQL too
(``both_databases(why)``, tests/server/conftest.py).
"""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

# Helpers shared by the test folders (processes.py) are importable from every test.
if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))

PG_URL_ENV = "HEARTS_TEST_PG_URL"

# Every ``hearts serve`` a test starts warms one Khó process, not one per core: none
# of the tests makes two computers think at once, and each process costs about half a
# second of CPU to start (docs/testing.md). A test that wants more says so.
os.environ.setdefault("HEARTS_BOT_PROCESSES", "1")
LONG_TESTS = Path(__file__).resolve().parent / "long_tests.txt"


def pytest_configure(config: pytest.Config) -> None:
    # xdist's workers take one test at a time (docs/testing.md): by default each would
    # first get a block of ~1/16 of the collection, and the long tests at its front
    # would all land on the first worker.
    if config.pluginmanager.hasplugin("xdist") and config.getoption("maxschedchunk", None) is None:
        config.option.maxschedchunk = 1


def long_tests() -> dict[str, float]:
    """Node id -> seconds, for the tests that take long (tests/long_tests.txt)."""
    lines = LONG_TESTS.read_text(encoding="utf-8").splitlines()
    pairs = (line.split(" ", 1) for line in lines if line and not line.startswith("#"))
    return {nodeid: float(seconds) for seconds, nodeid in pairs}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Browser tests run last: Playwright's sync API keeps an asyncio loop running in
    # the main thread from its first use to the end of the session, and any later
    # test calling asyncio.run() would fail (xdist hands tests out in this order, so
    # every worker runs its browser tests last). Within each part the longest come
    # first: the last test a worker starts is a short one, and all finish together.
    seconds = long_tests()
    items.sort(key=lambda item: ("browser" in item.keywords, -seconds.get(item.nodeid, 0.0)))


class PgDatabases:
    """Databases named ``t_<random>`` on one PostgreSQL server, each one a test's own.

    CREATE DATABASE costs ~0.15 s (it copies template1), more than most tests: a
    database given back is emptied instead (its connections closed, every schema
    dropped, an empty ``public`` made) and handed to the next test, as empty as new.
    """

    def __init__(self, admin_url: str) -> None:
        self.admin_url = sa.make_url(admin_url)
        self.engine = sa.create_engine(
            self.admin_url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool
        )
        self.free: list[str] = []
        self.made: set[str] = set()
        self.copies: set[str] = set()  # made from a template: dropped when given back

    def url(self, name: str) -> str:
        return self.admin_url.set(database=name).render_as_string(hide_password=False)

    def create(self, template: str | None = None) -> str:
        """The URL of an empty database, or a copy of the database ``template`` (made
        by ``CREATE DATABASE ... TEMPLATE``), nobody else's until given back."""
        if self.free and template is None:
            return self.url(self.free.pop())
        name = f"t_{secrets.token_hex(6)}"
        with self.engine.connect() as conn:
            conn.exec_driver_sql(
                f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else "")
            )
        self.made.add(name)
        if template:
            self.copies.add(name)
        return self.url(name)

    def drop(self, url: str) -> None:
        """Give the database back: emptied for the next test (a copy is dropped)."""
        name = sa.make_url(url).database
        assert name in self.made and name not in self.free, f"not lent out: {name}"
        if name in self.copies:
            with self.engine.connect() as conn:
                conn.exec_driver_sql(f"DROP DATABASE {name} WITH (FORCE)")
            self.made.discard(name)
            self.copies.discard(name)
            return
        with self.engine.connect() as conn:
            conn.execute(
                sa.text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = :name AND pid <> pg_backend_pid()"
                ),
                {"name": name},
            )
        engine = sa.create_engine(
            self.url(name), isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool
        )
        try:
            with engine.connect() as conn:
                schemas = conn.exec_driver_sql(
                    "SELECT nspname FROM pg_namespace WHERE nspname !~ '^pg_'"
                    " AND nspname <> 'information_schema'"
                ).scalars()
                for schema in list(schemas):
                    conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
                conn.exec_driver_sql("CREATE SCHEMA public")
        finally:
            engine.dispose()
        self.free.append(name)

    def close(self) -> None:
        with self.engine.connect() as conn:
            for name in self.made:
                conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        self.engine.dispose()


@pytest.fixture(scope="session")
def pg_databases() -> Iterator[PgDatabases]:
    url = os.environ.get(PG_URL_ENV)
    if not url:
        pytest.skip(f"no PostgreSQL: set {PG_URL_ENV} (scripts/test.sh starts one)")
    databases = PgDatabases(url)
    yield databases
    databases.close()


@pytest.fixture
def make_pg_url(pg_databases: PgDatabases) -> Iterator[Callable[[], str]]:
    made: list[str] = []

    def make() -> str:
        made.append(pg_databases.create())
        return made[-1]

    yield make
    for url in made:
        pg_databases.drop(url)


@pytest.fixture
def fresh_pg_url(make_pg_url: Callable[[], str]) -> str:
    return make_pg_url()
