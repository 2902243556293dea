"""The page on a phone (390×844, touch) and on a desktop (1440×900): screenshots of
the pass, a trick in the middle and the end of a hand, kept in ``test-artifacts/``
for a person to look at; and tap targets large enough for a finger."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from table_page import (
    DESKTOP,
    HAND,
    PHONE,
    card,
    finish_hand_by_api,
    finished_tricks,
    hand_cards,
    highest_three,
    mid_trick,
    open_table,
    phase,
    play_until,
    press_card,
    table_cards,
    wait_ready,
)

pytestmark = [pytest.mark.browser, pytest.mark.screenshots]

SIZES = {"phone": PHONE, "desktop": DESKTOP}
MIN_TAP = 44  # px, the usual smallest comfortable target for a finger


def tap(page: Page, name: str, touch: bool) -> None:
    press_card(page, name, touch)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_screenshots(size: str, make_context: Any, artifacts: Path) -> None:
    options = SIZES[size]
    touch = bool(options.get("has_touch"))
    page = make_context(**options).new_page()
    open_table(page)

    for c in highest_three(page):
        tap(page, c, touch)
        expect(card(page, c)).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#pass-button")).to_be_enabled()
    page.screenshot(path=artifacts / f"{size}-1-pass.jpg")

    page.locator("#pass-button").click()
    wait_ready(page)
    # trick 1: received cards with their yellow bar, cards not playable crossed out
    page.screenshot(path=artifacts / f"{size}-2-first-trick.jpg")
    play_until(page, stop=lambda p: finished_tricks(p) >= 1 and mid_trick(p))
    assert table_cards(page)
    page.screenshot(path=artifacts / f"{size}-3-trick.jpg")

    finish_hand_by_api(page)
    assert phase(page) == "done"
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#score-table tbody tr")).to_have_count(1)
    page.screenshot(path=artifacts / f"{size}-4-end.jpg")
    page.screenshot(path=artifacts / f"{size}-5-end-full.jpg", full_page=True)
    # the table is in the window: the result box and the next-hand button are seen
    # without scrolling
    view = page.viewport_size
    assert view is not None
    for sel in ("#result", "#next-hand"):
        box = page.locator(sel).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= view["height"]


def top(page: Page, name: str) -> float:
    box = card(page, name).bounding_box()
    assert box is not None
    return float(box["y"])


def tap_areas(page: Page, enough: int | None = None) -> list[dict[str, Any]]:
    """For each card of the hand, the widest and tallest runs of points at which a
    tap lands on that card (other cards overlap it), found by hit-testing a 2 px grid
    row by row; with ``enough``, a card's rows stop once both runs reach it (the
    runs then say "at least")."""
    found: list[dict[str, Any]] = page.locator(HAND).evaluate_all(
        """(bs, enough) => bs.map(b => {
            const r = b.getBoundingClientRect();
            const cols = new Map();
            let wide = 0, tall = 0;
            for (let y = Math.ceil(r.top); y < r.bottom; y += 2) {
              let run = 0;
              for (let x = Math.ceil(r.left); x < r.right; x += 2) {
                const hit = document.elementFromPoint(x, y);
                const mine = !!hit && hit.closest('button.hand-card') === b;
                run = mine ? run + 2 : 0;
                wide = Math.max(wide, run);
                const c = cols.get(x) || {run: 0};
                c.run = mine ? c.run + 2 : 0;
                tall = Math.max(tall, c.run);
                cols.set(x, c);
              }
              if (enough && wide >= enough && tall >= enough) break;
            }
            return {card: b.dataset.card, wide, tall, top: r.top, bottom: r.bottom};
        })""",
        enough,
    )
    return found


def test_phone_cards_are_large_enough_to_tap(make_context: Any) -> None:
    page = make_context(**PHONE).new_page()
    open_table(page)
    view = page.viewport_size
    assert view == {"width": 390, "height": 844}
    assert len(hand_cards(page)) == 13  # the most cards a hand ever shows
    for area in tap_areas(page):
        assert area["wide"] >= MIN_TAP and area["tall"] >= MIN_TAP, area
        assert area["bottom"] <= view["height"], area  # no scrolling to reach the hand
    # a tap chooses exactly the card under the finger
    first = hand_cards(page)[0]
    resting = top(page, first)
    card(page, first).tap()
    expect(card(page, first)).to_have_attribute("aria-pressed", "true")
    assert page.locator(f'{HAND}[aria-pressed="true"]').count() == 1
    card(page, first).tap()
    expect(card(page, first)).to_have_attribute("aria-pressed", "false")
    # phones also send mouse events for a tap, and the hover they leave behind must not
    # keep a dropped card raised as if it were still chosen
    card(page, first).click()
    card(page, first).click()
    expect(card(page, first)).to_have_attribute("aria-pressed", "false")
    assert top(page, first) == pytest.approx(resting, abs=1)
    # during play too (fewer cards, but crossed cards must not shrink the targets)
    page.locator("#pass-button").wait_for(state="visible")
    for c in highest_three(page):
        card(page, c).tap()
    page.locator("#pass-button").tap()
    wait_ready(page)
    for area in tap_areas(page):
        assert area["wide"] >= MIN_TAP and area["tall"] >= MIN_TAP, area
