"""Rooms (issue 9): humans in any seats, computers in the rest, live on every screen.

Every rule of trust of the issue: a browser only receives what its own seat may see
(every response and every WebSocket frame of a whole match with three humans is
scanned against the true hands), a token acts only for its own seat, clear
Vietnamese refusals that change nothing, double taps applied once, a reconnect
gets the same Room.  Computers play at once here (``room_pace=0``).
"""

from __future__ import annotations

import json
import re
import sys
import time
import unicodedata
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from room_guests import CARD, Guest, leaks, new_room, settled, strings

from hearts.server.app import create_app
from hearts.server.config import Config
from hearts.server.i18n import messages_en
from hearts.server.i18n.messages import ERRORS, INVISIBLE_NAME, MARKS_NAME
from hearts.server.store.db import rooms as rooms_table

# this module's server (the ``client`` fixture of conftest.py): its deals, the
# computers moving at once
CLIENT_OPTIONS = {"seed": 3, "room_pace": 0.0}


def drain(socket: Any, until: Any) -> list[Any]:
    """Frames of ``socket`` up to and including the first that satisfies ``until``."""
    frames = []
    while True:
        frame = socket.receive_json()
        frames.append(frame)
        if until(frame):
            return frames


def test_a_whole_match_with_three_humans_shows_nobody_another_hand(client, history) -> None:
    """Three humans (and one computer) play a whole match to 50 over REST while
    their sockets listen: no response and no frame to one of them ever names a card
    in another hand before it is played."""
    players = [Guest(client) for _ in range(3)]
    room = new_room(players[0], name="Lan")
    code = room["code"]
    assert players[1].act(code, "join", {"name": "Minh"})["you"] == "S"
    assert players[2].act(code, "join", {})["seats"][0]["name"] == "Khách 3"
    sockets = []
    with (
        client.websocket_connect(f"/api/rooms/{code}/ws") as s0,
        client.websocket_connect(f"/api/rooms/{code}/ws") as s1,
        client.websocket_connect(f"/api/rooms/{code}/ws") as s2,
    ):
        sockets = [s0, s1, s2]
        for p, s in zip(players, sockets, strict=True):
            s.send_text(json.dumps({"token": p.token}))
            assert s.receive_json()["type"] == "room"
        room = players[0].room(code)
        room = players[0].act(code, "start", {"version": room["version"]})
        assert room["phase"] == "playing"
        assert [s["kind"] for s in room["seats"]] == ["human", "human", "human", "computer"]
        plays = 0
        for _ in range(5000):
            moved = False
            for p in players:
                seen = p.room(code)
                if seen["phase"] == "over":
                    break
                hand = seen["state"]["hand"]
                v = seen["version"]
                if hand["phase"] == "pass" and hand["passed"] is None:
                    p.act(code, "pass", {"version": v, "cards": hand["cards"][:3]}, status=None)
                    moved = True
                elif hand["phase"] == "play" and hand["turn"] == "S":
                    p.act(code, "play", {"version": v, "card": hand["legal"][0]}, status=None)
                    plays += 1
                    moved = True
                elif hand["phase"] == "done" and not seen["state"]["match"]["over"]:
                    p.act(code, "next-hand", {"version": v}, status=None)
                    moved = True
            else:
                if not moved:
                    time.sleep(0.01)  # the computer's move is on its way
                continue
            break
        final = players[0].room(code)
        assert final["phase"] == "over" and final["state"]["match"]["over"]
        # a finished match: clear refusals, nothing changes
        over = players[1].act(code, "next-hand", {"version": final["version"]}, status=409)
        assert over["error"] == {"code": "match_over", "message": "Trận đã kết thúc"}
        late = Guest(client).act(code, "join", {}, status=409)
        assert late["error"]["code"] == "match_over"
        assert players[0].room(code) == final
        assert len(final["state"]["match"]["hands"]) >= 2 and plays > 30
        frames = [
            drain(s, lambda f: f["type"] == "room" and f["room"]["phase"] == "over")
            for s in sockets
        ]
    for seat, (p, got) in enumerate(zip(players, frames, strict=True)):
        assert len(got) > 50  # the play reached every screen, card by card
        for message in p.received + got:
            assert leaks(message, seat, history) == [], message
        # each screen saw every version of the match after it joined, none twice out of order
        versions = [f["room"]["version"] for f in got]
        assert versions == sorted(versions)


def test_a_guest_cannot_start_remove_or_act_for_another_seat(client) -> None:
    creator, guest, outsider = Guest(client), Guest(client), Guest(client)
    code = new_room(creator)["code"]
    room = guest.act(code, "join", {"name": "Minh"})
    v = room["version"]
    refused = guest.act(code, "start", {"version": v}, status=403)
    assert refused["error"] == {"code": "creator_only", "message": ERRORS["creator_only"][1]}
    # the creator sits at the guest's "E" (viewer-relative)
    assert guest.act(code, "remove", {"version": v, "seat": "E"}, status=403)["error"]["code"] == (
        "creator_only"
    )
    assert outsider.act(code, "start", {"version": v}, status=403)["error"]["code"] == (
        "not_in_room"
    )
    # no call changes the rules of a room
    assert client.put(f"/api/rooms/{code}", headers=guest.headers, json={}).status_code == 405
    assert guest.room(code)["version"] == v  # nothing changed
    creator.act(code, "start", {"version": v})
    v = settled(creator, code)["version"]
    # the creator's cards are not the guest's to play: refused, nothing changes
    mine = creator.room(code)["state"]["hand"]["cards"]
    answer = guest.act(code, "pass", {"version": v, "cards": mine[:3]}, status=400)
    assert answer["error"]["code"] == "not_in_hand"
    assert outsider.act(code, "pass", {"version": v, "cards": mine[:3]}, status=403)
    after = creator.room(code)
    assert after["state"]["hand"]["passed"] is None
    assert guest.room(code)["state"]["hand"]["passed"] is None


def test_unknown_full_and_started_rooms_are_refused_in_vietnamese(client) -> None:
    creator = Guest(client)
    stranger = Guest(client)
    for code in ("NOSUCHROOMAAAAAA", "short", "K" * 300):
        body = stranger.call("POST", f"/api/rooms/{code}/join", {}, status=404)
        assert body == {"error": {"code": "room_not_found", "message": "Không tìm thấy phòng này"}}
        stranger.call("GET", f"/api/rooms/{code}", status=404)
    code = new_room(creator, rules={"players": 3})["code"]
    Guest(client).act(code, "join", {})
    last = Guest(client)
    last.act(code, "join", {})
    before = creator.room(code)
    assert before["full"]
    full = stranger.act(code, "join", {}, status=409)
    assert full["error"] == {"code": "room_full", "message": "Phòng đã đủ người"}
    assert creator.room(code) == before
    last.act(code, "leave", {"version": before["version"]})
    assert stranger.act(code, "join", {})["you"] == "P1"  # the freed seat is taken again


def test_names_are_checked_and_kept_as_text(client) -> None:
    creator = Guest(client)
    code = new_room(creator, name="<b>Lan</b>")["code"]
    assert creator.room(code)["seats"][0]["name"] == "<b>Lan</b>"  # text: the page escapes it
    guest = Guest(client)
    for bad in ("", "   ", "\u00a0\u3000", "x" * 21, "a\u0000b", "a\u200bb", 7):
        body = guest.act(code, "join", {"name": bad}, status=400)
        assert body["error"] == {"code": "bad_name", "message": ERRORS["bad_name"][1]}
    assert guest.room(code)["you"] is None
    assert guest.act(code, "join", {"name": "  Minh   Anh "})["seats"][0]["name"] == "Minh Anh"


INVISIBLE = [
    "\u0301\u0302\u0303",  # combining marks alone: nothing to carry them
    "\u200b\u200b",  # zero-width spaces
    "\u3164",  # Hangul filler: a letter that shows as nothing
    "\u2800 \u2800",  # braille blanks
    "\ufe0f\u034f",  # a variation selector, a grapheme joiner
]


@pytest.mark.parametrize("name", INVISIBLE)
def test_a_name_that_shows_as_nothing_is_refused(client, name: str) -> None:
    """Every other screen would show an empty seat name: bad_name, which says why."""
    creator = Guest(client)
    refused = creator.client.post("/api/rooms", headers=creator.headers, json={"name": name})
    assert refused.status_code == 400
    assert refused.json()["error"] == {"code": "bad_name", "message": INVISIBLE_NAME}
    code = new_room(creator)["code"]
    guest = Guest(client)
    body = guest.act(code, "join", {"name": name}, status=400)
    assert body["error"] == {"code": "bad_name", "message": INVISIBLE_NAME}
    assert guest.room(code)["you"] is None


ZALGO = [
    "a" + "\u0301\u0300\u0302\u0303" * 4,  # one letter under 16 marks: 17 characters
    "Lan" + "\u0336" * 12,  # a strike-through piled up on one letter
    "Z\u0351\u0352\u0353\u0354a",  # four marks on the Z
]


@pytest.mark.parametrize("name", ZALGO)
def test_a_letter_under_a_pile_of_marks_is_refused(client, name: str) -> None:
    """Zalgo text fits in 20 characters yet draws over the seats around it: more
    than three marks on one letter is bad_name, which says why (in both languages)."""
    creator = Guest(client)
    refused = creator.client.post("/api/rooms", headers=creator.headers, json={"name": name})
    assert refused.status_code == 400
    assert refused.json()["error"] == {"code": "bad_name", "message": MARKS_NAME}
    english = {**creator.headers, "X-Hearts-Lang": "en"}
    refused = creator.client.post("/api/rooms", headers=english, json={"name": name})
    assert refused.json()["error"]["message"] == messages_en.TEXTS[MARKS_NAME]
    code = new_room(creator)["code"]
    guest = Guest(client)
    body = guest.act(code, "join", {"name": name}, status=400)
    assert body["error"] == {"code": "bad_name", "message": MARKS_NAME}
    assert guest.room(code)["you"] is None


@pytest.mark.parametrize(
    "name",
    [
        "Nguye\u0302\u0303n",  # Vietnamese typed decomposed: composed, no mark left
        "\u0e01\u0e34\u0e48",  # Thai: a consonant with a vowel and a tone mark
        "\u0915\u094d\u0937\u093f",  # Devanagari ksi: a virama and a vowel sign
        "a\u0301\u0302\u0303",  # three marks: still a name
    ],
)
def test_names_with_a_few_marks_on_a_letter_are_kept(client, name: str) -> None:
    creator = Guest(client)
    code = new_room(creator)["code"]
    seated = Guest(client).act(code, "join", {"name": name})["seats"][0]
    assert seated["name"] == unicodedata.normalize("NFC", name)


def test_marks_and_decomposed_letters_are_kept_with_their_letters(client) -> None:
    """A name typed decomposed (e + U+0302 + U+0301) is stored composed (NFC), so its
    20 characters are counted as the player sees them."""
    creator = Guest(client)
    code = new_room(creator)["code"]
    decomposed = "Nguye\u0302\u0303n Thi\u0323 Ho\u0302\u0300ng Ha\u0300"
    assert len(decomposed) == 24
    seated = Guest(client).act(code, "join", {"name": decomposed})["seats"][0]
    assert seated["name"] == "Nguyễn Thị Hồng Hà"


@pytest.mark.both_databases("a room's versioned update, on each database")
def test_a_double_tap_changes_nothing_twice(client) -> None:
    creator, guest = Guest(client), Guest(client)
    code = new_room(creator)["code"]
    v = guest.act(code, "join", {})["version"]
    creator.act(code, "start", {"version": v})
    again = creator.act(code, "start", {"version": v}, status=409)
    assert again["error"]["code"] == "stale" and again["room"]["you"] == "S"
    seen = settled(creator, code)
    dealt = seen["state"]["hand"]["cards"]
    assert again["room"]["state"]["hand"]["cards"] == dealt  # dealt once
    first = creator.act(code, "pass", {"version": seen["version"], "cards": dealt[:3]})
    second = creator.act(code, "pass", {"version": seen["version"], "cards": dealt[3:6]}, 409)
    assert second["error"]["code"] == "stale"
    assert second["room"]["state"]["hand"]["passed"] == first["state"]["hand"]["passed"]
    assert sorted(creator.room(code)["state"]["hand"]["passed"]) == sorted(dealt[:3])


@pytest.mark.both_databases("a room read back from its rows")
def test_reconnecting_gets_the_same_room(client) -> None:
    creator, guest = Guest(client), Guest(client)
    code = new_room(creator)["code"]
    v = guest.act(code, "join", {})["version"]
    creator.act(code, "start", {"version": v})
    settled(guest, code)
    with client.websocket_connect(f"/api/rooms/{code}/ws") as s:
        s.send_text(json.dumps({"token": guest.token}))
        first = s.receive_json()["room"]
        s.send_text(json.dumps({"type": "ping"}))
        assert s.receive_json() == {"type": "pong"}
    with client.websocket_connect(f"/api/rooms/{code}/ws") as s:
        s.send_text(json.dumps({"token": guest.token}))
        again = s.receive_json()["room"]

    def steady(room: Any) -> Any:
        return {k: v for k, v in room.items() if k not in ("seats", "deadline")}

    assert steady(again) == steady(first) == steady(guest.room(code))
    assert again["state"]["hand"]["cards"] == first["state"]["hand"]["cards"]


def test_a_socket_without_a_good_token_or_room_is_refused(client) -> None:
    creator = Guest(client)
    code = new_room(creator)["code"]
    with client.websocket_connect(f"/api/rooms/{code}/ws") as s:
        s.send_text(json.dumps({"token": "forged"}))
        assert s.receive_json()["error"]["code"] == "bad_token"
    with client.websocket_connect("/api/rooms/NOSUCHROOMAAAAAA/ws") as s:
        s.send_text(json.dumps({"token": creator.token}))
        assert s.receive_json()["error"]["code"] == "room_not_found"


def test_an_outsider_sees_the_lobby_and_no_cards(client) -> None:
    creator, guest, outsider = Guest(client), Guest(client), Guest(client)
    code = new_room(creator)["code"]
    v = guest.act(code, "join", {})["version"]
    creator.act(code, "start", {"version": v})
    seen = outsider.room(code)
    assert seen["you"] is None and seen["state"] is None and seen["phase"] == "playing"
    assert not [s for s in strings(seen) if CARD.match(s)]
    assert outsider.act(code, "join", {}, status=409)["error"]["code"] == "room_started"


def test_joining_is_limited_per_address(db_url: str) -> None:
    """Making rooms and joining share a per-address bucket (3 at once here)."""
    config = Config(new_player_burst=3, new_player_interval=600)
    app = create_app(db_url, config=config, executor=ThreadPoolExecutor(1), room_pace=0.0)
    with TestClient(app):
        # tokens from addresses of their own; every room call from one address
        players = [Guest(TestClient(app, client=(f"192.0.2.{i}", 1))) for i in range(5)]
        for p in players:
            p.client = TestClient(app, client=("198.51.100.7", 1))
        code = new_room(players[0], rules={"players": 7})["code"]
        for p in players[1:3]:
            p.act(code, "join", {})
        refused = players[3].client.post(
            f"/api/rooms/{code}/join", headers=players[3].headers, json={}
        )
        assert refused.status_code == 429
        assert refused.json()["error"] == {
            "code": "join_limited",
            "message": ERRORS["join_limited"][1],
        }
        # when to try again: the bucket's next token, 600 s away here
        assert 1 <= int(refused.headers["Retry-After"]) <= 600
        assert players[3].room(code)["you"] is None
        players[4].client = TestClient(app, client=("198.51.100.8", 1))  # another address
        assert players[4].act(code, "join", {})["you"] == "P1"


def test_a_room_code_is_not_guessable(client) -> None:
    creator = Guest(client)
    codes = {new_room(creator)["code"] for _ in range(5)}
    assert len(codes) == 5
    for code in codes:
        assert re.fullmatch(r"[A-Z2-7]{16}", code)  # 80 bits of base32


def test_the_invite_link_serves_the_page(client) -> None:
    response = client.get("/r/ABCDEFGHIJKLMNOP")
    assert response.status_code == 200
    # the same page but for its first-deal ticket, made for each answer (docs/fairness.md)
    ticket = re.compile(r'(<meta name="hearts-first-deal" content=")[^"]+')
    assert ticket.search(response.text)
    assert ticket.sub(r"\1", response.text) == ticket.sub(r"\1", client.get("/").text)


@pytest.mark.both_databases("the sweep's query of overdue rooms")
def test_the_sweep_makes_an_overdue_move_of_any_process(client, db_url: str) -> None:
    """A move whose timer lived in a process that died is made by another process's
    sweep: here the timer is cancelled and the move left overdue in the row."""
    creator, guest = Guest(client), Guest(client)
    code = new_room(creator, turn_seconds=600)["code"]
    v = guest.act(code, "join", {})["version"]
    room = creator.act(code, "start", {"version": v})
    rooms = client.app.state.rooms  # type: ignore[attr-defined]
    deadline = time.monotonic() + 30
    while creator.room(code)["version"] == room["version"] and time.monotonic() < deadline:
        time.sleep(0.02)  # the computers pass
    waiting = creator.room(code)
    assert waiting["waiting_for"] == ["S", "W"] or sorted(waiting["waiting_for"]) == ["E", "S"]
    rooms.schedule(code, None)  # this process forgets the timer, like a killed one
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(rooms_table.update().where(rooms_table.c.code == code).values(due_at=1.0))
    engine.dispose()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        after = creator.room(code)
        if after["state"]["hand"]["passed"] is not None:
            break
        time.sleep(0.05)
    # Vừa passed for both absent humans, marked "(tự động)" on every screen
    assert after["state"]["hand"]["passed"] is not None
    assert all(s["auto"] for s in after["seats"] if s["kind"] == "human")
    steps = [(a["step"], a["card"]) for a in after["auto_plays"]]
    assert sorted(steps, key=str) == [("pass", None), ("pass", None)]
