"""The computers' turns, for the solo tables and the rooms alike.

One rule for where a decision is made: a light level (Dễ, Vừa: well under a
millisecond) decides at once, inside the caller's transaction (:func:`decide_here`);
a heavy one (Khó) raises :class:`Heavy`, so the caller rolls its transaction back
and asks :meth:`Computers.decide`, which thinks in the worker pool, outside any
lock, and then applies the choice only if the state is still the one it saw.

A computer's decision is made by :func:`decide`, given only views
(:class:`~hearts.server.table.game.Job`), in a worker: a thread or a process.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import (
    BrokenExecutor,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)
from typing import Any, TypeVar

from hearts.bots.base import LEVELS, Bot, get_bot
from hearts.hand import HandState
from hearts.rules import Rules
from hearts.server.table.game import Job

log = logging.getLogger("hearts.server")

#: Levels whose decisions are cheap enough for a thread; others go to the workers.
LIGHT_LEVELS = frozenset(("easy", "medium"))
#: The choices for a job: a pass mask per view, or one card (None: the decision
#: failed, and the game plays a plain legal choice instead).
Choices = list[int] | None
T = TypeVar("T")


# -- a decision, in a worker (thread or process) -------------------------------------
# One bot per level and per worker thread: a bot need not be thread-safe.
_local = threading.local()


def _bot(level: str) -> Bot:
    bots: dict[str, Bot] | None = getattr(_local, "bots", None)
    if bots is None:
        bots = _local.bots = {}
    bot = bots.get(level)
    if bot is None:
        bot = bots[level] = get_bot(level)
    return bot


def decide(level: str, job: Job) -> list[int]:
    """The computers' choices for ``job``: a pass mask per view, or one card."""
    bot = _bot(level)
    if job.kind == "pass":
        return [int(bot.choose_pass(v)) for v in job.views]
    return [int(bot.choose_play(job.views[0]))]


def warm_up() -> None:
    """Import the bots in a fresh worker, and compile Khó's search kernel (or load
    it from numba's disk cache), so its first decision is not slow."""
    from hearts.bots import hard

    for level in LEVELS:
        _bot(level)
    hard.warm_up()
    # two tricks of Khó's plays: by then the others have played enough for its adapt
    # measure, whose kernel the short searches above do not call
    state = HandState(Rules(), [sum(1 << c for c in range(s, 52, 4)) for s in range(4)], "none")
    bot = hard.HardBot(iterations=8)
    for _ in range(8):
        state.play(bot.choose_play(state.view(state.turn)))


#: The nice value of a worker's thread for background work (hints, analyses, Máy đã
#: biết gì): a live decision running in another worker at the same time gets the
#: CPU first (issue 57 item 9).  Linux's nice value is a thread's: the worker's main
#: thread, where live decisions run, keeps 0.
BACKGROUND_NICE = 10
_lowered: ThreadPoolExecutor | None = None


def _lower_this_thread() -> None:
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), BACKGROUND_NICE)


def in_background(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in this worker's lowered thread (made on first use; once
    lowered, a thread cannot be raised again without privileges, hence its own)."""
    global _lowered
    if _lowered is None:
        _lowered = ThreadPoolExecutor(1, "hearts-background", initializer=_lower_this_thread)
    return _lowered.submit(fn, *args).result()


#: The console's line as the workers start warming up (then "Khó is ready (N s)").
PREPARING = (
    "preparing Khó in the background (a minute or two after an install); Dễ and Vừa play at once"
)
#: How often a worker process looks whether its server is still there.
PARENT_CHECK_SECONDS = 0.5


def _die_with_server(server: int) -> None:
    """Leave as soon as the server process ``server`` is gone: killed with SIGKILL it
    shuts nothing down, and a worker left behind would hold its memory for ever. A
    thread that looks at the parent's id (PR_SET_PDEATHSIG would fire when the
    *thread* that started the worker ends, which may be any of the server's)."""

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="hearts-server-watch", daemon=True).start()


def _start_worker(server: int) -> None:
    """A new worker process: tied to its server, then warmed up.  It ignores the
    stop signals: sent to the whole process group (systemd's ``KillMode=control-
    group``, Ctrl+C in a terminal), they would end it under the server, which would
    take that for a death; it leaves when its server shuts the pool down or is gone."""
    for stop in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop, signal.SIG_IGN)
    _die_with_server(server)
    warm_up()


class BotPool(ProcessPoolExecutor):
    """``size`` processes for the computers' decisions: Khó thinks without holding
    the server.  They warm up in the background: the server listens at once, and
    :attr:`warm` is done once the first worker has compiled Khó's kernel into
    numba's disk cache (30 to 100 s, once per install; about 2 s to load after), or
    fails (:class:`BrokenExecutor`) if it died.  Only then do the others start, and
    load it from there: one compile, not one per worker."""

    def __init__(self, size: int, announce: Callable[[str], None] | None = None) -> None:
        super().__init__(
            max_workers=size,
            # spawn, not fork: the server has threads by the time workers are (re)made.
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(os.getpid(),),
        )
        self.warm: Future[None] = Future()
        self._announce = announce or (lambda _line: None)
        self._announce(PREPARING)
        first = self.submit(int)
        threading.Thread(
            target=self._warming, args=(first, size - 1), name="hearts-warm-up", daemon=True
        ).start()

    def _warming(self, first: Future[int], others: int) -> None:
        """Wait (in a thread: no GIL held, no event loop) for the first worker, then
        start the others."""
        start = time.monotonic()
        try:
            first.result()
            for _ in range(others):
                self.submit(int)
        except Exception as exc:  # died, or shut down meanwhile
            broken = exc if isinstance(exc, BrokenExecutor) else BrokenExecutor(repr(exc))
            self.warm.set_exception(broken)
            return
        self.warm.set_result(None)
        self._announce(f"Khó is ready ({time.monotonic() - start:.0f} s)")

    def stop_warming(self) -> None:
        """Stop a worker still compiling: a stop must not wait for it (a minute or
        more); the decisions waiting for it fail (:attr:`warm`'s BrokenExecutor)."""
        if not self.warm.done():
            for process in list((self._processes or {}).values()):
                process.kill()  # it ignores SIGTERM (_start_worker)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.stop_warming()
        super().shutdown(wait=wait, cancel_futures=cancel_futures)


def bot_pool(size: int, announce: Callable[[str], None] | None = None) -> BotPool:
    """``size`` bot worker processes, warming up (:class:`BotPool`); ``announce``
    gets a line when Khó's preparation starts and one when it is ready."""
    return BotPool(size, announce)


# -- light in the transaction, heavy in the pool -------------------------------------
class Heavy(Exception):
    """The decision needs the workers: roll the transaction back and think outside it
    (:meth:`Computers.decide`).  ``at`` is the caller's mark of the state the job was
    made on (a match id, a room's version), to check it is still there after."""

    def __init__(self, job: Job, level: str, at: int | None) -> None:
        super().__init__(level)
        self.job = job
        self.level = level
        self.at = at


def decide_here(level: str, job: Job, at: int | None = None) -> Choices:
    """A light level's choices, made now (in the caller's transaction); a heavy
    level raises :class:`Heavy` (nothing is decided here)."""
    if level not in LIGHT_LEVELS:
        raise Heavy(job, level, at)
    try:
        return decide(level, job)
    except Exception:
        log.exception("a %s bot failed: playing a plain legal card", level)
        return None


class Computers:
    """The worker pool where the costly work runs (Khó's decisions, hints,
    analyses), and new workers when they die (where a factory makes them).

    Live play comes first: Khó's decisions go to the pool at once; the background
    work (hints, analyses' steps: :meth:`background`) goes only while a
    worker is free for it and none of the pool's ``size`` is wanted by live play, at
    most ``size - 1`` at a time (one, for a pool of one). The pool's own queue is
    first come first served: so a decision waits behind at most the background steps
    already running, never behind a flood of them.  In worker processes the
    background work runs at a lower priority too (:func:`in_background`)."""

    def __init__(
        self,
        executor: Executor,
        executor_factory: Callable[[], Executor] | None = None,
        size: int | None = None,
    ) -> None:
        self.executor = executor
        self.executor_factory = executor_factory
        self.size = size or int(getattr(executor, "_max_workers", 1))
        self.background_slots = max(1, self.size - 1)
        self._live = 0  # decisions in the pool (running or queued)
        self._background = 0  # background work in the pool, or given its turn
        self._waiting: collections.deque[asyncio.Future[None]] = collections.deque()
        self._stopped = False

    @property
    def preparing(self) -> bool:
        """Whether Khó's workers are still warming up (:class:`BotPool`): its
        decisions wait for them."""
        warm = getattr(self.executor, "warm", None)
        return isinstance(warm, Future) and not warm.done()

    def stopping(self) -> None:
        """The server is asked to stop: a worker still compiling is stopped now
        rather than waited for, and nothing more is renewed."""
        self._stopped = True
        stop_warming = getattr(self.executor, "stop_warming", None)
        if stop_warming is not None:
            stop_warming()

    def shutdown(self) -> None:
        """Stop the workers (at the end of the server)."""
        self.stopping()
        self.executor.shutdown(wait=True, cancel_futures=True)

    async def work(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the workers, for live play (at once).  If they died, new
        ones are started and :class:`BrokenExecutor` is raised all the same (this work
        is lost)."""
        self._live += 1
        try:
            return await self._run(fn, *args)
        finally:
            self._live -= 1
            self._wake()

    @contextlib.asynccontextmanager
    async def background(self) -> AsyncIterator[Callable[..., Awaitable[Any]]]:
        """A turn for background work, below live play: yields the function that runs
        ``fn(*args)`` in the workers (as :meth:`work`).  Take it before any lock of
        the player's: waiting for it must not hold up the player's own decisions."""
        await self._background_turn()
        try:
            yield self._run_below_live
        finally:
            self._background -= 1
            self._wake()

    async def _run_below_live(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the workers at a lower priority than live decisions
        (worker processes only: a thread pool is the server's own process)."""
        if isinstance(self.executor, ProcessPoolExecutor) and sys.platform == "linux":
            return await self._run(in_background, fn, *args)
        return await self._run(fn, *args)

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        executor = self.executor
        try:
            warm = getattr(executor, "warm", None)
            if isinstance(warm, Future) and not warm.done():
                # Khó's kernel is still compiling: wait for it (never a weaker card
                # instead); shielded, as the pool's readiness is everyone's.
                await asyncio.shield(asyncio.wrap_future(warm))
            return await loop.run_in_executor(executor, fn, *args)
        except BrokenExecutor:
            self._renew(executor)
            raise

    def _room_for_background(self) -> bool:
        return (
            self._background < self.background_slots and self._background + self._live < self.size
        )

    async def _background_turn(self) -> None:
        """Wait for a background turn (first come first served among them)."""
        if not self._waiting and self._room_for_background():
            self._background += 1
            return
        turn = asyncio.get_running_loop().create_future()
        self._waiting.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # given its turn meanwhile
                self._background -= 1
                self._wake()
            elif turn in self._waiting:
                self._waiting.remove(turn)
            raise

    def _wake(self) -> None:
        """Give the waiting background work the turns there are now (counted at once)."""
        while self._waiting and self._room_for_background():
            turn = self._waiting.popleft()
            if not turn.done():
                self._background += 1
                turn.set_result(None)

    async def decide(self, level: str, job: Job) -> Choices:
        """The decision of the workers (None: play a plain legal card instead).  A
        server stopping gives none: :class:`ApiError` ``unavailable``, nothing played."""
        try:
            return await self.work(decide, level, job)
        except BrokenExecutor:
            if self._stopped:
                from hearts.server.web.errors import ApiError  # not in the workers

                raise ApiError("unavailable") from None
        except Exception:
            log.exception("a %s bot failed: playing a plain legal card", level)
        return None

    def _renew(self, broken: Executor) -> None:
        """The bot workers of ``broken`` died: start new ones (where a factory makes
        them), once for all the work they failed, and not while the server stops."""
        if self._stopped or broken is not self.executor:
            return
        log.exception("the bot workers died: starting new ones")
        if self.executor_factory is not None:
            broken, self.executor = self.executor, self.executor_factory()
            broken.shutdown(wait=False, cancel_futures=True)
