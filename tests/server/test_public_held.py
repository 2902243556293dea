"""A seeker meets the table a change holds for a moment (PostgreSQL's row locks).

Seating picks an open table with ``FOR UPDATE SKIP LOCKED`` (public/seating.py), so
that seekers never queue behind one another's transactions. But a table is held
locked for the few milliseconds a computer's card, a reaction or a pass is written:
a stranger seeking just then skipped the one open table and opened a lobby of their
own beside it, and two people seeking together could end at two tables. The seeker
now waits for a held table (up to ``HELD_WAIT``) and opens one only when none is free.
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_public import CLIENT_OPTIONS, seek, stranger  # noqa: F401 (the client's options)

from hearts.server.public.seating import HELD_WAIT
from hearts.server.store.db import rooms as rooms_table


@pytest.mark.both_databases("the seat is chosen under PostgreSQL's row locks")
def test_a_seeker_sits_at_the_table_a_change_holds_for_a_moment(client, db_url) -> None:
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite has one writer at a time: no table is ever skipped")
    lan, chi = stranger(client, 1), stranger(client, 2)
    code = seek(lan)["code"]  # a lobby with three empty seats, starting in 20 s
    engine = client.app.state.tables.store.engine
    got: list[str] = []
    with engine.connect() as conn:
        held = conn.begin()  # as a change being written holds the room's row
        conn.execute(rooms_table.select().where(rooms_table.c.code == code).with_for_update()).one()
        seeking = threading.Thread(target=lambda: got.append(seek(chi)["code"]))
        seeking.start()
        time.sleep(HELD_WAIT * 0.6)  # a computer's card takes milliseconds: this is long
        assert got == [], "the seek did not wait for the held table"
        held.rollback()
    seeking.join(30)
    assert got == [code], "the seeker opened a table beside the one held"
    assert sum(s["kind"] == "human" for s in lan.room(code)["seats"]) == 2
