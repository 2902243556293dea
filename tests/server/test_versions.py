"""Any version the API accepts (0 … 2^53) is held by the database: one that is not
the current one is 409 stale with the State, never a 500; above 2^53 is 400.
Run with ``HEARTS_TEST_DATABASE_URL`` on PostgreSQL too (its INTEGER is 32-bit)."""

from __future__ import annotations

from typing import Any

import pytest

from hearts.server.store.db import players, token_hash

pytestmark = pytest.mark.both_databases("versions up to 2^53: PostgreSQL's INTEGER is 32-bit")

ACTIONS: dict[str, dict[str, Any]] = {
    "/api/pass": {"cards": ["2C", "3C", "4C"]},
    "/api/play": {"card": "2C"},
    "/api/step": {},
    "/api/next-hand": {},
    "/api/new-match": {},
}


@pytest.mark.parametrize("path", ACTIONS)
def test_a_large_version_that_is_not_current_is_stale(south: Any, path: str) -> None:
    state = south.state()
    for version in (2**31 - 1, 2**31, 2**32, 2**53):
        data = south.call("POST", path, {"version": version, **ACTIONS[path]}, status=409)
        assert data["error"]["code"] == "stale"
        assert data["state"]["version"] == state["version"]
    assert south.state() == state  # nothing changed


@pytest.mark.parametrize("path", ACTIONS)
def test_a_version_above_2_53_is_a_bad_request(south: Any, path: str) -> None:
    south.state()
    for version in (2**53 + 1, 2**63, 2**64):
        data = south.call("POST", path, {"version": version, **ACTIONS[path]}, status=400)
        assert data["error"]["code"] == "bad_request"


def test_the_database_holds_versions_up_to_2_53(south: Any) -> None:
    """A player far along (a version past 32 bits) still plays: the column is 64-bit."""
    state = south.state()
    store = south.client.app.state.tables.store
    with store.write() as conn:
        conn.execute(
            players.update()
            .where(players.c.token_hash == token_hash(south.token))
            .values(version=2**53 - 1)
        )
    state = south.state()
    assert state["version"] == 2**53 - 1
    after = south.advance(state)
    assert after["version"] == 2**53
    assert south.state() == after
