"""The game service: every call's work on the store, the per-player lock, and
the computers' decisions (Dễ and Vừa in the action's transaction, Khó in workers)."""

from __future__ import annotations

import asyncio
import functools
import logging
import weakref
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor
from typing import Any, TypeVar

import anyio.to_thread

from hearts.rules import Rules
from hearts.server.db import Loaded, Stale, Store, token_hash
from hearts.server.errors import ApiError
from hearts.server.game import Game, GameError, Job, decide

log = logging.getLogger("hearts.server")

#: Levels whose decisions are cheap enough for a thread; others go to the workers.
LIGHT_LEVELS = frozenset(("easy", "medium"))
T = TypeVar("T")


class _Heavy(Exception):
    """The step needs a worker: roll the transaction back and think outside it."""

    def __init__(self, job: Job, level: str) -> None:
        super().__init__(level)
        self.job = job
        self.level = level


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
        self._ids: dict[str, int] = {}

    def lock(self, player_id: int) -> asyncio.Lock:
        lock = self._locks.get(player_id)
        if lock is None:
            lock = self._locks[player_id] = asyncio.Lock()
        return lock

    # -- blocking work, run in a thread ---------------------------------------------
    def _new_game(self, loaded: Loaded, rules: Rules | None = None) -> Game:
        return Game.new(rules or self.rules, loaded.player.matches_started + 1, self.seed)

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
        key = token_hash(token)  # the raw token is kept nowhere, not even here
        found = self._ids.get(key)
        if found is None:
            found = await anyio.to_thread.run_sync(self.store.player_id_by_hash, key)
            if found is None:
                raise ApiError("bad_token")
            if len(self._ids) > 100_000:
                self._ids.clear()
            self._ids[key] = found
        return found

    async def run(self, player_id: int, fn: Callable[[], T]) -> T:
        async with self.lock(player_id):
            return await anyio.to_thread.run_sync(fn)

    async def step(self, player_id: int, version: int) -> dict[str, Any]:
        """One computer action.  Dễ and Vừa decide in well under a millisecond: inside
        the action's own transaction.  Khó thinks in a worker process, outside any
        lock; its answer is applied only if the version is still the one it saw."""

        def light(loaded: Loaded) -> None:
            game = loaded.game
            assert game is not None
            job = game.computer_job()
            level = loaded.player.level
            if level not in LIGHT_LEVELS:
                raise _Heavy(job, level)  # rolls back: nothing changed
            game.apply_computer(job, _decide_or_none(level, job))

        try:
            return await self.run(player_id, functools.partial(self.act, player_id, version, light))
        except _Heavy as heavy:
            job, level = heavy.job, heavy.level
        choices: list[int] | None
        try:
            loop = asyncio.get_running_loop()
            choices = await loop.run_in_executor(self.executor, decide, level, job)
        except BrokenExecutor:
            log.exception("the bot workers died: starting new ones")
            if self.executor_factory is not None:
                broken, self.executor = self.executor, self.executor_factory()
                broken.shutdown(wait=False, cancel_futures=True)
            choices = None
        except Exception:
            log.exception("a %s bot failed: playing a plain legal card", level)
            choices = None

        def apply(loaded: Loaded) -> None:
            assert loaded.game is not None
            loaded.game.apply_computer(job, choices)

        return await self.run(player_id, functools.partial(self.act, player_id, version, apply))

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
