"""Rooms and the retention policy (docs/retention.md): a lobby never started goes
after a day unchanged, any other room after ``room_days``; a guest who only plays
in rooms keeps its token (and its seat) while its room is kept."""

from __future__ import annotations

import datetime as dt
import sys
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from room_guests import Guest, new_room, settled

from hearts.cli import main
from hearts.server.app import create_app
from hearts.server.store import retention
from hearts.server.store.db import Store, players, room_seats, rooms, token_hash

pytestmark = pytest.mark.both_databases("the retention's deletes and counts, on each database")

NOW = dt.datetime.now(dt.UTC)


@pytest.fixture
def client(fresh_db_url: str) -> Iterator[TestClient]:
    """A server whose own retention is off (the tests run it by hand)."""
    app = create_app(
        fresh_db_url, seed=2, executor=ThreadPoolExecutor(1), prune_every=None, room_pace=0.0
    )
    with TestClient(app) as c:
        yield c


def store_of(client: TestClient) -> Store:
    return client.app.state.tables.store  # type: ignore[attr-defined,no-any-return]


def unchanged_for(store: Store, code: str, days: float) -> None:
    with store.write() as conn:
        conn.execute(
            rooms.update()
            .where(rooms.c.code == code)
            .values(updated_at=NOW - dt.timedelta(days=days))
        )


def idle_for(store: Store, guest: Guest, days: float) -> None:
    with store.write() as conn:
        conn.execute(
            players.update()
            .where(players.c.token_hash == token_hash(guest.token))
            .values(last_seen_at=NOW - dt.timedelta(days=days))
        )


def room_rows(store: Store) -> dict[str, int]:
    """Each room's code and its number of seat rows."""
    with store.read() as conn:
        found = conn.execute(
            sa.select(rooms.c.code, sa.func.count(room_seats.c.seat))
            .join(room_seats, room_seats.c.room_id == rooms.c.id, isouter=True)
            .group_by(rooms.c.code)
        ).all()
    return {code: n for code, n in found}


def started(creator: Guest, guest: Guest) -> str:
    code = new_room(creator)["code"]
    guest.act(code, "join", {})
    room = creator.room(code)
    creator.act(code, "start", {"version": room["version"]})
    settled(creator, code)  # the computers' passes made: it waits on the humans now
    return str(code)


def test_old_lobbies_and_old_rooms_go_with_their_seats(client: TestClient) -> None:
    store = store_of(client)
    creator, guest = Guest(client), Guest(client)
    kept = {
        "lobby_2_hours": (new_room(creator)["code"], 2 / 24),
        "playing_10_days": (started(creator, guest), 10),
    }
    gone = {
        "lobby_2_days": (new_room(creator)["code"], 2),
        "playing_15_days": (started(creator, guest), 15),  # left unfinished
    }
    for code, days in [*kept.values(), *gone.values()]:
        unchanged_for(store, code, days)
    before = room_rows(store)
    assert all(before[code] == 4 for code, _ in [*kept.values(), *gone.values()])

    dry = retention.prune(store, retention.Policy(), dry_run=True)
    assert room_rows(store) == before
    done = retention.prune(store, retention.Policy())
    assert (dry.lobbies, dry.rooms) == (done.lobbies, done.rooms) == (1, 1)
    assert sorted(done.codes) == sorted(code for code, _ in gone.values())
    assert room_rows(store) == {code: 4 for code, _ in kept.values()}
    # The link of a removed room says so (the server's own pass tells its rooms, as
    # here; a `hearts prune` elsewhere shows within rooms.TRUST_SECONDS); a kept one
    # plays on.
    client.app.state.rooms.forget_all(done.codes)  # type: ignore[attr-defined]
    for code, _ in gone.values():
        refused = creator.call("GET", f"/api/rooms/{code}", status=404)
        assert refused["error"]["code"] == "room_not_found"
    code = kept["playing_10_days"][0]
    assert settled(guest, code)["you"] == "S"


def test_a_guest_seated_only_in_a_room_keeps_its_token_and_seat(client: TestClient) -> None:
    store = store_of(client)
    creator, guest = Guest(client), Guest(client)
    code = started(creator, guest)
    # The guest never played a single-player move: its own version is 0.
    with store.read() as conn:
        version = conn.execute(
            sa.select(players.c.version).where(players.c.token_hash == token_hash(guest.token))
        ).scalar_one()
    assert version <= 1
    idle_for(store, guest, 3)
    unchanged_for(store, code, 3)
    assert retention.prune(store, retention.Policy()).ids == []
    assert store.player_id(guest.token) is not None
    assert settled(guest, code)["you"] is not None  # back after 3 days: same seat

    # Once its room is gone, the guest is judged like any other player.
    idle_for(store, guest, 3)
    unchanged_for(store, code, 15)
    pruned = retention.prune(store, retention.Policy())
    assert pruned.codes == [code]
    assert store.player_id(guest.token) is None


def test_hearts_prune_reports_and_takes_the_room_settings(
    client: TestClient, fresh_db_url: str, capsys: Any
) -> None:
    store = store_of(client)
    creator, guest = Guest(client), Guest(client)
    lobby = new_room(creator)["code"]
    playing = started(creator, guest)
    unchanged_for(store, lobby, 0.5)
    unchanged_for(store, playing, 5)
    assert main(["prune", "--database-url", fresh_db_url, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "would remove" in out and "0 rooms never started" in out and "0 other rooms" in out
    args = ["prune", "--database-url", fresh_db_url]
    assert main([*args, "--room-lobby-days", "0.25", "--room-days", "4"]) == 0
    out = capsys.readouterr().out
    assert "removed" in out and "1 rooms never started" in out and "1 other rooms" in out
    assert room_rows(store) == {}
    assert main([*args, "--room-lobby-days", "5", "--room-days", "4"]) == 2
