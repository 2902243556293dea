"""One request, one search: concurrent /api/step calls at one version on Khó share a
single decision (one applied, the rest 409 stale with the state); a player has at
most one Khó decision computed at a time; another player is not held up by them."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from hearts.server.app import create_app

pytestmark = pytest.mark.both_databases(
    "concurrent actions at one version: the database's locking decides which applies"
)


class SpyWorkers(ThreadPoolExecutor):
    """The Khó workers, counting the decisions asked of them and holding each one
    until ``gate`` opens."""

    def __init__(self) -> None:
        super().__init__(max_workers=4)
        self.gate = threading.Event()
        self.calls = 0
        self.running = 0
        self.most_at_once = 0
        self._count = threading.Lock()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        with self._count:
            self.calls += 1

        def held() -> Any:
            with self._count:
                self.running += 1
                self.most_at_once = max(self.most_at_once, self.running)
            try:
                assert self.gate.wait(60), "the test never opened the gate"
                return fn(*args, **kwargs)
            finally:
                with self._count:
                    self.running -= 1

        return super().submit(held)


class Browser:
    def __init__(self, client: httpx.AsyncClient, token: str) -> None:
        self.client = client
        self.h = {"Authorization": f"Bearer {token}"}

    @classmethod
    async def new(cls, client: httpx.AsyncClient, level: str) -> Browser:
        token = (await client.post("/api/players")).json()["token"]
        browser = cls(client, token)
        assert (await browser.call("PUT", "/api/settings", {"level": level})).is_success
        return browser

    async def call(self, method: str, path: str, body: Any = None) -> httpx.Response:
        return await self.client.request(method, path, headers=self.h, json=body)

    async def passed(self) -> int:
        """South passes in a fresh deal: the version at which the computers pass."""
        s = (await self.call("GET", "/api/state")).json()
        body = {"version": s["version"], "cards": s["hand"]["cards"][:3]}
        r = await self.call("POST", "/api/pass", body)
        assert r.status_code == 200, r.json()
        return int(r.json()["version"])

    async def new_match_passed(self, version: int) -> int:
        assert (await self.call("POST", "/api/new-match", {"version": version})).is_success
        return await self.passed()

    def step(self, version: int) -> asyncio.Task[httpx.Response]:
        return asyncio.ensure_future(self.call("POST", "/api/step", {"version": version}))


async def until(condition: Callable[[], bool]) -> None:
    for _ in range(3000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("not within 30 s")


def run_on_app(db_url: str, scenario: Callable[..., Any]) -> Any:
    workers = SpyWorkers()
    app = create_app(db_url, seed=3, executor=workers)

    async def main() -> Any:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t", timeout=60) as c:
            try:
                return await scenario(c, workers)
            finally:
                workers.gate.set()

    try:
        return asyncio.run(main())
    finally:
        workers.shutdown(wait=True)


def test_sixteen_steps_at_one_version_run_one_decision(db_url) -> None:
    async def scenario(c: httpx.AsyncClient, workers: SpyWorkers) -> None:
        hard = await Browser.new(c, "hard")
        other = await Browser.new(c, "easy")
        v = await hard.passed()
        steps = [hard.step(v) for _ in range(16)]
        await until(lambda: workers.calls >= 1)
        await asyncio.sleep(0.5)  # let every step reach the decision (they would each ask)
        # Another player's step goes through while Khó thinks for the first one.
        w = await other.passed()
        assert workers.running == 1
        r = await asyncio.wait_for(other.call("POST", "/api/step", {"version": w}), 30)
        assert r.status_code == 200 and r.json()["hand"]["phase"] == "play"
        workers.gate.set()
        answers = await asyncio.gather(*steps)
        codes = sorted(a.status_code for a in answers)
        assert codes == [200] + [409] * 15, codes
        for a in answers:
            if a.status_code == 409:
                body = a.json()
                assert body["error"]["code"] == "stale"
                assert body["state"]["version"] == v + 1
                assert body["state"]["hand"]["phase"] == "play"  # the computers' passes applied
        assert workers.calls == 1

    run_on_app(db_url, scenario)


def test_a_player_has_one_decision_computed_at_a_time(db_url) -> None:
    """Steps at later versions (after new matches) wait for the decision in progress;
    one whose version is gone by then is answered stale without a decision."""

    async def scenario(c: httpx.AsyncClient, workers: SpyWorkers) -> None:
        hard = await Browser.new(c, "hard")
        v1 = await hard.passed()
        first = hard.step(v1)
        await until(lambda: workers.calls == 1)
        v2 = await hard.new_match_passed(v1)
        second = hard.step(v2)
        await asyncio.sleep(0.5)
        assert workers.calls == 1  # waits for the first decision
        v3 = await hard.new_match_passed(v2)
        third = hard.step(v3)
        await asyncio.sleep(0.5)
        workers.gate.set()
        one, two, three = await asyncio.gather(first, second, third)
        assert one.status_code == 409 and one.json()["error"]["code"] == "stale"
        assert two.status_code == 409 and two.json()["state"]["version"] == v3
        assert three.status_code == 200 and three.json()["version"] == v3 + 1
        assert workers.calls == 2  # the first and the third: the second was gone
        assert workers.most_at_once == 1

    run_on_app(db_url, scenario)
