"""Fixtures for the browser tests: Debian's chromium, a real ``hearts serve``.

Playwright cannot download its own browsers here, so every test runs in
``/usr/bin/chromium`` launched through ``executable_path``.  The server is the real
command (``hearts serve --port 0 --seed 1``) in a subprocess; each test gets a fresh
browser context, hence a fresh localStorage token and its own match.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

CHROMIUM = os.environ.get("HEARTS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
START_TIMEOUT = 60.0  # seconds for the server to print its address (a loaded machine)

expect.set_options(timeout=30_000)

# the helpers beside this file (table_page) are importable from the tests
sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if Path(CHROMIUM).exists() and os.access(CHROMIUM, os.X_OK):
        return
    skip = pytest.mark.skip(reason=f"{CHROMIUM} not installed (scripts/test.sh installs it)")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": CHROMIUM_ARGS,
        "timeout": 60_000,
    }


class HeartsServer:
    """``hearts serve`` on a free port of 127.0.0.1, with a data dir that outlives
    restarts of the process."""

    def __init__(self, data_dir: Path, seed: int = 1) -> None:
        self.data_dir = data_dir
        self.seed = seed
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.log = data_dir / "server.log"

    def start(self, port: int = 0) -> str:
        """Start the server (on ``port``, 0 for a free one) and return its address."""
        assert self.proc is None, "already running"
        env = {k: v for k, v in os.environ.items() if k != "HEARTS_DATABASE_URL"}
        cmd = [sys.executable, "-c", "import sys; from hearts.cli import main; sys.exit(main())"]
        cmd += ["serve", "--host", "127.0.0.1", "--port", str(port), "--seed", str(self.seed)]
        cmd += ["--data-dir", str(self.data_dir)]
        with self.log.open("a") as log:
            # its own process group: stop() also ends the worker processes it spawns
            self.proc = subprocess.Popen(
                cmd,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
                env=env,
                start_new_session=True,
            )
        lines: queue.Queue[str] = queue.Queue()
        stdout = self.proc.stdout
        assert stdout is not None
        threading.Thread(target=lambda: [lines.put(x) for x in stdout], daemon=True).start()
        try:
            line = lines.get(timeout=START_TIMEOUT)
        except queue.Empty:
            self.stop()
            raise RuntimeError(f"hearts serve printed no address: {self.log.read_text()}") from None
        self.url = line.strip()
        assert self.url.startswith("http://127.0.0.1:"), self.url
        return self.url

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=15)
        # spawned workers that outlived the server (same process group)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)

    @property
    def port(self) -> int:
        return int(self.url.rstrip("/").rsplit(":", 1)[1])

    def restart(self) -> str:
        """Stop and start again on the same port (the page's origin, hence its
        localStorage token, stays the same) with the same data dir."""
        port = self.port
        self.stop()
        return self.start(port)


@pytest.fixture(scope="session")
def hearts_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HeartsServer]:
    """One server for the session: every test has its own token, hence its own match."""
    server = HeartsServer(tmp_path_factory.mktemp("hearts-data"))
    server.start()
    yield server
    server.stop()


@pytest.fixture()
def own_server(tmp_path: Path) -> Iterator[HeartsServer]:
    """A server of this test alone, which the test may restart (same data dir)."""
    server = HeartsServer(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def base_url(hearts_server: HeartsServer) -> str:
    return hearts_server.url


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    # A desktop window; the reduced-motion setting skips card flights and CSS
    # transitions, so the tests wait only for what the game itself paces.
    return {
        **browser_context_args,
        "viewport": {"width": 1440, "height": 900},
        "locale": "vi-VN",
        "reduced_motion": "reduce",
    }


@pytest.fixture()
def context(context: BrowserContext) -> BrowserContext:
    context.set_default_timeout(30_000)
    return context


@pytest.fixture()
def make_context(
    browser: Browser, browser_context_args: dict[str, Any]
) -> Iterator[Callable[..., BrowserContext]]:
    """New browser contexts with some of the default options replaced (phone size,
    another server, a stored token); closed at the end of the test."""
    made: list[BrowserContext] = []

    def make(**options: Any) -> BrowserContext:
        ctx = browser.new_context(**{**browser_context_args, **options})
        ctx.set_default_timeout(30_000)
        made.append(ctx)
        return ctx

    yield make
    for ctx in made:
        ctx.close()


PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
DESKTOP = {"viewport": {"width": 1440, "height": 900}}


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """``test-artifacts/`` at the top of the repository (gitignored): screenshots."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
