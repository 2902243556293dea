"""Browsers in a room, for the room tests: a token, its calls, what it received."""

from __future__ import annotations

import re
import time
import warnings
from collections.abc import Iterator
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

CARD = re.compile(r"^(?:[2-9TJQKA][CDSH])$")


class Guest:
    """One browser in a room: its token and every JSON body it received."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.token = client.post("/api/players").json()["token"]
        self.received: list[Any] = []

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def call(self, method: str, path: str, body: Any = None, status: int | None = 200) -> Any:
        """The answer's body (asserting its status, unless ``status`` is None)."""
        response = self.client.request(method, path, headers=self.headers, json=body)
        data = response.json()
        self.received.append(data)
        if status is not None:
            assert response.status_code == status, (response.status_code, data)
        return data

    def room(self, code: str) -> Any:
        return self.call("GET", f"/api/rooms/{code}")

    def act(self, code: str, what: str, body: dict[str, Any], status: int | None = 200) -> Any:
        return self.call("POST", f"/api/rooms/{code}/{what}", body, status)


def new_room(creator: Guest, **options: Any) -> Any:
    body = {"level": "easy", "turn_seconds": None, "rules": {"target": 50}, **options}
    return creator.call("POST", "/api/rooms", body)


def settled(guest: Guest, code: str) -> Any:
    """The Room once the computers moved and the table waits on a human."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        room = guest.room(code)
        if not room["computer_to_move"] and (room["waiting_for"] or room["phase"] != "playing"):
            return room
        time.sleep(0.02)
    raise AssertionError("the computers did not move")


def strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from strings(key)
            yield from strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from strings(value)
