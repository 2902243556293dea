"""bench/moons.py: a saved run says which deals it played."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import moons  # bench/ is not an installed package


def test_a_run_from_a_later_deal_saves_and_reports_its_range(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "moons.json"
    argv = ["--hands", "1", "--first", "7", "--hero", "medium", "--hungry-iterations", "20"]
    assert moons.main([*argv, "--out", str(out)]) == 0
    saved = json.loads(out.read_text())
    assert saved["first"] == 7
    (row,) = saved["heroes"]["medium"]["rows"]
    conceded, shot, mine, theirs = row
    # Four rotations of one deal: 26 points a hand in all (or a moon's 78).
    assert 0 <= conceded + shot <= 4
    # (theirs is a mean of three seats: a float, so the sum is rounded)
    assert round(mine + 3 * theirs, 9) in {26 * 4 + 52 * k for k in range(5)}
    assert "1 deals (7–7)" in capsys.readouterr().out
    assert moons.main(["--load", str(out)]) == 0
    assert "1 deals (7–7)" in capsys.readouterr().out


def _saved(path: Path, heroes: dict[str, list[list[float]]], first: int | None) -> str:
    hungry = {"shoot": 40.0, "passing": "medium", "iterations": 5000}
    data: dict[str, object] = {"hungry": hungry, "heroes": {}}
    if first is not None:
        data["first"] = first
    data["heroes"] = {h: {"rows": rows, "seconds": 0.0} for h, rows in heroes.items()}
    path.write_text(json.dumps(data))
    return str(path)


def test_saved_runs_join_deal_by_deal_and_pair_on_the_deals_both_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A: deals 0–1 and (a file that does not say its first deal) 2; B: deals 1–2.
    a01 = _saved(tmp_path / "a.json", {"A": [[1, 0, 30, 20], [0, 0, 20, 24]]}, 0)
    a2 = _saved(tmp_path / "a2.json", {"A": [[2, 0, 60, 10]]}, None)
    b = _saved(
        tmp_path / "b.json", {"Bee": [[0, 0, 10, 28], [0, 0, 12, 40]], "A": [[0, 0, 20, 24]]}, 1
    )
    assert moons.main(["--load", a01, f"{a2}@2", b, "--as", "Bee=B"]) == 0
    out = capsys.readouterr().out
    assert "== A  vs 3 x moon-hungry, 3 deals (0–2)" in out
    assert "== B  vs 3 x moon-hungry, 2 deals (1–2)" in out
    # B − A on deals 1 and 2: conceded (0 − 0, 0 − 2) / 2 deals / 4 hands × 100 = −25;
    # points ((10 − 20) + (12 − 60)) / 2 / 4 = −7.25.
    assert "vs A on the same 2 deals (1–2): conceded / 100 hands -25.00" in out
    assert "points/hand -7.25" in out
    assert moons.main(["--load", a01, f"{a2}@2", b, "--as", "Bee=B", "--pair-with", "B"]) == 0
    assert "vs B on the same 2 deals (1–2): conceded / 100 hands 25.00" in capsys.readouterr().out


def test_saved_runs_that_disagree_on_a_deal_do_not_join(tmp_path: Path) -> None:
    a = _saved(tmp_path / "a.json", {"A": [[1, 0, 30, 20]]}, 0)
    other = _saved(tmp_path / "b.json", {"A": [[0, 0, 26, 26]]}, 0)
    with pytest.raises(SystemExit, match="played deal 0 otherwise"):
        moons.main(["--load", a, other])
    with pytest.raises(SystemExit, match="first deal"):
        moons.main(["--load", _saved(tmp_path / "c.json", {"A": [[0, 0, 26, 26]]}, None)])


def test_a_memory_is_the_opponents_plays_of_the_deals_before(tmp_path: Path) -> None:
    shooters = moons.opponent(dict(moons.SHOOTER))
    assert moons._memory(5, 0, shooters) is None  # no --memory: no memory, as before
    earlier = moons._memory(5, 3, shooters)
    assert earlier is not None and len(earlier) == 3
    # Whole hands of the deals 2, 3 and 4: every card once, four seats playing.
    for hand in earlier:
        assert sorted(c for _, c in hand) == list(range(52))
        assert {s for s, _ in hand} == {0, 1, 2, 3}
    assert len(moons._memory(1, 3, shooters) or []) == 1  # only deal 0 came before
    # The saved opponents say the memory, so a run with one pairs only alike.
    out = tmp_path / "moons.json"
    argv = ["--hands", "1", "--first", "3", "--hero", "medium", "--against", "shooter"]
    assert moons.main([*argv, "--memory", "2", "--out", str(out)]) == 0
    assert json.loads(out.read_text())["hungry"]["memory"] == 2
