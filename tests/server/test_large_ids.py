"""Ids too large for the database's integers (issue 37): 404 with the API's error body,
never 500, on SQLite and PostgreSQL alike."""

from __future__ import annotations

from typing import Any

import pytest

HUGE = ["2147483648", "9223372036854775808", "99999999999999999999999", "-9223372036854775809"]


@pytest.mark.parametrize("number", HUGE)
def test_out_of_range_hand_numbers_are_not_found(south: Any, number: str) -> None:
    south.state()
    for path in (f"/api/hands/{number}", f"/api/analysis/{number}"):
        response = south.client.get(path, headers=south.headers)
        assert response.status_code == 404, (path, response.text)
        assert response.json()["error"]["code"] == "not_found"
        assert response.headers["cache-control"] == "no-store"

