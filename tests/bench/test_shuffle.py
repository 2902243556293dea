"""bench/shuffle.py: its chi-square tests see a biased deal, and the exact
probabilities they compare with are probabilities."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import shuffle  # bench/ is not an installed package

from hearts.cards import parse_card


def _rows(masks: np.ndarray) -> dict[str, float]:
    return {name: p for name, _stat, _dof, p in shuffle.report(masks)}


def test_the_exact_probabilities_add_up_to_one() -> None:
    assert sum(shuffle.length_probabilities()) == pytest.approx(1.0)
    shapes = shuffle.pattern_probabilities()
    assert len(shapes) == 39 and sum(shapes.values()) == pytest.approx(1.0)
    assert shapes[(4, 4, 3, 2)] == pytest.approx(0.2155, abs=1e-4)  # the bridge tables'


def test_a_fair_deal_passes_and_a_biased_one_fails() -> None:
    fair = shuffle.deals(4000, seed=7)
    assert min(_rows(fair).values()) > 1e-4
    # The same deals, 2♣ swapped from West to South for 3♣ wherever South had 3♣
    # (about one deal in sixteen): the 2♣ test and the per-card tests see it.
    biased = fair.copy()
    two = np.int64(1 << parse_card("2C"))
    swap = np.int64(1 << parse_card("3C"))
    for row in biased:
        if row[1] & two and row[0] & swap:
            row[1] = (row[1] & ~two) | swap
            row[0] = (row[0] & ~swap) | two
    rows = _rows(biased)
    assert rows["who holds 2♣"] < 1e-6
    assert rows["each card's seat, all 52 cards (52 × 3 dof)"] < 1e-3
