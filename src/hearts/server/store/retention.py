"""The retention policy (docs/retention.md): what the server deletes, and when.

- A player whose token was never used for a move (version 0 or 1: at most its first
  deal was dealt) goes after ``unused_days`` (default 1) without a call.
- Any player goes, with its matches, hands and analyses, after ``keep_days`` (default 400)
  without a call.
- A room (play with friends) goes with its seats: a lobby never started after
  ``room_lobby_days`` (default 1) without a change, any other room (finished, or
  left unfinished) after ``room_days`` (default 14) without a change.  A player
  seated in a room still kept is not "never used", whatever its own version; nor
  is a rated player (public tables).  A public table goes as its room does.
- Nothing else is ever deleted: a saved match stays as long as its player does.

``hearts prune`` applies it once; the server applies it by itself (at start, then
every ``every`` seconds), one process at a time under the maintenance lock.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

import anyio.to_thread
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from hearts.server.store import migrate, outage
from hearts.server.store.db import (
    Store,
    achievements,
    analyses,
    hands,
    matches,
    moved_tokens,
    players,
    public_players,
    public_tables,
    rating_changes,
    ratings,
    room_seats,
    rooms,
    transfers,
)

log = logging.getLogger("hearts.server")

#: Players removed per transaction (a SQLite writer holds the whole file).
BATCH = 500


@dataclass(frozen=True)
class Policy:
    unused_days: float = 1.0
    keep_days: float = 400.0
    room_lobby_days: float = 1.0
    room_days: float = 14.0

    def __post_init__(self) -> None:
        if not (0 <= self.unused_days <= self.keep_days):
            raise ValueError("0 <= unused days <= keep days")
        if not (0 <= self.room_lobby_days <= self.room_days):
            raise ValueError("0 <= room lobby days <= room days")


@dataclass
class Pruned:
    """What one pass removed (or, dry, would remove)."""

    unused: int = 0
    inactive: int = 0
    matches: int = 0
    hands: int = 0
    lobbies: int = 0
    rooms: int = 0
    ids: list[int] = field(default_factory=list, repr=False)
    codes: list[str] = field(default_factory=list, repr=False)
    room_ids: list[int] = field(default_factory=list, repr=False)

    def describe(self, policy: Policy, dry_run: bool) -> str:
        verb = "would remove" if dry_run else "removed"
        return (
            f"{verb} {self.unused} never-used players (idle over {policy.unused_days:g} days),"
            f" {self.inactive} inactive players (idle over {policy.keep_days:g} days),"
            f" {self.matches} matches and {self.hands} hands;"
            f" {self.lobbies} rooms never started (unchanged over"
            f" {policy.room_lobby_days:g} days) and {self.rooms} other rooms (unchanged over"
            f" {policy.room_days:g} days)"
        )


def prune(
    store: Store, policy: Policy, *, dry_run: bool = False, now: dt.datetime | None = None
) -> Pruned:
    """Remove what ``policy`` says goes (hold the maintenance lock): the rooms
    first, so that a guest whose only room went is judged without it."""
    now = now or dt.datetime.now(dt.UTC)
    pruned = Pruned()
    _prune_rooms(store, policy, pruned, dry_run, now)
    unused_before = now - dt.timedelta(days=policy.unused_days)
    keep_before = now - dt.timedelta(days=policy.keep_days)
    # A guest who only ever played in a room has no move of its own: its seat is
    # its use while the room is kept.
    seated = sa.exists().where(room_seats.c.player_id == players.c.id, room_seats.c.kind == "human")
    if dry_run:  # the rooms that would go still hold their seats
        seated = seated.where(room_seats.c.room_id.not_in(pruned.room_ids))
    # a rated player (public tables) has used the game too, even with no solo move
    rated = sa.exists().where(ratings.c.player_id == players.c.id, ratings.c.matches > 0)
    goes = sa.or_(
        sa.and_(players.c.version <= 1, players.c.last_seen_at < unused_before, ~seated, ~rated),
        players.c.last_seen_at < keep_before,
    )
    if not dry_run:
        with store.write() as conn:
            # expired codes, and the old browsers of a move kept as long as a player
            conn.execute(transfers.delete().where(transfers.c.expires_at < now.timestamp()))
            conn.execute(moved_tokens.delete().where(moved_tokens.c.moved_at < keep_before))
    after = 0
    while True:
        with store.write() as conn:
            # FOR UPDATE (PostgreSQL): a player acting right now is re-checked after
            # its action, which moved last_seen_at, and stays.
            rows = conn.execute(
                sa.select(players.c.id, players.c.version)
                .where(goes, players.c.id > after)
                .order_by(players.c.id)
                .limit(BATCH)
                .with_for_update()
            ).all()
            if not rows:
                return pruned
            ids = [row.id for row in rows]
            after = ids[-1]
            unused = sum(1 for row in rows if row.version <= 1)
            pruned.unused += unused
            pruned.inactive += len(ids) - unused
            pruned.ids += ids
            pruned.hands += _count(conn, hands, hands.c.player_id.in_(ids))
            pruned.matches += _count(conn, matches, matches.c.player_id.in_(ids))
            if not dry_run:
                conn.execute(achievements.delete().where(achievements.c.player_id.in_(ids)))
                conn.execute(hands.delete().where(hands.c.player_id.in_(ids)))
                # Phân tích of its hands: they go with their match
                conn.execute(analyses.delete().where(analyses.c.player_id.in_(ids)))
                conn.execute(matches.delete().where(matches.c.player_id.in_(ids)))
                # its rating and its place on the leaderboard go with it
                conn.execute(rating_changes.delete().where(rating_changes.c.player_id.in_(ids)))
                conn.execute(ratings.delete().where(ratings.c.player_id.in_(ids)))
                conn.execute(transfers.delete().where(transfers.c.player_id.in_(ids)))
                conn.execute(moved_tokens.delete().where(moved_tokens.c.player_id.in_(ids)))
                conn.execute(players.delete().where(players.c.id.in_(ids)))


def _prune_rooms(
    store: Store, policy: Policy, pruned: Pruned, dry_run: bool, now: dt.datetime
) -> None:
    lobby_before = now - dt.timedelta(days=policy.room_lobby_days)
    room_before = now - dt.timedelta(days=policy.room_days)
    goes = sa.or_(
        sa.and_(rooms.c.phase == "lobby", rooms.c.updated_at < lobby_before),
        rooms.c.updated_at < room_before,
    )
    after = 0
    while True:
        with store.write() as conn:
            # FOR UPDATE (PostgreSQL): an action on the room right now moved its
            # updated_at; re-checked after it, the room stays.
            found = conn.execute(
                sa.select(rooms.c.id, rooms.c.code, rooms.c.phase)
                .where(goes, rooms.c.id > after)
                .order_by(rooms.c.id)
                .limit(BATCH)
                .with_for_update()
            ).all()
            if not found:
                return
            ids = [row.id for row in found]
            after = ids[-1]
            lobbies = sum(1 for row in found if row.phase == "lobby")
            pruned.lobbies += lobbies
            pruned.rooms += len(ids) - lobbies
            pruned.room_ids += ids
            pruned.codes += [row.code for row in found]
            if not dry_run:
                conn.execute(room_seats.delete().where(room_seats.c.room_id.in_(ids)))
                # a public table goes with its room (its players are at no table then)
                conn.execute(public_players.delete().where(public_players.c.room_id.in_(ids)))
                conn.execute(public_tables.delete().where(public_tables.c.room_id.in_(ids)))
                conn.execute(rooms.delete().where(rooms.c.id.in_(ids)))


def _count(conn: Connection, table: sa.Table, where: sa.ColumnElement[bool]) -> int:
    return int(
        conn.execute(sa.select(sa.func.count()).select_from(table).where(where)).scalar_one()
    )


def prune_if_free(store: Store, policy: Policy) -> Pruned | None:
    """One pass, unless another process is doing it (or migrating) now."""
    with migrate.maintenance_lock(store.engine, blocking=False) as got:
        if not got:
            return None
        return prune(store, policy)


async def keep_pruning(
    store: Store,
    policy: Policy,
    every: float,
    forget: Callable[[list[int]], None],
    forget_rooms: Callable[[list[str]], None] = lambda _codes: None,
) -> None:
    """The server's own retention: at start, then every ``every`` seconds;
    ``forget`` is told the removed players' ids, ``forget_rooms`` the rooms' codes."""
    while True:
        try:
            pruned = await anyio.to_thread.run_sync(prune_if_free, store, policy)
            if pruned is not None and (pruned.ids or pruned.codes):
                forget(pruned.ids)
                forget_rooms(pruned.codes)
                log.info("retention: %s", pruned.describe(policy, dry_run=False))
        except Exception as exc:
            outage.report(log, "retention: the pass failed; trying again later", exc)
        await asyncio.sleep(every)


def run_cli(args: argparse.Namespace) -> int:
    """``hearts prune``: one pass over the database ``hearts serve`` would use."""
    from hearts.server.config import Config, ConfigError, default_data_dir

    try:
        config = Config.from_args(args)
        policy = Policy(
            unused_days=config.unused_days,
            keep_days=config.keep_days,
            room_lobby_days=config.room_lobby_days,
            room_days=config.room_days,
        )
    except (ConfigError, ValueError) as exc:
        print(f"hearts prune: {exc}", file=sys.stderr)
        return 2
    url = config.database_url
    if not url:
        path = (config.data_dir or default_data_dir()) / "hearts.db"
        if not path.is_file():
            print(f"hearts prune: no database at {path}", file=sys.stderr)
            return 1
        url = f"sqlite:///{path.resolve()}"
    try:
        # Brings the schema up to date first, as a server's start does.
        store = Store(url)
    except (sa.exc.SQLAlchemyError, OSError, ValueError, migrate.SchemaTooNew) as exc:
        print(f"hearts prune: cannot open the database: {exc}".splitlines()[0], file=sys.stderr)
        return 1
    try:
        with migrate.maintenance_lock(store.engine):
            pruned = prune(store, policy, dry_run=args.dry_run)
    finally:
        store.close()
    print(f"hearts prune: {pruned.describe(policy, args.dry_run)}", flush=True)
    return 0
