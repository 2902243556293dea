"""A whole match to 100 on the page, with quick play."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect
from table_page import (
    WAIT_MS,
    body,
    hand_cards,
    highest_legal,
    lowest_three,
    open_table,
    phase,
    play_by_api,
    play_until,
    state,
    token,
    wait_ready,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NAMES = {"S": "Bạn", "W": "Tây", "N": "Bắc", "E": "Đông"}
# a hand adds at most 26 to a total: below this, the next hand cannot end a match to 100
CANNOT_END = 100 - 26


def check_hand_shown(page: Page, rows: Locator, number: int) -> None:
    """Hand ``number`` is over: its result, a row per hand, the totals the server's."""
    assert phase(page) == "done" and hand_cards(page) == []
    expect(page.locator("#result")).to_be_visible()
    expect(rows).to_have_count(number)
    s = state(page)
    hands = s["match"]["hands"]
    assert len(hands) == number
    for hand in hands:
        assert sum(hand["points"].values()) in (26, 78)
    totals = [int(x) for x in page.locator("#score-table tfoot td").all_inner_texts()]
    assert totals == [s["match"]["totals"][seat] for seat in "SWNE"]


def middle_hands_by_api(page: Page) -> int:
    """Play through the JSON API the whole hands that cannot end the match (the page
    plays the first and the last ones), then reload: the number of the hand shown."""
    headers = {"Authorization": f"Bearer {token(page)}"}
    s: dict[str, Any] = state(page)
    while max(s["match"]["totals"].values()) < CANNOT_END:
        r = page.request.post("/api/next-hand", headers=headers, data={"version": s["version"]})
        assert r.ok, (r.status, r.text())
        s = play_by_api(page, lambda s: s["hand"]["phase"] == "done")
    page.reload()
    wait_ready(page)
    return len(s["match"]["hands"])


def test_whole_match_to_100_with_quick_play(page: Page) -> None:
    open_table(page, level="easy", quick=True)
    rows = page.locator("#score-table tbody tr")
    # One hint (Gợi ý) in the first pass: the end of the match counts it.
    wait_ready(page)
    page.locator("#hint-button").click()
    expect(page.locator("#hint-box")).to_be_visible(timeout=WAIT_MS)
    wait_ready(page)
    # South keeps its high cards and plays them: it takes points, so the match
    # ends in fewer hands (a test-time choice only; any play would do). The first
    # hand and those that may end the match are played on the page, the others
    # through the API (the page shows them after a reload).
    number = 1
    for _ in range(40):
        assert body(page, "hand") == str(number)
        play_until(page, pick=highest_legal, pass_pick=lowest_three)
        check_hand_shown(page, rows, number)
        if body(page, "matchOver") == "true":
            break
        expect(page.locator("#new-match")).to_be_hidden()
        if number == 1:
            shown = middle_hands_by_api(page)
            if shown > number:
                number = shown
                check_hand_shown(page, rows, number)
                expect(page.locator("#new-match")).to_be_hidden()
        page.locator("#next-hand").click()
        wait_ready(page)
        number += 1
    else:
        raise AssertionError("the match did not end")

    m = state(page)["match"]
    assert m["over"] and max(m["totals"].values()) >= 100
    winner = m["winner"]
    assert m["totals"][winner] == min(m["totals"].values())
    expect(page.locator("#next-hand")).to_be_hidden()
    expect(page.locator("#result-winner")).to_be_visible()
    expect(page.locator("#result-winner")).to_contain_text(f"{m['totals'][winner]} điểm")
    expect(page.locator("#result-winner")).to_contain_text(NAMES[winner])
    assert m["hints"] == 1
    expect(page.locator("#result-hints")).to_have_text("Đã dùng 1 lần gợi ý trong trận")
    expect(page.locator("#message")).to_contain_text("Trận đấu kết thúc")
    expect(page.locator("#stats-text")).to_contain_text("Đã chơi 1 trận")

    new = page.get_by_role("button", name="Trận mới")
    expect(new).to_be_visible()
    new.click()
    # The "Trận mới" dialog offers the finished match's rules; the match is over, so
    # starting asks no confirmation.
    expect(page.locator("#new-match-dialog")).to_be_visible()
    page.locator("#nm-start").click()
    wait_ready(page)
    assert body(page, "matchOver") == "false" and body(page, "hand") == "1"
    assert phase(page) == "pass" and len(hand_cards(page)) == 13
    expect(rows).to_have_count(0)
    assert page.locator("#score-table tfoot td").all_inner_texts() == ["0"] * 4
