"""A room's table from each seat: the State the match gives from that seat
(:meth:`Game.state`'s ``seat``) is the State of the same match rebuilt with that
seat at 0, as a hearts-hand/1 record with its seats renamed gives it (the
straightforward way), at every step of hands of 3 to 7 seats, the moon's choice
and a match's earlier hands included."""

from __future__ import annotations

import json
import random

import pytest

from hearts.cards import card_name, cards_of
from hearts.fairness import HandSeeds, derived_seed
from hearts.hand import HandState
from hearts.match import HandResult, Match
from hearts.record import read_record, write_record
from hearts.rules import Rules
from hearts.server.i18n.lang import using
from hearts.server.rooms.store import Room, Seat, now
from hearts.server.rooms.view import room_text, room_view
from hearts.server.table.game import Game


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


def turned(game: Game, viewer: int) -> Game:
    """``game`` rebuilt with seat ``viewer`` at 0 and the others after it in play
    order: the hand from its record with the seats renamed, the match's lists turned."""
    n = game.rules.players

    def turn(values: list[int] | tuple[int, ...]) -> list[int]:
        return [values[(r + viewer) % n] for r in range(n)]

    results = [
        HandResult(tuple(turn(r.points)), (r.shooter - viewer) % n if r.shooter >= 0 else -1)
        for r in game.results
    ]
    hand = by_record(game.hand, viewer, game.hand_no)
    match = Match(
        game.rules, results, totals=turn(game.totals), hand=hand, hand_number=game.hand_no
    )
    return Game(match=match, match_no=1, seeds=game.seeds, deal_seat=(game.deal_seat + viewer) % n)


def expected_state(game: Game, viewer: int) -> dict[str, object]:
    """The State from ``viewer`` the straightforward way: seat 0 of the turned game,
    where only the shooter chooses how a moon counts (the others wait)."""
    state = turned(game, viewer).state(3, "easy", False, take_back=False)
    if game.moon_pending and game.hand.shooter() != viewer:
        state["hand"]["phase"] = "done"
        state["hand"]["moon_choice"] = None
    return state


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_the_state_from_a_seat_is_the_state_of_the_turned_match(players: int) -> None:
    rng = random.Random(players)
    rules = Rules(players=players, moon="shooter_chooses", target=30)
    game = Game.new(rules, 1, HandSeeds(derived_seed(players, "turn")), 1)
    game.choosers = frozenset(range(players))
    steps = 0
    while not game.over and steps < 400:
        steps += 1
        for viewer in range(players):
            got = game.state(3, "easy", False, take_back=False, seat=viewer)
            assert got == expected_state(game, viewer)
        if game.moon_pending:
            game.seat_moon(game.hand.shooter(), rng.choice(["add_to_others", "subtract_from_self"]))
        elif game.hand_done:
            game.next_hand(HandSeeds(derived_seed(steps, "turn")))
        else:
            random_step(game.hand, rng)
            if game.hand_done:
                game._finish()
    assert game.results, "the match played at least one hand"


def test_a_state_from_a_seat_holds_its_own_cards_and_no_other() -> None:
    """Each seat's State shows that seat's cards, and never a card held by another seat."""
    rules = Rules(players=5)
    game = Game.new(rules, 1, HandSeeds(derived_seed(2, "turn")), 1)
    for viewer in range(5):
        hand = game.state(1, "easy", False, seat=viewer)["hand"]
        mine = {card_name(c) for c in cards_of(game.hand.hands[viewer])}
        assert set(hand["cards"]) == mine
        shown = json.dumps(hand)
        for other in range(5):
            if other != viewer:
                for c in cards_of(game.hand.hands[other]):
                    assert f'"{card_name(c)}"' not in shown


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
