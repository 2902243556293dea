"""Đi lại (POST /api/take-back): South takes back its last card of the hand and the
computers' cards after it; the table is exactly as it was before that card, the
same card again brings the same replies, a setting turns it off, and a finished
match with a take-back is counted in the statistics."""

from __future__ import annotations

from typing import Any

import pytest


def _take_back(south: Any, state: Any, status: int = 200) -> Any:
    return south.call("POST", "/api/take-back", {"version": state["version"]}, status=status)


def _table(state: Any) -> Any:
    """Everything of a State but its version and the match's count of take-backs."""
    match = {k: v for k, v in state["match"].items() if k != "take_backs"}
    return {"hand": state["hand"], "match": match, "rules": state["rules"]}


def _souths_choice(s: Any) -> bool:
    h = s["hand"]
    return bool(h["phase"] == "play" and h["turn"] == "S" and len(h["legal"]) >= 2)


def _play_until_south(south: Any, state: Any) -> Any:
    """Step the computers until South is to play again (or the hand is over)."""
    for _ in range(20):
        if state["hand"]["phase"] == "done" or state["hand"]["turn"] == "S":
            return state
        state = south.step(state)
    raise AssertionError("South never got the turn back")


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_take_back_restores_the_table_and_the_same_card_brings_the_same_replies(
    south: Any, level: str
) -> None:
    south.call("PUT", "/api/settings", {"level": level})
    state = south.pass_cards(south.state())
    state = south.play_hand(state, until=lambda s: _souths_choice(s) and len(s["hand"]["tricks"]))
    before = state
    assert before["hand"]["can_take_back"] is True  # South played in the first trick
    card = before["hand"]["legal"][-1]
    replies = _play_until_south(south, south.play(before, card))
    assert replies["hand"]["can_take_back"] is True
    assert (
        len(replies["hand"]["tricks"]) > len(before["hand"]["tricks"])
        or replies["hand"]["trick"] != before["hand"]["trick"]
    )

    back = _take_back(south, replies)
    assert _table(back) == _table(before)
    assert back["match"]["take_backs"] == 1 and back["version"] > replies["version"]
    assert south.state() == back  # kept, not only answered

    again = _play_until_south(south, south.play(back, card))
    assert _table(again) == _table(replies)


def test_a_take_back_across_the_end_of_a_trick_reopens_it(south: Any) -> None:
    state = south.pass_cards(south.state())
    # South plays the last card of a trick: the trick is won and the next begun.
    state = south.play_hand(
        state, until=lambda s: s["hand"]["turn"] == "S" and len(s["hand"]["trick"]) == 3
    )
    assert state["hand"]["phase"] == "play"
    before = state
    after = _play_until_south(south, south.play(before))
    assert len(after["hand"]["tricks"]) == len(before["hand"]["tricks"]) + 1
    back = _take_back(south, after)
    assert _table(back) == _table(before)
    assert back["hand"]["trick"] == before["hand"]["trick"] and len(back["hand"]["trick"]) == 3


def test_take_backs_go_one_card_of_south_further_back_each(south: Any) -> None:
    state = south.pass_cards(south.state())
    positions = []
    for _ in range(2):
        state = south.play_hand(state, until=lambda s: s["hand"]["turn"] == "S")
        positions.append(state)
        state = _play_until_south(south, south.play(state))
    state = _take_back(south, state)
    assert _table(state) == _table(positions[1])
    state = _take_back(south, state)
    assert _table(state) == _table(positions[0])
    assert state["match"]["take_backs"] == 2


def test_nothing_to_take_back_before_south_plays_or_once_the_hand_is_over(south: Any) -> None:
    state = south.state()
    assert state["hand"]["can_take_back"] is False
    body = _take_back(south, state, status=409)
    assert body["error"] == {"code": "nothing_to_take_back", "message": "Không có lá nào để đi lại"}
    state = south.pass_cards(state)  # the pass is never taken back
    assert state["hand"]["can_take_back"] is False
    assert _take_back(south, state, status=409)["error"]["code"] == "nothing_to_take_back"
    state = south.play_hand(state)
    assert state["hand"]["can_take_back"] is False
    assert _take_back(south, state, status=409)["error"]["code"] == "nothing_to_take_back"
    assert south.state()["match"]["take_backs"] == 0


def test_a_take_back_on_a_stale_version_is_409_with_the_state(south: Any) -> None:
    state = south.pass_cards(south.state())
    # South's turn, and a computer's after South's card (South does not end the trick)
    state = south.play_hand(
        state, until=lambda s: s["hand"]["turn"] == "S" and len(s["hand"]["trick"]) < 3
    )
    played = south.play(state)
    moved = south.step(played)
    body = _take_back(south, played, status=409)
    assert body["error"]["code"] == "stale" and body["state"] == moved
    assert south.state() == moved


def test_the_setting_turns_take_backs_off(south: Any) -> None:
    state = south.pass_cards(south.state())
    state = south.play_hand(state, until=lambda s: s["hand"]["turn"] == "S")
    state = south.play(state)
    assert state["settings"]["take_back"] is True and state["hand"]["can_take_back"] is True
    state = south.call("PUT", "/api/settings", {"take_back": False})
    assert state["settings"]["take_back"] is False and state["hand"]["can_take_back"] is False
    body = _take_back(south, state, status=409)
    assert body["error"] == {"code": "take_back_off", "message": "Đi lại đang tắt trong cài đặt"}
    assert south.state() == state
    state = south.call("PUT", "/api/settings", {"take_back": True})
    assert _take_back(south, state)["match"]["take_backs"] == 1


def test_a_finished_match_with_a_take_back_is_counted_in_the_statistics(south: Any) -> None:
    def play_match(take_back: bool) -> None:
        state = south.state()
        state = south.call(
            "POST", "/api/new-match", {"version": state["version"], "rules": {"target": 50}}
        )
        took = False
        while not state["match"]["over"]:
            if state["hand"]["phase"] == "done":
                state = south.call("POST", "/api/next-hand", {"version": state["version"]})
                continue
            if take_back and not took and state["hand"]["can_take_back"]:
                state, took = _take_back(south, state), True
            state = south.advance(state)
        assert state["match"]["take_backs"] == int(take_back)

    assert south.call("GET", "/api/stats")["take_back_matches"] == 0
    play_match(take_back=True)
    play_match(take_back=False)
    stats = south.call("GET", "/api/stats")
    assert stats["played"] == 2 and stats["take_back_matches"] == 1


def test_a_room_offers_no_take_back(db_url: str) -> None:
    """Đi lại is against computers only: at a room's table (other humans) a card
    played stays played, whatever the player's setting."""
    import sys
    from concurrent.futures import ThreadPoolExecutor
    from pathlib import Path

    from fastapi.testclient import TestClient

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from room_guests import Guest, new_room, settled

    from hearts.server.app import create_app

    app = create_app(db_url, seed=5, executor=ThreadPoolExecutor(1), room_pace=0.0)
    with TestClient(app) as client:
        creator = Guest(client)
        room = new_room(creator)
        code = room["code"]
        creator.act(code, "start", {"version": room["version"]})
        room = settled(creator, code)
        hand = room["state"]["hand"]
        creator.act(code, "pass", {"version": room["version"], "cards": hand["cards"][:3]})
        for _ in range(8):
            room = settled(creator, code)
            hand = room["state"]["hand"]
            assert (
                hand["can_take_back"] is False and room["state"]["settings"]["take_back"] is False
            )
            if len(hand["tricks"]) >= 2:
                break
            if hand["turn"] == "S":
                creator.act(code, "play", {"version": room["version"], "card": hand["legal"][0]})
        else:
            raise AssertionError("the room's hand did not go on")
        refused = creator.call(
            "POST", f"/api/rooms/{code}/take-back", {"version": room["version"]}, status=None
        )
        assert refused["error"]["code"] in ("not_found", "bad_request")
        assert creator.room(code)["state"]["hand"] == hand
