"""The solo table service: every call's work on the store, the per-player lock,
the computers' turns (:mod:`hearts.server.table.computers`: Dễ and Vừa in the
action's transaction, Khó in workers), Gợi ý and Phân tích."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
import time
import weakref
from collections.abc import AsyncIterator, Callable
from concurrent.futures import BrokenExecutor, Executor
from typing import Any, TypeVar

import anyio.to_thread
from sqlalchemy.exc import IntegrityError

from hearts.fairness import HandSeeds, commitment
from hearts.rules import Rules
from hearts.server.i18n import lang
from hearts.server.players.identity import Players
from hearts.server.records import achievements, history
from hearts.server.solo import analysis, analysis_store, coach, knew
from hearts.server.solo.first_deal import FirstDeals
from hearts.server.store import outage
from hearts.server.store.db import Loaded, PlayerGone, Stale, Store, token_hash
from hearts.server.table import actions
from hearts.server.table.computers import Choices, Computers, Heavy, decide_here
from hearts.server.table.game import SOUTH, Game, GameError, Job
from hearts.server.web.errors import ApiError
from hearts.server.web.ratelimit import RateLimited

log = logging.getLogger("hearts.server")

#: Analyses a process runs at once, of all players and of one address: a new one
#: beyond is 429 ``analysis_busy``, to ask again after ANALYSIS_RETRY_SECONDS.
ANALYSES_PER_PROCESS = 4
ANALYSES_PER_ADDRESS = 2
ANALYSIS_RETRY_SECONDS = 10.0
#: Máy đã biết gì reports kept in a process (deterministic: made once per hand).
KNEW_KEPT = 64
T = TypeVar("T")


class _MovedOn:
    """The game moved on while a decision waited its turn: it was not made."""


MOVED_ON = _MovedOn()


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
        # One costly decision per (player, version), shared by every step that
        # asks for it; dropped when made.
        self._thinking: dict[tuple[int, int], asyncio.Future[tuple[bool, dict[str, Any]]]] = {}
        # One hint per (player, version), shared by the calls that ask for it.
        self._hinting: dict[tuple[int, int, str], asyncio.Future[dict[str, Any] | None]] = {}
        # At most one costly decision of a player computed at a time.
        self._thinkers: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        # Phân tích: the analyses this process runs, by (match id, hand): (player,
        # run, task, the address that asked: for its cap).  Their rows
        # (analysis_store.py) are what every process answers.
        self.analyses = analysis_store.AnalysisStore(store)
        self._analysing: dict[tuple[int, int], tuple[int, int, asyncio.Task[None], str]] = {}
        self.analysis_caps = (ANALYSES_PER_PROCESS, ANALYSES_PER_ADDRESS)
        self.analysis_iterations = analysis.ITERATIONS
        self.analysis_heartbeat = analysis_store.HEARTBEAT
        self.analysis_stale = analysis_store.STALE
        # Máy đã biết gì: the reports being made here, by (match id, hand): (player,
        # address, the report to come), counted in the analyses' caps; and the last
        # reports made (the same hand gives the same report).
        self._knowing: dict[tuple[int, int], tuple[int, str, asyncio.Future[dict[str, Any]]]] = {}
        self._knew: collections.OrderedDict[tuple[int, int], dict[str, Any]] = (
            collections.OrderedDict()
        )

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
            version, p.level, p.quick, p.take_back, promised, preparing_hard=preparing
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
            # Khó raises Heavy: the transaction rolls back, nothing changed
            game.apply_computer(job, decide_here(loaded.player.level, job, loaded.player.match_id))

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
                except Heavy as heavy:
                    shared = asyncio.ensure_future(self._think_and_apply(key, heavy))
                self._thinking[key] = shared
                shared.add_done_callback(lambda _done: self._thinking.pop(key, None))
        # shield: a waiter that goes away does not cancel the others' decision
        applied, state = await asyncio.shield(shared)
        if applied and asked:
            return state
        raise ApiError("stale", state=state)

    async def _think_and_apply(
        self, key: tuple[int, int], heavy: Heavy
    ) -> tuple[bool, dict[str, Any]]:
        """Khó's decision for the state at ``key``, applied: (whether it was, the State
        after)."""
        player_id, version = key
        job = heavy.job
        choices = await self._think(player_id, heavy.at, version, heavy.level, job)
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
            return await self.computers.decide(level, job)

    @contextlib.asynccontextmanager
    async def _costly_turn(
        self, player_id: int, match_id: int | None, version: int
    ) -> AsyncIterator[bool]:
        """Hold the player's one slot for costly work (Khó's decision, a hint); yields
        whether the game is still at ``version`` when the turn comes (False: it moved
        on while this waited, so the work would be thrown away)."""
        async with self._costly_slot(player_id) as waited:
            yield not waited or await anyio.to_thread.run_sync(
                self._still_at, player_id, match_id, version
            )

    @contextlib.asynccontextmanager
    async def _costly_slot(self, player_id: int) -> AsyncIterator[bool]:
        """The player's one slot for costly work; yields whether it had to wait."""
        thinker = self._thinkers.get(player_id)
        if thinker is None:
            thinker = self._thinkers[player_id] = asyncio.Lock()
        waited = thinker.locked()
        async with thinker:
            yield waited

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
        key = (player_id, version, lang.current())  # the reasons are in its language
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
        """The hint from the workers, below live play (None: the game moved on while
        it waited)."""
        async with (
            self.computers.background() as run,
            self._costly_turn(player_id, match_id, version) as current,
        ):
            if not current:
                return None
            try:
                found: dict[str, Any] = await run(coach.hint, view, names, lang.current())
            except BrokenExecutor:
                raise ApiError("internal") from None
            return found

    def take_back(self, player_id: int, version: int) -> dict[str, Any]:
        """Đi lại at ``version``: South's last card and the replies after it go back
        (409 ``take_back_off`` when the player turned it off)."""

        def undo(loaded: Loaded) -> None:
            assert loaded.game is not None
            if not loaded.player.take_back:
                raise GameError("take_back_off")
            loaded.game.south_take_back()

        return self.act(player_id, version, undo)

    # -- Phân tích --------------------------------------------------------------
    # The analyses live in the database (analysis_store.py): any process answers a poll;
    # the process that accepted the request runs the search and writes to the row.
    def _on_table(self, player_id: int) -> tuple[int | None, int, list[tuple[int, ...]]]:
        """(match id, number of the hand on the table, the match's finished hands'
        points per seat) of the player now."""
        with self.store.read() as conn:
            loaded = self.store.load(conn, player_id)
        game = loaded.game
        if game is None:
            return None, 0, []
        return loaded.player.match_id, game.hand_no, [r.points for r in game.results]

    def _steps(
        self, player_id: int, hand: int, results: list[tuple[int, ...]]
    ) -> list[analysis.Decision] | None:
        """South's decisions in finished hand ``hand`` of the match on the table."""
        record = history.hand_record(self.store, player_id, hand)
        if record is None:
            return None
        n = len(record["deal"])
        totals = tuple(sum(r[s] for r in results[: hand - 1]) for s in range(n))
        return analysis.decisions(record, totals)

    def _check_analysis_caps(self, player_id: int, address: str) -> None:
        """429 ``analysis_busy`` if this process runs its cap of analyses, or of
        ``address``'s (the player's own are not counted: a new one stops them)."""
        others = [a for player, _r, _t, a in self._analysing.values() if player != player_id]
        others += [a for player, a, _f in self._knowing.values() if player != player_id]
        mine = [a for a in others if a == address]
        per_process, per_address = self.analysis_caps
        if len(others) >= per_process or len(mine) >= per_address:
            raise RateLimited(ANALYSIS_RETRY_SECONDS, "analysis_busy")

    async def start_analysis(self, player_id: int, hand: int, address: str = "") -> dict[str, Any]:
        """Start (or find) the analysis of finished hand ``hand`` of the match on the
        table; the player's analysis of another hand, if any, is stopped.  Asked from
        ``address``: a new one is within the caps (else 429 ``analysis_busy``)."""
        match_id, on_table, results = await self.run(
            player_id, functools.partial(self._on_table, player_id)
        )
        if match_id is None:
            raise ApiError("not_found", "Ván này chưa xong hoặc không có")
        job = await anyio.to_thread.run_sync(self.analyses.get, match_id, hand)
        if job is not None:
            a = job.analysis
            if a.status == "done" or (a.status == "running" and a.on_table == on_table):
                return await self._answer(job, on_table, results)
        steps = await anyio.to_thread.run_sync(self._steps, player_id, hand, results)
        if steps is None:
            raise ApiError("not_found", "Ván này chưa xong hoặc không có")
        self._check_analysis_caps(player_id, address)
        await self._stop_others(player_id, (match_id, hand))
        found = analysis.Analysis(hand, match_id, on_table, total=len(steps))
        new = analysis_store.Job(found, player_id, self.analysis_iterations)
        seen = None if job is None else job.run
        if not await anyio.to_thread.run_sync(self.analyses.claim, new, seen):
            return await self.analysis_now(player_id, hand)  # another process started it
        self._launch(new, steps, address)
        return found.to_json()

    async def analysis_now(self, player_id: int, hand: int) -> dict[str, Any]:
        """The player's analysis of ``hand`` as far as it went (404 if none)."""
        match_id, on_table, results = await self.run(
            player_id, functools.partial(self._on_table, player_id)
        )
        job = None
        if match_id is not None:
            job = await anyio.to_thread.run_sync(self.analyses.get, match_id, hand)
        if job is None:
            raise ApiError("not_found", "Chưa phân tích ván này")
        return await self._answer(job, on_table, results)

    async def _answer(
        self, job: analysis_store.Job, on_table: int, results: list[tuple[int, ...]]
    ) -> dict[str, Any]:
        """``job`` as the API answers it, once a running one is seen to: stopped if
        the player moved on, taken over here if its process went silent."""
        a = job.analysis
        if a.status != "running":
            return a.to_json()
        if a.on_table != on_table:
            self._stop_local(lambda key, _player: key == job.key)
            if not await anyio.to_thread.run_sync(self.analyses.cancel, job):
                again = await anyio.to_thread.run_sync(self.analyses.get, *job.key)
                return (again or job).analysis.to_json()  # it ended meanwhile
        elif job.stale(time.time(), self.analysis_stale):
            steps = await anyio.to_thread.run_sync(self._steps, job.player_id, a.hand, results)
            seen = job.run
            if steps is not None and await anyio.to_thread.run_sync(self.analyses.claim, job, seen):
                log.warning("analysis %s: its process went silent; going on here", job.key)
                self._launch(job, steps)
            else:  # another process took it over first: its row now
                again = await anyio.to_thread.run_sync(self.analyses.get, *job.key)
                return (again or job).analysis.to_json()
        return a.to_json()

    def _launch(
        self, job: analysis_store.Job, steps: list[analysis.Decision], address: str = ""
    ) -> None:
        """Run ``job`` (claimed by this process) here, from its first unweighed decision."""
        task = asyncio.ensure_future(self._analyse(job, steps))
        key = job.key
        self._analysing[key] = (job.player_id, job.run, task, address)

        def forget(_done: object) -> None:
            if self._analysing.get(key, (0, 0, task, ""))[2] is task:
                self._analysing.pop(key, None)

        task.add_done_callback(forget)

    def _stop_local(self, which: Callable[[tuple[int, int], int], bool]) -> None:
        """Cancel the analyses run here for which ``which(key, player)`` holds."""
        for key, (player_id, _run, task, _address) in list(self._analysing.items()):
            if which(key, player_id):
                task.cancel()

    async def _stop_others(self, player_id: int, keep: tuple[int, int] | None) -> None:
        """Stop the player's running analyses (but ``keep``), here and in any process."""
        await anyio.to_thread.run_sync(self.analyses.cancel_player, player_id, keep)
        self._stop_local(lambda key, player: key != keep and player == player_id)

    async def _moved_on(self, player_id: int, found: analysis.Analysis) -> bool:
        match_id, on_table, _ = await anyio.to_thread.run_sync(self._on_table, player_id)
        return (match_id, on_table) != (found.match_id, found.on_table)

    async def _analyse(self, job: analysis_store.Job, steps: list[analysis.Decision]) -> None:
        """Weigh South's decisions one by one in the workers, each in the player's
        slot for costly work (the player's own Khó goes between them), writing the
        progress to the row; stop when the player moves on (a next hand, a new
        match) or the row's run is no longer this one."""
        found, player_id = job.analysis, job.player_id
        beating = asyncio.ensure_future(self._beat(job, asyncio.current_task()))
        try:
            for step in steps[found.done :]:
                if await self._moved_on(player_id, found):
                    await anyio.to_thread.run_sync(self.analyses.cancel, job)
                    return
                async with self.computers.background() as run, self._costly_slot(player_id):
                    result = await run(analysis.weigh, step.view, step.chosen, job.iterations)
                if result is not None:
                    found.found.append(result)
                found.done += 1
                if found.done == found.total:
                    found.status = "done"
                if not await anyio.to_thread.run_sync(self.analyses.save, job):
                    return  # cancelled or taken over: the row is another's now
            if found.status != "done":  # nothing was left to weigh
                found.status = "done"
                await anyio.to_thread.run_sync(self.analyses.save, job)
        except BrokenExecutor:
            await self._fail(job)
        except Exception as exc:
            outage.report(log, "an analysis failed", exc)
            await self._fail(job)
        finally:
            beating.cancel()

    async def _fail(self, job: analysis_store.Job) -> None:
        job.analysis.status = "failed"
        with contextlib.suppress(Exception):
            await anyio.to_thread.run_sync(self.analyses.save, job)

    async def _beat(self, job: analysis_store.Job, task: asyncio.Task[Any] | None) -> None:
        """The running analysis's heartbeat; stops ``task`` once its run no longer
        runs (another process cancelled it or took it over)."""
        while True:
            await asyncio.sleep(self.analysis_heartbeat)
            try:
                alive = await anyio.to_thread.run_sync(self.analyses.beat, job)
            except Exception as exc:
                outage.report(log, "an analysis's heartbeat failed", exc)
                continue
            if not alive:
                if task is not None:
                    task.cancel()
                return

    async def drop_analysis(self, player_id: int) -> None:
        """The player moved on: its analysis stops now (here, or in the process
        running it, at its next write or heartbeat)."""
        await self._stop_others(player_id, None)

    async def stop_analyses(self) -> None:
        """The process stops: its analyses are left for another process to take
        over at once (their heartbeat set long past)."""
        running = list(self._analysing.items())
        for _key, (_player, _run, task, _address) in running:
            task.cancel()
        for key, (player_id, run, _task, _address) in running:
            job = analysis_store.Job(
                analysis.Analysis(key[1], key[0], 0, 0), player_id, self.analysis_iterations, run
            )
            with contextlib.suppress(Exception):
                await anyio.to_thread.run_sync(self.analyses.beat, job, 0.0)

    # -- Máy đã biết gì -------------------------------------------------------------
    async def knew(self, player_id: int, hand: int, address: str = "") -> dict[str, Any]:
        """What the computers knew in finished hand ``hand`` of the match on the table
        (:mod:`.knew`): 404 if there is no such hand, 409 ``hand_in_play`` while it is
        being played.  Worked out in the workers below live play, within the
        analyses' caps (429 ``analysis_busy``), one decision at a time in the player's
        slot for costly work; requests for one hand share it."""
        match_id, on_table, results = await self.run(
            player_id, functools.partial(self._on_table, player_id)
        )
        if match_id is None:
            raise ApiError("not_found", "Ván này chưa xong hoặc không có")
        key = (match_id, hand)
        made = self._knew.get(key)
        if made is not None:
            return made
        running = self._knowing.get(key)
        if running is not None:
            return await asyncio.shield(running[2])
        played = await anyio.to_thread.run_sync(history.hand_played, self.store, player_id, hand)
        if played is None:
            if hand == on_table:
                raise ApiError("hand_in_play")
            raise ApiError("not_found", "Ván này chưa xong hoặc không có")
        self._check_analysis_caps(player_id, address)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._knowing[key] = (player_id, address, future)
        try:
            record, level = played
            report = await self._knew_report(player_id, hand, record, level, results)
            future.set_result(report)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as exc:
            future.set_exception(exc)
            future.exception()  # seen here: the waiters, if any, get it too
            raise
        finally:
            self._knowing.pop(key, None)
        self._knew[key] = report
        while len(self._knew) > KNEW_KEPT:
            self._knew.popitem(last=False)
        return report

    async def _knew_report(
        self,
        player_id: int,
        hand: int,
        record: dict[str, Any],
        level: str | None,
        results: list[tuple[int, ...]],
    ) -> dict[str, Any]:
        n = len(record["deal"])
        totals = tuple(sum(r[s] for r in results[: hand - 1]) for s in range(n))
        steps = await anyio.to_thread.run_sync(knew.decisions, record, totals)
        beliefs: list[dict[str, Any] | None] = []
        for step in steps:
            if level != "hard":
                beliefs.append(None)
                continue
            try:
                async with self.computers.background() as run, self._costly_slot(player_id):
                    beliefs.append(await run(knew.believe, step.view))
            except BrokenExecutor:
                raise ApiError("internal") from None
        return knew.report(hand, level, steps, beliefs)

    def human(self, player_id: int, version: int, action: actions.HumanAction) -> dict[str, Any]:
        """South's ``action`` at ``version`` (:mod:`hearts.server.table.actions`),
        committed, or nothing changes; a next hand is dealt from the player's next
        server seed and the seed the page sent."""

        def on_game(loaded: Loaded) -> None:
            game = loaded.game
            assert game is not None
            sent = action.client_seed if isinstance(action, actions.NextHand) else None
            actions.apply(game, SOUTH, action, lambda: self._seeds(loaded, sent))

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
