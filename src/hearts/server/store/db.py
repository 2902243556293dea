"""The server's database: SQLAlchemy Core tables and the store around them.

SQLite by default; any SQLAlchemy URL works (PostgreSQL through ``psycopg``), so
the SQL here stays portable: plain types, JSON kept as text, and the version
check as ``UPDATE players SET version = version + 1 WHERE id = :id AND version = :v``.

Tables:

- ``players``: one row per browser token (only its SHA-256 is stored), with the
  settings, the state ``version``, the match on the table and the first-deal ticket
  its first match used (``solo/first_deal.py``).
- ``matches``: every match a player started: rules, totals, hand results, the
  hand on the table as a ``hearts-hand/1`` record, and how it ended.
- ``hands``: every finished hand as a complete ``hearts-hand/1`` record.
- ``achievements``: the goals a player unlocked (``records/achievements.py``), once each.
- ``analyses``: Phân tích of a finished hand, its progress and findings
  (``coach/analysis_store.py``), so that every server process answers the same.
- ``transfers``, ``moved_tokens``: moving a player to another browser
  (``players/transfer.py``): the one-time codes, and the tokens that moved away.
- ``meta``: ``schema`` (the schema's number, for servers older than the migrations)
  and ``token_secret`` (the key that signs the tokens, see ``tokens.py``).

The tables are made and changed by the migrations in ``migrations/`` (run at start
by ``migrate.py``); ``metadata`` below is the schema they end at, and a test keeps
the two the same.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from hearts.fairness import ServerSeeds
from hearts.match import HandResult, Match
from hearts.rules import Rules
from hearts.server.store import migrate
from hearts.server.store.tokens import new_secret
from hearts.server.table.game import Checker, Game

metadata = sa.MetaData()

meta = sa.Table(
    "meta",
    metadata,
    sa.Column("key", sa.String(32), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)

players = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("level", sa.String(8), nullable=False, default="medium"),
    sa.Column("quick", sa.Boolean, nullable=False, default=False),
    # South may take back its last card (Đi lại)
    sa.Column("take_back", sa.Boolean, nullable=False, default=True, server_default=sa.true()),
    # 64-bit: the API takes versions up to 2^53
    sa.Column("version", sa.BigInteger, nullable=False, default=0),
    sa.Column("match_id", sa.Integer, nullable=True),
    sa.Column("matches_started", sa.BigInteger, nullable=False, default=0),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    # the last action (or look, at most hourly): what the retention policy goes by
    sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False, index=True),
    # the server seed of the next hand dealt for the player (docs/fairness.md)
    sa.Column("next_seed", sa.String(64), nullable=True),
    # the ticket its first deal used, if the page brought one (solo/first_deal.py): once
    sa.Column("first_ticket", sa.String(40), nullable=True),
    sa.Index("ix_players_first_ticket", "first_ticket", unique=True),
    # ids are never reused: a removed player's id stays its own
    sqlite_autoincrement=True,
)

matches = sa.Table(
    "matches",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("number", sa.BigInteger, nullable=False),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("totals", sa.Text, nullable=False),
    sa.Column("results", sa.Text, nullable=False),
    sa.Column("hand_number", sa.Integer, nullable=False),
    sa.Column("hand_record", sa.Text, nullable=False),
    sa.Column("auto_finished", sa.Boolean, nullable=False, default=False),
    # "playing" | "over" | "abandoned" (a new match was started before this one ended)
    sa.Column("status", sa.String(10), nullable=False, default="playing"),
    sa.Column("winner", sa.Integer, nullable=True),
    sa.Column("south_total", sa.Integer, nullable=True),
    # hints South was given in the match (Gợi ý)
    sa.Column("hints", sa.Integer, nullable=False, default=0, server_default="0"),
    # cards South took back in the match (Đi lại)
    sa.Column("take_backs", sa.Integer, nullable=False, default=0, server_default="0"),
    # Cảnh báo nước đi: South's cards with it on, those it asked about, any with it off
    # (true for the matches of before 0013: none had it)
    sa.Column("checker_plays", sa.Integer, nullable=False, default=0, server_default="0"),
    sa.Column("checker_asked", sa.Integer, nullable=False, default=0, server_default="0"),
    sa.Column("checker_off", sa.Boolean, nullable=False, default=False, server_default=sa.true()),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    # ids are never reused (the deal seed mixes the match id in)
    sqlite_autoincrement=True,
)

hands = sa.Table(
    "hands",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), nullable=False, index=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("record", sa.Text, nullable=False),
    sa.Column("south_points", sa.Integer, nullable=False),
    sa.Column("shooter", sa.Integer, nullable=True),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    # the difficulty set when the hand ended (None: hands of servers before 0005)
    sa.Column("level", sa.String(8), nullable=True),
)

achievements = sa.Table(
    "achievements",
    metadata,
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("achievement", sa.String(32), primary_key=True),
    sa.Column("unlocked_at", sa.DateTime(timezone=True), nullable=False),
    # the match and hand it was unlocked at (the end of the match lists those; the
    # State of that finished hand names them)
    sa.Column("match_id", sa.Integer, nullable=True),
    sa.Column("hand", sa.Integer, nullable=True),
)

# -- rooms (play with friends, issue 9; the service is rooms/service.py, the SQL rooms/store.py) --
rooms = sa.Table(
    "rooms",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code", sa.String(16), nullable=False, unique=True),
    # 64-bit like players.version; every action claims it (the same version check)
    sa.Column("version", sa.BigInteger, nullable=False),
    sa.Column("phase", sa.String(8), nullable=False),  # "lobby" | "playing" | "over"
    sa.Column("creator", sa.Integer, nullable=False),  # the creator's seat
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("level", sa.String(8), nullable=False),
    sa.Column("turn_seconds", sa.Integer, nullable=True),  # null: no timer
    # the match as JSON (totals, results, hand record, ...); null in the lobby
    sa.Column("game", sa.Text, nullable=True),
    sa.Column("auto_plays", sa.Text, nullable=False),  # this hand's automatic decisions
    # when the server's next move is due (Unix seconds): any live process makes it
    sa.Column("due_at", sa.Float, nullable=True, index=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    # a public table's own part (public/: queue, leavers, reactions, hidden names,
    # ratings) as JSON; null for a room of friends
    sa.Column("public", sa.Text, nullable=True),
    # the server seed of the room's next deal, and its humans' seeds for it (JSON:
    # seat -> seed; docs/fairness.md)
    sa.Column("next_seed", sa.String(64), nullable=True),
    sa.Column("client_seeds", sa.Text, nullable=False, server_default="{}"),
    sqlite_autoincrement=True,
)

room_seats = sa.Table(
    "room_seats",
    metadata,
    sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),  # "human" | "computer" | "empty"
    sa.Column("name", sa.String(40), nullable=True),
    # no foreign key: the retention may remove an idle player; its seat just stays
    sa.Column("player_id", sa.Integer, nullable=True, index=True),
    sa.Column("auto", sa.Boolean, nullable=False),
    sa.Column("seen_at", sa.Float, nullable=True),  # last socket refresh or call (Unix s)
)


# -- public tables (issue 40; the SQL is public/seating.py and public/rating.py) --
public_tables = sa.Table(
    "public_tables",
    metadata,
    # no foreign key: the retention removes the room and this row together
    sa.Column("room_id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("code", sa.String(16), nullable=False),
    # the rules and level a seeker asks for, as one string (public/seating.py)
    sa.Column("kind", sa.String(200), nullable=False),
    # "lobby" | "playing" | "over" | "abandoned" (no human left: never rated)
    sa.Column("phase", sa.String(10), nullable=False),
    # seats a seeker may take now (empty, or a computer's not promised to a newcomer)
    sa.Column("open_seats", sa.Integer, nullable=False),
    # when a lobby with a human starts (Unix seconds); null: nobody seated yet
    sa.Column("start_at", sa.Float, nullable=True, index=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_public_tables_seek", "kind", "phase", "open_seats"),
)

public_players = sa.Table(
    "public_players",
    metadata,
    # the key: a player is at one public table at most, whatever the processes do
    sa.Column("player_id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("room_id", sa.Integer, nullable=False, index=True),
    sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
)

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("player_id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    # mu - 3 sigma, kept for the leaderboard's order
    sa.Column("conservative", sa.Float, nullable=False, index=True),
    sa.Column("matches", sa.Integer, nullable=False),
    sa.Column("name", sa.String(40), nullable=False),  # the last name shown at a table
    sa.Column("hidden", sa.Boolean, nullable=False),  # kept off the leaderboard
    sa.Column("rated_at", sa.DateTime(timezone=True), nullable=False, index=True),
)

rating_changes = sa.Table(
    "rating_changes",
    metadata,
    # one per player and match: a match is rated once
    sa.Column("room_id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("player_id", sa.Integer, primary_key=True, autoincrement=False, index=True),
    sa.Column("place", sa.Integer, nullable=False),  # 1: best among the match's humans
    sa.Column("before", sa.Float, nullable=False),  # conservative rating
    sa.Column("after", sa.Float, nullable=False),
    sa.Column("rated_at", sa.DateTime(timezone=True), nullable=False, index=True),
)


# -- Phân tích (issue 11; the SQL is coach/analysis_store.py): analyses any process answers --
analyses = sa.Table(
    "analyses",
    metadata,
    sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("hand", sa.Integer, primary_key=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("on_table", sa.Integer, nullable=False),  # the hand on the table at the start
    # "running" | "done" | "cancelled" | "failed"
    sa.Column("status", sa.String(10), nullable=False),
    sa.Column("done", sa.Integer, nullable=False),
    sa.Column("total", sa.Integer, nullable=False),
    sa.Column("found", sa.Text, nullable=False),  # JSON: the decisions where Khó differs
    sa.Column("iterations", sa.Integer, nullable=False),  # the budget, kept for a resume
    sa.Column("run", sa.BigInteger, nullable=False),  # claimed by every (re)start
    sa.Column("heartbeat", sa.Float, nullable=False),  # Unix s, by the process running it
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)


# -- moving a player to another browser (issue 39 item 17; the SQL is players/transfer.py) --
transfers = sa.Table(
    "transfers",
    metadata,
    sa.Column("code_hash", sa.String(64), primary_key=True),  # SHA-256: the code is kept nowhere
    # no foreign key: the retention may remove the player first
    sa.Column("player_id", sa.Integer, nullable=False, index=True),
    sa.Column("expires_at", sa.Float, nullable=False, index=True),  # Unix seconds
    sa.Column("used", sa.Boolean, nullable=False),
    # SHA-256 of the claiming page's claim id, once used (players/transfer.py: a repeat)
    sa.Column("claim_hash", sa.String(64), nullable=True),
)

# The tokens whose player moved to another browser: told so (410 ``moved``) instead
# of being taken for a new browser (a token is valid without a row, tokens.py).
moved_tokens = sa.Table(
    "moved_tokens",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("player_id", sa.Integer, nullable=False, index=True),
    sa.Column("moved_at", sa.DateTime(timezone=True), nullable=False, index=True),
)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


#: A player only looking (no action) gets its last_seen_at refreshed this often.
TOUCH_EVERY = dt.timedelta(hours=1)


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Stale(Exception):
    """The action was made on an older version of the state."""


class Moved(Exception):
    """The token's player moved to another browser (players/transfer.py)."""


class PlayerGone(Exception):
    """The player's row was removed (retention) after its id was looked up."""


@dataclass
class Player:
    id: int
    level: str
    quick: bool
    version: int
    match_id: int | None
    matches_started: int
    take_back: bool = True
    #: the server seed of the player's next deal (None: made at the deal)
    next_seed: str | None = None
    #: a deal took ``next_seed`` in this action: the new one is saved with it
    seed_taken: bool = False


@dataclass
class Loaded:
    """A player with the match on the table (None before the first)."""

    player: Player
    game: Game | None
    results_saved: int  # how many finished hands the hands table already holds


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL, a busy timeout and explicit BEGINs."""
    if url.startswith("sqlite"):
        memory = _is_memory(url)
        # FULL: a commit is on disk before the answer, even through a power cut.
        # NORMAL (WAL) survives a crash of the server, not of the machine, and saves
        # an fsync per action.
        sync = os.environ.get("HEARTS_SQLITE_SYNCHRONOUS", "FULL").upper()
        if sync not in ("FULL", "NORMAL"):
            raise ValueError(f"HEARTS_SQLITE_SYNCHRONOUS must be FULL or NORMAL, not {sync!r}")
        engine = sa.create_engine(
            url,
            connect_args={"timeout": 30, "check_same_thread": False},
            # One shared connection, or every connection would see its own empty database.
            poolclass=sa.pool.StaticPool if memory else None,
        )

        @sa.event.listens_for(engine, "connect")
        def _on_connect(dbapi_conn: Any, _record: Any) -> None:
            # pysqlite's own transaction handling is off so that BEGIN is ours (below).
            dbapi_conn.isolation_level = None
            cur = dbapi_conn.cursor()
            if not memory:
                cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={sync}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        @sa.event.listens_for(engine, "begin")
        def _on_begin(conn: Connection) -> None:
            # A write takes the lock up front: no upgrade deadlock between two writers.
            immediate = conn.get_execution_options().get("immediate", False)
            conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

        return engine
    # A server that stopped answering (not even refusing) fails a call in seconds,
    # 503 unavailable (outage.py), rather than holding it for the system's minutes.
    parsed = sa.make_url(url)
    timeout = {}
    if parsed.get_backend_name() == "postgresql" and "connect_timeout" not in parsed.query:
        timeout["connect_timeout"] = 5
    return sa.create_engine(url, pool_pre_ping=True, connect_args=timeout)


def _is_memory(url: str) -> bool:
    return ":memory:" in url or url in ("sqlite://", "sqlite:///") or "mode=memory" in url


class Store:
    """Players, matches and hands; every method is one transaction (call from a thread)."""

    def __init__(self, url: str, seed: int | None = None) -> None:
        self.url = url
        #: where the deals' server seeds come from (``seed``: reproducible, for tests)
        self.seeds = ServerSeeds(seed)
        self.engine = make_engine(url)
        self.sqlite = self.engine.dialect.name == "sqlite"
        self.memory = self.sqlite and _is_memory(url)
        # SQLite has one writer at a time: queue writers here rather than in its busy loop.
        self._write_lock = threading.Lock()
        # player id -> (version, match id, the match as committed at that version)
        self._games: dict[int, tuple[int, int, Game]] = {}
        # One process at a time brings the schema up to date (the others wait, then
        # find nothing to do).
        with migrate.maintenance_lock(self.engine):
            migrate.upgrade(self.engine)
            self.token_secret = self._token_secret()

    def close(self) -> None:
        self.engine.dispose()

    @contextlib.contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction, committed on leaving, rolled back on an exception."""
        lock = self._write_lock if self.sqlite else contextlib.nullcontext()
        with lock, self.engine.connect() as conn:
            conn = conn.execution_options(immediate=True)
            with conn.begin():
                yield conn

    @contextlib.contextmanager
    def read(self) -> Iterator[Connection]:
        # An in-memory database is one connection: readers queue like writers.
        lock = self._write_lock if self.memory else contextlib.nullcontext()
        with lock, self.engine.connect() as conn, conn.begin():
            yield conn

    def _token_secret(self) -> bytes:
        """The key that signs the tokens, made by the first server (hold the lock)."""
        with self.write() as conn:
            found = conn.execute(
                sa.select(meta.c.value).where(meta.c.key == "token_secret")
            ).scalar()
            if found is None:
                found = new_secret()
                conn.execute(meta.insert().values(key="token_secret", value=found))
        return bytes.fromhex(found)

    # -- players ------------------------------------------------------------------
    def player_for(self, digest: str, create: bool) -> int | None:
        """The id of the player whose token hashes to ``digest``; with ``create``
        (a token this server issued), its row is made on first use."""
        row = self._player_row(digest)
        if row is None:
            if self._moved(digest):
                raise Moved(digest)
            return self._create_player(digest) if create else None
        pid, seen = row
        now = _now()
        if (seen if seen.tzinfo else seen.replace(tzinfo=dt.UTC)) < now - TOUCH_EVERY:
            # Only looked at (no action) for a while: still in use, for the retention.
            with self.write() as conn:
                conn.execute(players.update().where(players.c.id == pid).values(last_seen_at=now))
        return pid

    def _player_row(self, digest: str) -> tuple[int, dt.datetime] | None:
        """(id, last_seen_at) of the player whose token hashes to ``digest``."""
        with self.read() as conn:
            row = conn.execute(
                sa.select(players.c.id, players.c.last_seen_at).where(
                    players.c.token_hash == digest
                )
            ).first()
        return None if row is None else (int(row.id), row.last_seen_at)

    def _moved(self, digest: str) -> bool:
        with self.read() as conn:
            found = conn.execute(
                sa.select(moved_tokens.c.player_id).where(moved_tokens.c.token_hash == digest)
            ).first()
        return found is not None

    def player_id(self, token: str) -> int | None:
        """The id of ``token``'s player if it has a row (for tools and tests: this
        look is not an activity)."""
        row = self._player_row(token_hash(token))
        return None if row is None else row[0]

    def _create_player(self, digest: str) -> int:
        try:
            with self.write() as conn:
                return self.insert_player(conn, digest)
        except sa.exc.IntegrityError:  # the same token's first call, in another process
            row = self._player_row(digest)
            assert row is not None
            return row[0]

    def insert_player(
        self,
        conn: Connection,
        digest: str,
        first_ticket: str | None = None,
        first_seed: str | None = None,
    ) -> int:
        """A new player's row in ``conn``'s transaction (IntegrityError if the token or
        ``first_ticket`` has one already), with its first server seed: ``first_seed``
        (the one a page was promised), or a new one."""
        now = _now()
        result = conn.execute(
            players.insert().values(
                token_hash=digest,
                level="medium",
                quick=False,
                version=0,
                match_id=None,
                matches_started=0,
                created_at=now,
                last_seen_at=now,
                first_ticket=first_ticket,
            )
        )
        key = result.inserted_primary_key
        assert key is not None
        pid = int(key[0])
        first = first_seed or self.seeds.first(f"player:{pid}")  # the id: reproducible with --seed
        conn.execute(players.update().where(players.c.id == pid).values(next_seed=first))
        return pid

    def set_settings(
        self, player_id: int, level: str | None, quick: bool | None, take_back: bool | None = None
    ) -> None:
        values: dict[str, Any] = {}
        if level is not None:
            values["level"] = level
        if quick is not None:
            values["quick"] = quick
        if take_back is not None:
            values["take_back"] = take_back
        if values:
            with self.write() as conn:
                conn.execute(players.update().where(players.c.id == player_id).values(**values))

    # -- matches ------------------------------------------------------------------
    def load(self, conn: Connection, player_id: int, version: int | None = None) -> Loaded:
        """The player and the match on the table, as of ``version`` (the version
        the row had before this transaction bumped it; the row's own if None)."""
        row = (
            conn.execute(sa.select(players).where(players.c.id == player_id))
            .mappings()
            .one_or_none()
        )
        if row is None:
            raise PlayerGone(player_id)
        player = Player(
            id=row["id"],
            level=row["level"],
            quick=bool(row["quick"]),
            version=row["version"],
            match_id=row["match_id"],
            matches_started=row["matches_started"],
            take_back=bool(row["take_back"]),
            next_seed=row["next_seed"],
        )
        if player.match_id is None:
            return Loaded(player, None, 0)
        # A version names one state: the match last saved at it needs no replay.
        cached = self._games.get(player_id)
        at = player.version if version is None else version
        if cached is not None and cached[0] == at and cached[1] == player.match_id:
            return Loaded(player, cached[2].copy(), len(cached[2].results))
        m = conn.execute(sa.select(matches).where(matches.c.id == player.match_id)).mappings().one()
        rules = Rules.from_json(json.loads(m["rules"]))
        state, hand_no, seeds = Game.hand_from_record(json.loads(m["hand_record"]))
        results = [HandResult.from_json(r) for r in json.loads(m["results"])]
        match = Match(
            rules, results, totals=list(json.loads(m["totals"])), hand=state, hand_number=hand_no
        )
        game = Game(
            match=match,
            match_no=m["number"],
            auto_finished=bool(m["auto_finished"]),
            deal_key=m["id"],
            hints=m["hints"],
            take_backs=m["take_backs"],
            checker=Checker(m["checker_plays"], m["checker_asked"], bool(m["checker_off"])),
            seeds=seeds,
        )
        return Loaded(player, game, len(results))

    def remember(self, loaded: Loaded, version: int) -> None:
        """Keep the match as committed at ``version`` (call after the commit)."""
        if loaded.game is None or loaded.player.match_id is None:
            return
        if len(self._games) > 10_000:
            self._games.clear()
        self._games[loaded.player.id] = (version, loaded.player.match_id, loaded.game.copy())

    def bump_version(self, conn: Connection, player_id: int, version: int) -> None:
        """Claim ``version`` for this action (first statement of the transaction, so
        it also locks the row); raise :class:`Stale` if another action took it."""
        done = conn.execute(
            players.update()
            .where(players.c.id == player_id, players.c.version == version)
            .values(version=players.c.version + 1, last_seen_at=_now())
        )
        if done.rowcount != 1:
            raise Stale()

    def take_seed(self, player: Player) -> str:
        """The server seed of the player's deal now; the next one takes its place
        (written by :meth:`save` or :meth:`new_match`, in the deal's transaction)."""
        taken = player.next_seed or self.seeds.first(f"player:{player.id}")
        player.next_seed = self.seeds.after(taken)
        player.seed_taken = True
        return taken

    def new_match(self, conn: Connection, loaded: Loaded, deal: Callable[[int], Game]) -> None:
        """Put the match ``deal(match id)`` deals on the table; an unfinished previous
        match is marked abandoned."""
        player = loaded.player
        old = loaded.game
        if old is not None and player.match_id is not None and not old.over:
            conn.execute(
                matches.update()
                .where(matches.c.id == player.match_id)
                .values(status="abandoned", updated_at=_now())
            )
        now = _now()
        # The row first: its id is part of the deal's seed.
        result = conn.execute(
            matches.insert().values(
                player_id=player.id,
                number=player.matches_started + 1,
                rules="{}",
                totals="[]",
                results="[]",
                hand_number=0,
                hand_record="{}",
                auto_finished=False,
                status="playing",
                started_at=now,
                updated_at=now,
            )
        )
        key = result.inserted_primary_key
        assert key is not None
        match_id = int(key[0])
        game = deal(match_id)
        conn.execute(
            matches.update()
            .where(matches.c.id == match_id)
            .values(
                number=game.match_no,
                rules=json.dumps(game.rules.to_json() | {"target": game.rules.target}),
                totals=json.dumps(game.totals),
                hand_number=game.hand_no,
                hand_record=json.dumps(game.hand_record(secret=True)),
            )
        )
        conn.execute(
            players.update()
            .where(players.c.id == player.id)
            .values(match_id=match_id, matches_started=game.match_no, next_seed=player.next_seed)
        )
        player.seed_taken = False
        player.match_id = match_id
        player.matches_started = game.match_no
        loaded.game = game
        loaded.results_saved = 0

    def save(self, conn: Connection, loaded: Loaded) -> None:
        """Write the match on the table back, with any hand finished since loading."""
        game = loaded.game
        match_id = loaded.player.match_id
        assert game is not None and match_id is not None
        now = _now()
        for i in range(loaded.results_saved, len(game.results)):
            result = game.results[i]
            record = game.hand_record() if i + 1 == game.hand_no else None
            assert record is not None, "a finished hand is saved before the next is dealt"
            conn.execute(
                hands.insert().values(
                    match_id=match_id,
                    player_id=loaded.player.id,
                    number=i + 1,
                    record=json.dumps(record),
                    south_points=result.points[0],
                    shooter=result.shooter if result.shooter >= 0 else None,
                    finished_at=now,
                    level=loaded.player.level,
                )
            )
        loaded.results_saved = len(game.results)
        player = loaded.player
        if player.seed_taken:
            conn.execute(
                players.update().where(players.c.id == player.id).values(next_seed=player.next_seed)
            )
            player.seed_taken = False
        over = game.over
        conn.execute(
            matches.update()
            .where(matches.c.id == match_id)
            .values(
                totals=json.dumps(game.totals),
                results=json.dumps([r.to_json() for r in game.results]),
                hand_number=game.hand_no,
                # the server seed too (the hand may be in play): never an answer
                hand_record=json.dumps(game.hand_record(secret=True)),
                auto_finished=game.auto_finished,
                status="over" if over else "playing",
                winner=game.winner if over else None,
                south_total=game.totals[0] if over else None,
                hints=game.hints,
                take_backs=game.take_backs,
                checker_plays=game.checker.plays,
                checker_asked=game.checker.asked,
                checker_off=game.checker.off,
                updated_at=now,
            )
        )

    # -- achievements -------------------------------------------------------------
    def stats(self, player_id: int) -> dict[str, int | None]:
        with self.read() as conn:
            over = sa.and_(matches.c.player_id == player_id, matches.c.status == "over")
            played, won, best, taken_back, checked, asked = conn.execute(
                sa.select(
                    sa.func.count(),
                    sa.func.coalesce(sa.func.sum(sa.case((matches.c.winner == 0, 1), else_=0)), 0),
                    sa.func.min(matches.c.south_total),
                    # matches with a take-back (Đi lại): marked in the statistics
                    sa.func.coalesce(
                        sa.func.sum(sa.case((matches.c.take_backs > 0, 1), else_=0)), 0
                    ),
                    sa.func.coalesce(sa.func.sum(matches.c.checker_plays), 0),
                    sa.func.coalesce(sa.func.sum(matches.c.checker_asked), 0),
                ).where(over)
            ).one()
            hands_played, moons = conn.execute(
                sa.select(
                    sa.func.count(),
                    sa.func.coalesce(sa.func.sum(sa.case((hands.c.shooter == 0, 1), else_=0)), 0),
                ).where(hands.c.player_id == player_id)
            ).one()
        return {
            "played": int(played),
            "won": int(won),
            "moons": int(moons),
            "best": None if best is None else int(best),
            "hands": int(hands_played),
            "take_back_matches": int(taken_back),
            "checker_plays": int(checked),
            "checker_asked": int(asked),
        }
