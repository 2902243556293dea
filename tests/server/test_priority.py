"""Live play first (issue 37: analyses starved everyone's Khó): background work
(hints, analyses) goes to the bot workers only while live play leaves one free."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import pytest

from hearts.server.table.computers import BACKGROUND_NICE, Computers


def test_a_decision_goes_before_the_background_work_waiting() -> None:
    ran: list[str] = []
    release = threading.Event()

    async def background(computers: Computers, *args: Any) -> Any:
        async with computers.background() as run:
            return await run(job, *args)

    def job(name: str, wait: bool = False) -> str:
        if wait:
            release.wait(10)
        ran.append(name)
        return name

    async def main() -> None:
        pool = ThreadPoolExecutor(max_workers=1)
        computers = Computers(pool)
        first = asyncio.ensure_future(background(computers, "analysis 1", True))
        await asyncio.sleep(0.05)
        queued = [asyncio.ensure_future(background(computers, f"analysis {i}")) for i in (2, 3)]
        await asyncio.sleep(0.05)
        live = asyncio.ensure_future(computers.work(job, "Khó"))
        await asyncio.sleep(0.05)
        release.set()
        await asyncio.gather(first, live, *queued)
        pool.shutdown()

    asyncio.run(main())
    assert ran == ["analysis 1", "Khó", "analysis 2", "analysis 3"]


def test_background_work_leaves_a_worker_to_live_play() -> None:
    """Of a pool of 3, background work takes 2 at most; a cancelled wait gives its turn."""
    release = threading.Event()
    started: list[int] = []

    async def background(computers: Computers, *args: Any) -> Any:
        async with computers.background() as run:
            return await run(job, *args)

    def job(i: int) -> int:
        started.append(i)
        release.wait(10)
        return i

    async def main() -> None:
        pool = ThreadPoolExecutor(max_workers=3)
        computers = Computers(pool)
        tasks = [asyncio.ensure_future(background(computers, i)) for i in range(4)]
        await asyncio.sleep(0.1)
        assert sorted(started) == [0, 1]
        tasks[2].cancel()
        live = asyncio.ensure_future(computers.work(job, 9))
        await asyncio.sleep(0.1)
        assert sorted(started) == [0, 1, 9]
        release.set()
        assert await live == 9
        await asyncio.gather(*tasks, return_exceptions=True)
        assert sorted(started) == [0, 1, 3, 9]
        pool.shutdown()

    asyncio.run(main())


def thread_nice() -> tuple[int, int]:
    """This thread's nice value, and the worker process's main thread's."""
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id()), os.getpriority(
        os.PRIO_PROCESS, os.getpid()
    )


@pytest.mark.skipif(sys.platform != "linux", reason="a thread's own nice value is Linux's")
def test_background_work_runs_below_live_decisions_in_the_worker_processes() -> None:
    """Issue 57 item 9: in a worker process, background work runs in a thread of its
    own at BACKGROUND_NICE, so that a live decision running beside it (in another
    worker, at nice 0) gets the CPU first; live decisions keep the main thread's 0."""

    async def main() -> tuple[tuple[int, int], tuple[int, int]]:
        with ProcessPoolExecutor(max_workers=1) as pool:
            computers = Computers(pool)
            async with computers.background() as run:
                below = await run(thread_nice)
            live = await computers.work(thread_nice)
        return below, live

    below, live = asyncio.run(main())
    assert below == (BACKGROUND_NICE, 0)  # the process's main thread is not lowered
    assert live == (0, 0)
