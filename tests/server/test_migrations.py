"""The schema is managed by the migrations: they end at exactly ``db.metadata``, a
database made by release 0.1.0 is stamped and upgraded, and servers started at the
same moment on a fresh database all come up (one migrates, the others wait)."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from fastapi.testclient import TestClient

from hearts.server.app import create_app
from hearts.server.store import migrate
from hearts.server.store.db import Store, make_engine, matches, metadata, players

pytestmark = pytest.mark.both_databases("the migrations run on each database's own DDL")

RELEASE_DB = Path(__file__).parent.parent / "data" / "release-0.1.0.db"


def schema_differences(url: str) -> list[object]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return list(compare_metadata(MigrationContext.configure(conn), metadata))
    finally:
        engine.dispose()


def ids_never_reused(url: str) -> bool:
    """Players and matches are AUTOINCREMENT tables on SQLite (compare_metadata does
    not look at that)."""
    if not url.startswith("sqlite"):
        return True
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            sql = dict(conn.exec_driver_sql("SELECT name, sql FROM sqlite_master").all())
    finally:
        engine.dispose()
    return all("AUTOINCREMENT" in sql[table] for table in ("players", "matches"))


def revision_and_schema(url: str) -> tuple[str | None, str | None]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            schema = conn.execute(sa.text("SELECT value FROM meta WHERE key = 'schema'")).scalar()
            return migrate.current(conn), schema
    finally:
        engine.dispose()


def test_a_fresh_database_is_migrated_to_exactly_the_metadata(fresh_db_url: str) -> None:
    Store(fresh_db_url).close()
    assert schema_differences(fresh_db_url) == []
    assert revision_and_schema(fresh_db_url) == (migrate.head(), "2")
    assert ids_never_reused(fresh_db_url)


def test_a_release_0_1_0_database_is_stamped_then_upgraded_to_the_metadata(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    shutil.copy(RELEASE_DB, path)
    url = f"sqlite:///{path}"
    assert revision_and_schema(url) == (None, "1")
    assert schema_differences(url) != []  # the fixture really is the old schema
    Store(url).close()
    assert schema_differences(url) == []
    assert revision_and_schema(url) == (migrate.head(), "2")
    assert ids_never_reused(url)


def test_upgrading_a_0_1_0_shaped_database_keeps_rows_and_fills_last_seen(
    fresh_db_url: str,
) -> None:
    """The same path on either database: revision 0001 (0.1.0's create_all, without
    alembic's table), a player with two matches, then the server's start."""
    engine = make_engine(fresh_db_url)
    migrate.upgrade(engine, to=migrate.RELEASE_0_1_0)
    created = dt.datetime(2026, 1, 1, 12, tzinfo=dt.UTC)
    touched = dt.datetime(2026, 3, 1, 12, tzinfo=dt.UTC)
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP TABLE alembic_version")
        for pid, when in ((1, created), (2, created)):
            conn.execute(
                sa.text(
                    "INSERT INTO players (id, token_hash, level, quick, version, match_id,"
                    " matches_started, created_at) VALUES (:id, :h, 'easy', false, 7, NULL, 1, :t)"
                ),
                {"id": pid, "h": f"{pid:064x}", "t": when},
            )
        for mid, when in ((1, created), (2, touched)):
            conn.execute(
                sa.text(
                    "INSERT INTO matches (id, player_id, number, rules, totals, results,"
                    " hand_number, hand_record, auto_finished, status, started_at, updated_at)"
                    " VALUES (:id, 1, :id, '{}', '[]', '[]', 1, '{}', false, 'playing', :c, :u)"
                ),
                {"id": mid, "c": created, "u": when},
            )
    engine.dispose()

    store = Store(fresh_db_url)
    try:
        with store.read() as conn:
            rows = conn.execute(
                sa.select(players.c.id, players.c.last_seen_at).order_by(players.c.id)
            ).all()
            count = conn.execute(sa.select(sa.func.count()).select_from(matches)).scalar()
            assert count == 2
    finally:
        store.close()
    seen = {pid: when.replace(tzinfo=when.tzinfo or dt.UTC) for pid, when in rows}
    assert seen == {1: touched, 2: created}  # latest of creation and its matches' changes
    assert schema_differences(fresh_db_url) == []


def test_a_database_from_a_newer_server_is_refused(fresh_db_url: str) -> None:
    Store(fresh_db_url).close()
    engine = make_engine(fresh_db_url)
    with engine.begin() as conn:
        conn.exec_driver_sql("UPDATE alembic_version SET version_num = '9999'")
    engine.dispose()
    with pytest.raises(migrate.SchemaTooNew):
        Store(fresh_db_url)


def test_stores_started_at_once_in_threads_all_come_up(fresh_db_url: str) -> None:
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def open_store() -> None:
        try:
            start.wait()
            Store(fresh_db_url).close()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    assert revision_and_schema(fresh_db_url) == (migrate.head(), "2")
    assert schema_differences(fresh_db_url) == []


OPEN_AT = """
import sys, time
from hearts.server.store.db import Store
at = float(sys.argv[2])
time.sleep(max(0.0, at - time.time()))
Store(sys.argv[1]).close()
"""


def test_servers_started_at_once_all_come_up(fresh_db_url: str) -> None:
    """Processes, the real case: each imports, then opens the store at one instant."""
    at = time.time() + 3
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", OPEN_AT, fresh_db_url, str(at)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for _ in range(4)
    ]
    outputs = [p.communicate(timeout=120)[0] for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, outputs
    assert revision_and_schema(fresh_db_url) == (migrate.head(), "2")
    assert schema_differences(fresh_db_url) == []


def same_where_old(old: object, new: object, path: str = "") -> list[str]:
    """Where ``new`` differs from ``old`` in a field ``old`` has (new fields are fine;
    the wording of the reasons a card may not be played changed on purpose since)."""
    if path.endswith(".illegal_reasons") and isinstance(old, dict) and isinstance(new, dict):
        return [] if old.keys() == new.keys() else [f"{path}: {sorted(old)} became {sorted(new)}"]
    if isinstance(old, dict) and isinstance(new, dict):
        return [
            diff
            for key, value in old.items()
            for diff in (
                same_where_old(value, new[key], f"{path}.{key}")
                if key in new
                else [f"{path}.{key} is gone"]
            )
        ]
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [
            d
            for i, (a, b) in enumerate(zip(old, new, strict=True))
            for d in same_where_old(a, b, f"{path}[{i}]")
        ]
    return [] if old == new else [f"{path}: {old!r} became {new!r}"]


def test_every_player_of_release_0_1_0_plays_on_after_the_upgrade(
    tmp_path: Path, new_south: Callable[..., Any]
) -> None:
    path = tmp_path / "old.db"
    shutil.copy(RELEASE_DB, path)
    recorded = json.loads(RELEASE_DB.with_suffix(".json").read_text())["players"]
    app = create_app(f"sqlite:///{path}", executor=ThreadPoolExecutor(1), prune_every=None)
    with TestClient(app) as client:
        for name, was in recorded.items():
            player = new_south(client, was["token"])
            state = player.state()
            if was["state"] is None:  # made, never used: deals its first match now
                assert state["version"] == 1 and state["match"]["hand_number"] == 1
                continue
            assert same_where_old(was["state"], state) == [], name
            stats = player.call("GET", "/api/stats")
            assert {k: stats[k] for k in was["stats"]} == was["stats"], name  # + new keys
            if state["match"]["over"]:
                after = player.call("POST", "/api/new-match", {"version": state["version"]})
                assert after["match"]["hand_number"] == 1 and not after["match"]["over"]
            elif state["hand"]["phase"] == "done":
                after = player.call("POST", "/api/next-hand", {"version": state["version"]})
                assert after["match"]["hand_number"] == state["match"]["hand_number"] + 1
            else:
                after = player.advance(state)
            assert after["version"] == state["version"] + 1, name
