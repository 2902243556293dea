"""Ids too large for the database's integers (issue 37): 404 with the API's error body,
never 500, on SQLite and PostgreSQL alike."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.both_databases(
    "ids past PostgreSQL's 32- and 64-bit integers overflow there, past 64 bits on SQLite"
)

HUGE = ["2147483648", "9223372036854775808", "99999999999999999999999", "-9223372036854775809"]


@pytest.mark.parametrize("number", HUGE)
def test_out_of_range_hand_numbers_are_not_found(south: Any, number: str) -> None:
    south.state()
    for path in (f"/api/hands/{number}", f"/api/analysis/{number}"):
        response = south.client.get(path, headers=south.headers)
        assert response.status_code == 404, (path, response.text)
        assert response.json()["error"]["code"] == "not_found"
        assert response.headers["cache-control"] == "no-store"


def test_no_integer_parameter_of_the_schema_gives_a_server_error(south: Any) -> None:
    """Every path or query parameter that /openapi.json calls an integer, at the
    edges of the databases' integers (a room's routes with a real room): 4xx, no 5xx."""
    south.state()
    code = south.call("POST", "/api/rooms", {})["code"]
    schema = south.client.get("/openapi.json").json()
    tried: set[str] = set()
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            params = operation.get("parameters", [])
            numbers = [p for p in params if p["schema"].get("type") == "integer"]
            for param in numbers:
                # the long-poll's ``after`` up to 2^53 is a version to wait for: past it
                edges = ["9223372036854775808", "-9223372036854775809"]
                for value in edges if param["in"] == "query" else ["2147483648", *edges]:
                    url = path.replace("{code}", code).replace(f"{{{param['name']}}}", value)
                    if param["in"] == "query":
                        url += f"?{param['name']}={value}"
                    response = south.client.request(method, url, headers=south.headers)
                    assert 400 <= response.status_code < 500, (method, url, response.text)
                    assert response.json()["error"]["code"], response.text
                    tried.add(path)
    # every integer the schema names was tried, among them these
    assert {"/api/hands/{number}", "/api/analysis/{hand}", "/api/rooms/{code}/events"} <= tried
