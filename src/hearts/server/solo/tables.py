"""The solo table service: every call's work on the store, the per-player lock,
the computers' turns (:mod:`hearts.server.table.computers`: Dễ and Vừa in the
action's transaction, Khó in workers), Đi lại, the next hand and a new match.
The coach (Gợi ý, Phân tích, Máy đã biết gì) is :mod:`hearts.server.coach.jobs`,
on this table."""

from __future__ import annotations

import asyncio
import functools
import logging
import weakref
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

import anyio.to_thread
from sqlalchemy.exc import IntegrityError

from hearts.fairness import HandSeeds, commitment
from hearts.rules import Rules
from hearts.server.players.identity import Players
from hearts.server.records import achievements
from hearts.server.solo.first_deal import FirstDeals
from hearts.server.store.db import Loaded, PlayerGone, Stale, Store, token_hash
from hearts.server.table import actions, driver, pacing
from hearts.server.table.computers import Choices, Computers, Heavy
from hearts.server.table.game import SOUTH, Game, GameError
from hearts.server.table.slots import CostlySlots
from hearts.server.web.errors import ApiError

log = logging.getLogger("hearts.server")

T = TypeVar("T")


#: The human of a solo table.
HUMANS = frozenset((SOUTH,))


class Tables:
    """The game service: the store (with the deals' seeds), the table's rules and the workers."""

    def __init__(
        self,
        store: Store,
        rules: Rules,
        executor: Executor,
        executor_factory: Callable[[], Executor] | None = None,
        *,
        players: Players,
    ) -> None:
        self.store = store
        self.players = players  # who a player is (players/identity.py), for every mode
        self.rules = rules
        self.computers = Computers(executor, executor_factory)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.first_deals = FirstDeals(store.token_secret, store.seeds)
        # One move per (player, version), shared by every step that asks for it.
        self.driver: driver.Driver[dict[str, Any]] = driver.Driver()
        # At most one costly job of a player at a time, shared with the coach.
        self.slots = CostlySlots(self._still_at)

    def lock(self, player_id: int) -> asyncio.Lock:
        lock = self._locks.get(player_id)
        if lock is None:
            lock = self._locks[player_id] = asyncio.Lock()
        return lock

    # -- blocking work, run in a thread ---------------------------------------------
    def _new_game(
        self, loaded: Loaded, rules: Rules | None = None, client_seed: str | None = None
    ) -> Callable[[int], Game]:
        """The deal of the player's next match (at ``rules``, else the table's), given
        the match's id: from the player's next server seed and ``client_seed``."""
        number = loaded.player.matches_started + 1
        table = rules or self.rules
        seeds = self._seeds(loaded, client_seed)
        return lambda match_id: Game.new(table, number, seeds, match_id)

    def _seeds(self, loaded: Loaded, client_seed: str | None) -> HandSeeds:
        """The seeds of the player's deal now (docs/fairness.md)."""
        server_seed = self.store.take_seed(loaded.player)
        return HandSeeds(server_seed, (client_seed,) if client_seed is not None else ())

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

    def first_match(self, token: str, ticket: str, client_seed: str | None) -> dict[str, Any]:
        """A new player (``token``, just issued) and its first match, dealt from the
        server seed of the page's ``ticket`` and ``client_seed``, in one transaction:
        a ticket refused (forged, expired, used) makes nothing."""
        server_seed, key = self.first_deals.open(ticket)
        try:
            with self.store.write() as conn:
                # the server seed the page was promised deals the first match
                pid = self.store.insert_player(
                    conn, token_hash(token), first_ticket=key, first_seed=server_seed
                )
                self.store.bump_version(conn, pid, 0)
                loaded = self.store.load(conn, pid, 0)
                self.store.new_match(conn, loaded, self._new_game(loaded, None, client_seed))
        except IntegrityError:  # the ticket's player has its row: it dealt already
            raise ApiError("ticket_used") from None
        self.store.remember(loaded, 1)
        return self._state(loaded, 1)

    def next_commitment(self, player_id: int) -> dict[str, Any]:
        """``{"next_commitment"}`` of the player's next deal, dealing nothing (a new
        player's page reads it before starting its first match with its own seed)."""
        with self.store.read() as conn:
            player = self.store.load(conn, player_id).player
        if player.next_seed is None:  # made with the row since 0008: not seen
            raise ApiError("internal")
        return {"next_commitment": commitment(player.next_seed), "version": player.version}

    def _state(self, loaded: Loaded, version: int) -> dict[str, Any]:
        game = loaded.game
        assert game is not None
        p = loaded.player
        promised = commitment(p.next_seed) if p.next_seed is not None else None
        preparing = self.computers.preparing
        state = game.state(
            version,
            p.level,
            p.quick,
            p.take_back,
            promised,
            preparing_hard=preparing,
            pace=pacing.solo(p.quick),  # the page keeps a solo table's time
        )
        if game.hand_done and p.match_id is not None:
            # what the finished hand on the table unlocked: the same on every look
            state["unlocked"] = achievements.on_table(self.store, p.id, p.match_id, game.hand_no)
        return state

    def act(self, player_id: int, version: int, action: Callable[[Loaded], None]) -> dict[str, Any]:
        """Apply ``action`` made on ``version`` and commit it, or change nothing."""
        try:
            with self.store.write() as conn:
                self.store.bump_version(conn, player_id, version)
                loaded = self.store.load(conn, player_id, version)
                if loaded.game is None:
                    raise GameError("wrong_phase")
                action(loaded)
                saved_before = loaded.results_saved
                self.store.save(conn, loaded)
                # in the same transaction: a hand saved is a hand looked at, once
                achievements.record(conn, loaded, saved_before)
        except Stale:
            raise ApiError("stale", state=self.state_now(player_id)) from None
        self.store.remember(loaded, version + 1)
        return self._state(loaded, version + 1)

    # -- the calls ------------------------------------------------------------------
    async def run(self, player_id: int, fn: Callable[[], T]) -> T:
        try:
            async with self.lock(player_id):
                return await anyio.to_thread.run_sync(fn)
        except PlayerGone:
            # Removed by another process's retention since the lookup: the page
            # starts over with a new token, as after any 403.
            self.players.forget([player_id])
            raise ApiError("bad_token") from None

    async def step(self, player_id: int, version: int) -> dict[str, Any]:
        """One computer action (:mod:`hearts.server.table.driver`).  Dễ and Vừa decide
        in well under a millisecond: inside the action's own transaction.  Khó thinks
        in a worker process, outside any lock; its answer is applied only if the
        version is still the one it saw.

        Steps that arrive together at one version (double clicks, tabs, a script)
        share one move, applied once: the first step gets the State, the others 409
        stale with the same State (no transaction of their own).  A player has at
        most one decision computed at a time; a step asking for another waits for
        it, and is answered 409 stale without thinking if its version is gone by then.
        """

        async def attempt(decided: driver.Decision | None) -> dict[str, Any]:
            def move(loaded: Loaded) -> None:
                assert loaded.game is not None
                level, at = loaded.player.level, loaded.player.match_id
                driver.make(loaded.game, HUMANS, level, decided, driver.SOLO, at)

            return await self.run(player_id, functools.partial(self.act, player_id, version, move))

        async def think(heavy: Heavy) -> Choices:
            async with self.slots.turn(player_id, heavy.at, version) as current:
                if not current:  # the game moved on while the decision waited its turn
                    now = functools.partial(self.state_now, player_id)
                    raise ApiError("stale", state=await self.run(player_id, now))
                return await self.computers.decide(heavy.level, heavy.job)

        # a version of a player names one state
        made, asked = self.driver.move((player_id, version), attempt, think)
        state = await asyncio.shield(made)
        if asked:
            return state
        raise ApiError("stale", state=state)

    def _still_at(self, player_id: int, match_id: int | None, version: int) -> bool:
        with self.store.read() as conn:
            player = self.store.load(conn, player_id).player
        return (player.match_id, player.version) == (match_id, version)

    def take_back(self, player_id: int, version: int) -> dict[str, Any]:
        """Đi lại at ``version``: South's last card and the replies after it go back
        (409 ``take_back_off`` when the player turned it off)."""

        def undo(loaded: Loaded) -> None:
            assert loaded.game is not None
            if not loaded.player.take_back:
                raise GameError("take_back_off")
            loaded.game.south_take_back()

        return self.act(player_id, version, undo)

    def human(
        self,
        player_id: int,
        version: int,
        action: actions.HumanAction,
        checker: str | None = None,
    ) -> dict[str, Any]:
        """South's ``action`` at ``version`` (:mod:`hearts.server.table.actions`),
        committed, or nothing changes; a next hand is dealt from the player's next
        server seed and the seed the page sent.  A card is counted in the match's
        Cảnh báo nước đi as ``checker`` says (None: the switch was off)."""

        def on_game(loaded: Loaded) -> None:
            game = loaded.game
            assert game is not None
            sent = action.client_seed if isinstance(action, actions.NextHand) else None
            actions.apply(game, SOUTH, action, lambda: self._seeds(loaded, sent))
            if isinstance(action, actions.Play):
                game.checker = game.checker.after(checker)

        return self.act(player_id, version, on_game)

    def new_match(
        self,
        player_id: int,
        version: int,
        rules: Rules | None = None,
        client_seed: str | None = None,
    ) -> dict[str, Any]:
        """A fresh match at the table ``rules`` (the server's own if None), its first
        hand dealt from the player's next server seed and ``client_seed``."""
        try:
            with self.store.write() as conn:
                self.store.bump_version(conn, player_id, version)
                loaded = self.store.load(conn, player_id, version)
                deal = self._new_game(loaded, rules, client_seed)
                self.store.new_match(conn, loaded, deal)
        except Stale:
            raise ApiError("stale", state=self.state_now(player_id)) from None
        self.store.remember(loaded, version + 1)
        return self._state(loaded, version + 1)
