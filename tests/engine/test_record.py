"""The hand record ``hearts-hand/1`` (SPEC §4) and ``hearts validate``: its shape,
and the exit codes 0 (legal), 1 (first illegal step), 2 (unreadable, no traceback)."""

from __future__ import annotations

import copy
import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from engine_positions import hand_of, play, play_out, random_hand

from hearts.cards import names
from hearts.cli import main
from hearts.record import IllegalStep, RecordError, read_record, write_record
from hearts.rules import SHOOTER_CHOOSES, Rules

DATA = Path(__file__).resolve().parent / "data"
SEED_HAND = json.loads((DATA / "hand_4_15_7_0.json").read_text())
SEATS = ["S", "W", "N", "E"]


def passed_record() -> dict[str, Any]:
    """A finished hand 1 (pass left) with every seat's pass."""
    state = random_hand(Rules(), 1, random.Random(3))
    return write_record(state, 1)


def run(capsys: pytest.CaptureFixture[str], tmp_path: Path, record: Any) -> tuple[int, str, str]:
    """``hearts validate FILE`` on ``record`` (a dict is written as JSON, text as is)."""
    path = tmp_path / "hand.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record), encoding="utf-8")
    code = main(["validate", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


# -- the record's shape ---------------------------------------------------------------------
def test_record_has_exactly_the_spec_fields() -> None:
    record = passed_record()
    assert list(record) == ["format", "rules", "hand", "pass", "deal", "passes", "plays", "points"]
    assert record["format"] == "hearts-hand/1"
    assert record["rules"] == {
        "qs_breaks_hearts": False,
        "moon": "add_to_others",
        "jd_bonus": False,
    }
    assert record["hand"] == 1 and record["pass"] == "left"
    assert list(record["deal"]) == SEATS and list(record["passes"]) == SEATS
    assert all(len(cards) == 13 for cards in record["deal"].values())
    assert all(len(cards) == 3 for cards in record["passes"].values())
    assert len(record["plays"]) == 52 and record["plays"][0] == "2C"
    assert list(record["points"]) == SEATS and sum(record["points"].values()) in (26, 78)
    for cards in [*record["deal"].values(), *record["passes"].values(), record["plays"]]:
        assert all(isinstance(x, str) and len(x) == 2 for x in cards)


def test_deal_is_before_passing() -> None:
    state = random_hand(Rules(), 1, random.Random(3))
    record = write_record(state, 1)
    for s, seat in enumerate(SEATS):
        assert record["deal"][seat] == names(state.deal_masks[s])
        assert set(record["passes"][seat]) <= set(record["deal"][seat])
        receiver = SEATS[(s + 1) % 4]  # hand 1 passes left
        assert not set(record["passes"][seat]) & set(record["deal"][receiver])


def test_no_pass_hand_writes_empty_passes() -> None:
    record = write_record(hand_of(("2C-AC", "2D-AD", "2S-AS", "2H-AH")), 4)
    assert record["pass"] == "none" and record["passes"] == {}


def test_hand_in_progress_has_no_points() -> None:
    state = hand_of(("2C-AC", "2D-AD", "2S-AS", "2H-AH"))
    play(state, "2C 2D 2S 2H 3C")
    record = write_record(state, 4)
    assert "points" not in record and record["plays"] == ["2C", "2D", "2S", "2H", "3C"]


def test_variant_rules_are_written_and_read_back() -> None:
    rules = Rules(players=5, qs_breaks_hearts=True, moon=SHOOTER_CHOOSES, jd_bonus=True)
    state = random_hand(rules, 2, random.Random(8))
    record = write_record(state, 2)
    assert record["rules"] == {
        "qs_breaks_hearts": True,
        "moon": "shooter_chooses",
        "jd_bonus": True,
        "players": 5,
    }
    assert list(record["deal"]) == ["P1", "P2", "P3", "P4", "P5"]
    again, _ = read_record(json.dumps(record))
    assert again.rules == rules and write_record(again, 2) == record


def test_seed_record_reads_back_identical() -> None:
    state, number = read_record(json.dumps(SEED_HAND))
    assert write_record(state, number) == SEED_HAND


# -- hearts validate: exit 0 -----------------------------------------------------------------
def test_validate_full_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, tmp_path, SEED_HAND)
    assert code == 0
    assert json.loads(out) == {"S": 4, "W": 15, "N": 7, "E": 0}


def test_validate_record_with_passes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = passed_record()
    code, out, _ = run(capsys, tmp_path, record)
    assert code == 0 and json.loads(out) == record["points"]


def test_validate_record_in_progress(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = copy.deepcopy(SEED_HAND)
    del record["points"]
    record["plays"] = record["plays"][:12]
    code, out, _ = run(capsys, tmp_path, record)
    assert code == 0
    state, _ = read_record(json.dumps(record))
    assert json.loads(out) == dict(zip(SEATS, state.raw_points(), strict=True))


def test_validate_reads_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: Any) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(SEED_HAND)))
    assert main(["validate", "-"]) == 0
    assert json.loads(capsys.readouterr().out) == {"S": 4, "W": 15, "N": 7, "E": 0}


def test_validate_console_script_on_stdin() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "hearts", "validate", "-"],
        input=json.dumps(SEED_HAND),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"S": 4, "W": 15, "N": 7, "E": 0}


# -- hearts validate: exit 1 -----------------------------------------------------------------
def test_validate_names_a_play_off_suit(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = copy.deepcopy(SEED_HAND)
    del record["points"]
    # Trick 1: W 2C, N QC, E 4C, S 9C.  East holds 7♦ but also 4♣: a diamond is refused.
    record["plays"] = ["2C", "QC", "7D"]
    code, out, err = run(capsys, tmp_path, record)
    assert code == 1
    illegal = json.loads(out)["illegal"]
    assert illegal["index"] == 2 and illegal["seat"] == "E" and illegal["card"] == "7D"
    assert "must_follow_suit" in illegal["reason"]
    assert "play 2" in err and "E" in err and "7D" in err and "follow suit" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("plays", "index", "seat", "card", "reason"),
    [
        (["3C"], 0, "W", "3C", "not_in_hand"),  # North holds 3♣
        (["6C"], 0, "W", "6C", "must_lead_lead_card"),
        (["2C", "QC", "4C", "9C", "3H"], 4, "N", "3H", "not_in_hand"),
        (["2C", "QC", "4C", "9C", "7H"], 4, "N", "7H", "hearts_not_broken"),
        (["2C", "AH"], 1, "N", "AH", "must_follow_suit"),
    ],
)
def test_validate_names_the_first_illegal_play(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    plays: list[str],
    index: int,
    seat: str,
    card: str,
    reason: str,
) -> None:
    record = copy.deepcopy(SEED_HAND)
    del record["points"]
    record["plays"] = plays
    code, out, _ = run(capsys, tmp_path, record)
    assert code == 1
    assert json.loads(out)["illegal"] | {"reason": reason} == {
        "step": "play",
        "index": index,
        "seat": seat,
        "card": card,
        "reason": reason,
    }
    assert json.loads(out)["illegal"]["reason"].startswith(reason)


def test_validate_points_that_disagree(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = copy.deepcopy(SEED_HAND)
    record["points"] = {"S": 4, "W": 15, "N": 0, "E": 7}
    code, out, err = run(capsys, tmp_path, record)
    assert code == 1
    illegal = json.loads(out)["illegal"]
    assert illegal["step"] == "points" and "disagree" in illegal["reason"]
    assert "points" in err


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"plays": SEED_HAND["plays"][:20]}, "unfinished"),  # points for a hand in progress
        ({"plays": [*SEED_HAND["plays"], "2C"]}, "over"),  # a card after the last trick
        ({"pass": "left"}, "passes none"),  # hand 4 does not pass
        ({"hand": 1, "pass": "left"}, "every seat passes"),  # passes missing
    ],
)
def test_validate_other_illegal_steps(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, change: dict[str, Any], reason: str
) -> None:
    record = copy.deepcopy(SEED_HAND) | change
    code, out, _ = run(capsys, tmp_path, record)
    assert code == 1
    assert reason in json.loads(out)["illegal"]["reason"]


def test_shooter_chooses_accepts_either_moon_scoring(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rules = Rules(moon=SHOOTER_CHOOSES)
    state = hand_of(("2C-AC", "2D-AD", "2S-AS", "2H-AH"), rules=rules)
    play_out(state)
    record = write_record(state, 4)
    for points in ([0, 26, 26, 26], [-26, 0, 0, 0]):
        record["points"] = dict(zip(SEATS, points, strict=True))
        assert run(capsys, tmp_path, record)[0] == 0
    record["points"] = dict(zip(SEATS, [26, 0, 0, 0], strict=True))
    assert run(capsys, tmp_path, record)[0] == 1


# -- hearts validate: exit 2 -----------------------------------------------------------------
def _with(path: str, value: Any) -> dict[str, Any]:
    """The seed record with the field at ``path`` (``deal.S``) replaced (or removed)."""
    record = copy.deepcopy(SEED_HAND)
    *parents, last = path.split(".")
    target = record
    for key in parents:
        target = target[key]
    if value is _REMOVE:
        del target[last]
    else:
        target[last] = value
    return record


_REMOVE = object()
_DEAL_S: list[str] = SEED_HAND["deal"]["S"]
_PASSED = passed_record()


@pytest.mark.parametrize(
    ("record", "words"),
    [
        ("this is not JSON", "not JSON"),
        ("", "not JSON"),
        pytest.param("[" * 100_000, "not JSON", id="nested-too-deep"),
        ("[1, 2]", "object"),
        (_with("deal.S", [*_DEAL_S[:12], "1C"]), "unknown card"),
        (_with("deal.S", [*_DEAL_S[:12], "QX"]), "unknown card"),
        (_with("plays", ["2C", "ZZ"]), "unknown card"),
        # SPEC §4's notation is upper case: "qs" is no card
        (_with("deal.S", [*_DEAL_S[:12], _DEAL_S[12].lower()]), "unknown card"),
        (_with("plays", ["2c"]), "unknown card"),
        (_with("deal.S", [*_DEAL_S[:12], "2C"]), "twice"),  # West holds 2♣ too
        (_with("deal.S", [*_DEAL_S[:12], _DEAL_S[0]]), "twice"),
        (_with("deal.S", _DEAL_S[:12]), "12 cards"),
        (_with("deal.S", [*_DEAL_S, "AS"]), "14 cards"),
        (_with("deal.X", _DEAL_S), "seats"),
        (_with("deal.E", _REMOVE), "seats"),
        (_with("extra", 1), "unknown field"),
        (_with("rules.trumps", "hearts"), "unknown rule"),
        (_with("format", "hearts-hand/2"), "format"),
        (_with("plays", _REMOVE), "missing field"),
        (_with("hand", "4"), "hand"),
        (_with("hand", 0), "hand"),
        (_with("hand", True), "hand"),
        (_with("pass", 3), "pass"),
        (_with("pass", "sideways"), "pass"),
        (_with("deal", ["2C"]), "deal"),
        (_with("deal.S", "5C 7C"), "list of cards"),
        (_with("plays", "2C"), "list of cards"),
        (_with("plays", [2, 3]), "unknown card"),
        (_with("passes", []), "passes"),
        (_with("passes", {"S": ["5C", "7C", "8C"]}), "{}"),  # pass none with passes
        (_with("rules", []), "rules"),
        (_with("rules.moon", 3), "moon"),
        (_with("rules.moon", "nobody"), "moon"),
        (_with("rules.jd_bonus", "yes"), "jd_bonus"),
        (_with("rules.players", 9), "players"),
        (_with("rules.players", 4.0), "players"),
        (_with("rules.pass_count", 0), "pass_count"),
        (_with("points", None), "points"),
        (_with("points", [4, 15, 7, 0]), "points"),
        (_with("points.S", "4"), "points"),
        (_with("points.S", 4.0), "points"),
        (_with("points.X", 0), "points"),
    ],
)
def test_validate_unreadable_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, record: Any, words: str
) -> None:
    code, out, err = run(capsys, tmp_path, record)
    assert code == 2
    assert out == ""
    assert words in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"S": ["QS", "QS", "AH"]}, "distinct"),  # duplicate card in a pass
        ({"S": ["QS", "AH"]}, "3 distinct"),  # two cards
        ({"S": ["QS", "AH", "KH", "2C"]}, "3 distinct"),  # four cards
        ({"X": ["QS", "AH", "KH"]}, "unknown seat"),
        ({"S": "QS AH KH"}, "list of cards"),
    ],
)
def test_validate_bad_passes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, change: dict[str, Any], words: str
) -> None:
    record = copy.deepcopy(_PASSED)
    record["passes"] |= change
    code, _, err = run(capsys, tmp_path, record)
    assert code == 2 and words in err and "Traceback" not in err


def test_validate_pass_of_cards_not_held(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = copy.deepcopy(_PASSED)
    record["passes"]["S"] = record["deal"]["W"][:3]
    code, _, err = run(capsys, tmp_path, record)
    assert code == 2 and "not held by S" in err


def test_validate_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["validate", str(tmp_path / "nowhere.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_validate_bytes_that_are_not_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "hand.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    assert main(["validate", str(path)]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_validate_stdin_not_json(capsys: pytest.CaptureFixture[str], monkeypatch: Any) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("{not json"))
    assert main(["validate", "-"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "not JSON" in err


def test_read_record_raises_the_documented_errors() -> None:
    with pytest.raises(RecordError):
        read_record("{}")
    record = copy.deepcopy(SEED_HAND)
    record["plays"] = ["3C"]
    del record["points"]
    with pytest.raises(IllegalStep) as info:
        read_record(record)
    assert (info.value.index, info.value.seat, info.value.card) == (0, "W", "3C")


def test_validate_record_stopped_during_the_pass(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = copy.deepcopy(_PASSED)
    del record["points"]
    record["plays"] = []
    record["passes"] = {"S": record["passes"]["S"], "N": record["passes"]["N"]}
    code, out, _ = run(capsys, tmp_path, record)
    assert code == 0 and json.loads(out) == {"S": 0, "W": 0, "N": 0, "E": 0}
    again, _ = read_record(record)
    assert again.phase == "pass" and write_record(again, 1) == record
