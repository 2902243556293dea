"""The result of a hand (issue 10, item 5): an opaque box, with no card of a trick
showing through it or sticking out from under it, on a desktop and a phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from table_page import (
    DESKTOP,
    PHONE,
    card,
    finish_hand_by_api,
    hand_cards,
    legal_cards,
    open_table,
    phase,
    play_until,
    south_to_play,
)

pytestmark = pytest.mark.browser

SIZES = {"desktop": DESKTOP, "phone": PHONE}

CARDS_SEEN_JS = """() => [...document.querySelectorAll('#trick .table-card')]
    .filter(c => c.checkVisibility({visibilityProperty: true, opacityProperty: true}))
    .map(c => c.dataset.card || 'leaving')"""


def check_result_alone(page: Page) -> None:
    result = page.locator("#result")
    expect(result).to_be_visible()
    alpha = result.evaluate(
        "r => { const m = getComputedStyle(r).backgroundColor.match(/[\\d.]+/g);"
        " return m.length > 3 ? parseFloat(m[3]) : 1; }"
    )
    assert alpha == 1, alpha  # nothing shows through
    assert page.evaluate(CARDS_SEEN_JS) == []  # nothing sticks out


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.browser_context_args(reduced_motion="no-preference")
def test_the_result_box_covers_no_trick(size: str, make_context: Any, artifacts: Path) -> None:
    page = make_context(**SIZES[size], reduced_motion="no-preference").new_page()
    open_table(page)
    play_until(page, stop=lambda p: south_to_play(p) and len(hand_cards(p)) == 1)
    if phase(page) == "play":  # the last card: its trick flies off as the result shows
        card(page, legal_cards(page)[0]).click()
        page.wait_for_selector('body[data-phase="done"]')
        check_result_alone(page)
        page.screenshot(path=artifacts / f"{size}-result-live.jpg")
    finish_hand_by_api(page)  # (a no-op if done) and a reload
    check_result_alone(page)
