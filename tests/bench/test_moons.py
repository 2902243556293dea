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
    assert mine + 3 * theirs in {26 * 4 + 52 * k for k in range(5)}
    assert "1 deals (7–7)" in capsys.readouterr().out
    assert moons.main(["--load", str(out)]) == 0
    assert "1 deals (7–7)" in capsys.readouterr().out
