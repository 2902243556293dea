"""The schema's migrations (Alembic, in ``migrations/``), run by the server at start,
and the maintenance lock that lets one process at a time change the database.

- A fresh database is built by the revisions from the first; a database made by
  release 0.1.0 (its tables, no ``alembic_version``) is stamped at revision 0001
  first.  A database from a newer server is refused.
- The lock: PostgreSQL's ``pg_advisory_lock`` on a fixed key; SQLite a
  ``flock`` on ``<database>.lock`` beside the file; nothing for an in-memory
  database (one process).  Start-up and the retention task take it.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
from collections.abc import Iterator
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, Engine

MIGRATIONS = Path(__file__).parent / "migrations"
#: The revision that is release 0.1.0's ``create_all``.
RELEASE_0_1_0 = "0001"
#: pg_advisory_lock key of the schema and retention work ("hearts" in ASCII).
LOCK_KEY = 0x686561727473


class SchemaTooNew(RuntimeError):
    """The database was upgraded by a newer server."""


def config(conn: Connection) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = conn
    return cfg


@functools.cache
def _script() -> ScriptDirectory:
    """The revisions, read once a process: they do not change under a running server."""
    return ScriptDirectory(str(MIGRATIONS))


def head() -> str:
    found = _script().get_current_head()
    assert found is not None
    return found


def current(conn: Connection) -> str | None:
    return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, to: str = "head") -> None:
    """Bring the database up to ``to`` in one transaction (hold the lock)."""
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as conn:
        if sqlite:
            # A batch migration copies a table and drops the old one: with foreign
            # keys on, that drop would fail (the pragma is a no-op in a transaction).
            conn.connection.driver_connection.execute("PRAGMA foreign_keys=OFF")  # type: ignore[union-attr]
        try:
            with conn.begin():
                tables = set(sa.inspect(conn).get_table_names())
                cfg = config(conn)
                if "players" in tables and "alembic_version" not in tables:
                    command.stamp(cfg, RELEASE_0_1_0)
                found = current(conn)
                if found is not None and found not in {
                    s.revision for s in _script().walk_revisions()
                }:
                    raise SchemaTooNew(
                        f"the database is at schema revision {found}, newer than this server"
                    )
                if found != (head() if to == "head" else to):  # at its place: nothing to run
                    command.upgrade(cfg, to)
                if sqlite:
                    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise RuntimeError(f"the migration broke foreign keys: {broken[:5]}")
        finally:
            if sqlite:
                conn.connection.driver_connection.execute("PRAGMA foreign_keys=ON")  # type: ignore[union-attr]


@contextlib.contextmanager
def maintenance_lock(engine: Engine, *, blocking: bool = True) -> Iterator[bool]:
    """Hold the database's maintenance lock; yields False (without waiting) when
    ``blocking`` is off and another process holds it."""
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            if blocking:
                conn.execute(sa.text("SELECT pg_advisory_lock(:k)"), {"k": LOCK_KEY})
                got = True
            else:
                got = bool(
                    conn.execute(
                        sa.text("SELECT pg_try_advisory_lock(:k)"), {"k": LOCK_KEY}
                    ).scalar()
                )
            conn.commit()
            try:
                yield got
            finally:
                if got:
                    conn.execute(sa.text("SELECT pg_advisory_unlock(:k)"), {"k": LOCK_KEY})
                    conn.commit()
        return
    path = lock_path(engine)
    if path is None:  # in-memory: this process is the only one
        yield True
        return
    with open(path, "a+b") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def lock_path(engine: Engine) -> Path | None:
    """``<database>.lock`` for a SQLite file, None for an in-memory one (and for
    servers that lock in the database)."""
    if engine.dialect.name != "sqlite":
        return None
    database = engine.url.database
    if not database or database == ":memory:" or "mode=memory" in str(engine.url):
        return None
    if database.startswith("file:"):
        database = database[len("file:") :].partition("?")[0]
    return Path(database).with_name(Path(database).name + ".lock")
