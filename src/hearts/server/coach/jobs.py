"""The coach's jobs on a table: Gợi ý (a hint for South now), Cảnh báo nước đi
(the check of South's play now), Phân tích (Khó
weighs South's decisions of a finished hand) and Máy đã biết gì (what the
computers knew in a finished hand).  Each is worked out in the workers' background
turns (:mod:`hearts.server.table.computers`), below live play, one costly decision
at a time in the player's slot (:mod:`hearts.server.table.slots`) that the table's
own Khó shares.  The analyses' and the reports' life (their caps, the analyses'
rows that any process answers, their heartbeat, their stop) is here; what each
works out is :mod:`.hint`, :mod:`.analysis` and :mod:`.knew`."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor
from typing import Any, NoReturn, Protocol, TypeVar

import anyio.to_thread

from hearts.server.coach import analysis, analysis_store, checker, hint, knew
from hearts.server.i18n import lang
from hearts.server.records import history
from hearts.server.store import outage
from hearts.server.store.db import Loaded, Stale, Store
from hearts.server.table.computers import Computers
from hearts.server.table.game import GameError
from hearts.server.table.slots import CostlySlots
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
#: The hints and checks kept by key, for the calls that come later at the same version.
KEPT_ANSWERS = 256
T = TypeVar("T")


class Table(Protocol):
    """What the coach asks of the table it coaches (:class:`hearts.server.solo.tables.Tables`)."""

    store: Store
    computers: Computers
    slots: CostlySlots

    async def run(self, player_id: int, fn: Callable[[], T]) -> T:
        """``fn`` in a thread under the player's lock."""
        ...

    def state_now(self, player_id: int) -> dict[str, Any]:
        """The player's State now."""
        ...

    def act(self, player_id: int, version: int, action: Callable[[Loaded], None]) -> dict[str, Any]:
        """``action`` made on ``version``, committed (or 409 stale): the State after it."""
        ...


class Coach:
    """The coach of one app's ``table``: its hints, analyses and reports."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.store = table.store
        self.computers = table.computers
        self.slots = table.slots  # the player's costly slot, shared with the table's Khó
        # One hint per (player, version), shared by the calls that ask for it.
        self._hinting: dict[tuple[int, int, str], asyncio.Future[dict[str, Any] | None]] = {}
        self._checking: dict[tuple[int, int, str], asyncio.Future[dict[str, Any] | None]] = {}
        # Phân tích: the analyses this process runs, by (match id, hand): (player,
        # run, task, the address that asked: for its cap).  Their rows
        # (analysis_store.py) are what every process answers.
        self.analyses = analysis_store.AnalysisStore(table.store)
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

    # -- Gợi ý ------------------------------------------------------------------
    async def hint(self, player_id: int, version: int) -> dict[str, Any]:
        """Khó's advice for South's pass or play at ``version``, counted in the match.

        The hint is worked out in the workers from South's view alone, outside any
        lock, one costly decision of a player at a time (like Khó's); hints asked
        together at one version share it.  Counting it is an action on ``version``:
        the answer carries the State after it, and the others 409 stale.
        """
        view, names, match_id = await self._look(player_id, version)
        key = (player_id, version, lang.current())  # the reasons are in its language
        work = functools.partial(self._work_out, hint.hint, player_id, match_id, version)
        found = await self._shared(self._hinting, key, lambda: work(view, names, lang.current()))
        if found is None:
            await self._stale(player_id)

        def count(loaded: Loaded) -> None:
            assert loaded.game is not None
            loaded.game.hints += 1

        state = await self.table.run(
            player_id, functools.partial(self.table.act, player_id, version, count)
        )
        return {"card": None, "cards": None, **found, "state": state}

    async def check(self, player_id: int, version: int) -> dict[str, Any]:
        """Cảnh báo nước đi: the cards of South's play at ``version`` that Khó's
        search rates clearly worse than its choice (:mod:`.checker`).  Worked out
        like a hint (the workers, South's view, the player's slot; calls at one
        version share it) but not counted and no action: the version stays, so a
        card played meanwhile is never 409 for it."""
        view, _names, match_id = await self._look(player_id, version)
        if view.phase != "play":
            raise GameError("wrong_phase", "Bây giờ không có lá nào để đánh")
        key = (player_id, version, lang.current())
        work = functools.partial(self._work_out, checker.check, player_id, match_id, version)
        found = await self._shared(self._checking, key, lambda: work(view, lang.current()))
        if found is None:
            await self._stale(player_id)
        return {"version": version, **found}

    async def _look(self, player_id: int, version: int) -> tuple[Any, dict[int, str], int | None]:
        """South's view at ``version`` (409 stale with the State if the game moved on),
        the seats' names and the match id."""

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
            return await self.table.run(player_id, look)
        except Stale:
            await self._stale(player_id)

    async def _stale(self, player_id: int) -> NoReturn:
        """409 stale with the State now."""
        state = await self.table.run(player_id, functools.partial(self.table.state_now, player_id))
        raise ApiError("stale", state=state) from None

    @staticmethod
    async def _shared(
        running: dict[tuple[int, int, str], asyncio.Future[dict[str, Any] | None]],
        key: tuple[int, int, str],
        start: Callable[[], Any],
    ) -> dict[str, Any] | None:
        """The work of ``key`` once, shared by the calls asking for it together, and
        kept for the calls that come later at the same version (a late one of a burst,
        a reload): the last ``KEPT_ANSWERS`` answers; a failed one is not kept."""
        shared = running.get(key)
        if shared is None:
            shared = asyncio.ensure_future(start())
            running[key] = shared

            def done(finished: asyncio.Future[dict[str, Any] | None]) -> None:
                if finished.cancelled() or finished.exception() is not None:
                    running.pop(key, None)
                while len(running) > KEPT_ANSWERS:
                    running.pop(next(iter(running)))

            shared.add_done_callback(done)
        return await asyncio.shield(shared)

    async def _work_out(
        self,
        fn: Callable[..., dict[str, Any]],
        player_id: int,
        match_id: int | None,
        version: int,
        *args: Any,
    ) -> dict[str, Any] | None:
        """``fn(*args)`` (a hint, a check) in the workers, below live play (None: the
        game moved on while it waited)."""
        async with (
            self.computers.background() as run,
            self.slots.turn(player_id, match_id, version) as current,
        ):
            if not current:
                return None
            try:
                found: dict[str, Any] = await run(fn, *args)
            except BrokenExecutor:
                raise ApiError("internal") from None
            return found

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
        match_id, on_table, results = await self.table.run(
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
        match_id, on_table, results = await self.table.run(
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
                result = None
                if analysis.costs(step):
                    async with self.computers.background() as run, self.slots.slot(player_id):
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
        match_id, on_table, results = await self.table.run(
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
                async with self.computers.background() as run, self.slots.slot(player_id):
                    beliefs.append(await run(knew.believe, step.view))
            except BrokenExecutor:
                raise ApiError("internal") from None
        return knew.report(hand, level, steps, beliefs)
