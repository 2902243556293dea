"""The audit's double-click and hidden-card checks (bench/audit.py), run in-process on
each database so that CI keeps them (the audit runs them on a real ``hearts serve``)."""

from __future__ import annotations

import asyncio
import importlib
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from hearts.server.app import create_app

BENCH = str(Path(__file__).resolve().parents[2] / "bench")


@pytest.fixture(scope="module")
def audit() -> ModuleType:
    """bench/audit.py (bench/ is not a package: audit imports its neighbour web.py)."""
    if BENCH not in sys.path:
        sys.path.insert(0, BENCH)
    return importlib.import_module("audit")


@pytest.fixture
def connect(db_url: str) -> Iterator[Callable[[], httpx.AsyncClient]]:
    """Clients of one app on the test's database, as the audit's clients of a server."""
    app = create_app(db_url, seed=5, executor=ThreadPoolExecutor(1))
    transport = httpx.ASGITransport(app=app)
    yield lambda: httpx.AsyncClient(transport=transport, base_url="http://t", timeout=60)
    app.state.tables.store.close()


@pytest.mark.both_databases("concurrent writers at one version")
def test_identical_actions_at_once_from_two_tabs_apply_once(audit, connect) -> None:
    rounds, n = 10, 6
    res: dict[str, Any] = asyncio.run(audit.double_click(connect, rounds, n))
    assert res["codes"] == {200: rounds, 409: rounds * (n - 1)}, res["bad"]
    assert res["good"] == rounds


def test_no_response_of_whole_hands_holds_a_hidden_card(audit, connect, db_url) -> None:
    res: dict[str, Any] = asyncio.run(audit.hidden_scan(connect, db_url, 2, 1))
    assert res["leaks"] == 0, res["examples"]
    assert res["responses"] > 100
