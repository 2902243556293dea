"""Rooms: play with friends (issue 9, docs/api.md "Rooms").

The room service: create and join a room, start its match, the humans' actions
(each token acts only for its own seat), and the server's own moves: the
computers' cards and, after the room's ``turn_seconds``, Vừa's decision for an
absent human.  Every change claims the room's version in the database (as the
single-player actions do), so a double tap, two tabs or two server processes
never apply anything twice.

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
import unicodedata
from collections.abc import Callable
from typing import Any

import anyio.to_thread
import sqlalchemy as sa

from hearts.cards import card_name
from hearts.hand import DONE, PASS, PLAY
from hearts.rules import Rules
from hearts.server import lang, messages_en
from hearts.server.db import Stale, Store
from hearts.server.errors import ApiError
from hearts.server.game import LEVELS, Game, Job, decide
from hearts.server.roomdb import Room, RoomStore, Seat, now
from hearts.server.roomview import room_view
from hearts.server.tables import LIGHT_LEVELS, Tables

log = logging.getLogger("hearts.server")

#: 16 characters of base32: 80 random bits, not guessable.
CODE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
CODE_LENGTH = 16
CODE_RE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
NAME_LIMIT = 20
TURN_SECONDS = range(10, 601)
#: Vừa decides for an absent human.
AUTO_LEVEL = "medium"
#: How long after its due time another process takes over a room's next move.
TAKE_OVER_AFTER = 1.5
#: How often each process looks for overdue rooms.
SWEEP_EVERY = 1.0


class RoomError(ApiError):
    """A refusal that carries the Room as the caller sees it (``stale``)."""

    def __init__(self, code: str, room: dict[str, Any]) -> None:
        super().__init__(code)
        self.room = room


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def clean_name(name: Any, default: str) -> str:
    """A display name: 1-20 characters once trimmed, no control characters."""
    if name is None:
        return default
    if not isinstance(name, str):
        raise ApiError("bad_name")
    text = " ".join(name.split())
    if not 1 <= len(text) <= NAME_LIMIT or any(
        unicodedata.category(ch).startswith("C") for ch in text
    ):
        raise ApiError("bad_name")
    return text


def guest_name(seat: int) -> str:
    return messages_en.guest(seat + 1) if lang.english() else f"Khách {seat + 1}"


class _Heavy(Exception):
    """The move needs Khó: roll back and think outside the transaction."""

    def __init__(self, job: Job, level: str) -> None:
        super().__init__("heavy")
        self.job = job
        self.level = level
        self.version = -1  # the room's version the job was made at


class Rooms:
    """The rooms of one server process."""

    def __init__(
        self, tables: Tables, pace: float, on_change: Callable[[str, Room | None], None]
    ) -> None:
        self.tables = tables
        self.store: Store = tables.store
        self.db = RoomStore(self.store)
        self.pace = pace
        #: called after every committed change (live.py pushes the new Room)
        self.on_change = on_change
        #: called inside each change's transaction (live.py: PostgreSQL NOTIFY)
        self.in_transaction: Callable[[Any, str, int], None] = lambda _c, _code, _v: None
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._driving: set[str] = set()
        self._moves: set[asyncio.Future[None]] = set()  # kept until done
        self._sweeper: asyncio.Task[None] | None = None

    # -- reading -------------------------------------------------------------------
    def _load(self, code: str) -> Room:
        if not CODE_RE.fullmatch(code):
            raise ApiError("room_not_found")
        with self.store.read() as conn:
            room = self.db.load(conn, code)
        if room is None:
            raise ApiError("room_not_found")
        return room

    def view(self, code: str, player_id: int | None) -> dict[str, Any]:
        room = self._load(code)
        seat = room.seat_of(player_id) if player_id is not None else None
        if seat is not None:
            self._touch(room, seat)
        return room_view(room, seat)

    def _touch(self, room: Room, seat: int) -> None:
        """A call of the seat's player: it is connected (refreshed at most every 10 s)."""
        s = room.seats[seat]
        t = now()
        if s.seen_at is None or t - s.seen_at > 10:
            self.db.touch(room.id, [seat], t)
            s.seen_at = t

    # -- changing ------------------------------------------------------------------
    def _change(
        self,
        code: str,
        version: int,
        player_id: int | None,
        action: Callable[[Room, int | None], None],
        members_only: bool = True,
    ) -> tuple[Room, dict[str, Any]]:
        """Apply ``action(room, the caller's seat)`` on ``version`` and commit it, or
        change nothing; the room after it and the caller's view of it."""
        if not CODE_RE.fullmatch(code):
            raise ApiError("room_not_found")
        try:
            with self.store.write() as conn:
                self.db.claim(conn, code, version)
                room = self.db.load(conn, code)
                assert room is not None
                seat = room.seat_of(player_id) if player_id is not None else None
                action(room, seat)
                room.version = version + 1
                if room.game is not None and room.game.over:
                    room.phase = "over"
                room.due_at = self.next_due(room)
                self.db.save(conn, room)
                self.in_transaction(conn, code, room.version)
        except Stale:
            current = self._load(code)  # room_not_found if it is not there at all
            seat = current.seat_of(player_id) if player_id is not None else None
            if seat is None and player_id is not None and members_only:
                raise ApiError("not_in_room") from None  # whatever the version
            raise RoomError("stale", room_view(current, seat)) from None
        viewer = room.seat_of(player_id) if player_id is not None else None
        return room, room_view(room, viewer)

    async def _commit(
        self,
        code: str,
        version: int,
        player_id: int | None,
        action: Callable[[Room, int | None], None],
        members_only: bool = True,
    ) -> dict[str, Any]:
        fn = functools.partial(self._change, code, version, player_id, action, members_only)
        room, seen = await anyio.to_thread.run_sync(fn)
        self._after(room)
        return seen

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
        if hand.phase == PASS:
            if any(not hand.passes[s] for s in range(hand.n) if s not in humans):
                return t + self.pace
        elif hand.phase == PLAY and hand.turn not in humans:
            trick_done = bool(hand.plays) and len(hand.plays) % hand.n == 0
            return t + self.pace * (3 if trick_done else 1)
        return t + wait if wait is not None else None

    # -- the calls -----------------------------------------------------------------
    async def create(
        self, player_id: int, rules: Rules, level: str, turn_seconds: int | None, name: Any
    ) -> dict[str, Any]:
        if level not in LEVELS:
            raise ApiError("bad_request")
        if turn_seconds is not None and turn_seconds not in TURN_SECONDS:
            raise ApiError("bad_request")
        name = clean_name(name, guest_name(0))

        def make() -> Room:
            seats = [Seat(seat=i, kind="empty") for i in range(rules.players)]
            seats[0] = Seat(seat=0, kind="human", name=name, player_id=player_id, seen_at=now())
            for _ in range(5):
                room = Room(
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
                )
                try:
                    with self.store.write() as conn:
                        self.db.create(conn, room)
                    return room
                except sa.exc.IntegrityError:  # 80 random bits: never, but not a crash
                    continue
            raise ApiError("internal")

        room = await anyio.to_thread.run_sync(make)
        return room_view(room, 0)

    async def look(self, code: str, player_id: int) -> dict[str, Any]:
        return await anyio.to_thread.run_sync(self.view, code, player_id)

    async def join(self, code: str, player_id: int, name: Any) -> dict[str, Any]:
        """Sit at the next free seat (already seated: the same Room)."""
        for _ in range(20):  # a join needs no version: retry while others change the room
            room = await anyio.to_thread.run_sync(self._load, code)
            seated = room.seat_of(player_id)
            if seated is not None:
                return room_view(room, seated)
            free = [s.seat for s in room.seats if s.kind == "empty"]
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

            try:
                return await self._commit(code, room.version, player_id, sit, False)
            except RoomError:
                continue
        raise ApiError("internal")

    async def start(self, code: str, player_id: int, version: int) -> dict[str, Any]:
        def start(room: Room, seat: int | None) -> None:
            self._creator(room, seat)
            if room.phase != "lobby":
                raise ApiError("wrong_phase")
            for s in room.seats:
                if s.kind == "empty":
                    s.kind = "computer"
            game = Game.new(room.rules, 1, self.tables.seed, room.id)
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
        if self._member(room, seat) != room.creator:
            raise ApiError("creator_only")

    async def remove(self, code: str, player_id: int, version: int, who: str) -> dict[str, Any]:
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

        return await self._commit(code, version, player_id, remove)

    async def leave(self, code: str, player_id: int, version: int) -> dict[str, Any]:
        def leave(room: Room, seat: int | None) -> None:
            seat = self._member(room, seat)
            kind = "empty" if room.phase == "lobby" else "computer"
            room.seats[seat] = Seat(seat=seat, kind=kind)
            if room.creator == seat:
                n = room.rules.players
                after = [(seat + k) % n for k in range(1, n)]
                heirs = [s for s in after if room.seats[s].kind == "human"]
                if heirs:
                    room.creator = heirs[0]
            if room.game is not None:
                room.game.choosers = frozenset(room.humans)

        return await self._commit(code, version, player_id, leave)

    def _human_act(self, fn: Callable[[Game, int], None]) -> Callable[[Room, int | None], None]:
        def act(room: Room, seat: int | None) -> None:
            seat = self._member(room, seat)
            if room.phase == "over":
                raise ApiError("match_over")
            if room.phase != "playing" or room.game is None:
                raise ApiError("wrong_phase")
            fn(room.game, seat)
            room.seats[seat].auto = False  # the player is back

        return act

    async def pass_cards(
        self, code: str, player_id: int, version: int, cards: list[str]
    ) -> dict[str, Any]:
        act = self._human_act(lambda game, seat: game.seat_pass(seat, cards))
        return await self._commit(code, version, player_id, act)

    async def play(self, code: str, player_id: int, version: int, card: str) -> dict[str, Any]:
        act = self._human_act(lambda game, seat: game.seat_play(seat, card))
        return await self._commit(code, version, player_id, act)

    async def moon(self, code: str, player_id: int, version: int, choice: str) -> dict[str, Any]:
        act = self._human_act(lambda game, seat: game.seat_moon(seat, choice))
        return await self._commit(code, version, player_id, act)

    async def next_hand(self, code: str, player_id: int, version: int) -> dict[str, Any]:
        def deal(room: Room, seat: int | None) -> None:
            self._member(room, seat)
            if room.phase == "over":
                raise ApiError("match_over")
            if room.game is None:
                raise ApiError("wrong_phase")
            room.game.next_hand(self.tables.seed)
            room.auto_plays = []

        return await self._commit(code, version, player_id, deal)

    # -- the server's moves --------------------------------------------------------
    def _move(self, room: Room, choices: list[int] | None) -> None:
        """The server's next move on ``room`` (due now): the computers' pass or card,
        or Vừa's decision for the humans the table waits on, or the next deal."""
        game = room.game
        assert game is not None
        hand = game.hand
        humans = set(room.humans)
        if hand.phase == PASS:
            computers = [s for s in range(hand.n) if s not in humans and not hand.passes[s]]
            if computers:
                views = tuple(game.match.view(s) for s in computers)
                self._decide(room, Job("pass", views), choices)
                return
            waiting = [s for s in sorted(humans) if not hand.passes[s]]
            job = Job("pass", tuple(game.match.view(s) for s in waiting))
            game.apply_computer(job, decide(AUTO_LEVEL, job))
            for s in waiting:
                room.seats[s].auto = True
                room.auto_plays.append({"seat": s, "step": "pass", "card": None})
            return
        if hand.phase == PLAY:
            seat = hand.turn
            job = Job("play", (game.match.view(seat),))
            if seat not in humans:
                self._decide(room, job, choices)
                return
            before = len(hand.plays)
            game.apply_computer(job, decide(AUTO_LEVEL, job))
            room.seats[seat].auto = True
            room.auto_plays.append(
                {"seat": seat, "step": "play", "card": card_name(hand.plays[before])}
            )
            return
        if hand.phase == DONE and game.moon_pending:
            shooter = hand.shooter()
            game.match.finish_hand()  # as a computer shooter would choose
            room.seats[shooter].auto = True
            return
        game.next_hand(self.tables.seed)
        room.auto_plays = []

    def _decide(self, room: Room, job: Job, choices: list[int] | None) -> None:
        assert room.game is not None
        if choices is None:
            if room.level not in LIGHT_LEVELS:
                raise _Heavy(job, room.level)
            choices = decide(room.level, job)
        room.game.apply_computer(job, choices)

    def _drive_once(
        self, code: str, choices: list[int] | None, at: int | None
    ) -> tuple[bool, Room | None]:
        """Make the room's move if it is due (at version ``at`` when given): whether
        it was made, and the room (None when it is gone or moved on)."""
        with self.store.read() as conn:
            room = self.db.load(conn, code)
        if room is None or (at is not None and room.version != at):
            return False, None
        if room.due_at is None or room.due_at > now() + 0.005:
            return False, room
        version = room.version

        def move(room: Room, _seat: int | None) -> None:
            self._move(room, choices)

        try:
            changed, _ = self._change(code, version, None, move)
        except _Heavy as heavy:
            heavy.version = version
            raise
        except RoomError:
            return False, None  # another process (or a human) moved first
        return True, changed

    async def drive(self, code: str) -> None:
        """Make the room's due move (Khó thinking in the bot pool, outside any
        transaction), then time the next."""
        if code in self._driving:
            return
        self._driving.add(code)
        try:
            choices: list[int] | None = None
            at: int | None = None
            for _ in range(3):
                try:
                    fn = functools.partial(self._drive_once, code, choices, at)
                    moved, room = await anyio.to_thread.run_sync(fn)
                except _Heavy as heavy:
                    choices = await self.tables._decide(heavy.level, heavy.job)
                    at = heavy.version
                    continue
                if moved and room is not None:
                    self._after(room)
                elif room is not None:
                    self.schedule(code, room.due_at)  # not due yet: wait for it
                return
        except ApiError:
            return
        except Exception:
            log.exception("room %s: the server's move failed", code)
        finally:
            self._driving.discard(code)

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
            except Exception:
                log.exception("rooms: the sweep failed")
                continue
            for code in codes:
                # a timer here may be one another process's change made stale
                if code not in self._driving:
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
