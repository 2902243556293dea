"""bench/advice.py: Gợi ý's and the analysis's advice set beside a larger budget's
(issue 38): the shares it prints count what a player would read as the same advice."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import advice  # bench/ is not an installed package


def test_a_card_within_the_hints_margin_counts_as_the_same_advice() -> None:
    tally = advice.Tally()
    tally.add(True, 0.0)
    tally.add(False, 0.2)  # the reference thinks it 0.2 points worse: "either will do"
    tally.add(False, 1.5)
    line = tally.line("hint play", 0.5)
    assert "the reference's card 1/3" in line
    assert "within 0.5 of it 2/3" in line
    assert "worse by 0.85 (mean), 1.50 (max)" in line


def test_regrets_are_in_the_hints_units() -> None:
    # Far from the target the value is points on the (n - 1)/n scale; near it, 100 ×
    # the chance to win already: the hint's margins (0.5 points, 3 percentage points).
    def weighing(near: bool) -> advice.Weighing:
        values = {1: 40.0, 2: 37.0}
        return advice.Weighing(1, (1, 2), {1: 0.0, 2: 0.0}, values, {1: 1, 2: 1}, near)

    assert advice.regret(weighing(True), 2, 4) == 3.0
    assert advice.regret(weighing(False), 2, 4) == 2.25
    assert advice.regret(weighing(False), 1, 4) == 0.0


def test_the_interval_holds_the_share() -> None:
    for hits, n in ((0, 10), (7, 10), (10, 10), (152, 200)):
        lo, hi = advice.wilson95(hits, n)
        assert 0.0 <= lo <= hits / n <= hi <= 1.0
    assert advice.wilson95(152, 200)[1] - advice.wilson95(152, 200)[0] < 0.15


def test_a_short_run_weighs_every_kind_of_decision(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--positions", "3", "--passes", "2", "--hint-reference", "120"]
    assert advice.main([*args, "--analysis-reference", "240"]) == 0
    out = capsys.readouterr().out
    for name, n in (("hint play", 3), ("hint pass", 2), ("analysis play", 3), ("analysis pass", 2)):
        assert f"{name}: the reference's card " in out
        assert f"/{n} = " in out.split(f"{name}:")[1].splitlines()[0]
