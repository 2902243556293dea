"""Browsers in a room, for the room tests: a token, its calls, what it received."""

from __future__ import annotations

import re
import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from hearts.cards import card_name, cards_of
from hearts.server.rooms.store import Room, RoomStore

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

CARD = re.compile(r"^(?:[2-9TJQKA][CDSH])$")


class Guest:
    """One browser in a room: its token and every JSON body it received."""

    def __init__(self, client: TestClient, address: str | None = None) -> None:
        self.client = client
        # behind a trusted proxy (a client made with one), the address it names
        self.forwarded = {"X-Forwarded-For": address} if address is not None else {}
        self.token = client.post("/api/players", headers=self.forwarded).json()["token"]
        self.received: list[Any] = []

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} | self.forwarded

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


def until_room(guest: Guest, code: str, check: Any, seconds: float = 30.0) -> Any:
    """The Room as ``guest`` sees it once ``check(room)`` holds (asked again and again
    for up to ``seconds``: a generous bound on a loaded machine)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        room = guest.room(code)
        if check(room):
            return room
        time.sleep(0.02)
    raise AssertionError(f"never: {guest.room(code)}")


def settled(guest: Guest, code: str) -> Any:
    """The Room once the computers moved and the table waits on a human."""
    return until_room(
        guest,
        code,
        lambda room: (
            not room["computer_to_move"] and bool(room["waiting_for"] or room["phase"] != "playing")
        ),
    )


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


def record_history(monkeypatch: pytest.MonkeyPatch) -> dict[tuple[str, int], Any]:
    """Every saved room's true hands by (code, version), from now on: the ground
    truth to scan the messages against (a test's ``history`` fixture)."""
    saved: dict[tuple[str, int], Any] = {}
    original = RoomStore.save

    def save(self: RoomStore, conn: Any, room: Room, before: Room) -> None:
        original(self, conn, room, before)
        if room.game is not None:
            hand = room.game.hand
            # the server seeds no answer may hold: the next deal's, and the hand's own
            # until it is over (docs/fairness.md)
            seeds = {room.next_seed}
            if room.game.seeds is not None and not room.game.hand_done:
                seeds.add(room.game.seeds.server_seed)
            saved[(room.code, room.version)] = (list(hand.hands), list(hand.passes), seeds)

    monkeypatch.setattr(RoomStore, "save", save)
    return saved


def leaks(message: Any, viewer_seat: int, truth: dict[tuple[str, int], Any]) -> list[str]:
    """Cards in ``message`` (a Room, or a body holding one) that lay in another
    seat's hand at that version (except those the viewer passed there), and the
    server seeds still secret at that version."""
    room = message.get("room", message) if isinstance(message, dict) else None
    if not isinstance(room, dict) or "version" not in room or room.get("state") is None:
        return []
    hands, passes, seeds = truth[(room["code"], room["version"])]
    hidden = 0
    for seat, mask in enumerate(hands):
        if seat != viewer_seat:
            hidden |= mask
    hidden &= ~passes[viewer_seat]
    secret = {card_name(c) for c in cards_of(hidden)}
    return [s for s in strings(message) if (CARD.match(s) and s in secret) or s in seeds]
