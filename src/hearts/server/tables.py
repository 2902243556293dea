"""The game service: every call's work on the store, the per-player lock, and
the computers' decisions (Dễ and Vừa in the action's transaction, Khó in workers)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import time
import weakref
from collections.abc import AsyncIterator, Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from typing import Any, TypeVar

import anyio.to_thread

from hearts.rules import Rules
from hearts.server import coach
from hearts.server.db import Loaded, PlayerGone, Stale, Store, token_hash
from hearts.server.errors import ApiError
from hearts.server.game import Game, GameError, Job, decide, warm_up
from hearts.server.tokens import Tokens

log = logging.getLogger("hearts.server")

#: Levels whose decisions are cheap enough for a thread; others go to the workers.
LIGHT_LEVELS = frozenset(("easy", "medium"))
#: How long a token's player id is trusted without asking the database (the
#: retention may remove a player inactive for a day; its lookup refreshes that).
ID_CACHE_SECONDS = 300.0
T = TypeVar("T")


def bot_pool(size: int) -> ProcessPoolExecutor:
    """``size`` processes for the computers' decisions: Khó thinks without holding
    the server."""
    pool = ProcessPoolExecutor(
        max_workers=size,
        # spawn, not fork: the server has threads by the time workers are (re)made.
        mp_context=multiprocessing.get_context("spawn"),
        initializer=warm_up,
    )
    # Start (and warm) the workers now, not on Khó's first card.  The first one
    # compiles Khó's kernel into numba's disk cache (about 15 s, once per install)
    # before the others start and load it from there (about 2 s).
    pool.submit(int).result()
    for _ in range(size - 1):
        pool.submit(int)
    return pool


class _Heavy(Exception):
    """The step needs a worker: roll the transaction back and think outside it."""

    def __init__(self, job: Job, level: str, match_id: int | None) -> None:
        super().__init__(level)
        self.job = job
        self.level = level
        self.match_id = match_id


class _MovedOn:
    """The game moved on while a decision waited its turn: it was not made."""


MOVED_ON = _MovedOn()
Choices = list[int] | None


def _decide_or_none(level: str, job: Job) -> list[int] | None:
    try:
        return decide(level, job)
    except Exception:
        log.exception("a %s bot failed: playing a plain legal card", level)
        return None


class Tables:
    """The game service: the store, the deal seed, the table's rules and the workers."""

    def __init__(
        self,
        store: Store,
        rules: Rules,
        seed: int | None,
        executor: Executor,
        executor_factory: Callable[[], Executor] | None = None,
    ) -> None:
        self.store = store
        self.rules = rules
        self.seed = seed
        self.executor = executor
        self.executor_factory = executor_factory
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.tokens = Tokens(store.token_secret)
        self._ids: dict[str, tuple[int, float]] = {}  # token hash -> (player id, until)
        # One costly decision per (player, version), shared by every step that
        # asks for it; dropped when made.
        self._thinking: dict[tuple[int, int], asyncio.Future[tuple[bool, dict[str, Any]]]] = {}
        # One hint per (player, version), shared by the calls that ask for it.
        self._hinting: dict[tuple[int, int], asyncio.Future[dict[str, Any] | None]] = {}
        # At most one costly decision of a player computed at a time.
        self._thinkers: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    def lock(self, player_id: int) -> asyncio.Lock:
        lock = self._locks.get(player_id)
        if lock is None:
            lock = self._locks[player_id] = asyncio.Lock()
        return lock

    # -- blocking work, run in a thread ---------------------------------------------
    def _new_game(self, loaded: Loaded, rules: Rules | None = None) -> Callable[[int], Game]:
        """The deal of the player's next match (at ``rules``, else the table's), given
        the match's id."""
        number = loaded.player.matches_started + 1
        table = rules or self.rules
        return lambda match_id: Game.new(table, number, self.seed, match_id)

    def state_now(self, player_id: int) -> dict[str, Any]:
        """The current State, dealing the first match if there is none."""
        with self.store.read() as conn:
            loaded = self.store.load(conn, player_id)
        if loaded.game is not None:
            return self._state(loaded, loaded.player.version)
        with self.store.write() as conn:
            loaded = self.store.load(conn, player_id)
            if loaded.game is None:
                version = loaded.player.version
                self.store.bump_version(conn, player_id, version)
                loaded.player.version = version + 1
                self.store.new_match(conn, loaded, self._new_game(loaded))
        self.store.remember(loaded, loaded.player.version)
        return self._state(loaded, loaded.player.version)

    @staticmethod
    def _state(loaded: Loaded, version: int) -> dict[str, Any]:
        assert loaded.game is not None
        p = loaded.player
        return loaded.game.state(version, p.level, p.quick)

    def act(self, player_id: int, version: int, action: Callable[[Loaded], None]) -> dict[str, Any]:
        """Apply ``action`` made on ``version`` and commit it, or change nothing."""
        try:
            with self.store.write() as conn:
                self.store.bump_version(conn, player_id, version)
                loaded = self.store.load(conn, player_id, version)
                if loaded.game is None:
                    raise GameError("wrong_phase")
                action(loaded)
                self.store.save(conn, loaded)
        except Stale:
            raise ApiError("stale", state=self.state_now(player_id)) from None
        self.store.remember(loaded, version + 1)
        return self._state(loaded, version + 1)

    # -- the calls ------------------------------------------------------------------
    async def player_id(self, token: str) -> int:
        """The token's player; its row is made on the first call of a token this
        server issued.  403 ``bad_token`` for any other token."""
        key = token_hash(token)  # the raw token is kept nowhere, not even here
        now = time.monotonic()
        cached = self._ids.get(key)
        if cached is not None and cached[1] > now:
            return cached[0]
        issued = self.tokens.issued(token)
        found = await anyio.to_thread.run_sync(self.store.player_for, key, issued)
        if found is None:
            raise ApiError("bad_token")
        if len(self._ids) > 100_000:
            self._ids.clear()
        self._ids[key] = (found, now + ID_CACHE_SECONDS)
        return found

    async def run(self, player_id: int, fn: Callable[[], T]) -> T:
        try:
            async with self.lock(player_id):
                return await anyio.to_thread.run_sync(fn)
        except PlayerGone:
            # Removed by another process's retention since the lookup: the page
            # starts over with a new token, as after any 403.
            self.forget([player_id])
            raise ApiError("bad_token") from None

    def forget(self, player_ids: list[int]) -> None:
        """Drop removed players from the token cache."""
        gone = set(player_ids)
        if gone:
            self._ids = {k: v for k, v in self._ids.items() if v[0] not in gone}

    async def step(self, player_id: int, version: int) -> dict[str, Any]:
        """One computer action.  Dễ and Vừa decide in well under a millisecond: inside
        the action's own transaction.  Khó thinks in a worker process, outside any
        lock; its answer is applied only if the version is still the one it saw.

        Steps that arrive together at one version (double clicks, tabs, a script)
        share one decision, applied once: the first step gets the State, the others
        409 stale with the same State (no transaction of their own).  A player has
        at most one decision computed at a time; a step asking for another waits for
        it, and is answered 409 stale without thinking if its version is gone by then.
        """

        def light(loaded: Loaded) -> None:
            game = loaded.game
            assert game is not None
            job = game.computer_job()
            level = loaded.player.level
            if level not in LIGHT_LEVELS:
                raise _Heavy(job, level, loaded.player.match_id)  # rolls back: nothing changed
            game.apply_computer(job, _decide_or_none(level, job))

        key = (player_id, version)  # a version of a player names one state
        async with self.lock(player_id):
            # Under the player's lock: the steps queued behind the one that found
            # Khó to move join its decision without a transaction of their own.
            shared = self._thinking.get(key)
            asked = shared is None
            if shared is None:
                try:
                    act = functools.partial(self.act, player_id, version, light)
                    return await anyio.to_thread.run_sync(act)
                except _Heavy as heavy:
                    shared = asyncio.ensure_future(self._think_and_apply(key, heavy))
                self._thinking[key] = shared
                shared.add_done_callback(lambda _done: self._thinking.pop(key, None))
        # shield: a waiter that goes away does not cancel the others' decision
        applied, state = await asyncio.shield(shared)
        if applied and asked:
            return state
        raise ApiError("stale", state=state)

    async def _think_and_apply(
        self, key: tuple[int, int], heavy: _Heavy
    ) -> tuple[bool, dict[str, Any]]:
        """Khó's decision for the state at ``key``, applied: (whether it was, the State
        after)."""
        player_id, version = key
        job = heavy.job
        choices = await self._think(player_id, heavy.match_id, version, heavy.level, job)
        try:
            if isinstance(choices, _MovedOn):
                raise ApiError(
                    "stale",
                    state=await self.run(player_id, functools.partial(self.state_now, player_id)),
                )

            def apply(loaded: Loaded) -> None:
                assert loaded.game is not None
                loaded.game.apply_computer(job, choices)

            return True, await self.run(
                player_id, functools.partial(self.act, player_id, version, apply)
            )
        except ApiError as stale:
            if stale.code != "stale":
                raise
            return False, stale.state

    def _still_at(self, player_id: int, match_id: int | None, version: int) -> bool:
        with self.store.read() as conn:
            player = self.store.load(conn, player_id).player
        return (player.match_id, player.version) == (match_id, version)

    async def _think(
        self, player_id: int, match_id: int | None, version: int, level: str, job: Job
    ) -> Choices | _MovedOn:
        """The decision, made when no other of this player's is being made."""
        async with self._costly_turn(player_id, match_id, version) as current:
            if not current:
                return MOVED_ON
            return await self._decide(level, job)

    @contextlib.asynccontextmanager
    async def _costly_turn(
        self, player_id: int, match_id: int | None, version: int
    ) -> AsyncIterator[bool]:
        """Hold the player's one slot for costly work (Khó's decision, a hint); yields
        whether the game is still at ``version`` when the turn comes (False: it moved
        on while this waited, so the work would be thrown away)."""
        thinker = self._thinkers.get(player_id)
        if thinker is None:
            thinker = self._thinkers[player_id] = asyncio.Lock()
        waited = thinker.locked()
        async with thinker:
            yield not waited or await anyio.to_thread.run_sync(
                self._still_at, player_id, match_id, version
            )

    def _renew_workers(self) -> None:
        """The bot workers died: start new ones (where a factory makes them)."""
        log.exception("the bot workers died: starting new ones")
        if self.executor_factory is not None:
            broken, self.executor = self.executor, self.executor_factory()
            broken.shutdown(wait=False, cancel_futures=True)

    async def _decide(self, level: str, job: Job) -> Choices:
        """The decision of the workers (None: play a plain legal card instead)."""
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self.executor, decide, level, job)
        except BrokenExecutor:
            self._renew_workers()
        except Exception:
            log.exception("a %s bot failed: playing a plain legal card", level)
        return None

    # -- Gợi ý ------------------------------------------------------------------
    async def hint(self, player_id: int, version: int) -> dict[str, Any]:
        """Khó's advice for South's pass or play at ``version``, counted in the match.

        The hint is worked out in the workers from South's view alone, outside any
        lock, one costly decision of a player at a time (like Khó's); hints asked
        together at one version share it.  Counting it is an action on ``version``:
        the answer carries the State after it, and the others 409 stale.
        """

        def look() -> tuple[Any, dict[int, str], int | None]:
            with self.store.read() as conn:
                loaded = self.store.load(conn, player_id)
            if loaded.player.version != version:
                raise Stale()
            if loaded.game is None:
                raise GameError("wrong_phase")
            game = loaded.game
            return game.hint_view(), game.seat_names_by_index(), loaded.player.match_id

        try:
            view, names, match_id = await self.run(player_id, look)
        except Stale:
            state = await self.run(player_id, functools.partial(self.state_now, player_id))
            raise ApiError("stale", state=state) from None
        key = (player_id, version)
        shared = self._hinting.get(key)
        if shared is None:
            shared = asyncio.ensure_future(
                self._work_out_hint(player_id, match_id, version, view, names)
            )
            self._hinting[key] = shared
            shared.add_done_callback(lambda _done: self._hinting.pop(key, None))
        found = await asyncio.shield(shared)
        if found is None:
            state = await self.run(player_id, functools.partial(self.state_now, player_id))
            raise ApiError("stale", state=state)

        def count(loaded: Loaded) -> None:
            assert loaded.game is not None
            loaded.game.hints += 1

        state = await self.run(player_id, functools.partial(self.act, player_id, version, count))
        return {"card": None, "cards": None, **found, "state": state}

    async def _work_out_hint(
        self, player_id: int, match_id: int | None, version: int, view: Any, names: dict[int, str]
    ) -> dict[str, Any] | None:
        """The hint from the workers (None: the game moved on while it waited)."""
        async with self._costly_turn(player_id, match_id, version) as current:
            if not current:
                return None
            loop = asyncio.get_running_loop()
            try:
                found: dict[str, Any] = await loop.run_in_executor(
                    self.executor, coach.hint, view, names
                )
            except BrokenExecutor:
                self._renew_workers()
                raise ApiError("internal") from None
            return found

    def new_match(self, player_id: int, version: int, rules: Rules | None = None) -> dict[str, Any]:
        """A fresh match at the table ``rules`` (the server's own if None)."""
        try:
            with self.store.write() as conn:
                self.store.bump_version(conn, player_id, version)
                loaded = self.store.load(conn, player_id, version)
                self.store.new_match(conn, loaded, self._new_game(loaded, rules))
        except Stale:
            raise ApiError("stale", state=self.state_now(player_id)) from None
        self.store.remember(loaded, version + 1)
        return self._state(loaded, version + 1)
