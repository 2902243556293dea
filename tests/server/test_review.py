"""Xem lại ván (POST /api/records/check): a hearts-hand/1 record, from this game's
GET /api/hands/{n} or from a file, checked by the rules and laid out trick by
trick; a record with an illegal step is refused naming it (and the seat whose card
it is) in the asker's language."""

from __future__ import annotations

import copy
import json
from typing import Any

from hearts.record import read_record


def _check(south: Any, record: Any, status: int = 200) -> Any:
    return south.call("POST", "/api/records/check", {"record": record}, status=status)


def _finished_hand(south: Any) -> tuple[Any, Any]:
    state = south.play_hand(south.state())
    return state, south.call("GET", "/api/hands/1")


def test_a_finished_hand_is_laid_out_trick_by_trick(south: Any) -> None:
    state, record = _finished_hand(south)
    got = _check(south, record)
    assert got["record"] == record and got["hand"] == 1 and got["finished"] is True
    assert got["seats"] == ["S", "W", "N", "E"] and got["names"]["S"] == "Bạn"
    assert got["points"] == state["hand"]["points"]
    # every hand face up: the deal, the passes, the hands when play began
    for seat in got["seats"]:
        assert sorted(got["deal"][seat]) == sorted(record["deal"][seat])
        assert sorted(got["passes"][seat]) == sorted(record["passes"][seat])
    assert got["pass_to"] == {"S": "W", "W": "N", "N": "E", "E": "S"}
    assert set(got["start"]["W"]) == (set(record["deal"]["W"]) - set(record["passes"]["W"])) | set(
        record["passes"]["S"]
    )
    # the tricks are the State's, with the points taken so far after each
    tricks = state["hand"]["tricks"]
    assert got["tricks"] == tricks
    assert got["tricks"][-1]["taken"] == state["hand"]["taken"]
    assert [c["card"] for t in got["tricks"] for c in t["cards"]] == record["plays"]


def test_a_record_as_json_text_from_another_tool_is_read(south: Any) -> None:
    _, record = _finished_hand(south)
    record = {k: v for k, v in record.items() if k != "points"}  # a tool may leave it out
    got = _check(south, json.dumps(record, indent=1))
    assert got["finished"] is True and sum(got["points"].values()) in (26, 78)
    # an unfinished record: the tricks so far, the last one open
    record["plays"] = record["plays"][:6]
    got = _check(south, record)
    assert got["finished"] is False and got["points"] is None
    assert len(got["tricks"]) == 2 and got["tricks"][1]["winner"] is None


def _not_following(record: Any) -> tuple[list[str], int]:
    """The record's plays with one card that does not follow suit: a seat that
    followed suit at play i plays instead its card of another suit of a later trick
    (it holds both then); and that i."""
    state, _ = read_record(record)
    plays = record["plays"]
    for i in range(4, len(plays)):
        led = plays[i - i % 4][1]
        if i % 4 == 0 or plays[i][1] != led:
            continue
        seat = state.seat_of_play(i)
        for j in range(i - i % 4 + 4, len(plays)):
            if state.seat_of_play(j) == seat and plays[j][1] != led:
                swapped = list(plays)
                swapped[i], swapped[j] = plays[j], plays[i]
                return swapped, i
    raise AssertionError("no play to spoil")


def test_a_record_with_an_illegal_step_is_refused_naming_it(south: Any) -> None:
    _, record = _finished_hand(south)
    bad = copy.deepcopy(record)
    bad["plays"], i = _not_following(record)
    body = _check(south, bad, status=400)
    assert body["error"]["code"] == "bad_record"
    message = body["error"]["message"]
    # the seat whose card it is, named ("bạn" inside the sentence for South's)
    seat = read_record(record)[0].seat_of_play(i)
    who = ["bạn", "Tây", "Bắc", "Đông"][seat]
    suit = {"C": "nhép", "D": "rô", "S": "bích", "H": "cơ"}[record["plays"][i - i % 4][1]]
    assert message.startswith(f"Lá thứ {i + 1} không hợp lệ: {who} còn lá {suit} mà đánh "), message
    assert message.endswith(": phải ra lá cùng chất"), message

    body = _check(south, "{not json", status=400)
    assert body["error"]["code"] == "bad_record"
    # the message in the asker's language alone, what is wrong as a code for the page
    assert body["error"]["message"] == "Tệp này không phải ván bài Hearts đã lưu"
    assert body["error"]["reason"] == {"code": "not_json"}
    twice = copy.deepcopy(record)
    twice["deal"]["N"][0] = record["deal"]["S"][0]
    reason = _check(south, twice, status=400)["error"]["reason"]
    assert reason == {"code": "dealt_twice", "card": record["deal"]["S"][0]}
    wrong = copy.deepcopy(record)
    wrong["points"] = {"S": 26, "W": 0, "N": 0, "E": 0}
    assert wrong["points"] != record["points"]
    body = _check(south, wrong, status=400)
    assert body["error"]["message"] == "Điểm ghi trong tệp không khớp với các vòng đã đánh"
    assert _check(south, {"format": "hearts-hand/2"}, status=400)["error"]["code"] == "bad_record"


def test_a_record_this_game_did_not_write_is_laid_out(south: Any) -> None:
    """SPEC's worked example (hand 4, no pass; tests/engine/data), not a record of
    this server: read, replayed, its points confirmed."""
    from pathlib import Path

    path = Path(__file__).parents[1] / "engine" / "data" / "hand_4_15_7_0.json"
    record = json.loads(path.read_text())
    got = _check(south, path.read_text())
    assert got["hand"] == 4 and got["finished"] is True and got["points"] == record["points"]
    for seat, cards in record["deal"].items():  # no pass: play began with the deal
        assert sorted(got["deal"][seat]) == sorted(got["start"][seat]) == sorted(cards)
    assert [c["card"] for t in got["tricks"] for c in t["cards"]] == record["plays"]
    assert got["tricks"][-1]["taken"] == record["points"]
