"""Public tables across server processes (issue 40, "Rules of trust"): many players
press "Tìm bàn" at once on two ``hearts serve`` processes over one PostgreSQL
database, some on both at the same moment: nobody is at two tables, no table has
more players than seats, every answer names the table its player is at."""

from __future__ import annotations

import json
import sys
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_rooms_processes import two_servers  # noqa: F401 (a fixture)

from hearts.server.store.db import make_engine, public_players, room_seats, rooms

PLAYERS = 48
BOTH = 8  # of them seek on both processes at the same moment


@pytest.mark.slow
def test_many_seekers_at_once_on_two_processes(two_servers, fresh_pg_url) -> None:  # noqa: F811
    bases = [base for _proc, base in two_servers]
    clients = [httpx.Client(base_url=b, timeout=60) for b in bases]
    tokens = [clients[i % 2].post("/api/players").json()["token"] for i in range(PLAYERS)]
    calls = [(i, i % 2) for i in range(PLAYERS)] + [(i, 1 - i % 2) for i in range(BOTH)]
    gate = threading.Barrier(len(calls))

    def seek(call: tuple[int, int]) -> tuple[int, int, Any]:
        player, server = call
        gate.wait()
        response = clients[server].post(
            "/api/public/seek",
            headers={"Authorization": f"Bearer {tokens[player]}"},
            json={"level": "easy"},
        )
        return player, response.status_code, response.json()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        answers = list(pool.map(seek, calls))
    assert all(status == 200 for _p, status, _b in answers), answers
    codes: dict[int, set[str]] = {}
    for player, _status, body in answers:
        codes.setdefault(player, set()).add(body["code"])
    assert all(len(c) == 1 for c in codes.values()), codes  # both seeks: one table

    engine = make_engine(fresh_pg_url)
    try:
        with engine.connect() as conn:
            at = dict(
                conn.execute(
                    sa.select(public_players.c.player_id, rooms.c.code).join(
                        rooms, rooms.c.id == public_players.c.room_id
                    )
                ).all()
            )
            tables = conn.execute(
                sa.select(rooms.c.id, rooms.c.code, rooms.c.public).where(
                    rooms.c.public.is_not(None)
                )
            ).all()
            sizes = Counter(conn.execute(sa.select(room_seats.c.room_id)).scalars())
            seats = conn.execute(
                sa.select(room_seats.c.room_id, room_seats.c.player_id).where(
                    room_seats.c.kind == "human"
                )
            ).all()
    finally:
        engine.dispose()
    assert len(at) == PLAYERS
    by_token = {tokens[p]: next(iter(c)) for p, c in codes.items()}
    ids = {pid for pid in at}
    assert len(ids) == PLAYERS
    seated = Counter(pid for _room, pid in seats)
    queued: Counter[int] = Counter()
    for room_id, code, public in tables:
        size = sizes[room_id]
        assert size == 4
        humans = [pid for r, pid in seats if r == room_id]
        waiting = [q["player_id"] for q in json.loads(public).get("queue", [])]
        queued.update(waiting)
        assert len(humans) <= size, code  # never over-full
        assert len(waiting) <= size - len(humans), code
    every = seated + queued
    assert set(every) == ids and max(every.values()) == 1  # nobody at two tables
    # each answer named the table its player is at
    assert sorted(by_token.values()) == sorted(at.values())
    assert len(tables) >= PLAYERS // 4
