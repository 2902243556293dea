"""The first start (issue 56, item 1): ``hearts serve`` listens at once, Khó's kernel
compiling in the background.  The page, the State and Dễ/Vừa answer meanwhile; a Khó
card asked then waits for the kernel (the State saying ``preparing_hard``) and is the
card a warm server plays; the console says Khó is being prepared, then that it is
ready; a stop does not wait for the compile.

Khó's warm-up (the compile on a fresh install) is held by tests/kernel_gate.py, as a
cold compile takes 30 to 100 s of a core: the server, its workers and their wait are
the real ones.  The compile itself from an empty cache is tests/bots/test_kernel.py's."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from kernel_gate import KernelGate
from processes import hearts_command, stop_group

pytestmark = pytest.mark.slow

#: The issue's words: a fresh install answers ``GET /`` within 5 s (printed; the test
#: is not timed).  What tells the fault apart is that the server answers while Khó's
#: warm-up is held; the bound only keeps a stuck server from hanging the suite, so it
#: is wide: the suite's load has taken imports past 10 s.
ANSWERS_WITHIN = 60.0
READY_WITHIN = 240.0  # a compile on a loaded machine, if the cache is cold
STOPS_WITHIN = 10.0
PREPARING = "preparing Khó"
READY = "Khó is ready"


class Server:
    """``hearts serve --seed 1`` on a free port, its stdout and stderr read as lines."""

    def __init__(self, data_dir: Path, env: dict[str, str]) -> None:
        env = {k: v for k, v in env.items() if k != "HEARTS_DATABASE_URL"}
        env["HEARTS_BOT_PROCESSES"] = "1"
        cmd = hearts_command("serve", "--port", "0", "--seed", "1", "--data-dir", str(data_dir))
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            cmd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            start_new_session=True,  # stop_group also ends its bot workers
        )
        self.out: queue.Queue[str] = queue.Queue()
        self.err: list[str] = []
        assert self.proc.stdout is not None and self.proc.stderr is not None
        stdout, stderr = self.proc.stdout, self.proc.stderr
        threading.Thread(target=lambda: [self.out.put(x) for x in stdout], daemon=True).start()
        threading.Thread(target=lambda: [self.err.append(x) for x in stderr], daemon=True).start()

    def url(self, timeout: float) -> str:
        try:
            return self.out.get(timeout=timeout).strip()
        except queue.Empty:
            raise AssertionError(f"no address within {timeout} s: {self.err}") from None

    def said(self, words: str) -> bool:
        return any(words in line for line in self.err)

    def wait_until_said(self, words: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not self.said(words):
            assert time.monotonic() < deadline, f"never said {words!r}: {self.err}"
            assert self.proc.poll() is None, f"the server ended: {self.err}"
            time.sleep(0.1)


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        stop_group(server.proc)


class Player:
    """A browser's calls to the server at ``url``."""

    def __init__(self, url: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=READY_WITHIN)
        token = self.http.post("/api/players").json()["token"]
        self.http.headers["Authorization"] = f"Bearer {token}"

    def call(self, method: str, path: str, body: Any = None) -> Any:
        response = self.http.request(method, path, json=body)
        assert response.status_code == 200, (response.status_code, response.text)
        return response.json()

    def pass_three(self) -> Any:
        s = self.call("GET", "/api/state")
        return self.call(
            "POST", "/api/pass", {"version": s["version"], "cards": s["hand"]["cards"][:3]}
        )

    def step(self, state: Any) -> Any:
        return self.call("POST", "/api/step", {"version": state["version"]})

    def steps_to_south(self, state: Any) -> Any:
        """The computers' steps until South is to play."""
        while state["hand"]["turn"] != "S":
            state = self.step(state)
        return state


def seen(state: Any) -> tuple[Any, ...]:
    """What the computers' decisions put on South's table."""
    hand = state["hand"]
    return hand["received"], hand["trick"], hand["tricks"]


def test_a_cold_start_answers_at_once_dealing_with_de_and_vua(tmp_path: Path, servers) -> None:
    server = Server(tmp_path / "data", KernelGate(tmp_path).env())  # never opened
    servers.append(server)
    url = server.url(ANSWERS_WITHIN)
    page = httpx.get(url, timeout=ANSWERS_WITHIN)
    answered = time.monotonic() - server.started
    assert page.status_code == 200 and "<html" in page.text
    assert not server.said(READY), server.err  # answered with Khó not ready
    print(f"GET / answered {answered:.1f} s after the start, Khó not ready")
    south = Player(url)
    s = south.pass_three()  # Vừa, the default level: its passes and cards at once
    assert s["settings"]["level"] == "medium" and s["preparing_hard"] is True
    s = south.steps_to_south(south.step(s))
    assert s["hand"]["phase"] == "play" and s["preparing_hard"] is True
    south.call("PUT", "/api/settings", {"level": "easy"})
    assert server.said(PREPARING) and not server.said(READY), server.err
    # a stop does not wait for Khó's warm-up
    server.proc.send_signal(signal.SIGTERM)  # the server alone: it stops its workers
    # (uvicorn ends by the signal it was stopped with, once it has shut down)
    assert server.proc.wait(timeout=STOPS_WITHIN) in (0, -signal.SIGTERM), server.err
    assert not any("Traceback" in line for line in server.err), server.err


def test_a_kho_card_asked_while_it_is_prepared_waits_for_it(tmp_path: Path, servers) -> None:
    gate = KernelGate(tmp_path)
    server = Server(tmp_path / "gated", gate.env())
    servers.append(server)
    south = Player(server.url(ANSWERS_WITHIN))
    south.call("PUT", "/api/settings", {"level": "hard"})
    s = south.pass_three()
    assert s["preparing_hard"] is True
    asked: queue.Queue[Any] = queue.Queue()
    threading.Thread(target=lambda: asked.put(south.step(s)), daemon=True).start()
    time.sleep(1.5)
    assert asked.empty(), "Khó's passes came before its kernel was ready"
    waiting = south.call("GET", "/api/state")  # the server answers meanwhile
    assert waiting["preparing_hard"] is True and waiting["version"] == s["version"]
    assert server.said(PREPARING) and not server.said(READY)
    gate.open()
    first = south.steps_to_south(asked.get(timeout=READY_WITHIN))
    assert first["preparing_hard"] is False
    assert server.said(READY)

    warm = Server(tmp_path / "warm", os.environ.copy())
    servers.append(warm)
    other = Player(warm.url(ANSWERS_WITHIN))
    warm.wait_until_said(READY, READY_WITHIN)
    other.call("PUT", "/api/settings", {"level": "hard"})
    s = other.pass_three()
    assert s["preparing_hard"] is False
    assert seen(other.steps_to_south(other.step(s))) == seen(first)  # Khó at full strength
