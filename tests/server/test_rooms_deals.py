"""Committed deals in a room (docs/fairness.md, "Rooms: whose seeds"): the deal uses
the seeds the seated humans sent since the last deal, in the room's seat order, and
each seat sees the room's own deal order through its ``deal_seat``."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from room_guests import Guest, leaks, new_room, settled

from hearts.cards import names
from hearts.fairness import commitment, deal
from hearts.rules import Rules

CLIENT_OPTIONS = {"room_pace": 0.0}
SEEDS = ("0a0a", "1b1b", "2c2c")


def play_out(guests: list[Guest], code: str) -> dict[str, Any]:
    """Every human plays its lowest legal card (passes its first cards) until the
    hand is over; the Room then."""
    for _ in range(2000):
        moved = False
        for g in guests:
            room = g.room(code)
            hand = room["state"]["hand"]
            if hand["phase"] == "done":
                return room
            v = room["version"]
            if hand["phase"] == "pass" and hand["passed"] is None:
                g.act(code, "pass", {"version": v, "cards": hand["cards"][:3]}, status=None)
                moved = True
            elif hand["phase"] == "play" and hand["turn"] == "S":
                g.act(code, "play", {"version": v, "card": hand["legal"][0]}, status=None)
                moved = True
        if not moved:
            time.sleep(0.01)
    raise AssertionError("the hand did not end")


def test_a_room_deals_from_its_humans_seeds_in_seat_order(client: Any, history: Any) -> None:
    creator, guest, late = Guest(client), Guest(client), Guest(client)
    room = new_room(creator)
    code = room["code"]
    promised = room["fairness"]["next_commitment"]  # in the lobby already
    guest.act(code, "join", {"client_seed": SEEDS[1]})
    joined = late.act(code, "join", {})  # no seed: left out
    assert joined["fairness"]["next_commitment"] == promised
    bad = creator.act(code, "start", {"version": joined["version"], "client_seed": "X"}, 400)
    assert bad["error"]["code"] == "bad_client_seed"
    creator.act(code, "start", {"version": joined["version"], "client_seed": SEEDS[0]})
    room = settled(creator, code)
    fair = room["state"]["hand"]["fairness"]
    assert fair["commitment"] == promised and fair["client_seeds"] == list(SEEDS[:2])
    assert fair["server_seed"] is None and fair["deal_seat"] == 0
    assert guest.room(code)["state"]["hand"]["fairness"]["deal_seat"] == 1
    next_promised = room["fairness"]["next_commitment"]
    assert next_promised != promised and room["state"]["fairness"] == room["fairness"]
    # the hand's seed is revealed once it is over, to every seat, with the room's deal
    guests = [creator, guest, late]
    play_out(guests, code)
    dealt = None
    for seat, g in enumerate(guests):
        fair = g.room(code)["state"]["hand"]["fairness"]
        assert commitment(fair["server_seed"]) == promised and fair["deal_seat"] == seat
        masks = deal(Rules(target=50), fair["server_seed"], list(SEEDS[:2]), 1)
        letters = "SWNE"
        by_room_seat = {(r + seat) % 4: fair["deal"][letters[r]] for r in range(4)}
        assert by_room_seat == {s: names(m) for s, m in enumerate(masks)}
        dealt = dealt or by_room_seat
    # the next hand: only the seeds sent since (the dealer's), the promised server seed
    v = creator.room(code)["version"]
    guest.act(code, "next-hand", {"version": v, "client_seed": SEEDS[2]})
    fair = settled(creator, code)["state"]["hand"]["fairness"]
    assert fair["commitment"] == next_promised and fair["client_seeds"] == [SEEDS[2]]
    for seat, g in enumerate(guests):
        for message in g.received:
            assert leaks(message, seat, history) == [], message
