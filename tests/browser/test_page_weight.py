"""The page stays light (issue 10, item 12; issue 39): loaded as a phone on "Slow 4G"
with the CPU slowed 4×, its first visit transfers at most 1.2 × 93 KiB (issue 39's
words: "within 1.2× of today (93 KiB transferred)"), its first playable card and what
follows until the network is idle. The time to that card is recorded in
``test-artifacts/page-load.json`` beside a static page of the same weight loaded the
same way in the same run (no timed assertion: the machine may be loaded;
bench/page.py repeats the figures)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from page_load import load_game, load_reference, reference_server
from playwright.sync_api import Browser
from table_page import PHONE

pytestmark = pytest.mark.browser

BASELINE_BYTES = 93 * 1024  # the page when issue 39 was filed
ALLOWED = 1.2 * BASELINE_BYTES
LIVENESS_MS = 60_000  # a generous ceiling: the page does come up throttled


def test_page_weight_and_first_card(browser: Browser, base_url: str, artifacts: Path) -> None:
    phone: dict[str, Any] = {k: v for k, v in PHONE.items() if k != "device_scale_factor"}
    game = load_game(browser, base_url, throttle=True, **phone)
    assert game["bytes"] <= ALLOWED, game
    assert game["ms"] <= LIVENESS_MS, game
    with reference_server(int(game["bytes"])) as url:
        ref = load_reference(browser, url, throttle=True)
    assert abs(ref["bytes"] - game["bytes"]) <= 0.05 * game["bytes"], (ref, game)
    figures = {
        "throttle": "Slow 4G (562.5 ms, 1.44 Mbit/s down) and CPU 4x",
        "page": game,
        "reference_same_weight": ref,
        "first_card_over_reference": round(game["ms"] / ref["ms"], 2),
    }
    (artifacts / "page-load.json").write_text(json.dumps(figures, indent=2) + "\n")
