"""Seating at public tables (issue 40): "Tìm bàn", the lobby's start, newcomers
taking a computer's seat at the next deal, and what leaving for good means.

A public table is a room (rooms/: its seats, version check, live pushes,
computers and the "(tự động)" timer) with a ``public`` part in its row and a
``public_tables`` row that seekers look in.  Seating happens in one transaction:

- ``public_players`` has one row per seated or queued player (its key is the
  player): nobody is ever at two public tables, whatever the processes do;
- the table is chosen with ``SELECT ... FOR UPDATE SKIP LOCKED`` on its
  ``public_tables`` row and its room's row together (PostgreSQL): a seeker skips
  a table another seeker or an action holds, and a room's own actions (which lock
  the room's row first) wait behind it, never the other way round; a seeker who
  finds only held tables tries again for up to ``HELD_WAIT`` before it opens one
  of its own (a computer's card holds its table for milliseconds);
- the seat is taken by the room's version check, so a table is never over-full.

SQLite has one writer at a time in one process (store.db): the same code, no locks.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import functools
import json
import logging
import time
from typing import Any

import anyio.to_thread
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from hearts.bots.base import LEVELS
from hearts.fairness import HandSeeds
from hearts.rules import Rules
from hearts.server.public import rating
from hearts.server.public.names import at_table
from hearts.server.rooms.service import Rooms, new_lobby
from hearts.server.rooms.store import Room, now
from hearts.server.rooms.view import room_text
from hearts.server.store import outage
from hearts.server.store.db import Stale, public_players, public_tables, rooms
from hearts.server.table.game import Game, rules_json
from hearts.server.web.errors import ApiError

log = logging.getLogger("hearts.server")

#: How often each process looks for lobbies to start.
SWEEP_EVERY = 1.0
#: How many times a seek is tried again when another change took the version.
TRIES = 20
#: How long a seek waits, at most, for the open tables another change holds locked
#: (a computer's card is written in milliseconds) before it opens a table of its own.
HELD_WAIT = 0.5
HELD_PAUSE = 0.02


class _Held(Exception):
    """Every open table of the kind is locked by a change under way (PostgreSQL)."""


def kind(rules: Rules, level: str) -> str:
    """What a seeker asks for, as one string: tables of one kind seat together."""
    return json.dumps(rules_json(rules), sort_keys=True, separators=(",", ":")) + "|" + level


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def names_at(room: Room) -> list[str]:
    """The names shown at the public table: its humans' and its queued newcomers'."""
    seated = [s.name for s in room.seats if s.kind == "human" and s.name]
    return seated + [q["name"] for q in (room.public or {}).get("queue", [])]


def members(room: Room) -> set[int]:
    """The players at the public table: seated humans and queued newcomers."""
    seated = {s.player_id for s in room.seats if s.kind == "human" and s.player_id is not None}
    queued = {q["player_id"] for q in (room.public or {}).get("queue", [])}
    return seated | queued


def table_row(room: Room) -> dict[str, Any]:
    """The room's ``public_tables`` values: its phase, open seats and start time."""
    public = room.public or {}
    phase = "abandoned" if public.get("abandoned") else room.phase
    if phase == "lobby":
        open_seats = sum(1 for s in room.seats if s.kind == "empty")
    elif phase == "playing":
        computers = sum(1 for s in room.seats if s.kind == "computer")
        open_seats = max(0, computers - len(public.get("queue", [])))
    else:
        open_seats = 0
    start_at = public.get("start_at") if phase == "lobby" else None
    return {"phase": phase, "open_seats": open_seats, "start_at": start_at}


def begin(room: Room, seeds: HandSeeds) -> None:
    """The lobby's match starts: computers (the table's level) take the empty seats;
    its first hand dealt from ``seeds`` (:meth:`Rooms.deal_seeds`)."""
    for s in room.seats:
        if s.kind == "empty":
            s.kind = "computer"
    game = Game.new(room.rules, 1, seeds, room.id)
    game.choosers = frozenset(room.humans)
    room.game = game
    room.phase = "playing"


class Seating:
    """Public tables over one process's :class:`Rooms` (installs the rooms' hooks)."""

    def __init__(self, rooms: Rooms, start_seconds: float = 20.0, turn_seconds: int = 30) -> None:
        self.rooms = rooms
        #: a lobby with a human starts this long after it was opened (or when full)
        self.start_seconds = start_seconds
        #: a public table's turn: then Vừa plays for the away player, "(tự động)"
        self.turn_seconds = turn_seconds
        self.store = rooms.store
        self.postgres = self.store.engine.dialect.name == "postgresql"
        self._sweeper: asyncio.Task[None] | None = None
        rooms.on_write = self.on_write
        rooms.on_deal = self.on_deal
        rooms.on_leave = self.on_leave
        rooms.members = members  # a queued newcomer follows the table too

    # -- the rooms' hooks ----------------------------------------------------------
    def on_write(self, conn: Connection, room: Room, before: Room) -> None:
        """In a public room's change: its ``public_tables`` row, who is no longer at
        it, and the rating once the match is over."""
        if room.public is None:
            return
        if room.phase == "over" and before.phase != "over":
            room.public["rated"] = rating.rate(conn, room)
            conn.execute(
                rooms.update()
                .where(rooms.c.id == room.id)
                .values(public=json.dumps(room.public, ensure_ascii=False))
            )
        row = table_row(room)
        if row != table_row(before):
            conn.execute(
                public_tables.update().where(public_tables.c.room_id == room.id).values(**row)
            )
        if row["phase"] in ("over", "abandoned"):
            conn.execute(public_players.delete().where(public_players.c.room_id == room.id))
            return
        gone = members(before) - members(room)
        if gone:
            conn.execute(
                public_players.delete().where(
                    public_players.c.room_id == room.id, public_players.c.player_id.in_(gone)
                )
            )

    def on_deal(self, room: Room) -> None:
        """A new hand: the queued newcomers take computers' seats."""
        public = room.public
        if public is None or not public.get("queue"):
            return
        computers = [s for s in room.seats if s.kind == "computer"]
        queue = public["queue"]
        while queue and computers:
            newcomer, seat = queue.pop(0), computers.pop(0)
            seat.kind, seat.name, seat.player_id = "human", newcomer["name"], newcomer["player_id"]
            seat.auto, seat.seen_at = False, now()
            assert room.game is not None
            rating.sat_down(public, newcomer["player_id"], len(room.game.results))

    def on_leave(self, room: Room, seat: int) -> None:
        """Leaving a match for good counts as its last place; the last human's
        leaving abandons it (never rated) and frees its queue."""
        public = room.public
        if public is None:
            return
        s = room.seats[seat]
        if room.phase == "lobby":
            if s.player_id is not None:
                rating.person(public, s.player_id)["since"] = None
            if not [h for h in room.humans if h != seat]:
                public["start_at"] = None  # no human left: it waits for one
            return
        public.setdefault("left", []).append({"player_id": s.player_id, "name": s.name})
        if s.player_id is not None and room.game is not None:
            rating.stood_up(public, s.player_id, len(room.game.results))
        if not [h for h in room.humans if h != seat]:
            public["abandoned"] = True
            public["queue"] = []

    # -- seeking -------------------------------------------------------------------
    def seek(
        self, player_id: int, rules: Rules, level: str, name: str | None, address: str = ""
    ) -> tuple[Room, bool]:
        """Seat the player at a public table of this kind, or open one (in a thread):
        the table, and whether this call changed it (else the player was there).
        ``address``: where the seek came from, as the limits count it (the rating
        counts one seat of an address: public/rating.py)."""
        if level not in LEVELS:
            raise ApiError("bad_request")
        wanted = kind(rules, level)
        waited_until = time.monotonic() + HELD_WAIT
        tries = 0
        while tries < TRIES:
            wait = time.monotonic() < waited_until
            try:
                with self.store.write() as conn:
                    found = self._already(conn, player_id)
                    if found is not None:
                        return found, False
                    came = rating.address_key(address)
                    room = self._sit(conn, player_id, wanted, name, came, wait)
                    if room is None:
                        room = self._open(conn, player_id, rules, level, wanted, name, came)
                    conn.execute(
                        public_players.insert().values(
                            player_id=player_id, room_id=room.id, joined_at=_now()
                        )
                    )
                return room, True
            except _Held:
                time.sleep(HELD_PAUSE)  # a table is there: sit at it once it is free
            except (Stale, sa.exc.IntegrityError):
                tries += 1  # another change took the version, or this player's other seek
        raise ApiError("internal")

    def _load(self, conn: Connection, room_id: int) -> Room | None:
        code = conn.execute(sa.select(rooms.c.code).where(rooms.c.id == room_id)).scalar()
        return None if code is None else self.rooms.db.load(conn, code)

    def _already(self, conn: Connection, player_id: int) -> Room | None:
        """The public table the player is at (a row left by a change that did not
        remove it is removed here)."""
        room_id = conn.execute(
            sa.select(public_players.c.room_id).where(public_players.c.player_id == player_id)
        ).scalar()
        if room_id is None:
            return None
        room = self._load(conn, room_id)
        if room is not None and player_id in members(room) and room.phase != "over":
            return room
        conn.execute(public_players.delete().where(public_players.c.player_id == player_id))
        return None

    def _sit(
        self,
        conn: Connection,
        player_id: int,
        wanted: str,
        chosen: str | None,
        came: str,
        wait: bool = False,
    ) -> Room | None:
        """Seat the player at an open table of ``wanted`` kind (None: there is none
        free now): a lobby's empty seat, or a running match's queue.  With ``wait``,
        open tables that are all held locked (PostgreSQL) raise :class:`_Held`: the
        seek waits for them rather than open a table of its own beside them."""
        query = (
            sa.select(public_tables.c.room_id)
            .join(rooms, rooms.c.id == public_tables.c.room_id)
            .where(
                public_tables.c.kind == wanted,
                public_tables.c.phase.in_(("lobby", "playing")),
                public_tables.c.open_seats > 0,
            )
            # lobbies first ("lobby" < "playing": they start sooner), the oldest first
            .order_by(public_tables.c.phase, public_tables.c.room_id)
            .limit(1)
        )
        room_id = conn.execute(
            query.with_for_update(skip_locked=True) if self.postgres else query
        ).scalar()
        if room_id is None:
            if wait and self.postgres and conn.execute(query).scalar() is not None:
                raise _Held()
            return None
        before = self._load(conn, room_id)
        if before is None:
            return None

        def sit(room: Room, _seat: int | None) -> None:
            assert room.public is not None
            name = at_table(chosen, names_at(room))  # distinct at the table
            rating.person(room.public, player_id)["from"] = came
            if room.phase == "lobby":
                empty = [s for s in room.seats if s.kind == "empty"]
                if not empty:
                    raise Stale()
                seat = empty[0]
                seat.kind, seat.name, seat.player_id = "human", name, player_id
                seat.seen_at, seat.auto = now(), False
                rating.sat_down(room.public, player_id, 0)
                if room.public.get("start_at") is None:
                    room.public["start_at"] = now() + self.start_seconds
                if len(empty) == 1:
                    begin(room, self.rooms.deal_seeds(room))  # full: it starts now
            else:
                room.public.setdefault("queue", []).append({"player_id": player_id, "name": name})

        room = self.rooms.next_version(before, None, sit)
        self.rooms.write_in(conn, room, before)
        return room

    def _open(
        self,
        conn: Connection,
        player_id: int,
        rules: Rules,
        level: str,
        wanted: str,
        chosen: str | None,
        came: str,
    ) -> Room:
        """A new public table with the player at its first seat."""
        public: dict[str, Any] = {"kind": wanted, "start_at": now() + self.start_seconds}
        rating.person(public, player_id)["from"] = came
        rating.sat_down(public, player_id, 0)
        name = at_table(chosen, [])
        room = new_lobby(rules, level, self.turn_seconds, player_id, name, public)
        self.rooms.db.create(conn, room)  # a taken code: IntegrityError, tried again
        row = table_row(room)
        conn.execute(
            public_tables.insert().values(
                room_id=room.id, code=room.code, kind=wanted, created_at=_now(), **row
            )
        )
        return room

    async def find(
        self, player_id: int, rules: Rules, level: str, name: str | None, address: str = ""
    ) -> tuple[Room, str]:
        """ "Tìm bàn" on the loop: the table and the player's Room there (JSON text)."""
        seek = functools.partial(self.seek, player_id, rules, level, name, address)
        room, changed = await anyio.to_thread.run_sync(seek)
        if changed:
            self.rooms.committed(room)
        return room, room_text(room, room.seat_of(player_id))

    def where(self, player_id: int) -> Room | None:
        """The public table the player is at (in a thread)."""
        with self.store.write() as conn:
            return self._already(conn, player_id)

    # -- the lobbies' start --------------------------------------------------------
    def start_due(self, limit: int = 20) -> list[Room]:
        """Start the lobbies whose 20 s are over (in a thread): the rooms started."""
        started: list[Room] = []
        for _ in range(limit):
            with self.store.write() as conn:
                query = (
                    sa.select(public_tables.c.room_id)
                    .join(rooms, rooms.c.id == public_tables.c.room_id)
                    .where(public_tables.c.phase == "lobby", public_tables.c.start_at <= now())
                    .order_by(public_tables.c.start_at)
                    .limit(1)
                )
                if self.postgres:
                    query = query.with_for_update(skip_locked=True)
                room_id = conn.execute(query).scalar()
                before = self._load(conn, room_id) if room_id is not None else None
                if before is None:
                    break
                if not before.humans:  # never all computers: it waits for a human
                    conn.execute(
                        public_tables.update()
                        .where(public_tables.c.room_id == before.id)
                        .values(start_at=None)
                    )
                    continue

                def start(room: Room, _seat: int | None) -> None:
                    begin(room, self.rooms.deal_seeds(room))

                room = self.rooms.next_version(before, None, start)
                self.rooms.write_in(conn, room, before)
            started.append(room)
        return started

    async def sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            await self.sweep_once()

    async def sweep_once(self) -> None:
        try:
            started = await anyio.to_thread.run_sync(self.start_due)
        except Exception as exc:
            outage.report(log, "public tables: starting the lobbies failed", exc)
            return
        for room in started:
            self.rooms.committed(room)

    async def start(self) -> None:
        self._sweeper = asyncio.create_task(self.sweep_forever())

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
