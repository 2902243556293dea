"""Arbitrary bodies on every call: never a server error, always the error shape, and a
refused call changes nothing."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CALLS = [
    ("POST", "/api/pass"),
    ("POST", "/api/play"),
    ("POST", "/api/step"),
    ("POST", "/api/next-hand"),
    ("POST", "/api/new-match"),
    ("PUT", "/api/settings"),
]

cards = st.sampled_from(["2C", "QS", "AH", "TD", "10H", "ZZ", "", "qs", "2c "])
scalars = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | cards
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner)
)
bodies = (
    st.fixed_dictionaries(
        {},
        optional={
            "version": st.integers(-3, 3) | scalars,
            "cards": st.lists(cards, max_size=5) | values,
            "card": cards | values,
            "level": st.sampled_from(["easy", "medium", "hard", "x"]) | values,
            "quick": st.booleans() | values,
        },
    )
    | values
)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(call=st.sampled_from(CALLS), body=bodies, raw=st.booleans())
def test_any_body_gets_a_state_or_a_4xx_error(south, call: Any, body: Any, raw: bool) -> None:
    method, path = call
    before = south.state()
    if isinstance(body, dict) and body.get("version") in (-1, 0, 1):
        body = {**body, "version": before["version"] + body["version"]}
    content = json.dumps(body).encode()
    if raw:  # also bodies that are not JSON at all
        content = content[: len(content) // 2]
    r = south.client.request(
        method,
        path,
        headers={**south.headers, "Content-Type": "application/json"},
        content=content,
    )
    data = r.json()
    assert r.status_code < 500, data
    if r.status_code == 200:
        assert set(data) == {
            "version",
            "settings",
            "rules",
            "seats",
            "names",
            "match",
            "hand",
            "unlocked",
            "fairness",
            "preparing_hard",
        }
        if path == "/api/new-match":
            south.call("PUT", "/api/settings", {"level": "easy"})
    else:
        assert 400 <= r.status_code < 500
        assert set(data["error"]) == {"code", "message"}
        after = south.state()
        assert after == before
