"""The page's words as a Vietnamese reader wants them (issue 10, item 8), and text on a
phone never smaller than 13 px."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from table_page import (
    DESKTOP,
    PHONE,
    choose_pass,
    finish_hand_by_api,
    finished_tricks,
    mid_trick,
    new_match_by_api,
    open_table,
    phase,
    play_by_api,
    play_until,
    small_text,
    state,
    wait_ready,
)

pytestmark = pytest.mark.browser

NAMES = {"S": "Bạn", "W": "Tây", "N": "Bắc", "E": "Đông"}
QS = "Q♠\ufe0e"
SMALL_PHONE = {**PHONE, "viewport": {"width": 360, "height": 640}}
PHONES = {"phone": PHONE, "small-phone": SMALL_PHONE}


def queen_taker(page: Page) -> str:
    tricks = state(page)["hand"]["tricks"]
    return next(t["winner"] for t in tricks if any(p["card"] == "QS" for p in t["cards"]))


@pytest.mark.parametrize("size", sorted(PHONES))
def test_text_on_a_phone_is_at_least_13px(size: str, make_context: Any, artifacts: Path) -> None:
    page = make_context(**PHONES[size]).new_page()
    open_table(page)
    # the pass: "nhận 3 lá của bạn" under the seat passed to
    expect(page.locator(".seat.pass-target .seat-hint")).to_be_visible()
    assert small_text(page) == []
    choose_pass(page)
    play_until(page, stop=lambda p: finished_tricks(p) >= 1 and mid_trick(p))
    # a trick on the table, the tricks panel with its seat labels, the marks
    assert small_text(page) == []
    page.locator("#last-trick").tap()
    expect(page.locator("#last-trick-view")).to_be_visible()
    assert small_text(page) == []
    page.locator("#last-trick-view").tap()
    finish_hand_by_api(page)
    expect(page.locator("#result")).to_be_visible()
    assert small_text(page) == []
    page.screenshot(path=artifacts / f"{size}-text-end.jpg")

    # a table of five: seats on a ring, names under the cards of the trick, their order
    new_match_by_api(page, {"players": 5, "jd_bonus": True})
    expect(page.locator("#rules-badge")).to_be_visible()
    assert small_text(page) == []
    # one card before South's is enough: at five seats a deal may never have South play
    # third (a full run's deal ended first, "the hand is over"; test_layout says the same)
    play_by_api(
        page,
        lambda s: (
            s["hand"]["phase"] == "play"
            and s["hand"]["turn"] == s["seats"][0]
            and len(s["hand"]["trick"]) >= 1
        ),
    )
    page.reload()
    wait_ready(page)
    expect(page.locator("#trick .slot:not(.empty) .slot-name").first).to_be_visible()
    assert small_text(page) == []
    page.screenshot(path=artifacts / f"{size}-text-five.jpg")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_end_of_hand_words(size: str, make_context: Any) -> None:
    phone = size == "phone"
    page = make_context(**(PHONE if phone else DESKTOP)).new_page()
    open_table(page)
    finish_hand_by_api(page)
    assert phase(page) == "done"
    expect(page.locator("#message")).to_have_text("Hết ván. Bấm «Chia ván mới» để đánh tiếp.")
    # the auto-finish line (shown when the server played the last tricks itself)
    auto = page.locator("#result-auto").text_content()
    assert auto == "Các vòng cuối được đánh tự động vì điểm không thể thay đổi nữa."

    # who took the Q♠: a sentence on a phone, the long form on a desktop
    taker = NAMES[queen_taker(page)]
    mark = page.locator("#mark-queen")
    if phone and page.locator(".marks.tight").count():
        # no clear place for the sentence (the hand's result below the table took some
        # of its height, placement.js): Q♠ shown, the sentence for screen readers
        expect(mark.locator(".sym")).to_be_visible()
        expect(mark.locator(".short")).to_have_text(f"{taker} ăn {QS}")
    elif phone:
        expect(mark).to_have_text(f"{taker} ăn {QS}", use_inner_text=True)
    else:
        expect(mark.locator(".txt")).to_have_text(f"{taker} ăn đầm bích")
        expect(mark.locator(".short")).to_be_hidden()

    # the last trick closes by a click on a desktop, by a touch on a phone
    page.locator("#last-trick").click()
    close = page.locator("#last-trick-view .lt-close")
    expect(close).to_have_text("Chạm để đóng" if phone else "Bấm để đóng", use_inner_text=True)
    page.locator("#last-trick-view").click()
    expect(page.locator("#last-trick-view")).to_be_hidden()

    expect(page.locator("#stats-best")).to_have_text("Điểm thấp nhất khi kết thúc trận: –")
    expect(page.locator("#stats-text")).not_to_contain_text("thấp nhất")
