"""English (issue 10, item 10): the language switch turns the whole page into English,
the server's words included (refusals, hints, names, achievements, a room), the choice
survives a reload, and the switch brings Vietnamese back. With English chosen no text
on screen (nor any accessible name) has a Vietnamese letter: through the pass, the
play, a refused card, a hint, the result box, the panels, the rules, the end of a
match and a room's lobby. Screenshots in ``test-artifacts/en-*.jpg``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect
from table_page import (
    DESKTOP,
    PHONE,
    choose_pass,
    finish_hand_by_api,
    finish_match_by_api,
    hand_cards,
    legal_cards,
    new_match_by_api,
    open_table,
    phase,
    play,
    press_card,
    south_to_play,
    wait_ready,
)

pytestmark = pytest.mark.browser

# what a player reads and what a screen reader says, outside what is marked Vietnamese
# (the switch back names its language in itself: lang="vi")
VIETNAMESE_JS = """() => {
    const VI = /[àáảãạăằắẳẵặâầấẩẫậèéẻẽẹêềếểễệìíỉĩịòóỏõọôồốổỗộơờớởỡợùúủũụưừứửữựỳýỷỹỵđ]/i;
    const found = [];
    if (VI.test(document.title)) found.push('title: ' + document.title);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!el || el.closest('[lang="vi"]') || !el.getClientRects().length) continue;
        if (VI.test(n.nodeValue)) found.push(n.nodeValue.trim());
    }
    for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder]')) {
        if (el.closest('[lang="vi"]')) continue;
        for (const a of ['aria-label', 'title', 'placeholder']) {
            const v = el.getAttribute(a);
            if (v && VI.test(v)) found.push(a + ': ' + v);
        }
    }
    return found;
}"""


# the Vietnamese letters of what a player can see now: text not hidden (visibility,
# opacity, display), outside what is marked Vietnamese in the page (the page itself
# is lang="vi" until the English words are in)
SEEN_VIETNAMESE_JS = """() => {
    const VI = /[àáảãạăằắẳẵặâầấẩẫậèéẻẽẹêềếểễệìíỉĩịòóỏõọôồốổỗộơờớởỡợùúủũụưừứửữựỳýỷỹỵđ]/i;
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!el || el.closest('body [lang="vi"]') || !VI.test(n.nodeValue)) continue;
        if (el.checkVisibility({visibilityProperty: true, opacityProperty: true}))
            found.push(n.nodeValue.trim());
    }
    return found;
}"""


def vietnamese(page: Page) -> list[str]:
    return [str(t) for t in page.evaluate(VIETNAMESE_JS)]


def english(page: Page, where: str, artifacts: Path, shot: str) -> None:
    page.screenshot(path=artifacts / f"en-{shot}.jpg")
    assert vietnamese(page) == [], where


def switch_to_english(page: Page) -> None:
    expect(page.locator("html")).to_have_attribute("lang", "vi")
    with page.expect_navigation():
        page.locator("#lang-switch").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    wait_ready(page)


def test_a_hand_and_a_match_in_english(make_context: Any, artifacts: Path) -> None:
    page = make_context(**PHONE).new_page()
    open_table(page)  # Dễ, quick play: set while the page is Vietnamese
    switch_to_english(page)
    assert phase(page) == "pass"
    expect(page.locator("#pass-button")).to_have_text("Pass left")
    # a card's name: what it shows, then its English name
    queen = page.locator('#hand button.hand-card[data-card="QS"]')
    names = page.locator("#hand button.hand-card").evaluate_all(
        "bs => bs.map(b => b.getAttribute('aria-label'))"
    )
    assert all(
        re.fullmatch(r"\S+, (\d+|jack|queen|king|ace) of (clubs|diamonds|spades|hearts)", n)
        for n in names
    ), names
    if queen.count():
        expect(queen).to_have_attribute("aria-label", "Q♠\ufe0e, queen of spades")
    english(page, "the pass", artifacts, "phone-1-pass")

    choose_pass(page)
    # play: a refused card on the way and one hint, then the rest of the hand by the API
    refused = hinted = False
    while not (refused and hinted) and phase(page) != "done":
        wait_ready(page)
        assert south_to_play(page), phase(page)
        illegal = [c for c in hand_cards(page) if c not in legal_cards(page)]
        if illegal and not refused:
            press_card(page, illegal[0], touch=True)
            expect(page.locator("#message")).to_have_text(
                re.compile(r"^(You must|Lead the|Hearts are|No hearts)")
            )
            english(page, "a refused card", artifacts, "phone-2-refused")
            refused = True
        if not hinted:
            page.locator("#hint-button").click()
            expect(page.locator("#hint-box")).to_be_visible(timeout=60_000)
            expect(page.locator("#hint-box")).to_contain_text("points")
            english(page, "a hint", artifacts, "phone-3-hint")
            hinted = True
        if not refused:
            play(page, legal_cards(page)[0])
    assert refused
    finish_hand_by_api(page)  # and a reload: the choice is kept
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#next-hand")).to_have_text("Deal next hand")
    english(page, "the result box", artifacts, "phone-4-result")

    for tab in ("tricks", "scores", "stats"):
        page.locator(f'#panel-tabs [data-panel="{tab}"]').click()
        expect(page.locator(f"#{tab}-panel")).to_be_visible()
        english(page, f"the {tab} panel", artifacts, f"phone-5-panel-{tab}")
    expect(page.locator("[data-achievement] svg.icon").first).to_be_visible()
    page.locator("#panel-close").click()

    page.locator("#help-button").click()
    expect(page.locator("#help-h")).to_have_text("Rules")
    english(page, "the rules", artifacts, "phone-6-rules")
    page.locator("#help-close").click()

    new_match_by_api(page, {"target": 50})
    expect(page.locator("html")).to_have_attribute("lang", "en")
    finish_match_by_api(page)
    expect(page.locator("#result-title")).to_have_text("Match over")
    expect(page.locator("#result-queen")).to_be_visible()
    english(page, "the end of the match", artifacts, "phone-7-match-end")

    # back to Vietnamese
    with page.expect_navigation():
        page.locator("#lang-switch").click()
    expect(page.locator("html")).to_have_attribute("lang", "vi")
    expect(page.locator("#result-title")).to_have_text("Kết thúc trận")
    assert vietnamese(page)


def test_a_room_lobby_in_english(make_context: Any, artifacts: Path) -> None:
    page = make_context(**DESKTOP).new_page()
    page.goto("/")
    wait_ready(page)
    switch_to_english(page)
    page.locator("#room-open").click()
    dialog = page.locator("#room-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#nm-start")).to_have_text("Make the room")
    english(page, "the room dialog", artifacts, "desktop-room-dialog")
    dialog.locator("#nm-start").click()
    expect(page.locator("#lobby-h")).to_have_text("Room with friends")
    expect(page.locator("#lobby-seats li")).to_have_count(4)
    expect(page.locator("#lobby-seats")).to_contain_text("Empty seat")
    english(page, "a room's lobby", artifacts, "desktop-room-lobby")


def test_no_vietnamese_flashes_while_english_loads(page: Page, artifacts: Path) -> None:
    """English chosen, on a slow link: the English words (i18n-en.js) come after the
    page's own Vietnamese HTML. Held back here, until they come nothing Vietnamese is
    seen (the page is there, hidden); when they come the page shows, in English."""
    page.goto("/")
    wait_ready(page)
    page.evaluate("localStorage.setItem('hearts-lang', 'en')")
    held: list[Route] = []
    page.route("**/i18n-en.js", lambda route: held.append(route))
    with page.expect_request("**/i18n-en.js"):
        page.goto("/", wait_until="commit")
    # the Vietnamese page is in (i18n.js, run after it was parsed, asked for the words)
    expect(page.locator("#help-button")).to_have_text("Luật chơi")
    page.screenshot(path=artifacts / "en-0-loading.jpg")
    assert page.evaluate(SEEN_VIETNAMESE_JS) == []
    assert len(held) == 1
    held[0].continue_()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    wait_ready(page)
    expect(page.locator("#help-button")).to_have_text("Rules")
    expect(page.locator("#help-button")).to_be_visible()
    expect(page.locator("#hand button.hand-card").first).to_be_visible()
    page.screenshot(path=artifacts / "en-0-loaded.jpg")
    assert page.evaluate(SEEN_VIETNAMESE_JS) == []
