"""bench/strength.py --load and --pair-with: saved runs (decision times dropped, as
bench/results keeps them) joined with their sequels and set beside another Khó's."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import strength  # bench/ is not an installed package


def _saved(
    path: Path,
    first: int,
    per_deal: list[list[float]],
    moons: list[list[int]] | None = None,
    **hero: object,
) -> str:
    section = {
        "hero": "hard",
        "hero_options": hero,
        "opponent": "medium",
        "opponent_options": {},
        "rules": {},
        "deals": len(per_deal),
        "hands": 4 * len(per_deal),
        "per_deal": per_deal,
        "moons": moons or [[0, 0]] * len(per_deal),
        "memory_opened": [0] * len(per_deal),
        "seconds": 1.0,
        "first": first,
    }
    path.write_text(json.dumps({"hard-medium": section}))
    return str(path)


def test_saved_runs_join_and_pair_deal_by_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _saved(tmp_path / "a.json", 0, [[6.0, 10.0], [7.0, 9.0]], x=1)
    a2 = _saved(tmp_path / "a2.json", 2, [[5.0, 11.0]], x=1)
    base = _saved(tmp_path / "b.json", 1, [[8.0, 9.0], [5.0, 11.0], [9.0, 9.0]])
    assert strength.main(["--load", a, a2, "--pair-with", base]) == 0
    out = capsys.readouterr().out
    assert "3 deals x 4 rotations = 12 hands" in out
    # Deals 1 and 2 in both: hero (7 − 8, 5 − 5), margin ((7 − 9) − (8 − 9), 0).
    assert "on the same 2 deals (1–2), 1 of them played otherwise" in out
    assert "hero points/hand: -0.50" in out
    assert "margin (hero - opponents): -0.50" in out


def test_a_run_that_does_not_come_after_is_refused(tmp_path: Path) -> None:
    a = _saved(tmp_path / "a.json", 3, [[6.0, 10.0], [7.0, 9.0]])
    back = _saved(tmp_path / "c.json", 4, [[6.0, 10.0]])
    with pytest.raises(SystemExit, match="do not follow"):
        strength.main(["--load", a, back])


def test_blocks_with_a_gap_keep_their_deals_and_moons_pair_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Deals 0 and 5–6 joined: deal 5 pairs with the base's deal 5, not its deal 1.
    a = _saved(tmp_path / "a.json", 0, [[6.0, 10.0]], moons=[[0, 1]])
    later = _saved(tmp_path / "c.json", 5, [[4.0, 10.0], [9.0, 9.0]], moons=[[1, 0], [0, 0]])
    base = _saved(
        tmp_path / "b.json",
        0,
        [[6.0, 10.0]] + [[8.0, 9.0]] * 4 + [[5.0, 10.0], [9.0, 9.0]],
        moons=[[0, 1]] + [[0, 0]] * 4 + [[0, 2], [0, 0]],
    )
    assert strength.main(["--load", a, later, "--pair-with", base]) == 0
    out = capsys.readouterr().out
    assert "3 deals x 4 rotations = 12 hands" in out
    assert "deals 0–0, 5–6" in out
    assert "on the same 3 deals (0–0, 5–6), 1 of them played otherwise" in out
    # Deal 5: hero 4 − 5, margin (4 − 10) − (5 − 10); moons conceded 0 − 2, shot 1 − 0
    # in 4 hands: per 100 hands −50 and +25, over 3 deals.
    assert "hero points/hand: -0.33" in out
    assert "moons per 100 hands, conceded: -16.67" in out
    assert "shot: 8.33" in out
