"""The keyboard and screen readers (issue 10, item 7): after passing and at the end of
a hand focus goes where the next action is; the focused card rises with a clear ring;
cards on the table are named with who played them; a polite live region tells each
play and each trick's taker."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from table_page import (
    card,
    finished_tricks,
    hand_cards,
    legal_cards,
    mid_trick,
    open_table,
    phase,
    play_until,
    south_to_play,
    state,
    wait_ready,
)

pytestmark = pytest.mark.browser

NAMES = {"S": "Bạn", "W": "Tây", "N": "Bắc", "E": "Đông"}
SPOKEN_SUIT = {"C": "nhép", "D": "rô", "S": "bích", "H": "cơ"}
SPOKEN_RANK = {"T": "10", "A": "Át"}


def spoken(c: str) -> str:
    return f"{SPOKEN_RANK.get(c[0], c[0])} {SPOKEN_SUIT[c[1]]}"


def focused(page: Page) -> dict[str, Any]:
    got: dict[str, Any] = page.evaluate(
        """() => { const a = document.activeElement;
                   return {id: a ? a.id : '',
                           card: a && a.dataset ? a.dataset.card || '' : ''}; }"""
    )
    return got


def top(page: Page, name: str) -> float:
    box = card(page, name).bounding_box()
    assert box is not None
    return float(box["y"])


def test_focus_follows_the_next_action(page: Page) -> None:
    open_table(page)
    # pass with the keyboard alone: Tab into the hand, Enter on three cards
    for _ in range(30):
        page.keyboard.press("Tab")
        if focused(page)["card"]:
            break
    for _ in range(3):
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowRight")
    for _ in range(30):
        if focused(page)["id"] == "pass-button":
            break
        page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    wait_ready(page)
    assert south_to_play(page)
    # after the pass: on the hand's first playable card, raised, with a clear ring
    first = legal_cards(page)[0]
    assert focused(page)["card"] == first
    other = next(c for c in hand_cards(page) if c != first)
    page.mouse.move(1, 1)
    assert top(page, first) <= top(page, other) - 8
    ring = card(page, first).evaluate(
        "b => { const s = getComputedStyle(b);"
        " return [s.outlineStyle, parseFloat(s.outlineWidth)]; }"
    )
    assert ring[0] == "solid" and ring[1] >= 3, ring

    # play on with Enter on the focused card (moved by the arrows to a legal one)
    while phase(page) == "play":
        assert south_to_play(page)
        target = legal_cards(page)[0]
        for _ in range(20):
            if focused(page)["card"] == target:
                break
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        expect(card(page, target)).to_have_count(0)
        wait_ready(page)
    # the end of the hand: on "Chia ván mới"
    assert focused(page)["id"] == "next-hand"
    page.keyboard.press("Enter")
    wait_ready(page)
    assert phase(page) == "pass" and focused(page)["card"] == hand_cards(page)[0]


@pytest.mark.real_pace  # each play and each taker announced at the real pace
def test_screen_readers_hear_each_play_and_each_taker(page: Page) -> None:
    open_table(page)
    play_until(page, stop=lambda p: finished_tricks(p) >= 2 and mid_trick(p))
    h = state(page)["hand"]
    # each card on the table is named with who played it
    for p in h["trick"]:
        c = page.locator(f'#trick .table-card[data-card="{p["card"]}"]')
        expect(c).to_have_attribute("aria-label", f"{NAMES[p['seat']]} đánh {spoken(p['card'])}")
    region = page.locator("#announce")
    expect(region).to_have_attribute("aria-live", "polite")
    lines = [str(x) for x in region.locator("div").all_text_contents()]
    # the last trick taken and the cards since: each play, then the taker
    last = h["tricks"][-1]
    said = [f"{NAMES[p['seat']]} đánh {spoken(p['card'])}" for p in last["cards"]]
    pts = last["points"]
    said.append(f"{NAMES[last['winner']]} ăn vòng" + (f" (+{pts})" if pts else ""))
    said += [f"{NAMES[p['seat']]} đánh {spoken(p['card'])}" for p in h["trick"]]
    assert lines[-len(said) :] == said, lines
