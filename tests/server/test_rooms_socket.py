"""A seat's actions over the room's WebSocket (docs/api.md, Rooms): the same rules,
refusals and versions as the REST calls, answered on the socket.

Each action sent as ``{"type": "pass"|"play"|"moon"|"next-hand", "id": …, "version": V,
…}`` is answered ``{"type": "answer", "id": …, "status": …}`` with the Room (200) or the
REST refusal's body; every other screen gets the push as after a REST call.
Computers play at once here (``room_pace=0``).
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from room_guests import Guest, leaks, new_room, settled

from hearts.server.i18n.messages import ERRORS

# this module's server (the ``client`` fixture of conftest.py): its deals, the
# computers moving at once
CLIENT_OPTIONS = {"seed": 3, "room_pace": 0.0}


class Screen:
    """One seat's socket: every frame it received, and its actions."""

    def __init__(self, socket: Any, guest: Guest) -> None:
        self.socket = socket
        self.guest = guest
        self.frames: list[Any] = []
        self.asked = 0
        socket.send_text(json.dumps({"token": guest.token}))
        assert self.receive()["type"] == "room"

    def receive(self) -> Any:
        frame = self.socket.receive_json()
        self.frames.append(frame)
        return frame

    def send(self, message: Any) -> Any:
        """Send ``message`` (a dict as JSON, else as it is): the answer to it."""
        self.socket.send_text(json.dumps(message) if isinstance(message, dict) else message)
        while True:
            frame = self.receive()
            if frame["type"] in ("answer", "error", "pong"):
                return frame

    def act(self, what: str, body: dict[str, Any]) -> Any:
        self.asked += 1
        answer = self.send({"type": what, "id": self.asked, **body})
        assert answer["type"] == "answer" and answer["id"] == self.asked, answer
        return answer

    def until(self, version: int) -> Any:
        """Frames up to the Room at ``version`` (or later)."""
        while True:
            frame = self.receive()
            if frame.get("room") and frame["room"]["version"] >= version:
                return frame["room"]


def still(guest: Guest, code: str) -> Any:
    """The Room once no computer is about to move."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        room = guest.room(code)
        if not room["computer_to_move"]:
            return room
        time.sleep(0.02)
    raise AssertionError("the computers did not move")


def connect(client: TestClient, code: str) -> Any:
    return client.websocket_connect(f"/api/rooms/{code}/ws")


def started(client: TestClient) -> tuple[str, Guest, Guest, Any]:
    """A started room of two humans, settled on their pass."""
    creator, guest = Guest(client), Guest(client)
    code = new_room(creator)["code"]
    v = guest.act(code, "join", {})["version"]
    creator.act(code, "start", {"version": v})
    return code, creator, guest, settled(creator, code)


def test_three_humans_play_a_hand_over_their_sockets_and_see_no_other_hand(client, history) -> None:
    """Every pass, card and the next deal go over the sockets: each is answered with
    the Room after it, every other screen gets it pushed, and no frame to a seat
    names a card of another hand."""
    players = [Guest(client) for _ in range(3)]
    code = new_room(players[0])["code"]
    for p in players[1:]:
        p.act(code, "join", {})
    with connect(client, code) as s0, connect(client, code) as s1, connect(client, code) as s2:
        screens = [Screen(s, p) for s, p in zip((s0, s1, s2), players, strict=True)]
        v = players[0].room(code)["version"]
        players[0].act(code, "start", {"version": v})
        moves = 0
        for _ in range(500):
            room = still(players[0], code)
            done = False
            for screen in screens:
                seen = screen.guest.room(code)
                hand, v = seen["state"]["hand"], seen["version"]
                if hand["phase"] == "pass" and hand["passed"] is None:
                    answer = screen.act("pass", {"version": v, "cards": hand["cards"][:3]})
                elif hand["phase"] == "play" and hand["turn"] == "S":
                    answer = screen.act("play", {"version": v, "card": hand["legal"][0]})
                elif hand["phase"] == "done":
                    answer = screen.act("next-hand", {"version": v})
                    done = True
                else:
                    continue
                assert answer["status"] == 200, answer
                assert answer["room"]["version"] == v + 1 and answer["room"]["you"] == "S"
                moves += 1
                break
            if done:
                break
        assert moves > 13 and done
        final = players[0].room(code)
        assert final["state"]["match"]["hand_number"] == 2
        for screen in screens:
            assert screen.until(final["version"])["state"]["match"]["hand_number"] == 2
    for seat, screen in enumerate(screens):
        rooms = [f for f in screen.frames if f.get("room")]
        assert len(rooms) > moves  # every move reached every screen
        for frame in screen.frames:
            assert leaks(frame, seat, history) == [], frame
        versions = [f["room"]["version"] for f in rooms]
        assert versions == sorted(versions)  # in order, as on the page
    assert room  # the table settled after every move


def test_a_socket_acts_only_for_its_own_seat(client) -> None:
    code, creator, guest, room = started(client)
    v = room["version"]
    mine = creator.room(code)["state"]["hand"]["cards"]
    with connect(client, code) as g:
        by_guest = Screen(g, guest)
        # the creator's cards are not the guest's to pass
        answer = by_guest.act("pass", {"version": v, "cards": mine[:3]})
        assert answer["status"] == 400 and answer["error"]["code"] == "not_in_hand"
        # a socket names no other seat or token: its own seat, or refused
        for extra in ({"seat": "N"}, {"token": creator.token}):
            answer = by_guest.act("pass", {"version": v, "cards": mine[:3], **extra})
            assert answer["status"] == 400 and answer["error"]["code"] == "bad_request"
        # starting, removing and leaving are REST calls only
        for what in ("start", "remove", "leave", "join"):
            answer = by_guest.act(what, {"version": v})
            assert answer["status"] == 400 and answer["error"]["code"] == "bad_request"
    after = creator.room(code)
    assert after["version"] == v and after["state"]["hand"]["passed"] is None
    assert guest.room(code)["state"]["hand"]["passed"] is None


def test_a_double_send_or_a_stale_version_changes_nothing(client) -> None:
    code, creator, _guest, room = started(client)
    v = room["version"]
    dealt = room["state"]["hand"]["cards"]
    with connect(client, code) as s:
        screen = Screen(s, creator)
        first = screen.act("pass", {"version": v, "cards": dealt[:3]})
        assert first["status"] == 200
        assert sorted(first["room"]["state"]["hand"]["passed"]) == sorted(dealt[:3])
        # the same message again (a double tap), and another pass at that version
        for cards in (dealt[:3], dealt[3:6]):
            again = screen.act("pass", {"version": v, "cards": cards})
            assert again["status"] == 409
            assert again["error"] == {"code": "stale", "message": ERRORS["stale"][1]}
            assert again["room"]["version"] >= v + 1
            assert (
                again["room"]["state"]["hand"]["passed"] == first["room"]["state"]["hand"]["passed"]
            )
    # the same version by REST too: the socket's action took it
    assert creator.act(code, "pass", {"version": v, "cards": dealt[3:6]}, 409)["error"]["code"] == (
        "stale"
    )
    assert sorted(creator.room(code)["state"]["hand"]["passed"]) == sorted(dealt[:3])


def test_a_bad_message_gets_a_clear_error_and_the_socket_stays(client) -> None:
    code, creator, _guest, room = started(client)
    v = room["version"]
    bad = {"code": "bad_request", "message": ERRORS["bad_request"][1]}
    with connect(client, code) as s:
        screen = Screen(s, creator)
        for text in ("not json", "[1, 2]", '"pass"', "{"):
            assert screen.send(text) == {"type": "error", "error": bad}
        assert screen.send("x" * 20_000)["error"]["code"] == "too_large"
        for message in (
            {"type": "play", "id": 1, "version": "1", "card": "2C"},  # a version as text
            {"type": "play", "id": 2, "version": v},  # no card
            {"type": "teleport", "id": 3, "version": v},
            {"id": 4, "version": v},
            {"type": ["play"], "id": 5, "version": v},
        ):
            answer = screen.send(message)
            assert answer == {"type": "answer", "id": message["id"], "status": 400, "error": bad}
        # an id that is not a short string or a number is not echoed back
        answer = screen.send({"type": "play", "id": {"x": 1}, "version": v, "card": "2C"})
        assert answer["id"] is None and answer["error"] == bad
        assert screen.send({"type": "ping"}) == {"type": "pong"}  # still open
        # the rules' own refusals, as by REST
        answer = screen.act("play", {"version": v, "card": "2C"})
        assert answer["status"] == 409 and answer["error"]["code"] == "wrong_phase"
    assert creator.room(code)["version"] == v


def test_a_socket_refuses_in_the_language_it_asked_for(client) -> None:
    code, creator, _guest, room = started(client)
    with client.websocket_connect(f"/api/rooms/{code}/ws?lang=en") as s:
        screen = Screen(s, creator)
        answer = screen.act("play", {"version": room["version"], "card": "2C"})
        assert answer["status"] == 409 and answer["error"]["code"] == "wrong_phase"
        assert answer["error"]["message"] != ERRORS["wrong_phase"][1]


def test_a_binary_frame_is_a_bad_message_and_the_socket_stays(client) -> None:
    """A binary frame is not a JSON object: after the hello an error, the socket open;
    as the hello, the bad first message's refusal (close 4400)."""
    code, creator, _guest, _room = started(client)
    bad = {"code": "bad_request", "message": ERRORS["bad_request"][1]}
    with connect(client, code) as s:
        screen = Screen(s, creator)
        s.send_bytes(json.dumps({"type": "ping"}).encode())
        assert screen.receive() == {"type": "error", "error": bad}
        assert screen.send({"type": "ping"}) == {"type": "pong"}  # still open
    with connect(client, code) as s:
        s.send_bytes(json.dumps({"token": creator.token}).encode())
        assert s.receive_json() == {"type": "error", "error": bad}
        assert s.receive() == {"type": "websocket.close", "code": 4400, "reason": ""}


def test_a_deeply_nested_frame_is_a_bad_message_and_the_socket_stays(client) -> None:
    """JSON nested deeper than the parser goes (RecursionError, not ValueError) is a bad
    message like any other: after the hello an error and the socket open; as the
    hello, the bad first message's refusal (close 4400)."""
    code, creator, _guest, _room = started(client)
    bad = {"code": "bad_request", "message": ERRORS["bad_request"][1]}
    deep = "[" * 5000 + "]" * 5000
    with connect(client, code) as s:
        screen = Screen(s, creator)
        assert screen.send(deep) == {"type": "error", "error": bad}
        assert screen.send({"type": "ping"}) == {"type": "pong"}  # still open
    with connect(client, code) as s:
        s.send_text(deep)
        assert s.receive_json() == {"type": "error", "error": bad}
        assert s.receive() == {"type": "websocket.close", "code": 4400, "reason": ""}


def test_sockets_over_a_cap_are_refused_with_4429(client) -> None:
    """Sockets per token, per room and per address are capped (docs/api.md): the one
    over a cap gets too_many_sockets and close 4429; a closed socket frees its place."""
    caps = client.app.state.socket_caps
    caps.limits.update(token=2, room=3, address=5)
    creator, other, third = Guest(client), Guest(client), Guest(client)
    code, second = new_room(creator)["code"], new_room(other)["code"]
    for guest, room in ((other, code), (third, code), (creator, second), (third, second)):
        guest.act(room, "join", {})  # only members hold a room's sockets
    refused = {
        "type": "error",
        "error": {"code": "too_many_sockets", "message": ERRORS["too_many_sockets"][1]},
    }

    def refuses(guest: Guest | None, room: str) -> None:
        with connect(client, room) as s:
            if guest is not None:
                s.send_text(json.dumps({"token": guest.token}))
            assert s.receive_json() == refused
            assert s.receive() == {"type": "websocket.close", "code": 4429, "reason": ""}

    with contextlib.ExitStack() as stack:

        def opens(guest: Guest, room: str) -> None:
            Screen(stack.enter_context(connect(client, room)), guest)

        opens(creator, code)
        opens(creator, code)
        refuses(creator, code)  # its token's third
        refuses(creator, second)  # on any room
        opens(other, code)
        refuses(third, code)  # the room's fourth
        opens(other, second)
        opens(third, second)
        refuses(None, second)  # the address's sixth: before its hello
    assert not caps.open
    with connect(client, code) as s:
        Screen(s, creator)


NOT_IN_ROOM = {"code": "not_in_room", "message": ERRORS["not_in_room"][1]}


def refused_outsider(client: TestClient, code: str, outsider: Guest) -> None:
    """``outsider``'s socket on the room gets not_in_room and closes 4403."""
    with connect(client, code) as s:
        s.send_text(json.dumps({"token": outsider.token}))
        assert s.receive_json() == {"type": "error", "error": NOT_IN_ROOM}
        assert s.receive() == {"type": "websocket.close", "code": 4403, "reason": ""}


@pytest.mark.both_databases("who is in the room is read from the store")
def test_outsiders_cannot_fill_a_rooms_sockets(client) -> None:
    """Only the room's members hold its sockets and long polls (issue 57 item 6): an
    outsider's are refused 403 not_in_room before they count, so outsiders at every
    cap leave the seated players' sockets their places; a player who left keeps no
    action either."""
    caps = client.app.state.socket_caps
    caps.limits.update(room=2)
    creator, guest = Guest(client), Guest(client)
    code = new_room(creator)["code"]
    outsiders = [Guest(client) for _ in range(3)]
    for outsider in outsiders:
        refused_outsider(client, code, outsider)
        assert outsider.call("GET", f"/api/rooms/{code}/events", status=403)["error"] == (
            NOT_IN_ROOM
        )
        assert outsider.room(code)["you"] is None  # the lobby is still theirs to read
    assert not caps.open
    with contextlib.ExitStack() as stack:
        Screen(stack.enter_context(connect(client, code)), creator)
        v = guest.act(code, "join", {})["version"]
        by_guest = Screen(stack.enter_context(connect(client, code)), guest)  # seated now
        creator.act(code, "start", {"version": v})
        room = settled(guest, code)
        dealt = room["state"]["hand"]["cards"]
        guest.act(code, "leave", {"version": room["version"]})
        # a socket opened while seated stays, but acts for no seat once its player left
        answer = by_guest.act("pass", {"version": guest.room(code)["version"], "cards": dealt[:3]})
        assert answer["status"] == 403 and answer["error"] == NOT_IN_ROOM
    refused_outsider(client, code, guest)  # and a new one is an outsider's
