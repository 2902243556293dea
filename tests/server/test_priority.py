"""Live play first (issue 37: analyses starved everyone's Khó): background work
(hints, analyses) goes to the bot workers only while live play leaves one free."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from hearts.server.table.computers import Computers


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
