"""Rooms: play with friends (issue 9, docs/api.md "Rooms").

The room service: create and join a room, start its match, the humans' actions
(each token acts only for its own seat), and the server's own moves
(:mod:`hearts.server.table.driver`): the computers' cards and, after the room's
``turn_seconds``, Vừa's decision for an absent human.  Every change writes the
room's next version only if it is still free in the database (as the single-player
actions do), so a double tap, two tabs or two server processes never apply
anything twice.  Each process keeps the latest version of each room it serves in
memory: an action at that version reads nothing (another process's changes arrive
by NOTIFY, see live.py).

The server's next move is kept in the room's row as ``due_at``: the process that
made the last change sets a timer for it, and every process sweeps the rooms whose
move is overdue (a process killed mid-hand is thus replaced by any live one).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, NoReturn

import anyio.to_thread
import sqlalchemy as sa

from hearts.bots.base import LEVELS
from hearts.fairness import HandSeeds
from hearts.rules import Rules
from hearts.server.i18n import lang, messages_en
from hearts.server.rooms.names import clean_name
from hearts.server.rooms.store import Room, RoomStore, Seat, now
from hearts.server.rooms.view import CONNECTED_SECONDS, fairness, room_text, room_view
from hearts.server.store import outage
from hearts.server.store.db import Stale, Store
from hearts.server.table import actions, driver
from hearts.server.table.computers import Choices, Computers, Heavy
from hearts.server.table.game import Game
from hearts.server.table.pacing import Pace
from hearts.server.web.errors import ApiError

log = logging.getLogger("hearts.server")
#: A change of a room: ``action(room, the caller's seat)`` on the room's next version.
Action = Callable[[Room, int | None], None]

#: 16 characters of base32: 80 random bits, not guessable.
CODE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
CODE_LENGTH = 16
CODE_RE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
TURN_SECONDS = range(10, 601)
#: How long after its due time another process takes over a room's next move.
TAKE_OVER_AFTER = 1.5
#: How often each process looks for overdue rooms.
SWEEP_EVERY = 1.0
#: How many rooms a process keeps in memory (the latest version of each).
CACHE_ROOMS = 5000
#: How long a room kept in memory is shown without reading it again.
TRUST_SECONDS = 2.0


async def _nothing(_code: str) -> None:
    return None


class RoomError(ApiError):
    """A refusal that carries the Room as the caller sees it (``stale``)."""

    def __init__(self, code: str, room: dict[str, Any]) -> None:
        super().__init__(code)
        self.room = room


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_lobby(
    rules: Rules,
    level: str,
    turn_seconds: int | None,
    player_id: int,
    name: str,
    public: dict[str, Any] | None = None,
) -> Room:
    """A room in its lobby under a new code, ``player_id`` at its first seat (``public``:
    a public table's own part)."""
    seats = [Seat(seat=i, kind="empty") for i in range(rules.players)]
    seats[0] = Seat(seat=0, kind="human", name=name, player_id=player_id, seen_at=now())
    return Room(
        id=0,
        code=new_code(),
        version=0,
        phase="lobby",
        creator=0,
        rules=rules,
        level=level,
        turn_seconds=turn_seconds,
        game=None,
        seats=seats,
        public=public,
    )


def seated(room: Room) -> set[int]:
    """The room's seated humans."""
    return {s.player_id for s in room.seats if s.kind == "human" and s.player_id is not None}


def guest_name(seat: int) -> str:
    return messages_en.guest(seat + 1) if lang.english() else f"Khách {seat + 1}"


class Rooms:
    """The rooms of one server process."""

    def __init__(
        self,
        store: Store,
        computers: Computers,
        pace: float,
        on_change: Callable[[str, Room | None], None],
    ) -> None:
        self.store = store
        self.computers = computers
        self.db = RoomStore(self.store)
        self.pace = Pace.of_gap(pace)  # the server keeps a shared table's time
        #: called after every committed change (live.py pushes the new Room)
        self.on_change = on_change
        #: called inside each change's transaction (live.py: PostgreSQL NOTIFY)
        self.in_transaction: Callable[[Any, str, int], None] = lambda _c, _code, _v: None
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self.driver: driver.Driver[tuple[bool, Room | None]] = driver.Driver()
        self._moves: set[asyncio.Future[None]] = set()  # kept until done
        self._sweeper: asyncio.Task[None] | None = None
        #: code -> (the latest Room known here, when the database confirmed it)
        self._cache: OrderedDict[str, tuple[Room, float]] = OrderedDict()
        self._cache_lock = threading.Lock()
        #: a seat connected by a call (live.py tells the others)
        self.on_presence: Callable[[str], Awaitable[None]] = _nothing
        # Hooks of the public tables (public/; rooms of friends leave them as they are):
        #: inside each change's transaction, after the write: (conn, room, before)
        self.on_write: Callable[[Any, Room, Room], None] = lambda _c, _r, _b: None
        #: a new hand was dealt on the room (newcomers take computers' seats)
        self.on_deal: Callable[[Room], None] = lambda _r: None
        #: the human at this seat leaves for good (before the seat is a computer's)
        self.on_leave: Callable[[Room, int], None] = lambda _r, _s: None
        #: who may follow the room live (public/ adds its queued newcomers)
        self.members: Callable[[Room], set[int]] = seated

    # -- reading -------------------------------------------------------------------
    def _load(self, code: str) -> Room:
        """The room as the database has it now (kept as the latest known)."""
        if not CODE_RE.fullmatch(code):
            raise ApiError("room_not_found")
        with self.store.read() as conn:
            room = self.db.load(conn, code)
        if room is None:
            self.forget(code)
            raise ApiError("room_not_found")
        self._remember(room, from_db=True)
        return room

    def _remember(self, room: Room, from_db: bool) -> None:
        """Keep ``room`` as the latest known version of it (never an older one).  A
        Room this process just committed keeps the presence known here."""
        with self._cache_lock:
            old = self._cache.get(room.code)
            if old is not None and old[0].version > room.version:
                return  # a newer one is known already
            self._cache.pop(room.code, None)
            if old is not None and not from_db:
                for s, before in zip(room.seats, old[0].seats, strict=True):
                    if s.player_id == before.player_id and s.kind == before.kind == "human":
                        s.seen_at = before.seen_at
            self._cache[room.code] = (room, time.monotonic())
            while len(self._cache) > CACHE_ROOMS:
                self._cache.popitem(last=False)

    def forget(self, code: str) -> None:
        """The room changed elsewhere (another process's NOTIFY): read it again."""
        with self._cache_lock:
            self._cache.pop(code, None)

    def kept(self, code: str) -> Room | None:
        """The room kept here if it is recent enough to show (see :meth:`current`)."""
        kept = self._cache.get(code)
        if kept is not None and time.monotonic() - kept[1] < TRUST_SECONDS:
            return kept[0]
        return None

    def forget_all(self, codes: list[str]) -> None:
        """The rooms were removed (retention)."""
        for code in codes:
            self.forget(code)

    def current(self, code: str) -> Room:
        """The room as recently known: kept here if it was confirmed in the last
        :data:`TRUST_SECONDS` (another process's changes come by NOTIFY sooner), else
        read again.  Shared: never changed but for its seats' ``seen_at``."""
        return self.kept(code) or self._load(code)

    def _at(self, code: str, version: int) -> tuple[Room | None, Room]:
        """The room at ``version`` (None: it is at another version now) and the
        latest version known."""
        kept = self._cache.get(code)
        if kept is not None and kept[0].version == version:
            return kept[0], kept[0]  # a version is never made twice: this is it
        if kept is not None and kept[0].version > version:
            return None, kept[0]  # versions only go up: this one is taken
        room = self._load(code)
        return (room if room.version == version else None), room

    def view(self, code: str, player_id: int | None) -> tuple[int, str, bool]:
        """The Room's version and JSON text as the player sees it, and whether this
        call made its seat connected (the others are told: a long-poll client has no
        socket)."""
        room = self.current(code)
        seat = room.seat_of(player_id) if player_id is not None else None
        arrived = False
        if seat is not None:
            arrived = self._touch(room, seat)
        return room.version, room_text(room, seat), arrived

    def _touch(self, room: Room, seat: int) -> bool:
        """A call of the seat's player: it is connected (written at most every 10 s);
        whether it was shown disconnected before."""
        s = room.seats[seat]
        t = now()
        if s.seen_at is None or t - s.seen_at > 10:
            arrived = s.seen_at is None or t - s.seen_at >= CONNECTED_SECONDS
            self.db.touch(room.id, [seat], t)
            s.seen_at = t
            return arrived
        return False

    def set_seen(self, code: str, players: list[int], when: float | None) -> None:
        """This process wrote the players' ``seen_at``: the kept room shows it too."""
        kept = self._cache.get(code)
        if kept is not None:
            for s in kept[0].seats:
                if s.kind == "human" and s.player_id in players:
                    s.seen_at = when

    def merge_seen(self, code: str, seen: dict[int, float | None]) -> Room | None:
        """The players' ``seen_at`` as the database has it (every process refreshes
        its own), into the kept room; that room (None: none kept)."""
        kept = self._cache.get(code)
        if kept is None:
            return None
        for s in kept[0].seats:
            if s.kind == "human" and s.player_id in seen:
                s.seen_at = seen[s.player_id]
        return kept[0]

    # -- changing ------------------------------------------------------------------
    def _apply(
        self,
        before: Room,
        player_id: int | None,
        action: Action,
        keep_due: bool = False,
    ) -> Room:
        """``action(room, the caller's seat)`` on a copy of ``before``: the next version
        (an ApiError, and nothing changed, if the action is refused).  ``keep_due``:
        the action moves nothing on the table, so the server's next move keeps its
        time (a seed sent must never hold the table up)."""
        room = before.copy()
        seat = room.seat_of(player_id) if player_id is not None else None
        action(room, seat)
        room.version = before.version + 1
        if room.game is not None and room.game.over:
            room.phase = "over"
        room.due_at = before.due_at if keep_due else self.next_due(room)
        return room

    def _write(self, room: Room, before: Room) -> None:
        """Commit ``room`` if ``before``'s version is still the room's (else Stale)."""
        with self.store.write() as conn:
            self.write_in(conn, room, before)

    def write_in(self, conn: Any, room: Room, before: Room) -> None:
        """Write ``room`` in the caller's transaction (else Stale), then its hook
        (after the version check: the room's row is locked first)."""
        self.db.save(conn, room, before)
        self.on_write(conn, room, before)
        self.in_transaction(conn, room.code, room.version)

    def next_version(self, before: Room, player_id: int | None, action: Action) -> Room:
        """:meth:`_apply` for public/, which writes it in its own transaction."""
        return self._apply(before, player_id, action)

    def change(self, code: str, version: int, action: Action) -> Room:
        """The server's change of the room at ``version`` for public/ (in a thread;
        RoomError if the version is taken): the new Room, committed and kept here;
        the loop then calls :meth:`committed`."""
        return self._change(code, version, None, action)

    def committed(self, room: Room) -> None:
        """A change public/ committed (on the loop): keep it, push it, time its moves."""
        self._remember(room, from_db=False)
        self._after(room)

    def _refuse(
        self, code: str, player_id: int | None, members_only: bool, latest: Room | None
    ) -> NoReturn:
        """The version asked for is taken: 409 ``stale`` with the Room as it is now."""
        current = latest or self._load(code)  # room_not_found if it is not there at all
        seat = current.seat_of(player_id) if player_id is not None else None
        if seat is None and player_id is not None and members_only:
            raise ApiError("not_in_room")  # whatever the version
        raise RoomError("stale", room_view(current, seat))

    def _change(
        self,
        code: str,
        version: int,
        player_id: int | None,
        action: Action,
    ) -> Room:
        """:meth:`_commit` in one thread (the server's own moves)."""
        if not CODE_RE.fullmatch(code):
            raise ApiError("room_not_found")
        before, latest = self._at(code, version)
        if before is None:
            self._refuse(code, player_id, True, latest)
        room = self._apply(before, player_id, action)
        try:
            self._write(room, before)
        except Stale:
            self.forget(code)
            self._refuse(code, player_id, True, None)
        self._remember(room, from_db=False)
        return room

    async def _commit(
        self,
        code: str,
        version: int,
        player_id: int | None,
        action: Action,
        members_only: bool = True,
        keep_due: bool = False,
    ) -> str:
        """Apply ``action(room, the caller's seat)`` on ``version`` and commit it, or
        change nothing; the caller's Room (JSON text) after it.

        The action works on a copy of the room at ``version`` (kept in memory when it
        is the latest known, else read); the write checks that the version is still
        free, so two processes, two tabs or a double tap never both change it.  Only
        the database's work goes to a thread: the rest is quick and stays here."""
        if not CODE_RE.fullmatch(code):
            raise ApiError("room_not_found")
        kept = self._cache.get(code)
        if kept is not None and kept[0].version >= version:
            before, latest = (kept[0] if kept[0].version == version else None), kept[0]
        else:
            before, latest = await anyio.to_thread.run_sync(self._at, code, version)
        refuse = functools.partial(self._refuse, code, player_id, members_only)
        if before is None:
            await anyio.to_thread.run_sync(refuse, latest)
            raise AssertionError("refused")
        room = self._apply(before, player_id, action, keep_due)
        try:
            await anyio.to_thread.run_sync(self._write, room, before)
        except Stale:
            self.forget(code)
            await anyio.to_thread.run_sync(refuse, None)
        self._remember(room, from_db=False)
        self._after(room)
        viewer = room.seat_of(player_id) if player_id is not None else None
        return room_text(room, viewer)

    def _after(self, room: Room) -> None:
        """A change was committed here: push it and time the server's next move."""
        self.on_change(room.code, room)
        self.schedule(room.code, room.due_at)

    def next_due(self, room: Room) -> float | None:
        """When the server makes the room's next move (None: it waits for a human
        with no timer, or there is nobody left to play for)."""
        game = room.game
        if room.phase != "playing" or game is None or game.over or not room.humans:
            return None
        t = now()
        hand = game.hand
        humans = set(room.humans)
        wait = float(room.turn_seconds) if room.turn_seconds is not None else None
        if game.computers_to_move(humans):
            return t + self.pace.before_computers(hand)
        return t + wait if wait is not None else None

    # -- the calls -----------------------------------------------------------------
    async def create(
        self, player_id: int, rules: Rules, level: str, turn_seconds: int | None, name: Any
    ) -> str:
        if level not in LEVELS:
            raise ApiError("bad_request")
        if turn_seconds is not None and turn_seconds not in TURN_SECONDS:
            raise ApiError("bad_request")
        name = clean_name(name, guest_name(0))

        def make() -> Room:
            for _ in range(5):
                room = new_lobby(rules, level, turn_seconds, player_id, name)
                try:
                    with self.store.write() as conn:
                        self.db.create(conn, room)
                    self._remember(room, from_db=True)
                    return room
                except sa.exc.IntegrityError:  # 80 random bits: never, but not a crash
                    continue
            raise ApiError("internal")

        room = await anyio.to_thread.run_sync(make)
        return room_text(room, 0)

    async def seen(self, code: str, player_id: int) -> tuple[int, str]:
        """The Room's version and JSON text as the player sees it (a call of the
        player's: its seat shows connected, and the others learn it)."""
        version, text, arrived = await anyio.to_thread.run_sync(self.view, code, player_id)
        if arrived:
            await self.on_presence(code)
        return version, text

    async def look(self, code: str, player_id: int) -> str:
        return (await self.seen(code, player_id))[1]

    async def follows(self, code: str, player_id: int) -> None:
        """404 ``room_not_found``, or 403 ``not_in_room`` unless the player is one of
        the room's members: only they may hold its sockets and long polls, which
        outsiders (a public table's code is learned by seeking there) could fill."""
        room = self.kept(code)
        if room is None:
            room = await anyio.to_thread.run_sync(self.current, code)
        if player_id not in self.members(room):
            raise ApiError("not_in_room")

    async def join(
        self, code: str, player_id: int, name: Any, client_seed: str | None = None
    ) -> str:
        """Sit at the next free seat (already seated: the same Room); ``client_seed``
        is the player's seed for the first deal."""
        for _ in range(20):  # a join needs no version: retry while others change the room
            room = await anyio.to_thread.run_sync(self.current, code)
            seated = room.seat_of(player_id)
            if seated is not None:
                return room_text(room, seated)
            free = [s.seat for s in room.seats if s.kind == "empty"]
            if room.public is not None:
                raise ApiError("public_table")  # seated only by seeking (public/)
            if room.phase != "lobby":
                raise ApiError("room_started" if room.phase == "playing" else "match_over")
            if not free:
                raise ApiError("room_full")
            chosen = clean_name(name, guest_name(free[0]))

            def sit(room: Room, _seat: int | None, chosen: str = chosen) -> None:
                free = [s for s in room.seats if s.kind == "empty"]
                if not free:
                    raise ApiError("room_full")
                free[0].kind, free[0].name, free[0].player_id = "human", chosen, player_id
                free[0].seen_at = now()
                free[0].auto = False
                self._seed_of(room, free[0].seat, client_seed)

            try:
                return await self._commit(code, room.version, player_id, sit, False)
            except RoomError:
                continue
        raise ApiError("internal")

    async def act(self, code: str, player_id: int, action: Action, keep_due: bool = False) -> str:
        """``action`` at the room's latest version, for a call that names none
        (public/: a reaction, a hide, leaving; a seed): applied under the room's row
        lock, so others changing the room never make it fail."""
        fn = functools.partial(self._change_latest, code, player_id, action, keep_due)
        room = await anyio.to_thread.run_sync(fn)
        self._after(room)
        return room_text(room, room.seat_of(player_id))

    def _change_latest(
        self, code: str, player_id: int | None, action: Action, keep_due: bool
    ) -> Room:
        """``action`` on the room as its row, locked, has it now: the next version,
        committed and kept here (an ApiError, and nothing changed, if refused)."""
        if not CODE_RE.fullmatch(code):
            raise ApiError("room_not_found")
        with self.store.write() as conn:
            before = self.db.load(conn, code, lock=True)
            if before is None:
                raise ApiError("room_not_found")
            room = self._apply(before, player_id, action, keep_due)
            self.write_in(conn, room, before)
        self._remember(room, from_db=False)
        return room

    @staticmethod
    def _seed_of(room: Room, seat: int, client_seed: str | None) -> None:
        """The seat's human sent ``client_seed`` for the next deal (None: nothing)."""
        if client_seed is not None:
            room.client_seeds[seat] = client_seed

    def deal_seeds(self, room: Room) -> HandSeeds:
        """The seeds of the room's deal now (docs/fairness.md): its committed server
        seed, then the next one; the seeds the humans seated now sent since the last
        deal, in seat order (a human who sent none is left out, and the hand's
        ``client_seats`` say whose they are)."""
        server_seed = room.next_seed or self.store.seeds.first(f"room:{room.id}")
        room.next_seed = self.store.seeds.after(server_seed)
        humans = set(room.humans)
        sent, room.client_seeds = room.client_seeds, {}
        seats = tuple(s for s in sorted(sent) if s in humans)
        return HandSeeds(server_seed, tuple(sent[s] for s in seats), seats)

    async def seed(
        self, code: str, player_id: int, client_seed: str, promised: str | None = None
    ) -> str:
        """The seat's seed for the room's next deal, instead of any it sent before
        (docs/fairness.md, "Rooms: whose seeds"); ``promised``, the commitment the
        sender read, must still be the next (a seed never goes to a deal its sender
        was not promised).  The table's next move keeps its time."""

        def offer(room: Room, seat: int | None) -> None:
            seat = self._member(room, seat)
            if room.phase == "over":
                raise ApiError("match_over")
            if promised is not None and promised != fairness(room)["next_commitment"]:
                raise ApiError("commitment_changed")
            room.client_seeds[seat] = client_seed

        return await self.act(code, player_id, offer, keep_due=True)

    async def start(
        self, code: str, player_id: int, version: int, client_seed: str | None = None
    ) -> str:
        def start(room: Room, seat: int | None) -> None:
            self._creator(room, seat)
            if room.phase != "lobby":
                raise ApiError("wrong_phase")
            for s in room.seats:
                if s.kind == "empty":
                    s.kind = "computer"
            assert seat is not None
            self._seed_of(room, seat, client_seed)
            game = Game.new(room.rules, 1, self.deal_seeds(room), room.id)
            game.choosers = frozenset(room.humans)
            room.game = game
            room.phase = "playing"

        return await self._commit(code, version, player_id, start)

    @staticmethod
    def _member(room: Room, seat: int | None) -> int:
        if seat is None:
            raise ApiError("not_in_room")
        return seat

    def _creator(self, room: Room, seat: int | None) -> None:
        if room.public is not None:
            raise ApiError("public_table")  # nobody owns a public table
        if self._member(room, seat) != room.creator:
            raise ApiError("creator_only")

    async def remove(self, code: str, player_id: int, version: int, who: str) -> str:
        def remove(room: Room, seat: int | None) -> None:
            self._creator(room, seat)
            assert seat is not None
            letters = room.rules.seats
            if who not in letters:
                raise ApiError("bad_seat")
            target = (letters.index(who) + seat) % room.rules.players
            if room.phase != "lobby":
                raise ApiError("wrong_phase")
            s = room.seats[target]
            if s.kind != "human" or target == seat:
                raise ApiError("bad_seat")
            room.seats[target] = Seat(seat=target, kind="empty")
            room.client_seeds.pop(target, None)

        return await self._commit(code, version, player_id, remove)

    async def leave(self, code: str, player_id: int, version: int) -> str:
        return await self._commit(code, version, player_id, self.leave_seat)

    def leave_seat(self, room: Room, seat: int | None) -> None:
        """The caller leaves for good: their seat is empty in the lobby, a computer's
        after (which keeps the leaver's name, for the table to say who left); the
        host's part goes to the next human in play order."""
        seat = self._member(room, seat)
        self.on_leave(room, seat)
        if room.phase == "lobby":
            room.seats[seat] = Seat(seat=seat, kind="empty")
        else:
            room.seats[seat] = Seat(seat=seat, kind="computer", name=room.seats[seat].name)
        room.client_seeds.pop(seat, None)
        if room.creator == seat:
            n = room.rules.players
            after = [(seat + k) % n for k in range(1, n)]
            heirs = [s for s in after if room.seats[s].kind == "human"]
            if heirs:
                room.creator = heirs[0]
        if room.game is not None:
            room.game.choosers = frozenset(room.humans)

    async def human(
        self, code: str, player_id: int, version: int, action: actions.HumanAction
    ) -> str:
        """The caller's ``action`` at its own seat (:mod:`hearts.server.table.actions`)
        on the room's ``version``; a next hand is dealt from the room's seeds, with the
        caller's ``client_seed`` among them."""
        deal = isinstance(action, actions.NextHand)

        def act(room: Room, seat: int | None) -> None:
            seat = self._member(room, seat)
            if room.phase == "over":
                raise ApiError("match_over")
            if room.game is None or (room.phase != "playing" and not deal):
                raise ApiError("wrong_phase")
            if isinstance(action, actions.NextHand):
                self._seed_of(room, seat, action.client_seed)
            actions.apply(room.game, seat, action, lambda: self.deal_seeds(room))
            if deal:
                room.auto_plays = []
                self.on_deal(room)
            else:
                room.seats[seat].auto = False  # the player is back

        return await self._commit(code, version, player_id, act)

    # -- the server's moves --------------------------------------------------------
    def _move(self, room: Room, decided: driver.Decision | None) -> None:
        """The server's next move on ``room`` (due now, :func:`driver.make`): the
        computers' pass or card, Vừa's decision for the humans the table waits on,
        or the next deal; what it did for them is marked on their seats."""
        assert room.game is not None
        made = driver.make(
            room.game,
            frozenset(room.humans),
            room.level,
            decided,
            driver.SHARED,
            room.version,
            lambda: self.deal_seeds(room),
        )
        for auto in made.auto:
            room.seats[auto["seat"]].auto = True
            room.auto_plays.append(auto)
        if made.moon_for is not None:
            room.seats[made.moon_for].auto = True
        if made.dealt:
            room.auto_plays = []
            self.on_deal(room)

    def _drive_once(self, code: str, decided: driver.Decision | None) -> tuple[bool, Room | None]:
        """Make the room's move if it is due (at Khó's version when it decided):
        whether it was made, and the room (None when it is gone or moved on)."""
        try:
            room = self._load(code)  # its due time as the database has it
        except ApiError:
            return False, None
        if decided is not None and room.version != decided.at:
            return False, None
        if room.due_at is None or room.due_at > now() + 0.005:
            return False, room
        version = room.version

        def move(room: Room, _seat: int | None) -> None:
            self._move(room, decided)

        try:
            changed = self._change(code, version, None, move)
        except RoomError:
            return False, None  # another process (or a human) moved first
        return True, changed

    async def drive(self, code: str) -> None:
        """Make the room's due move (:class:`driver.Driver`: Khó thinking in the bot
        pool, outside any transaction), then time the next."""
        if self.driver.moving(code):
            return

        async def attempt(decided: driver.Decision | None) -> tuple[bool, Room | None]:
            return await anyio.to_thread.run_sync(self._drive_once, code, decided)

        async def think(heavy: Heavy) -> Choices:
            return await self.computers.decide(heavy.level, heavy.job)

        try:
            made, _ = self.driver.move(code, attempt, think)
            moved, room = await asyncio.shield(made)
            if moved and room is not None:
                self._after(room)
            elif room is not None:
                self.schedule(code, room.due_at)  # not due yet: wait for it
        except ApiError:
            return
        except Exception as exc:
            outage.report(log, f"room {code}: the server's move failed", exc)

    def schedule(self, code: str, due_at: float | None) -> None:
        """Time the room's next move in this process."""
        old = self._timers.pop(code, None)
        if old is not None:
            old.cancel()
        if due_at is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        delay = max(0.0, due_at - now())
        self._timers[code] = loop.call_later(delay, self._spawn, code, True)

    def _spawn(self, code: str, timed: bool = False) -> None:
        if timed:
            self._timers.pop(code, None)
        task = asyncio.ensure_future(self.drive(code))
        self._moves.add(task)
        task.add_done_callback(self._moves.discard)

    async def sweep_forever(self) -> None:
        """Make the moves other processes left overdue (killed, or never timed)."""
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                codes = await anyio.to_thread.run_sync(self.db.due, now() - TAKE_OVER_AFTER)
            except Exception as exc:
                outage.report(log, "rooms: the sweep failed", exc)
                continue
            for code in codes:
                # a timer here may be one another process's change made stale
                if not self.driver.moving(code):
                    self._spawn(code)

    async def start_driving(self) -> None:
        self._sweeper = asyncio.create_task(self.sweep_forever())

    async def stop_driving(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
