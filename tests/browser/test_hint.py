"""Gợi ý on the page (issue 11): in the pass and on South's turn the button marks
Khó's card(s) on the hand and shows its reasons, with no CSP violation; the mark
goes once the position changes; the match counts the hints."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from table_page import WAIT_MS, card, choose_pass, open_table, play, state, wait_ready

pytestmark = pytest.mark.browser

WATCH = """document.addEventListener('securitypolicyviolation', e =>
  (window.__violations = window.__violations || []).push(e.violatedDirective));"""
HINTED = '#hand button.hand-card[data-hinted="true"]'


def _ask(page: Page) -> list[str]:
    button = page.locator("#hint-button")
    expect(button).to_be_visible()
    expect(button).to_be_enabled()
    button.click()
    expect(page.locator("#hint-box")).to_be_visible(timeout=WAIT_MS)
    wait_ready(page)
    expect(button).to_be_disabled()  # the hint is on screen: no second ask
    lines = page.locator("#hint-box p").all_inner_texts()
    assert lines and "trung bình" in lines[-1] and "điểm" in lines[-1], lines
    return [str(c) for c in page.locator(HINTED).evaluate_all("bs => bs.map(b => b.dataset.card)")]


def test_the_hint_marks_khos_cards_and_says_why(page: Page) -> None:
    page.add_init_script(WATCH)
    open_table(page)
    wait_ready(page)
    passing = _ask(page)
    count = state(page)["hand"]["pass_count"]
    assert len(passing) == count
    choose_pass(page, passing)  # the hinted pass, chosen like any other
    expect(page.locator(HINTED)).to_have_count(0)
    expect(page.locator("#hint-box")).to_be_hidden()

    page.wait_for_selector('body[data-phase="play"][data-turn="S"]', timeout=WAIT_MS)
    wait_ready(page)
    (hinted,) = _ask(page)
    expect(card(page, hinted)).to_have_attribute("aria-disabled", "false")  # a legal card
    assert state(page)["match"]["hints"] == 2
    play(page, hinted)
    expect(page.locator("#hint-box")).to_be_hidden()
    assert page.evaluate("window.__violations || []") == []
