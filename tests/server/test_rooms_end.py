"""Rooms (issue 9), the end of things: a human shooter choosing how the moon counts,
the next hand (who deals it, and the timer), the end of the match on every screen,
and a long-poll player shown connected at once.  Computers play at once here.

The hands are planted (as in test_variants): hand 4 of a match, no pass, dealt so
that the room's creator holds every club, leads every trick and takes every card.
"""

from __future__ import annotations

import sys
import time
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
from room_guests import Guest, new_room

from hearts.cards import mask_of, parse_card
from hearts.hand import HandState
from hearts.match import HandResult, Match
from hearts.rules import SHOOTER_CHOOSES, Rules
from hearts.server.app import create_app
from hearts.server.i18n.messages import ERRORS
from hearts.server.rooms import live
from hearts.server.rooms.store import game_json
from hearts.server.store.db import rooms as rooms_table
from hearts.server.table.game import Game

# this module's server (the ``client`` fixture of conftest.py): its deals, the
# computers moving at once
CLIENT_OPTIONS = {"seed": 4, "room_pace": 0.0}


def moon_match(rules: Rules, totals: list[int]) -> Game:
    """Hand 4 (no pass) of a match at ``totals``: seat 0 holds every club, so it
    leads and wins every trick (nobody else can follow) and shoots the moon."""
    deal = []
    for text in ("2C-AC", "2D-AD", "2S-AS", "2H-AH"):
        lo, hi = text.split("-")
        deal.append(mask_of(range(parse_card(lo), parse_card(hi) + 1)))
    zero = (0,) * rules.players
    match = Match(
        rules, [HandResult(tuple(totals), -1), HandResult(zero, -1), HandResult(zero, -1)]
    )
    match.start(HandState(rules, deal, "none"))
    return Game(match=match, match_no=1)


def plant(client: TestClient, db_url: str, code: str, game: Game) -> None:
    """Put ``game`` on the room's table as its next version (as a change made by
    another process: this one is told, as by its NOTIFY)."""
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(
            rooms_table.update()
            .where(rooms_table.c.code == code)
            .values(
                game=game_json(game),
                version=rooms_table.c.version + 1,
                due_at=None,
                auto_plays="[]",
            )
        )
    engine.dispose()
    client.app.state.rooms.forget(code)  # type: ignore[attr-defined]


def overdue(db_url: str, code: str) -> None:
    """Make the room's next server move due now (as if turn_seconds had passed)."""
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(rooms_table.update().where(rooms_table.c.code == code).values(due_at=1.0))
    engine.dispose()


def quiet(guest: Guest, code: str, check: Any = lambda _r: True) -> Any:
    """The Room once the server has nothing to play for a computer and ``check``."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        room = guest.room(code)
        if not room["computer_to_move"] and check(room):
            return room
        time.sleep(0.02)
    raise AssertionError(f"never happened: {guest.room(code)}")


def two_humans(client: TestClient, db_url: str, rules: dict[str, Any], **options: Any) -> Any:
    """A started room: the creator (seat 0) and a guest (seat 1), two computers; the
    moon hand planted."""
    creator, guest = Guest(client), Guest(client)
    code = new_room(creator, rules=rules, **options)["code"]
    guest.act(code, "join", {"name": "Minh"})
    room = creator.room(code)
    creator.act(code, "start", {"version": room["version"]})
    quiet(creator, code)
    return creator, guest, code


def play_out(code: str, *humans: Guest) -> None:
    """The humans play their lowest legal card whenever it is their turn, until the
    hand is over."""
    for _ in range(200):
        acted = False
        for g in humans:
            room = quiet(g, code)
            hand = room["state"]["hand"]
            if room["phase"] == "playing" and hand["phase"] == "play" and hand["turn"] == "S":
                g.act(code, "play", {"version": room["version"], "card": hand["legal"][0]})
                acted = True
        if not acted:
            return
    raise AssertionError("the hand never ended")


def test_the_shooter_chooses_how_the_moon_counts_in_a_room(client, db_url: str) -> None:
    """Rules "Người bắn tự chọn": the human who shot chooses; the others wait."""
    rules = {"moon": "shooter_chooses", "target": 100}
    creator, guest, code = two_humans(client, db_url, rules)
    plant(client, db_url, code, moon_match(Rules(moon=SHOOTER_CHOOSES), [10, 20, 30, 40]))
    play_out(code, creator, guest)

    mine = quiet(creator, code)
    assert mine["waiting_for"] == ["S"]
    hand = mine["state"]["hand"]
    assert hand["phase"] == "moon_choice" and hand["points"] is None
    assert hand["moon_choice"]["subtract_from_self"]["totals"] == {
        "S": -16,
        "W": 20,
        "N": 30,
        "E": 40,
    }
    theirs = guest.room(code)
    assert theirs["waiting_for"] == ["E"]  # the creator, from the guest's seat
    assert theirs["state"]["hand"]["phase"] == "done"
    assert theirs["state"]["hand"]["points"] is None
    assert theirs["state"]["hand"]["moon_choice"] is None
    # Only the shooter chooses, once; nothing else moves on meanwhile.
    refused = guest.act(
        code, "moon", {"version": theirs["version"], "choice": "add_to_others"}, status=409
    )
    assert refused["error"]["code"] == "wrong_phase"
    refused = guest.act(code, "next-hand", {"version": theirs["version"]}, status=409)
    assert refused["error"]["code"] == "wrong_phase"

    done = creator.act(code, "moon", {"version": mine["version"], "choice": "subtract_from_self"})
    hand = done["state"]["hand"]
    assert hand["phase"] == "done" and hand["moon"] == "S"
    assert hand["moon_scoring"] == "subtract_from_self"
    assert done["state"]["match"]["totals"] == {"S": -16, "W": 20, "N": 30, "E": 40}
    seen = guest.room(code)["state"]
    assert seen["hand"]["moon"] == "E" and seen["hand"]["moon_scoring"] == "subtract_from_self"
    assert seen["match"]["totals"] == {"S": 20, "W": 30, "N": 40, "E": -16}
    again = {"version": done["version"], "choice": "add_to_others"}
    assert creator.act(code, "moon", again, status=409)["error"]["code"] == "wrong_phase"


def test_the_end_of_the_match_is_on_every_screen_and_stops_every_action(
    client, db_url: str
) -> None:
    creator, guest, code = two_humans(client, db_url, {"target": 50})
    plant(client, db_url, code, moon_match(Rules(target=50), [10, 45, 40, 30]))
    with (
        client.websocket_connect(f"/api/rooms/{code}/ws") as mine,
        client.websocket_connect(f"/api/rooms/{code}/ws") as theirs,
    ):
        for socket, g in ((mine, creator), (theirs, guest)):
            socket.send_json({"token": g.token})
        play_out(code, creator, guest)  # the moon adds 26 to the others: 71, 66, 56

        for socket, winner in ((mine, "S"), (theirs, "E")):
            while True:
                frame = socket.receive_json()
                if frame["type"] == "room" and frame["room"]["phase"] == "over":
                    break
            match = frame["room"]["state"]["match"]
            assert match["over"] and match["winner"] == winner
            assert frame["room"]["waiting_for"] == [] and frame["room"]["deadline"] is None
    over = guest.room(code)
    assert over["phase"] == "over" and creator.room(code)["phase"] == "over"
    message = ERRORS["match_over"][1]
    for g, what, body in (
        (guest, "next-hand", {}),
        (creator, "play", {"card": "2C"}),
        (guest, "pass", {"cards": ["2D", "3D", "4D"]}),
        (creator, "moon", {"choice": "add_to_others"}),
    ):
        refused = g.act(code, what, {"version": over["version"], **body}, status=409)
        assert refused["error"] == {"code": "match_over", "message": message}
    refused = Guest(client).act(code, "join", {}, status=409)
    assert refused["error"] == {"code": "match_over", "message": message}
    assert guest.room(code)["version"] == over["version"]  # nothing changed


@pytest.mark.both_databases("the sweep's query of overdue rooms")
def test_any_seated_human_deals_the_next_hand_and_the_timer_does_if_nobody_does(
    client, db_url: str
) -> None:
    # No timer ("không giới hạn"): the hand waits for a human to deal, any of them.
    creator, guest, code = two_humans(client, db_url, {"target": 100}, turn_seconds=None)
    plant(client, db_url, code, moon_match(Rules(), [0, 0, 0, 0]))
    play_out(code, creator, guest)
    done = quiet(guest, code)
    assert done["state"]["hand"]["phase"] == "done" and done["state"]["match"]["hand_number"] == 4
    assert done["waiting_for"] == [] and done["deadline"] is None
    time.sleep(1.5)  # the server's sweep runs every second: it deals nothing
    assert guest.room(code)["version"] == done["version"]
    outsider = Guest(client)
    refused = outsider.act(code, "next-hand", {"version": done["version"]}, status=403)
    assert refused["error"]["code"] == "not_in_room"
    dealt = guest.act(code, "next-hand", {"version": done["version"]})  # not the creator
    assert dealt["state"]["match"]["hand_number"] == 5
    assert dealt["state"]["hand"]["phase"] == "pass"
    assert quiet(creator, code)["state"]["match"]["hand_number"] == 5
    refused = creator.act(code, "next-hand", {"version": done["version"]}, status=409)
    assert refused["error"]["code"] == "stale"  # a double deal changes nothing

    # With a timer, the server deals it itself once turn_seconds have gone by.
    creator, guest, code = two_humans(client, db_url, {"target": 100}, turn_seconds=30)
    plant(client, db_url, code, moon_match(Rules(), [0, 0, 0, 0]))
    play_out(code, creator, guest)
    done = quiet(guest, code)
    assert done["state"]["hand"]["phase"] == "done"
    overdue(db_url, code)
    dealt = quiet(creator, code, lambda r: r["state"]["match"]["hand_number"] == 5)
    assert dealt["state"]["hand"]["phase"] == "pass"
    assert dealt["auto_plays"] == []


def test_a_long_poll_player_is_shown_connected_at_once(
    client, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Only the call itself may tell the others (not the sockets' periodic refresh).
    monkeypatch.setattr(live, "REFRESH_EVERY", 3600.0)
    creator, guest = Guest(client), Guest(client)
    code = new_room(creator)["code"]
    guest.act(code, "join", {})
    kept_rooms = client.app.state.rooms  # type: ignore[attr-defined]
    # The guest's page had no socket and was away: shown disconnected.
    kept = kept_rooms.current(code)
    kept.seats[1].seen_at = None
    kept_rooms.db.touch(kept.id, [1], None)
    with client.websocket_connect(f"/api/rooms/{code}/ws") as socket:
        socket.send_json({"token": creator.token})
        first = socket.receive_json()["room"]
        assert first["seats"][1]["connected"] is False
        # Its first long-poll call: every other screen shows it connected, pushed
        # then (not at the room's next change), before the answer to a later ping.
        polled = guest.call("GET", f"/api/rooms/{code}/events?after=-1")
        assert polled["seats"][0]["connected"] is True
        socket.send_json({"type": "ping"})
        frames = []
        while (frame := socket.receive_json())["type"] != "pong":
            frames.append(frame["room"])
        assert [f["seats"][1]["connected"] for f in frames] == [True]
        assert frames[0]["version"] == first["version"]


def test_a_player_who_stops_calling_is_shown_gone_without_any_change(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long-poll page closed (or a server process killed) sends nothing: the
    sockets' periodic refresh sees the seat's last sign of life age out and pushes."""
    monkeypatch.setattr(live, "REFRESH_EVERY", 0.1)
    app = create_app(db_url, seed=4, executor=ThreadPoolExecutor(1), room_pace=0.0)
    with TestClient(app) as client:
        gone_quietly(client)


def gone_quietly(client: TestClient) -> None:
    creator, guest = Guest(client), Guest(client)
    code = new_room(creator)["code"]
    guest.act(code, "join", {})  # a call: connected
    with client.websocket_connect(f"/api/rooms/{code}/ws") as socket:
        socket.send_json({"token": creator.token})
        first = socket.receive_json()["room"]
        assert first["seats"][1]["connected"] is True
        # Its last call was long ago (as the database and this process see it).
        kept_rooms = client.app.state.rooms  # type: ignore[attr-defined]
        kept = kept_rooms.current(code)
        kept_rooms.db.touch(kept.id, [1], 1.0)
        kept.seats[1].seen_at = 1.0
        time.sleep(2.0)  # some twenty refreshes
        socket.send_json({"type": "ping"})
        frames = []
        while (frame := socket.receive_json())["type"] != "pong":
            frames.append(frame["room"])
        assert [f["seats"][1]["connected"] for f in frames] == [False]
        assert frames[0]["version"] == first["version"]  # no change of the room
