"""Rooms in the database: load a room with its seats, save it back under the
version check, and find the rooms whose next server move is due.

The tables are ``db.rooms`` and ``db.room_seats`` (migration 0006).  Every method
runs in a thread, on the :class:`~hearts.server.store.db.Store`'s engine.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import json
import time
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from hearts.match import HandResult, Match
from hearts.rules import Rules
from hearts.server.store.db import Stale, Store, room_seats, rooms
from hearts.server.table.game import Game


@dataclass
class Seat:
    seat: int  # absolute: 0 is the creator's first seat
    kind: str  # "human" | "computer" | "empty"
    #: a human's name; a computer's: that of the human who left the seat (or None)
    name: str | None = None
    player_id: int | None = None
    auto: bool = False  # its last decision was made by the timer
    seen_at: float | None = None


@dataclass
class Room:
    id: int
    code: str
    version: int
    phase: str  # "lobby" | "playing" | "over"
    creator: int
    rules: Rules
    level: str
    turn_seconds: int | None
    game: Game | None
    seats: list[Seat]
    #: this hand's decisions made for absent players: {"seat", "step", "card"}
    auto_plays: list[dict[str, Any]] = field(default_factory=list)
    due_at: float | None = None
    #: a public table's own part (public/; JSON-able), None for a room of friends
    public: dict[str, Any] | None = None
    #: the server seed of the room's next deal (docs/fairness.md)
    next_seed: str | None = None
    #: the humans' seeds for the next deal, by seat, as they sent them
    client_seeds: dict[int, str] = field(default_factory=dict)
    #: each seat's table State as JSON text, built once for this version and language
    #: (view.py)
    tables: dict[tuple[int, str], str] = field(default_factory=dict, compare=False, repr=False)

    def seat_of(self, player_id: int) -> int | None:
        for s in self.seats:
            if s.kind == "human" and s.player_id == player_id:
                return s.seat
        return None

    @property
    def humans(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind == "human"]

    def copy(self) -> Room:
        """A copy to change (a loaded Room is shared read-only between requests)."""
        return dataclasses.replace(
            self,
            game=self.game.copy() if self.game is not None else None,
            seats=[dataclasses.replace(s) for s in self.seats],
            auto_plays=list(self.auto_plays),
            public=copy.deepcopy(self.public),
            client_seeds=dict(self.client_seeds),
            tables={},
        )


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def game_json(game: Game) -> str:
    return json.dumps(
        {
            "totals": game.totals,
            "results": [r.to_json() for r in game.results],
            "hand_number": game.hand_no,
            # the server seed too (the hand may be in play): never an answer
            "hand_record": game.hand_record(secret=True),
            "auto_finished": game.auto_finished,
            # whose client seeds the hand used (not in the record's own fairness)
            "client_seats": None if game.seeds is None else game.seeds.seats,
        }
    )


def game_from_json(text: str, rules: Rules, deal_key: int, humans: list[int]) -> Game:
    data = json.loads(text)
    state, hand_no, seeds = Game.hand_from_record(data["hand_record"])
    seats = data.get("client_seats")  # absent in a room saved before it was kept
    if seeds is not None and seats is not None:
        seeds = dataclasses.replace(seeds, seats=tuple(seats))
    results = [HandResult.from_json(r) for r in data["results"]]
    match = Match(rules, results, totals=list(data["totals"]), hand=state, hand_number=hand_no)
    return Game(
        match=match,
        match_no=1,
        auto_finished=bool(data["auto_finished"]),
        deal_key=deal_key,
        choosers=frozenset(humans),
        seeds=seeds,
    )


#: What an action writes in the room's row.
_SAVED = (
    "public",
    "version",
    "phase",
    "creator",
    "game",
    "auto_plays",
    "due_at",
    "updated_at",
    "next_seed",
    "client_seeds",
)
#: That write, made once (each action only fills it in): building the statement
#: anew cost more than running it.
_SAVE_ROOM = (
    rooms.update()
    .where(rooms.c.id == sa.bindparam("room_id"), rooms.c.version == sa.bindparam("before"))
    .values({name: sa.bindparam(f"new_{name}") for name in _SAVED})
)


class RoomStore:
    """The rooms of one :class:`Store` (its engine and its locks)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, conn: Connection, room: Room) -> None:
        """Insert ``room`` (its id is set); IntegrityError if the code is taken."""
        now = _now()
        result = conn.execute(
            rooms.insert().values(
                code=room.code,
                version=room.version,
                phase=room.phase,
                creator=room.creator,
                rules=json.dumps(room.rules.to_json() | {"target": room.rules.target}),
                level=room.level,
                turn_seconds=room.turn_seconds,
                game=None,
                auto_plays="[]",
                due_at=None,
                created_at=now,
                updated_at=now,
                public=_public_json(room),
            )
        )
        key = result.inserted_primary_key
        assert key is not None
        room.id = int(key[0])
        room.next_seed = self.store.seeds.first(f"room:{room.id}")  # reproducible with --seed
        conn.execute(rooms.update().where(rooms.c.id == room.id).values(next_seed=room.next_seed))
        conn.execute(room_seats.insert(), [self._seat_row(room.id, s) for s in room.seats])

    @staticmethod
    def _seat_row(room_id: int, s: Seat) -> dict[str, Any]:
        return {
            "room_id": room_id,
            "seat": s.seat,
            "kind": s.kind,
            "name": s.name,
            "player_id": s.player_id,
            "auto": s.auto,
            "seen_at": s.seen_at,
        }

    def load(self, conn: Connection, code: str, lock: bool = False) -> Room | None:
        """The room ``code`` (None: no such room); ``lock``: its row locked until the
        transaction ends (PostgreSQL; SQLite's write transaction holds the database)."""
        query = sa.select(rooms).where(rooms.c.code == code)
        if lock:
            query = query.with_for_update()
        row = conn.execute(query).mappings().one_or_none()
        if row is None:
            return None
        seats = [
            Seat(
                seat=r["seat"],
                kind=r["kind"],
                name=r["name"],
                player_id=r["player_id"],
                auto=bool(r["auto"]),
                seen_at=r["seen_at"],
            )
            for r in conn.execute(
                sa.select(room_seats)
                .where(room_seats.c.room_id == row["id"])
                .order_by(room_seats.c.seat)
            ).mappings()
        ]
        rules = Rules.from_json(json.loads(row["rules"]))
        humans = [s.seat for s in seats if s.kind == "human"]
        game = (
            game_from_json(row["game"], rules, row["id"], humans)
            if row["game"] is not None
            else None
        )
        return Room(
            id=row["id"],
            code=row["code"],
            version=row["version"],
            phase=row["phase"],
            creator=row["creator"],
            rules=rules,
            level=row["level"],
            turn_seconds=row["turn_seconds"],
            game=game,
            seats=seats,
            auto_plays=json.loads(row["auto_plays"]),
            due_at=row["due_at"],
            public=json.loads(row["public"]) if row["public"] is not None else None,
            next_seed=row["next_seed"],
            client_seeds={int(k): v for k, v in json.loads(row["client_seeds"]).items()},
        )

    def save(self, conn: Connection, room: Room, before: Room) -> None:
        """Write ``room``, made from ``before`` by one action, as ``before.version + 1``
        in one statement that checks the version (it locks the row on PostgreSQL):
        :class:`Stale` if another action took that version.  Only the seats that
        changed are written."""
        if room.game is not None:
            room.game.choosers = frozenset(room.humans)
        done = conn.execute(
            _SAVE_ROOM,
            {
                "room_id": room.id,
                "before": before.version,
                "new_version": before.version + 1,
                "new_phase": room.phase,
                "new_creator": room.creator,
                "new_game": game_json(room.game) if room.game is not None else None,
                "new_auto_plays": json.dumps(room.auto_plays),
                "new_due_at": room.due_at,
                "new_updated_at": _now(),
                "new_public": _public_json(room),
                "new_next_seed": room.next_seed,
                "new_client_seeds": json.dumps(room.client_seeds),
            },
        )
        if done.rowcount != 1:
            raise Stale()
        for s, old in zip(room.seats, before.seats, strict=True):
            values: dict[str, Any] = {
                "kind": s.kind,
                "name": s.name,
                "player_id": s.player_id,
                "auto": s.auto,
            }
            if values == {k: getattr(old, k) for k in values}:
                continue
            if s.player_id != old.player_id:
                values["seen_at"] = s.seen_at  # a new occupant: its own presence
            conn.execute(
                room_seats.update()
                .where(room_seats.c.room_id == room.id, room_seats.c.seat == s.seat)
                .values(**values)
            )

    def touch(self, room_id: int, seats: list[int], when: float | None) -> None:
        """The seats' players are connected at ``when`` (None: they just left)."""
        if not seats:
            return
        with self.store.write() as conn:
            conn.execute(
                room_seats.update()
                .where(room_seats.c.room_id == room_id, room_seats.c.seat.in_(seats))
                .values(seen_at=when)
            )

    def due(self, before: float, limit: int = 200) -> list[str]:
        """Codes of rooms whose next server move was due before ``before``."""
        with self.store.read() as conn:
            return list(
                conn.execute(
                    sa.select(rooms.c.code)
                    .where(rooms.c.due_at.is_not(None), rooms.c.due_at < before)
                    .order_by(rooms.c.due_at)
                    .limit(limit)
                ).scalars()
            )


def _public_json(room: Room) -> str | None:
    return json.dumps(room.public, ensure_ascii=False) if room.public is not None else None


def now() -> float:
    """The clock of ``due_at`` and ``seen_at``: Unix seconds, the same in every process."""
    return time.time()
