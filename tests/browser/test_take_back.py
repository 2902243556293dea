"""Đi lại on the page (issue 11): after South's card and the computers' replies,
the button takes them back, and the hand, the table and the tricks panel are
exactly as they were; the setting hides the button."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from table_page import (
    WAIT_MS,
    finish_match_by_api,
    finished_tricks,
    hand_cards,
    legal_cards,
    new_match_by_api,
    open_table,
    play,
    play_by_api,
    play_until,
    south_to_play,
    state,
    table_cards,
    token,
    wait_ready,
)

pytestmark = pytest.mark.browser


def _screen(page: Page) -> dict[str, Any]:
    """What the player sees of the position: the hand, the playable cards, the
    trick on the table, the tricks panel and the points taken."""
    return {
        "hand": hand_cards(page),
        "legal": legal_cards(page),
        "table": table_cards(page),
        "tricks": finished_tricks(page),
        "panel": page.locator("#tricks-list").inner_text(),
    }


def test_take_back_restores_the_hand_and_the_table_exactly(page: Page) -> None:
    open_table(page)
    button = page.locator("#take-back-button")
    # Mid-hand, with cards on the table: South has played in an earlier trick.
    play_until(page, stop=lambda p: south_to_play(p) and finished_tricks(p) >= 2)
    expect(button).to_be_visible()
    before, server_before = _screen(page), state(page)["hand"]
    play(page, max(legal_cards(page)))
    wait_ready(page)
    assert _screen(page) != before
    button.click()
    page.wait_for_function(
        "() => document.body.dataset.busy === 'false' && document.body.dataset.turn === 'S'",
        timeout=WAIT_MS,
    )
    expect(page.locator("#tricks-list > li")).to_have_count(before["tricks"])
    assert _screen(page) == before
    after = state(page)
    assert after["hand"] == server_before and after["match"]["take_backs"] == 1

    # Turned off: no button.
    switch = page.get_by_role("switch", name="Cho đi lại")
    expect(switch).to_be_checked()
    with page.expect_response(lambda r: "/api/settings" in r.url and r.ok):
        switch.click()
    expect(button).to_be_hidden()
    assert state(page)["settings"]["take_back"] is False


def test_the_match_end_counts_hints_and_the_statistics_mark_a_take_back(page: Page) -> None:
    """A match played with a hint and a take-back (through the API, for speed): its
    end says how many hints were used, the statistics mark it as taken back."""
    open_table(page)
    new_match_by_api(page, {"target": 50})
    headers = {"Authorization": f"Bearer {token(page)}"}
    version = state(page)["version"]
    r = page.request.post("/api/hint", headers=headers, data={"version": version})
    assert r.ok and r.json()["state"]["match"]["hints"] == 1, r.text()
    s = play_by_api(page, lambda s: s["hand"]["can_take_back"])
    r = page.request.post("/api/take-back", headers=headers, data={"version": s["version"]})
    assert r.ok, r.text()
    m = finish_match_by_api(page)["match"]
    assert (m["hints"], m["take_backs"]) == (1, 1)
    wait_ready(page)
    expect(page.locator("#result-hints")).to_have_text("Đã dùng 1 lần gợi ý trong trận")
    expect(page.locator("#stats-text")).to_contain_text("Đã chơi 1 trận")
    expect(page.locator("#stats-text")).to_contain_text("1 trận có đi lại")
