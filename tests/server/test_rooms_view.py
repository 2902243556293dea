"""A room's table from each seat: the hand turned so that the viewer sits at 0 is the
same hand as the one a hearts-hand/1 record with its seats renamed gives (the
straightforward way), at every step of hands of 3 to 7 seats."""

from __future__ import annotations

import json
import random

import pytest

from hearts.cards import cards_of
from hearts.fairness import HandSeeds, derived_seed
from hearts.hand import HandState
from hearts.record import read_record, write_record
from hearts.rules import Rules
from hearts.server.i18n.lang import using
from hearts.server.rooms.store import Room, Seat, now
from hearts.server.rooms.view import room_text, room_view, turned_hand
from hearts.server.table.game import Game

FIELDS = ("passes", "hands", "phase", "plays", "trick", "leader", "turn", "taken", "winners")
MORE = ("broken", "first_leader", "broken_at", "direction")


def by_record(hand: HandState, viewer: int, number: int) -> HandState:
    letters = hand.rules.seats
    record = write_record(hand, number)
    record.pop("points", None)
    for key in ("deal", "passes"):
        record[key] = {
            letters[(letters.index(k) - viewer) % hand.n]: v for k, v in record[key].items()
        }
    return read_record(record)[0]


def random_step(hand: HandState, rng: random.Random) -> bool:
    """One random legal step of ``hand`` (the next seat's pass, or a card); False
    once the hand is over."""
    if hand.phase == "pass":
        seat = next(s for s in range(hand.rules.players) if not hand.passes[s])
        held = list(cards_of(hand.hands[seat]))
        hand.pass_cards(seat, sum(1 << c for c in rng.sample(held, hand.rules.pass_count)))
    elif hand.phase == "play":
        hand.push(rng.choice(list(cards_of(hand.legal_mask()))))
    else:
        return False
    return True


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_a_turned_hand_is_the_hand_seen_from_that_seat(players: int) -> None:
    rng = random.Random(players)
    rules = Rules(players=players)
    number = players % 3 + 1  # left, right or across (or none at 4)
    hand = HandState.deal(rules, number, rng)
    while True:
        for viewer in range(players):
            mine, theirs = turned_hand(hand, viewer), by_record(hand, viewer, number)
            assert tuple(mine.deal_masks) == tuple(theirs.deal_masks)
            for name in FIELDS + MORE:
                assert getattr(mine, name) == getattr(theirs, name), name
            assert mine.view(0) == theirs.view(0)
            assert mine.view(0).hand == hand.hands[viewer]
        if not random_step(hand, rng):
            return


def test_a_room_sent_as_text_is_the_room_view_and_its_table_is_built_once() -> None:
    """The JSON sent (the answer to an action and every push of that version) is the
    Room of room_view, for each seat and for a viewer with no seat; each seat's table
    is built once per version and a copy (the next version) builds its own."""
    rules = Rules(moon="shooter_chooses", target=50)
    seats = [Seat(seat=i, kind="human", name=f"Người {i}", player_id=i + 1) for i in range(3)]
    seats.append(Seat(seat=3, kind="computer"))
    game = Game.new(rules, 1, HandSeeds(derived_seed(7, "room")), 1)
    room = Room(1, "A" * 16, 5, "playing", 0, rules, "easy", 30, game, seats, due_at=now() + 9)
    for viewer in (0, 1, 2, None):
        text = room_text(room, viewer)
        expected = room_view(room, viewer)
        got = json.loads(text)
        expected["deadline"] = got["deadline"]  # seconds left: a moment later
        assert got == expected
    assert sorted(room.tables) == [(0, "vi"), (1, "vi"), (2, "vi")]
    built = dict(room.tables)
    room_text(room, 1)
    assert room.tables == built  # not built again
    with using("en"):  # another language: its own State, in its own words
        english = json.loads(room_text(room, 1))
    assert (1, "en") in room.tables and room.tables[1, "vi"] == built[1, "vi"]
    assert english["state"]["names"]["S"] == "You"
    assert json.loads(built[1, "vi"])["names"]["S"] == "Bạn"
    assert room.copy().tables == {}


@pytest.mark.parametrize("players", [4, 5])
def test_the_room_text_is_the_room_view_at_every_step_of_a_hand(players: int) -> None:
    """The JSON written for each seat (pydantic's, quicker) is the Room of room_view
    (the State's dict) at every step of a hand, from every seat, in both languages."""
    rng = random.Random(players)
    rules = Rules(players=players, target=50)
    seats = [Seat(seat=i, kind="human", name=f"Người {i}", player_id=i + 1) for i in range(3)]
    seats += [Seat(seat=i, kind="computer") for i in range(3, players)]
    game = Game.new(rules, 1, HandSeeds(derived_seed(11, "room")), 1)
    version = 1
    while True:
        room = Room(1, "B" * 16, version, "playing", 0, rules, "easy", None, game, seats)
        for viewer in (*range(players), None):
            for language in ("vi", "en"):
                with using(language):
                    assert json.loads(room_text(room, viewer)) == room_view(room, viewer)
        hand = game.hand
        if not random_step(hand, rng):
            return
        version += 1
