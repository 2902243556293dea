"""Who a public match's rating counts (issue 57, items 3 and 4): only real opponents
(a whole hand played at the table, a token older than the table, one seat of an
address), and whoever left the match for good ranks last even if they sat down
again.  Strangers come from addresses of their own through a trusted proxy."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent))
from room_guests import Guest, until_room
from server.test_public import CLIENT_OPTIONS, play, seek, stranger, where

from hearts.fairness import HandSeeds, derived_seed
from hearts.rules import Rules
from hearts.server.public import rating
from hearts.server.rooms.store import Room, Seat
from hearts.server.store.db import rating_changes
from hearts.server.table.game import Game

__all__ = ["CLIENT_OPTIONS"]  # the module's server: computers at once, a trusted proxy


def rated_ids(client: Any) -> dict[int, int]:
    """Each rated player's place in the match (rating_changes)."""
    with client.app.state.tables.store.read() as conn:
        rows = conn.execute(sa.select(rating_changes.c.player_id, rating_changes.c.place))
        return {pid: place for pid, place in rows}


def ids(client: Any, *guests: Guest) -> list[int]:
    return [client.app.state.tables.store.player_id(g.token) for g in guests]


@pytest.mark.both_databases("the rating's rows and the table's record, on each database")
def test_a_second_seat_of_one_address_is_no_opponent_and_a_returning_leaver_ranks_last(
    client,
) -> None:
    farmer, stranger_b, dodger = stranger(client, 1), stranger(client, 2), stranger(client, 3)
    puppet = Guest(client, address="10.0.0.1")  # the farmer's second browser
    where(puppet)
    code = ""
    for g in (farmer, puppet, stranger_b, dodger):
        code = seek(g)["code"]  # the fourth fills the table: it starts
    everyone = [farmer, puppet, stranger_b, dodger]
    play(everyone, code, lambda r: r["state"]["match"]["hands"] != [])
    # the dodger leaves for good after a whole hand, seeks again and is queued at the
    # same table (the only one of its kind with a free seat), then sits down again
    dodger.call("POST", f"/api/public/{code}/leave")
    # the computers at rest: on PostgreSQL a seek passes over a row a computer holds locked
    until_room(farmer, code, lambda r: not r["computer_to_move"])
    assert seek(dodger)["code"] == code and not where(dodger)["seated"]
    play(everyone[:3], code, lambda _r: where(dodger)["seated"])
    final = play(everyone, code, lambda r: r["phase"] == "over")
    assert final["state"]["match"]["over"]
    f, p, s, d = ids(client, farmer, puppet, stranger_b, dodger)
    places = rated_ids(client)
    assert set(places) == {f, s, d}, places  # the puppet is not rated
    assert places[d] == 3  # last, whatever its total
    assert sorted((places[f], places[s])) in ([1, 1], [1, 2])
    assert puppet.call("GET", "/api/leaderboard")["me"] is None
    kept = client.app.state.rooms.current(code).public["people"]
    assert kept[str(d)]["left"] and kept[str(d)]["hands"] >= 1
    assert kept[str(f)]["from"] == kept[str(p)]["from"] != kept[str(s)]["from"]
    assert "10.0.0" not in str(kept)  # the addresses themselves are not kept


@pytest.mark.both_databases("the token's age against the table's, in SQL")
def test_a_token_younger_than_the_table_is_no_opponent(client) -> None:
    three = {"players": 3, "target": 50}
    opener, other = stranger(client, 1), stranger(client, 2)
    code = seek(opener, rules=three)["code"]
    fresh = Guest(client, address="10.0.0.3")  # first used by its seek: younger
    seek(other, rules=three)
    assert seek(fresh, rules=three)["code"] == code
    final = play([opener, other, fresh], code, lambda r: r["phase"] == "over")
    assert final["public"]["rated"] is not None
    places = rated_ids(client)
    assert set(places) == set(ids(client, opener, other)), places
    assert fresh.room(code)["public"]["rated"] is None


def test_whoever_left_ranks_last_even_with_the_lowest_total() -> None:
    game = Game.new(Rules(target=50), 1, HandSeeds(derived_seed(1, "rated")), 7)
    scored = len(game.results)
    people = {
        str(1001 + i): {"from": f"a{i}", "since": scored, "hands": 2, "left": i == 3}
        for i in range(4)
    }
    seats = [Seat(seat=i, kind="human", name=f"P{i}", player_id=1001 + i) for i in range(4)]
    room = Room(7, "Y" * 16, 9, "over", 0, Rules(target=50), "easy", None, game, seats)
    room.public = {"people": people, "left": [{"player_id": 1004, "name": "P3"}]}
    game.match.totals[:] = [40, 55, 61, 3]  # the returner has the lowest total
    placed = {r.player_id: r.place for r in rating.standings(room)}
    assert placed == {1001: 1, 1002: 2, 1003: 3, 1004: 4}
    # one address, two seats: the later one is not counted; nor is a newer token
    people[str(1002)]["from"] = "a0"
    placed = {r.player_id: r.place for r in rating.standings(room, newer={1003})}
    assert placed == {1001: 1, 1004: 2}
    # a seat that played no whole hand is not counted (nor does it take its address)
    people[str(1001)]["hands"] = 0
    assert {r.player_id for r in rating.standings(room, newer={1003})} == {1002, 1004}
