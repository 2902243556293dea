"""While Khó's workers warm up (computers.py's BotPool, issue 56 item 1) the server
answers, its State says ``preparing_hard``, and a Khó decision waits for them: never a
plain card instead, and the same card once they are ready; a server stopping meanwhile
answers 503 ``unavailable`` and plays nothing.  Here the workers are threads whose
readiness the test holds (tests/server/test_first_start.py starts real processes)."""

from __future__ import annotations

import queue
import threading
import time
import warnings
from concurrent.futures import BrokenExecutor, Future, ThreadPoolExecutor
from typing import Any

from hearts.server.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


class WarmingThreads(ThreadPoolExecutor):
    """Threads for the computers, ready when the test says (as BotPool is when its
    first worker has compiled the kernel)."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.warm: Future[None] = Future()
        self.given_cold = 0  # work given before they were ready

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        # a real pool would start another worker and compile the kernel there too
        self.given_cold += not self.warm.done()
        return super().submit(fn, *args, **kwargs)

    def stop_warming(self) -> None:
        if not self.warm.done():
            self.warm.set_exception(BrokenExecutor("stopped while warming up"))


class South:
    """A player at Khó of the app ``client``, its three first cards passed."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        token = client.post("/api/players").json()["token"]
        client.headers["Authorization"] = f"Bearer {token}"
        client.put("/api/settings", json={"level": "hard"})
        s = self.state()
        self.passed = self.call("POST", "/api/pass", {"version": s["version"],
                                                      "cards": s["hand"]["cards"][:3]})  # fmt: skip

    def call(self, method: str, path: str, body: Any = None) -> Any:
        answer = self.client.request(method, path, json=body)
        assert answer.status_code == 200, answer.text
        return answer.json()

    def state(self) -> Any:
        return self.call("GET", "/api/state")

    def ask_passes(self) -> queue.Queue[Any]:
        """The computers' passes asked in a thread: the queue their answer comes in."""
        answers: queue.Queue[Any] = queue.Queue()
        body = {"version": self.passed["version"]}
        threading.Thread(
            target=lambda: answers.put(self.client.post("/api/step", json=body)), daemon=True
        ).start()
        return answers


def app(db_url: str, executor: ThreadPoolExecutor) -> TestClient:
    return TestClient(create_app(db_url, seed=1, executor=executor))


def test_khos_cards_wait_for_its_workers_and_are_the_warm_ones(db_url, tmp_path) -> None:
    pool = WarmingThreads()
    with app(db_url, pool) as client:
        south = South(client)
        s = south.passed
        answers = south.ask_passes()
        assert s["preparing_hard"] is True
        time.sleep(0.5)
        assert answers.empty(), "Khó decided before its workers were ready"
        now = south.state()
        assert now["preparing_hard"] is True and now["version"] == s["version"]
        assert pool.given_cold == 0
        pool.warm.set_result(None)
        answer = answers.get(timeout=120)
        assert answer.status_code == 200, answer.text
        waited = answer.json()
    assert waited["preparing_hard"] is False

    warm_db = f"sqlite:///{tmp_path / 'warm.db'}"  # migrated by the app's start
    with app(warm_db, ThreadPoolExecutor(max_workers=1)) as client:
        south = South(client)
        assert south.passed["preparing_hard"] is False
        warm = south.call("POST", "/api/step", {"version": south.passed["version"]})
    assert waited["hand"]["received"] == warm["hand"]["received"]
    assert waited["hand"]["trick"] == warm["hand"]["trick"]


def test_a_stop_while_khos_workers_warm_up_plays_nothing(db_url) -> None:
    pool = WarmingThreads()
    with app(db_url, pool) as client:
        south = South(client)
        s = south.passed
        answers = south.ask_passes()
        time.sleep(0.3)
        client.app.state.tables.computers.stopping()  # as on SIGTERM
        answer = answers.get(timeout=30)
        assert answer.status_code == 503, answer.text
        assert answer.json()["error"]["code"] == "unavailable"
        after = south.state()
    assert after["version"] == s["version"]  # no plain card played for Khó
    assert after["hand"]["received"] is None
