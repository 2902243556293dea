"""Every hand of a room is dealt from the seeds its seated humans sent for it
(docs/fairness.md, "Rooms: whose seeds"): each page sends one for the next deal
(``POST /api/rooms/{code}/seed`` or the socket's ``seed``), the server keeps it per
seat in the room's row, and the deal takes those present then, in seat order, with
``client_seats`` saying whose they are.  A seed never changes a hand already dealt."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import make_client
from room_guests import Guest, leaks, new_room, settled
from test_rooms_deals import play_out

from hearts.cards import names
from hearts.fairness import deal
from hearts.rules import Rules
from hearts.server.store.db import rooms

CLIENT_OPTIONS = {"room_pace": 0.0}
pytestmark = pytest.mark.both_databases("the seeds kept in the room's row, on each database")
RULES = Rules(target=50)


def seed_of(seat: int, hand: int) -> str:
    """A distinct 32-hex seed, as a page's (16 bytes)."""
    return f"{seat:02x}{hand:02x}" * 8


def by_room_seat(fair: dict[str, Any], seat: int) -> dict[int, list[str]]:
    """The revealed deal as seat ``seat`` sees it, by the room's own seats."""
    letters = RULES.seats
    return {(r + seat) % RULES.players: fair["deal"][letters[r]] for r in range(RULES.players)}


def assert_dealt_from(guests: list[Guest], code: str, seeds: list[str], hand: int) -> None:
    """The finished hand, seen by every seat: its seeds are ``seeds`` (seats 0 and 1),
    and its revealed deal is the one those seeds give (hearts.fairness)."""
    for seat, g in enumerate(guests):
        fair = g.room(code)["state"]["hand"]["fairness"]
        assert fair["client_seeds"] == seeds and fair["client_seats"] == [0, 1]
        masks = deal(RULES, fair["server_seed"], seeds, hand)
        assert by_room_seat(fair, seat) == {s: names(m) for s, m in enumerate(masks)}


def test_every_hand_of_a_room_carries_each_humans_seed_in_seat_order(
    client: Any, db_url: str, history: Any
) -> None:
    creator, guest = Guest(client), Guest(client)
    room = new_room(creator)
    code = room["code"]
    guests = [creator, guest]
    promised = room["fairness"]["next_commitment"]
    guest.act(code, "join", {})  # no seed with the join: it sends one of its own next
    guest.act(code, "seed", {"client_seed": seed_of(1, 1), "commitment": promised})
    room = creator.act(code, "seed", {"client_seed": seed_of(0, 1), "commitment": promised})
    creator.act(code, "start", {"version": room["version"]})  # no seed: the one sent counts
    fair = settled(creator, code)["state"]["hand"]["fairness"]
    assert fair["commitment"] == promised and fair["client_seats"] == [0, 1]
    assert fair["client_seeds"] == [seed_of(0, 1), seed_of(1, 1)]
    for hand in (2, 3):
        play_out(guests, code)
        assert_dealt_from(guests, code, [seed_of(0, hand - 1), seed_of(1, hand - 1)], hand - 1)
        promised = creator.room(code)["fairness"]["next_commitment"]
        # the guest first (its socket), the creator then (REST): the deal keeps seat order
        with client.websocket_connect(f"/api/rooms/{code}/ws") as socket:
            socket.send_text(json.dumps({"token": guest.token}))
            assert socket.receive_json()["type"] == "room"
            body = {"type": "seed", "id": 1, "client_seed": seed_of(1, hand)}
            socket.send_text(json.dumps(body | {"commitment": promised}))
            while (answer := socket.receive_json())["type"] != "answer":
                guest.received.append(answer)
            guest.received.append(answer)
            assert answer["status"] == 200, answer
        creator.act(code, "seed", {"client_seed": seed_of(0, hand), "commitment": promised})
        if hand == 3:  # another server on the database (as after a restart) deals with them
            with make_client(db_url, room_pace=0.0) as again:
                back = [Guest.__new__(Guest) for _ in guests]
                for b, g in zip(back, guests, strict=True):
                    b.client, b.token, b.received = again, g.token, g.received
                    b.forwarded = g.forwarded
                v = back[1].room(code)["version"]
                back[1].act(code, "next-hand", {"version": v})
                fair = settled(back[0], code)["state"]["hand"]["fairness"]
                play_out(back, code)
                assert_dealt_from(back, code, [seed_of(0, 3), seed_of(1, 3)], 3)
        else:
            v = guest.room(code)["version"]
            guest.act(code, "next-hand", {"version": v})  # dealt by the guest, with no seed
            fair = settled(creator, code)["state"]["hand"]["fairness"]
        assert fair["commitment"] == promised and fair["server_seed"] is None
        assert fair["client_seeds"] == [seed_of(0, hand), seed_of(1, hand)]
    for seat, g in enumerate(guests):
        for message in g.received:
            assert leaks(message, seat, history) == [], message


def test_a_late_duplicate_or_bad_seed_changes_nothing_dealt(client: Any) -> None:
    creator, guest, stranger = Guest(client), Guest(client), Guest(client)
    room = new_room(creator)
    code = room["code"]
    first = room["fairness"]["next_commitment"]
    guest.act(code, "join", {"client_seed": "aa"})
    guest.act(code, "seed", {"client_seed": "bb", "commitment": first})  # the latest counts
    version = creator.room(code)["version"]
    for bad in ("X", "", "A0", "0" * 65, None):
        refused = guest.act(code, "seed", {"client_seed": bad, "commitment": first}, 400)
        assert refused["error"]["code"] == "bad_client_seed"
    with client.websocket_connect(f"/api/rooms/{code}/ws") as socket:  # the socket's too
        socket.send_text(json.dumps({"token": guest.token}))
        assert socket.receive_json()["type"] == "room"
        for bad in ({"client_seed": "X"}, {}):
            socket.send_text(json.dumps({"type": "seed", "id": 2} | bad))
            answer = socket.receive_json()
            assert answer["status"] == 400 and answer["error"]["code"] == "bad_client_seed"
    refused = stranger.act(code, "seed", {"client_seed": "cc"}, 403)
    assert refused["error"]["code"] == "not_in_room"
    assert creator.room(code)["version"] == version  # nothing changed
    creator.act(code, "start", {"version": version, "client_seed": "dd"})
    room = settled(creator, code)
    dealt = room["state"]["hand"]
    assert dealt["fairness"]["client_seeds"] == ["dd", "bb"]
    # late: sent for the deal just made (its commitment), refused; nothing changes
    late = guest.act(code, "seed", {"client_seed": "ee", "commitment": first}, 409)
    assert late["error"]["code"] == "commitment_changed"
    again = creator.room(code)
    assert again["version"] == room["version"] and again["state"]["hand"] == dealt
    # sent for the next deal, twice: the hand in play keeps its seeds and cards
    following = room["fairness"]["next_commitment"]
    for seed in ("ff", "ff", "0123"):
        guest.act(code, "seed", {"client_seed": seed, "commitment": following})
    after = creator.room(code)
    assert after["state"]["hand"]["fairness"] == dealt["fairness"]
    assert after["state"]["hand"]["cards"] == dealt["cards"]
    assert after["fairness"]["next_commitment"] == following
    play_out([creator, guest], code)
    v = creator.room(code)["version"]
    creator.act(code, "next-hand", {"version": v})  # the creator sent none for this one
    fair = settled(creator, code)["state"]["hand"]["fairness"]
    assert fair["client_seeds"] == ["0123"] and fair["client_seats"] == [1]
    assert fair["commitment"] == following


def test_a_seed_never_moves_the_tables_timer(client: Any, db_url: str) -> None:
    """A seed changes nothing on the table: the server's next move (here Vừa passing
    for the humans after the room's 10 s) keeps its time, so sending seeds, however
    often, never holds the table up."""
    creator, guest = Guest(client), Guest(client)
    code = new_room(creator, turn_seconds=10)["code"]
    guest.act(code, "join", {})
    creator.act(code, "start", {"version": creator.room(code)["version"]})
    assert settled(creator, code)["waiting_for"] == ["S", "W"]  # the computers passed
    engine = sa.create_engine(db_url)
    query = sa.select(rooms.c.due_at, rooms.c.version).where(rooms.c.code == code)
    try:
        with engine.connect() as conn:
            due, version = conn.execute(query).one()
        assert due is not None
        for seed in ("ab", "cd", "ef"):
            guest.act(code, "seed", {"client_seed": seed})
        with engine.connect() as conn:
            assert conn.execute(query).one() == (due, version + 3)
    finally:
        engine.dispose()
