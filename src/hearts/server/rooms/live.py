"""Live rooms: push each connected browser its own Room after every change.

Each process keeps its own WebSockets (and long-poll waiters) per room.  After a
change it re-reads the room once and sends every socket the Room from that
socket's seat (only when it differs from the last one sent).  On PostgreSQL a
change also sends ``NOTIFY hearts_rooms, '<code> <process>'`` in its transaction:
every other process LISTENs and does the same for its own sockets.  The message
carries no state at all, only which room changed.

A seat is connected while a socket of its player is open: its ``seen_at`` is set
at connection, refreshed every :data:`REFRESH_EVERY` seconds and cleared when the
player's last socket in this process closes.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import secrets
import weakref
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

import anyio.to_thread
import sqlalchemy as sa
from sqlalchemy.engine import Connection
from starlette.websockets import WebSocket

from hearts.server.i18n.lang import Lang, current, using
from hearts.server.rooms.service import Rooms
from hearts.server.rooms.store import Room, now
from hearts.server.rooms.view import presence, room_text
from hearts.server.store import outage
from hearts.server.store.db import room_seats, rooms
from hearts.server.web.errors import ApiError

log = logging.getLogger("hearts.server")

CHANNEL = "hearts_rooms"
REFRESH_EVERY = 10.0
SEND_TIMEOUT = 5.0


@dataclass(eq=False)
class Watcher:
    """One open WebSocket: whose it is, and the last Room text sent on it."""

    socket: WebSocket
    player_id: int
    last: str | None = None
    #: the language the socket asked for (``?lang=en``): its Room's words
    lang: Lang = field(default_factory=current)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Live:
    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms
        self.store = rooms.store
        self.origin = secrets.token_hex(6)  # this process, in its own NOTIFYs
        self.postgres = self.store.engine.dialect.name == "postgresql"
        self.watchers: dict[str, set[Watcher]] = {}
        #: the long polls' wake-up per room, kept while one waits on it (none is made
        #: for long: a poll of a code of no room would otherwise keep its Event forever)
        self._events: dict[str, asyncio.Event] = {}
        self._waiting: collections.Counter[str] = collections.Counter()
        self._again: set[str] = set()
        self._publishing: set[str] = set()
        self._tasks: list[asyncio.Task[None]] = []
        #: each watched room's seats as last pushed: connected or not
        self._shown: dict[str, tuple[bool, ...]] = {}
        self._pushes: set[asyncio.Future[None]] = set()  # kept until done
        self._stopping = asyncio.Event()  # the server stops: the long polls answer now
        self._presence_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        rooms.on_change = self.changed
        rooms.on_presence = self.announce
        if self.postgres:
            rooms.in_transaction = self._notify_in

    # -- telling every process ---------------------------------------------------------
    def _notify_in(self, conn: Any, code: str, _version: int) -> None:
        conn.execute(
            sa.text("SELECT pg_notify(:channel, :payload)"),
            {"channel": CHANNEL, "payload": f"{code} {self.origin}"},
        )

    def _notify(self, code: str) -> None:
        if self.postgres:
            with self.store.write() as conn:
                self._notify_in(conn, code, 0)

    async def announce(self, code: str) -> None:
        """A change outside an action (a seat connecting): this process and the others."""
        self.changed(code)
        if self.postgres:
            await anyio.to_thread.run_sync(self._notify, code)

    # -- pushing ---------------------------------------------------------------------
    def changed(self, code: str, room: Room | None = None) -> None:
        """Push the room's new state (``room`` when this process just committed it,
        else read again) to this process's sockets and waiters."""
        if code in self._publishing:
            self._again.add(code)  # one more pass after the running one, read again
            return
        self._publishing.add(code)
        push = asyncio.ensure_future(self._publish(code, room))
        self._pushes.add(push)
        push.add_done_callback(self._pushes.discard)

    async def _publish(self, code: str, room: Room | None) -> None:
        try:
            while True:
                self._again.discard(code)
                event = self._events.pop(code, None)
                if event is not None:
                    event.set()
                watchers = list(self.watchers.get(code, ()))
                if watchers:
                    players = {(w.player_id, w.lang) for w in watchers}
                    try:
                        if room is None:
                            room = self.rooms.kept(code)
                        if room is None:  # read it first (in a thread)
                            room = await anyio.to_thread.run_sync(self._read, code)
                        texts = self._texts(room, players) if room is not None else {}
                        if room is not None:
                            self._shown[code] = presence(room, now())
                    except Exception as exc:
                        outage.report(log, f"room {code}: could not read it to push", exc)
                        texts = {}
                    ready = [w for w in watchers if (w.player_id, w.lang) in texts]
                    await asyncio.gather(
                        *(self._send(w, texts[w.player_id, w.lang]) for w in ready)
                    )
                room = None
                if code not in self._again:
                    return
        finally:
            self._publishing.discard(code)

    def _read(self, code: str) -> Room | None:
        try:
            return self.rooms.current(code)
        except ApiError:
            return None  # gone

    @staticmethod
    def _texts(room: Room, players: set[tuple[int, Lang]]) -> dict[tuple[int, Lang], str]:
        """Each player's Room message in each language asked (each seat's built once)."""
        by_seat: dict[tuple[int | None, Lang], str] = {}
        out = {}
        for pid, language in players:
            seat = room.seat_of(pid)
            if (seat, language) not in by_seat:
                with using(language):
                    text = room_text(room, seat)
                by_seat[seat, language] = room_message(text)
            out[pid, language] = by_seat[seat, language]
        return out

    async def _send(self, watcher: Watcher, text: str) -> None:
        async with watcher.lock:
            if text == watcher.last:
                return
            watcher.last = text
            try:
                async with asyncio.timeout(SEND_TIMEOUT):  # no task per send
                    await watcher.socket.send_text(text)
            except Exception:
                with contextlib.suppress(Exception):
                    await watcher.socket.close()

    async def reply(self, watcher: Watcher, text: str, shown: str | None) -> None:
        """Answer a message of the socket's own; ``shown``: the Room text the answer
        carries, which this socket's push of that version then does not send again."""
        async with watcher.lock:
            if shown is not None:
                watcher.last = room_message(shown)
            try:
                async with asyncio.timeout(SEND_TIMEOUT):
                    await watcher.socket.send_text(text)
            except Exception:
                with contextlib.suppress(Exception):
                    await watcher.socket.close()

    # -- long-poll ---------------------------------------------------------------------
    async def wait(
        self, code: str, player_id: int, after: int, timeout: float, gone: asyncio.Future[None]
    ) -> str:
        """The Room (JSON text) once its version is past ``after``, or as it is after
        ``timeout``, or at once when the server stops (the page polls again, from the
        same version: nothing is lost).  ``gone``: done once the caller hung up, and
        then the answer goes nowhere."""
        loop = asyncio.get_running_loop()
        until = loop.time() + timeout
        self._waiting[code] += 1
        try:
            while True:
                # The event first: a change between the read and the wait still wakes it.
                event = self._events.setdefault(code, asyncio.Event())
                version, text = await self.rooms.seen(code, player_id)
                left = until - loop.time()
                if version > after or left <= 0 or self._stopping.is_set() or gone.done():
                    return text
                await _first(left, event.wait(), self._stopping.wait(), gone)
        finally:
            self._waiting[code] -= 1
            if not self._waiting[code]:
                del self._waiting[code]
                self._events.pop(code, None)

    @property
    def kept_wakeups(self) -> int:
        """How many rooms' long-poll wake-ups this process keeps (one per room polled now)."""
        return len(self._events)

    def stopping(self) -> None:
        """The server is asked to stop: every long poll answers now rather than hold
        the stop for up to its whole timeout."""
        self._stopping.set()

    # -- sockets -----------------------------------------------------------------------
    def _presence(self, code: str) -> asyncio.Lock:
        """One room's connections and disconnections in order: a quick close must not
        have its "gone" written before the "here" of its opening."""
        lock = self._presence_locks.get(code)
        if lock is None:
            lock = self._presence_locks[code] = asyncio.Lock()
        return lock

    async def connect(self, code: str, watcher: Watcher) -> None:
        async with self._presence(code):
            self.watchers.setdefault(code, set()).add(watcher)
            await anyio.to_thread.run_sync(self._seen, code, [watcher.player_id], now())
        await self.announce(code)

    async def disconnect(self, code: str, watcher: Watcher) -> None:
        async with self._presence(code):
            group = self.watchers.get(code, set())
            group.discard(watcher)
            if not group:
                self.watchers.pop(code, None)
                self._shown.pop(code, None)
            gone = not any(w.player_id == watcher.player_id for w in group)
            if gone:
                await anyio.to_thread.run_sync(self._seen, code, [watcher.player_id], None)
        if gone:
            await self.announce(code)

    def _seen(self, code: str, players: list[int], when: float | None) -> None:
        with self.store.write() as conn:
            _mark_seen(conn, code, players, when)
        self.rooms.set_seen(code, players, when)

    def _refresh(self, watched: dict[str, list[int]]) -> list[str]:
        """Every watched room's connected players are here now (one transaction for
        all), and the others' presence as the database has it: the rooms where
        someone now shows as (dis)connected."""
        t = now()
        with self.store.write() as conn:
            for code, players in watched.items():
                _mark_seen(conn, code, players, t)
        changed: list[str] = []
        with self.store.read() as conn:
            found = conn.execute(
                sa.select(rooms.c.code, room_seats.c.seat, room_seats.c.player_id)
                .add_columns(room_seats.c.seen_at)
                .join(room_seats, room_seats.c.room_id == rooms.c.id)
                .where(rooms.c.code.in_(list(watched)), room_seats.c.kind == "human")
            ).all()
        by_room: dict[str, dict[int, float | None]] = {}
        for code, _seat, player_id, seen_at in found:
            by_room.setdefault(code, {})[player_id] = seen_at
        for code, seen in by_room.items():
            room = self.rooms.merge_seen(code, seen)
            if room is not None and presence(room, t) != self._shown.get(code):
                changed.append(code)  # someone came or went in another process
        return changed

    async def _refresh_forever(self) -> None:
        while True:
            await asyncio.sleep(REFRESH_EVERY)
            watched = {
                code: sorted({w.player_id for w in group})
                for code, group in list(self.watchers.items())
            }
            if not watched:
                continue
            try:
                changed = await anyio.to_thread.run_sync(self._refresh, watched)
            except Exception as exc:
                outage.report(log, "rooms: the presence refresh failed", exc)
                continue
            for code in changed:
                self.changed(code)

    # -- LISTEN (PostgreSQL) -------------------------------------------------------------
    async def _listen_forever(self) -> None:
        import psycopg

        url = sa.make_url(self.store.url).set(drivername="postgresql")
        conninfo = url.render_as_string(hide_password=False)
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    async for note in conn.notifies():
                        code, _, origin = note.payload.partition(" ")
                        if origin != self.origin:
                            self.rooms.forget(code)  # what is kept here is older
                            self.changed(code)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                outage.report(log, "rooms: LISTEN failed; listening again in a second", exc)
                await asyncio.sleep(1.0)

    async def start(self) -> None:
        self._stopping = asyncio.Event()  # this loop's
        self._tasks.append(asyncio.create_task(self._refresh_forever()))
        if self.postgres:
            self._tasks.append(asyncio.create_task(self._listen_forever()))

    async def stop(self) -> None:
        self.stopping()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()


async def _first(timeout: float, *waits: Awaitable[Any]) -> None:
    """Return once one of ``waits`` is done, or after ``timeout``; the others are
    cancelled (a future given is only watched, the caller's to cancel)."""
    tasks = [w if isinstance(w, asyncio.Future) else asyncio.ensure_future(w) for w in waits]
    try:
        await asyncio.wait(tasks, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task, wait in zip(tasks, waits, strict=True):
            if task is not wait:
                task.cancel()


def room_message(room: str) -> str:
    """The push of a Room (its JSON text)."""
    return f'{{"type": "room", "room": {room}}}'


def _mark_seen(conn: Connection, code: str, players: list[int], when: float | None) -> None:
    """The room's seats of ``players`` were last seen at ``when`` (None: gone)."""
    room_id = sa.select(rooms.c.id).where(rooms.c.code == code).scalar_subquery()
    conn.execute(
        room_seats.update()
        .where(
            room_seats.c.room_id == room_id,
            room_seats.c.player_id.in_(players),
            room_seats.c.kind == "human",
        )
        .values(seen_at=when)
    )
