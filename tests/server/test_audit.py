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

from hearts.fairness import HandSeeds
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


def test_every_refusal_the_audit_meets_has_the_one_error_shape(audit, connect) -> None:
    """The double clicks' 409s and a few refusals of other kinds, through the audit's
    response hook: each is {"error": {"code", "message"[, "reason"]}}."""
    shapes = audit.ErrorShapes()

    async def go() -> None:
        async with shapes.client(transport=connect()._transport, base_url="http://t") as c:
            token = (await c.post("/api/players")).json()["token"]
            h = {"Authorization": f"Bearer {token}"}
            state = (await c.get("/api/state", headers=h)).json()
            await c.post("/api/play", headers=h, json={"version": state["version"], "card": "ZZ"})
            await c.post("/api/play", headers=h, content=b"{")
            await c.get("/api/state", headers={"Authorization": "Bearer forged"})
            await c.post("/api/rooms", headers=h, json={"name": "a" + "\u0301\u0300" * 3})
            await c.post("/api/public/NOPE/react", headers=h, json={"reaction": "boo"})
            await c.get("/api/nowhere")

    asyncio.run(go())
    assert shapes.bad == 0, shapes.examples
    assert sum(shapes.codes.values()) == 6, shapes.codes
    planted = httpx.Response(400, json={"detail": "x"}, request=httpx.Request("GET", "http://t"))
    assert sys.modules["audit_checks"].shape_problem(planted) == "no error object"


def test_the_audit_sees_a_server_seed_shown_before_its_hand_is_over(
    audit, connect, db_url, monkeypatch
) -> None:
    """Planted: every State shows its hand's server seed at once; the hidden scan and
    the states' fairness check must both see it (they pass on the real server above)."""
    real = HandSeeds.to_json
    monkeypatch.setattr(HandSeeds, "to_json", lambda self, reveal: real(self, True))
    res: dict[str, Any] = asyncio.run(audit.hidden_scan(connect, db_url, 1, 1))
    assert res["leaks"] > 0

    async def first_state() -> Any:
        async with connect() as c:
            token = (await c.post("/api/players")).json()["token"]
            return (await c.get("/api/state", headers={"Authorization": f"Bearer {token}"})).json()

    state = asyncio.run(first_state())
    assert sys.modules["audit_checks"].fairness_of_state(state).startswith("server seed shown")
