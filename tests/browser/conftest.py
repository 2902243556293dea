"""Fixtures for the browser tests: Debian's chromium, a real ``hearts serve``.

Playwright cannot download its own browsers here, so every test runs in
``/usr/bin/chromium`` launched through ``executable_path``.  The server is the real
command (``hearts serve --port 0 --seed 1``) in a subprocess; each test gets a fresh
browser context, hence a fresh localStorage token and its own match.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import playwright
import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

CHROMIUM = os.environ.get("HEARTS_CHROMIUM", "/usr/bin/chromium")


def playwright_disabled_features() -> list[str]:
    """The features Playwright's own ``--disable-features`` turns off: Chromium reads
    only the last ``--disable-features``, so ours must repeat them (read from the
    installed Playwright; this copy of 1.65's list if its source moved)."""
    bundle = Path(playwright.__file__).parent / "driver/package/lib/coreBundle.js"
    try:
        found = re.search(r"disabledFeatures = \[(.*?)\]\.filter", bundle.read_text(), re.S)
    except OSError:
        found = None
    if found is not None:
        return re.findall(r'^\s*"(\w+)",?$', found.group(1), re.M)
    return ["AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose",
            "HttpsUpgrades", "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter",
            "PaintHolding", "ThirdPartyStoragePartitioning",
            "AvoidCorsURLLoaderRestartOnRedirect", "TcpPortRandomizationWin",
            "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled",
            "PreconnectToSearch"]  # fmt: skip


# Every new browser context opens a window whose address bar preloads its pop-ups, two
# pages of Chromium's own in a renderer of their own: about 0.65 CPU-s a context, some
# 40% of a fresh page load's (docs/testing.md). The tests never see that bar.
NO_ADDRESS_BAR_POPUPS = ["PreloadTopChromeWebUI", "WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-features=" + ",".join(playwright_disabled_features() + NO_ADDRESS_BAR_POPUPS),
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

expect.set_options(timeout=30_000)

# the helpers beside this file (table_page, server_process) are importable from the tests
sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_process import HeartsServer  # noqa: E402
from table_page import finish_match_by_api, new_match_by_api, open_table, wait_ready  # noqa: E402


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The order (browser tests last, the longest first) is tests/conftest.py's.
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


@pytest.fixture(scope="session")
def hearts_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HeartsServer]:
    """One server for the session: every test has its own token, hence its own match."""
    server = HeartsServer(tmp_path_factory.mktemp("hearts-data"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def room_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HeartsServer]:
    """One server for the rooms' and public tables' tests: computers play at once,
    and every player comes from 127.0.0.1, so no limit on new players or joins; a
    context may name another address in ``X-Forwarded-For`` (127.0.0.1 is a trusted
    proxy): strangers from addresses of their own."""
    args = ("--room-pace", "0", "--new-player-burst", "1000", "--trusted-proxy", "127.0.0.1")
    server = HeartsServer(tmp_path_factory.mktemp("rooms-data"), args=args)
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
        # the page's service worker (issue 39, item 16) would answer the static files
        # from its cache, out of page.route's reach; tests/browser/test_app.py allows it
        "service_workers": "block",
    }


# The page's test hook for its pacing (docs/testing.md): the waits between computer
# cards and the hold of a finished trick take a fiftieth of their time, unless the test
# is marked real_pace (it watches the trick being held or the cards coming one by one).
TEST_PACE = 0.02


def pace(ctx: BrowserContext, request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("real_pace") is None:
        ctx.add_init_script(f"window.__heartsTestPace = {TEST_PACE};")


@pytest.fixture()
def context(context: BrowserContext, request: pytest.FixtureRequest) -> BrowserContext:
    context.set_default_timeout(30_000)
    pace(context, request)
    return context


@pytest.fixture()
def make_context(
    browser: Browser, browser_context_args: dict[str, Any], request: pytest.FixtureRequest
) -> Iterator[Callable[..., BrowserContext]]:
    """New browser contexts with some of the default options replaced (phone size,
    another server, a stored token); closed at the end of the test."""
    made: list[BrowserContext] = []

    def make(**options: Any) -> BrowserContext:
        ctx = browser.new_context(**{**browser_context_args, **options})
        ctx.set_default_timeout(30_000)
        pace(ctx, request)
        made.append(ctx)
        return ctx

    yield make
    for ctx in made:
        ctx.close()


@pytest.fixture(scope="session")
def match_over(browser: Browser, browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """The storage of a browser (its token) whose match to 50 on the worker's
    ``hearts_server`` is over, played through the API once per worker for the tests
    that look at the end of a match without changing it (each in a context of its own,
    made with this storage): its toasts not yet shown (nor remembered as shown)."""
    ctx = browser.new_context(**browser_context_args)
    page = ctx.new_page()
    open_table(page)
    new_match_by_api(page, {"target": 50})
    finish_match_by_api(page)
    wait_ready(page)
    page.evaluate("localStorage.removeItem('hearts-toasted')")
    stored: dict[str, Any] = ctx.storage_state()
    ctx.close()
    return stored


# Screenshots are for a person to look at; no test reads them back. Some 250 a run,
# each waits for a frame and encodes it (docs/testing.md): HEARTS_TEST_SCREENSHOTS=0
# (scripts/test.sh's default) skips them, except in the tests marked ``screenshots``
# (making them is what those promise, test_screens.py).
SCREENSHOTS = os.environ.get("HEARTS_TEST_SCREENSHOTS", "1") != "0"


def _no_screenshot(*args: Any, **kwargs: Any) -> bytes:
    return b""


@pytest.fixture(autouse=True)
def _screenshots(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if SCREENSHOTS or request.node.get_closest_marker("screenshots") is not None:
        return
    monkeypatch.setattr(Page, "screenshot", _no_screenshot)
    monkeypatch.setattr(Locator, "screenshot", _no_screenshot)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """``test-artifacts/`` at the top of the repository (gitignored): screenshots."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
