"""Achievements (issue 10, item 4): every condition met and not met by hands and
matches built for it; unlocked by the server at the end of a hand / match (the
State names them, the list shows them), once each; the release-0.1.0 database
upgrades with every goal locked and its history counted."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import random
import shutil
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from hearts.cards import QUEEN_SPADES, cards_of, lowest
from hearts.fairness import HandSeeds, derived_seed
from hearts.hand import HandState
from hearts.match import HandResult
from hearts.record import read_record
from hearts.rules import SHOOTER_CHOOSES, Rules
from hearts.server.app import create_app
from hearts.server.records import achievements as ach
from hearts.server.store import retention
from hearts.server.store.db import Store, achievements
from hearts.server.table.game import Game

RELEASE_DB = Path(__file__).parent.parent / "data" / "release-0.1.0.db"

# A plain hand: West took Q♠ (played by North), hearts spread, nobody shot the moon.
PLAIN = ach.HandFacts(
    level="medium",
    points=(2, 16, 5, 3),
    shooter=-1,
    hearts=(2, 3, 5, 3),
    queen=1,
    queen_from=2,
    jack=-1,
    jd_bonus=False,
)


def hand(**change: Any) -> ach.HandFacts:
    return dataclasses.replace(PLAIN, **change)


def test_there_are_at_least_15_goals_with_stable_unique_ids_names_and_icons() -> None:
    assert len(ach.GOALS) >= 15
    assert len(ach.BY_ID) == len(ach.GOALS)
    for goal in ach.GOALS:
        assert goal.id.isascii() and goal.id.replace("_", "").isalnum() and len(goal.id) <= 32
        assert goal.name and goal.condition and goal.icon and "\n" not in goal.condition


@pytest.mark.parametrize(
    ("facts", "met"),
    [
        (PLAIN, set()),
        # shot the moon: all 13 hearts and Q♠
        (hand(points=(0, 26, 26, 26), shooter=0, hearts=(13, 0, 0, 0), queen=0), {"moon"}),
        (hand(points=(26, 0, 26, 26), shooter=1, hearts=(0, 13, 0, 0)), set()),
        # stopped a moon: West took Q♠ and every other heart, South 1 to 3 hearts
        (hand(hearts=(1, 12, 0, 0)), {"moon_stopper"}),
        (hand(hearts=(3, 10, 0, 0)), {"moon_stopper"}),
        (hand(hearts=(4, 9, 0, 0)), set()),  # too many hearts: no moon was near
        (hand(hearts=(1, 11, 1, 0)), set()),  # North took one too: West was stopped anyway
        (hand(hearts=(1, 0, 12, 0), queen=0), set()),  # South took Q♠ itself
        # a clean hand: no heart, no Q♠, no moon by another
        (hand(hearts=(0, 5, 5, 3)), {"clean_hand"}),
        (hand(hearts=(0, 5, 5, 3), level="hard"), {"clean_hand", "clean_hand_hard"}),
        (hand(hearts=(0, 13, 0, 0), queen=1, shooter=1), set()),  # West's moon: 26 for South
        (hand(hearts=(0, 5, 5, 3), queen=0), set()),
        (hand(hearts=(1, 4, 5, 3), level="hard"), set()),
        # South played Q♠ into another seat's trick
        (hand(queen_from=0, queen=2), {"queen_giver"}),
        (hand(queen_from=0, queen=0), set()),
        # J♦ taken by South under the J♦ rule only
        (hand(jack=0, jd_bonus=True), {"jack_taker"}),
        (hand(jack=0, jd_bonus=False), set()),
        (hand(jack=2, jd_bonus=True), set()),
    ],
)
def test_hand_goals(facts: ach.HandFacts, met: set[str]) -> None:
    assert ach.hand_goals(facts) == met


def match(
    points: list[tuple[int, ...]],
    *,
    target: int = 100,
    levels: tuple[str | None, ...] | None = None,
    queens: tuple[int, ...] | None = None,
    hints: int = 0,
    checker_clean: bool = False,
) -> ach.MatchFacts:
    totals = [sum(col) for col in zip(*points, strict=True)]
    low = min(totals)
    return ach.MatchFacts(
        rules=Rules(target=target),
        points=tuple(points),
        winner=totals.index(low),
        levels=levels if levels is not None else ("medium",) * len(points),
        queens=queens if queens is not None else (1,) * len(points),
        hints=hints,
        checker_clean=checker_clean,
    )


# South wins 40 to 100+, never last; the others take Q♠
WIN = [(10, 30, 26, 20), (10, 30, 30, 30), (20, 46, 20, 50)]
LOSS = [(40, 0, 26, 10), (40, 20, 30, 30), (30, 40, 20, 60)]
# South is alone at the bottom after hand 1, then wins
COMEBACK = [(26, 0, 0, 0), (0, 26, 26, 26), (0, 26, 26, 26), (0, 26, 26, 26), (30, 26, 6, 26)]


@pytest.mark.parametrize(
    ("facts", "met"),
    [
        (match(LOSS, queens=(0, 1, 2)), {"first_match"}),
        (match(LOSS), {"first_match", "no_queen_match"}),
        (match(LOSS, target=50), {"first_match"}),  # a short match is not a whole one
        # Cảnh báo nước đi on for every card and never asking: won or lost, any length
        (match(LOSS, target=50, checker_clean=True), {"first_match", "checker_clean"}),
        (match(LOSS, queens=(1, -1, 2)), {"first_match"}),  # a hand that did not read
        (
            match(WIN),
            {"first_match", "first_win", "win_under_50", "no_hints_win", "no_queen_match"},
        ),
        (
            match(WIN, levels=("hard",) * 3, hints=2, queens=(0, 1, 1)),
            {"first_match", "first_win", "win_hard", "win_under_50"},
        ),
        (
            match(WIN, levels=("hard", None, "hard"), hints=1, queens=(0, 1, 1)),
            {"first_match", "first_win", "win_under_50"},  # a hand of unknown level
        ),
        (
            match(WIN, levels=("hard", "medium", "hard"), hints=1, queens=(0, 1, 1)),
            {"first_match", "first_win", "win_under_50"},
        ),
        (
            match(WIN, target=50, hints=1, queens=(0, 1, 1)),
            {"first_match", "first_win"},  # at 50 every winner is under 50
        ),
        (
            match(COMEBACK, hints=1, queens=(0, 1, 1, 2, 3)),
            {"first_match", "first_win", "comeback"},
        ),
        (
            # South last only in a tie for the highest: not "last"
            match([(13, 13, 0, 0), (0, 26, 26, 26), (40, 40, 74, 74)], hints=1, queens=(0,) * 3),
            {"first_match", "first_win"},
        ),
    ],
)
def test_match_goals(facts: ach.MatchFacts, met: set[str]) -> None:
    assert ach.match_goals(facts) == met


@pytest.mark.parametrize(
    ("history", "met"),
    [
        (ach.History(), set()),
        (ach.History(matches=9, streak=2, moons=4), set()),
        (ach.History(matches=10), {"matches_10"}),
        (ach.History(matches=100, streak=3), {"matches_10", "matches_100", "streak_3"}),
        (ach.History(moons=5), {"moons_5"}),
        (ach.History(variants=frozenset(ach.VARIANTS) - {"three"}), set()),
        (ach.History(variants=frozenset(ach.VARIANTS)), {"variants"}),
    ],
)
def test_counted_goals(history: ach.History, met: set[str]) -> None:
    assert ach.counted_goals(history) == met


def test_the_variants_of_a_table() -> None:
    assert ach.variants_of(Rules()) == set()
    assert ach.variants_of(Rules(players=3)) == {"three"}
    assert ach.variants_of(Rules(players=7, jd_bonus=True)) == {"many", "jd_bonus"}
    assert ach.variants_of(Rules(qs_breaks_hearts=True, moon=SHOOTER_CHOOSES)) == {
        "qs_breaks_hearts",
        "moon",
    }


def test_the_facts_of_a_played_hand() -> None:
    state = HandState.deal(Rules(), 4, random.Random(5))  # no pass
    while not state.is_terminal():
        state.push(lowest(state.legal_mask()))
    result = HandResult(tuple(state.points()), state.shooter())
    facts = ach.HandFacts.of(state, result, "hard")
    assert sum(facts.hearts) == 13 and facts.points == result.points
    assert state.taken[facts.queen] >> QUEEN_SPADES & 1
    assert state.seat_of_play(state.plays.index(QUEEN_SPADES)) == facts.queen_from
    assert facts.level == "hard" and facts.jack >= 0 and not facts.jd_bonus


# -- through the API, on SQLite and PostgreSQL ------------------------------------------------
def finish_hand(south: Any, s: Any) -> Any:
    """South passes its highest cards but keeps Q♠, and plays Q♠ into another's
    trick as soon as it may (else its lowest legal card): "Gửi đầm" comes soon."""
    for _ in range(200):
        h = s["hand"]
        if h["phase"] == "done":
            return s
        if h["phase"] == "pass" and h["passed"] is None:
            keep = [c for c in h["cards"] if c != "QS"]
            s = south.pass_cards(s, keep[-3:])
        elif h["turn"] == "S":
            dump = "QS" in h["legal"] and h["trick"] and h["trick"][0]["card"][1] != "S"
            s = south.play(s, "QS" if dump else h["legal"][0])
        else:
            s = south.step(s)
    raise AssertionError("the hand did not finish")


def expected_for_hand(south: Any, number: int) -> set[str]:
    """What the pure conditions say of hand ``number`` as the server recorded it."""
    record = south.call("GET", f"/api/hands/{number}")
    state, _ = read_record(record)
    points = tuple(record["points"][seat] for seat in record["deal"])
    facts = ach.HandFacts.of(state, HandResult(points, state.shooter()), "easy")
    return ach.hand_goals(facts)


def test_finishing_hands_and_a_match_unlocks_what_happened_once(
    app_client: Callable[..., TestClient], new_south: Callable[..., Any]
) -> None:
    client = app_client(target=50)
    south = new_south(client)
    south.call("PUT", "/api/settings", {"level": "easy", "quick": True})
    listed = south.call("GET", "/api/achievements")
    assert [a["id"] for a in listed["achievements"]] == [g.id for g in ach.GOALS]
    assert not any(a["unlocked"] for a in listed["achievements"])
    assert listed["match"] == {"queens": {"S": 0, "W": 0, "N": 0, "E": 0}, "unlocked": []}

    had: set[str] = set()
    s = south.state()
    for number in range(1, 40):
        assert s["unlocked"] == []  # nothing while a hand is played
        s = finish_hand(south, s)
        expected = expected_for_hand(south, number) - had
        if s["match"]["over"]:
            expected |= {"first_match"} | ({"first_win"} if s["match"]["winner"] == "S" else set())
            expected -= had
        got = [u["id"] for u in s["unlocked"]]
        assert expected <= set(got), (number, got)
        assert not set(got) & had  # never twice
        assert south.state()["unlocked"] == s["unlocked"]  # the same on every look
        had |= set(got)
        if s["match"]["over"]:
            break
        s = south.call("POST", "/api/next-hand", {"version": s["version"]})
        assert s["unlocked"] == []

    assert had & {g.id for g in ach.GOALS[:6]}, had  # a hand's goal was met on the way
    listed = south.call("GET", "/api/achievements")
    by_id = {a["id"]: a for a in listed["achievements"]}
    assert {i for i, a in by_id.items() if a["unlocked"]} == had
    first = by_id["first_match"]
    assert first["unlocked"] and dt.datetime.fromisoformat(first["unlocked_at"]).tzinfo
    assert first["name"] == "Trận đầu tiên" and first["progress"] is None
    assert by_id["matches_10"]["progress"] == 1 and by_id["matches_10"]["goal"] == 10
    assert set(listed["match"]["unlocked"]) == had
    assert sum(listed["match"]["queens"].values()) == len(s["match"]["hands"])

    # A second match: first_match is met again, and stays one row
    s = south.call("POST", "/api/new-match", {"version": s["version"]})
    assert south.call("GET", "/api/achievements")["match"]["unlocked"] == []
    while not s["match"]["over"]:
        s = finish_hand(south, s)
        assert "first_match" not in [u["id"] for u in s["unlocked"]]
        if not s["match"]["over"]:
            s = south.call("POST", "/api/next-hand", {"version": s["version"]})
    store = client.app.state.tables.store  # type: ignore[attr-defined]
    with store.read() as conn:
        rows = conn.execute(
            sa.select(achievements.c.achievement).where(achievements.c.achievement == "first_match")
        ).all()
    assert len(rows) == 1
    listed = south.call("GET", "/api/achievements")
    assert {a["id"]: a for a in listed["achievements"]}["matches_10"]["progress"] == 2


@pytest.mark.both_databases("grouped sums, on each database")
def test_stats_give_points_per_hand_by_difficulty(south: Any) -> None:
    stats = south.call("GET", "/api/stats")
    assert stats["levels"]["easy"] == {"hands": 0, "points": 0, "average": None}
    s = finish_hand(south, south.state())
    stats = south.call("GET", "/api/stats")
    mine = s["hand"]["points"]["S"]
    assert stats["levels"]["easy"] == {"hands": 1, "points": mine, "average": float(mine)}
    assert stats["levels"]["hard"]["hands"] == 0


@pytest.mark.both_databases("the store's inserts of goals, once each")
def test_a_goal_met_again_is_not_unlocked_again(db_url: str) -> None:
    """At the store: a hand (seeded: a clean hand at Khó) that ends a match (target
    1) unlocks its goals in the saving transaction; looking at it again, or at the
    next match meeting them again, inserts nothing."""
    store = Store(db_url)

    def played(seed: int) -> Callable[[int], Game]:
        def deal(_match_id: int) -> Game:
            game = Game.new(Rules(target=1), 1, HandSeeds(derived_seed(seed, "goal")), 1)
            hand = game.hand
            for seat in range(4):
                if hand.phase == "pass":
                    hand.pass_cards(seat, sum(1 << c for c in list(cards_of(hand.hands[seat]))[:3]))
            while not hand.is_terminal():
                hand.push(lowest(hand.legal_mask()))
            game.match.finish_hand()
            return game

        return deal

    try:
        pid = store.player_for("ab" * 32, create=True)
        assert pid is not None
        store.set_settings(pid, "hard", None)
        got = []
        for version in (0, 1):
            with store.write() as conn:
                store.bump_version(conn, pid, version)
                loaded = store.load(conn, pid, version)
                store.new_match(conn, loaded, played(12))
                store.save(conn, loaded)
                got.append([u["id"] for u in ach.record(conn, loaded, 0)])
                assert ach.record(conn, loaded, 0) == []  # looked at again
        assert got[0] == [
            "clean_hand",
            "clean_hand_hard",
            "first_match",
            "first_win",
            "win_hard",
            "no_hints_win",
        ]
        assert got[1] == []
        with store.read() as conn:
            count = conn.execute(
                sa.select(sa.func.count()).where(achievements.c.player_id == pid)
            ).scalar_one()
        assert count == 6
        listed = ach.listing(store, pid)
        assert [a["id"] for a in listed["achievements"] if a["unlocked"]] == got[0]
        assert listed["match"]["unlocked"] == []  # all of them in the first match
        assert sum(listed["match"]["queens"].values()) == 1
    finally:
        store.close()


def test_retention_removes_a_player_with_achievements(south: Any, client: TestClient) -> None:
    s = south.state()
    s = finish_hand(south, s)
    store = client.app.state.tables.store  # type: ignore[attr-defined]
    pid = store.player_id(south.token)
    with store.write() as conn:
        conn.execute(
            achievements.insert().values(
                player_id=pid, achievement="first_win", unlocked_at=dt.datetime.now(dt.UTC)
            )
        )
    later = dt.datetime.now(dt.UTC) + dt.timedelta(days=1000)
    pruned = retention.prune(store, retention.Policy(), now=later)
    assert pid in pruned.ids
    with store.read() as conn:
        assert ach.unlocked_ids(conn, pid) == set()


def test_release_0_1_0_players_start_locked_with_their_history_counted(
    tmp_path: Path, new_south: Callable[..., Any]
) -> None:
    path = tmp_path / "old.db"
    shutil.copy(RELEASE_DB, path)
    recorded = json.loads(RELEASE_DB.with_suffix(".json").read_text())["players"]
    app = create_app(f"sqlite:///{path}", executor=ThreadPoolExecutor(1), prune_every=None)
    with TestClient(app) as client:
        checked = 0
        for name, was in recorded.items():
            if was["state"] is None:
                continue
            player = new_south(client, was["token"])
            listed = player.call("GET", "/api/achievements")
            assert not any(a["unlocked"] for a in listed["achievements"]), name
            progress = {a["id"]: a["progress"] for a in listed["achievements"]}
            assert progress["matches_10"] == min(10, was["stats"]["played"]), name
            assert progress["moons_5"] == min(5, was["stats"]["moons"]), name
            state = player.state()
            assert state["unlocked"] == []
            queens = listed["match"]["queens"]
            assert set(queens) == set(state["seats"])
            assert sum(queens.values()) == len(state["match"]["hands"]), name
            checked += 1
        assert checked
