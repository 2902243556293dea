"""Cảnh báo nước đi on the page (issue 59, item 1): with the switch on (this
browser's, off by default), a card the server's check flags asks once, with the
server's line, "Vẫn đánh" and "Đánh 9♦"; the hint's own card plays at once, no
question; the match counts the cards and the question; in English too."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, Response, expect
from table_page import (
    WAIT_MS,
    card,
    choose_pass,
    legal_cards,
    lowest_legal,
    open_table,
    phase,
    set_language,
    state,
    wait_ready,
)

pytestmark = pytest.mark.browser

DIALOG = "#checker-dialog[open]"
SWITCH = {"vi": "Cảnh báo nước đi", "en": "Play checker"}
WORDS = {
    "vi": ("Vẫn đánh", "Đánh ", "trung bình +"),
    "en": ("Play it anyway", "Play ", "more points on average"),
}


class Checks:
    """The answers of POST /api/check the page received, by version."""

    def __init__(self, page: Page) -> None:
        self.by_version: dict[int, Any] = {}
        page.on("response", self._seen)

    def answer(self, page: Page, version: int) -> Any:
        """The answer for ``version``: the page may mark it checked before Playwright has
        handed this side the response event, so wait (events run while the page waits)."""
        for _ in range(WAIT_MS // 50):
            if version in self.by_version:
                return self.by_version[version]
            page.wait_for_timeout(50)
        raise AssertionError(f"no answer of /api/check for version {version}")

    def _seen(self, r: Response) -> None:
        if r.url.endswith("/api/check") and r.ok:
            got = r.json()
            self.by_version[got["version"]] = got


def _switch_on(page: Page, lang: str) -> None:
    overlay = not page.locator("#stats-panel").is_visible()
    if overlay:
        page.locator('#panel-tabs [data-panel="all"]').click()
    switch = page.get_by_role("switch", name=SWITCH[lang])
    expect(switch).not_to_be_checked()  # off by default
    switch.click()
    expect(switch).to_be_checked()
    assert page.evaluate("localStorage.getItem('hearts-checker')") == "on"
    if overlay:
        page.keyboard.press("Escape")


def _checked(page: Page, checks: Checks) -> Any:
    """South's turn: wait for the page's check of it, and return it."""
    page.wait_for_selector('body[data-phase="play"][data-turn="S"]', timeout=WAIT_MS)
    wait_ready(page)
    version = state(page)["version"]
    page.wait_for_selector(f'#hand[data-checked="{version}"]', state="attached", timeout=WAIT_MS)
    return checks.answer(page, version)


def _play(page: Page, name: str) -> None:
    card(page, name).click()
    expect(card(page, name)).to_have_count(0, timeout=WAIT_MS)
    wait_ready(page)


def _play_until_flagged(page: Page, checks: Checks, plays: int) -> tuple[int, list[str], Any]:
    """Pass South's three highest cards (when the hand passes), then play the lowest legal
    card, no question asked, until the check flags one of South's legal cards: the plays
    made, those flagged cards (none if the hand ended first) and the check's answer."""
    page.wait_for_selector('body[data-phase="pass"], body[data-phase="play"]', timeout=WAIT_MS)
    if phase(page) == "pass":
        page.locator("#pass-button").wait_for(state="visible", timeout=WAIT_MS)
        choose_pass(page)
    for _ in range(13):
        got = _checked(page, checks)
        flagged = [c for c in legal_cards(page) if c in got["flagged"]]
        if flagged:
            return plays, flagged, got
        _play(page, lowest_legal(page))  # fine: no question
        expect(page.locator(DIALOG)).to_have_count(0)
        plays += 1
    expect(page.locator("#next-hand")).to_be_visible(timeout=WAIT_MS)
    return plays, [], None


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_a_flagged_card_asks_once_and_khos_card_is_played_instead(page: Page, lang: str) -> None:
    checks = Checks(page)
    open_table(page)
    if lang == "en":
        set_language(page, "en")
    _switch_on(page, lang)
    keep, play_word, figure = WORDS[lang]
    plays, flagged, got = 0, [], None
    for _ in range(3):  # the deal may give South no card the check flags: the next hand
        plays, flagged, got = _play_until_flagged(page, checks, plays)
        if flagged:
            break
        page.locator("#next-hand").click()
        wait_ready(page)
    else:
        pytest.fail("no card flagged in three hands")
    bad, best = flagged[0], got["card"]
    card(page, bad).click()
    dialog = page.locator(DIALOG)
    expect(dialog).to_be_visible()
    expect(dialog.locator("#ck-line")).to_have_text(got["flagged"][bad]["line"])
    assert figure in got["flagged"][bad]["line"]
    expect(dialog.get_by_role("button", name=keep, exact=True)).to_be_visible()
    instead = dialog.locator(f'button[data-card="{best}"]')
    expect(instead).to_contain_text(play_word)
    expect(card(page, bad)).to_have_count(1)  # nothing played while it asks
    instead.click()
    expect(dialog).to_have_count(0)
    expect(card(page, best)).to_have_count(0, timeout=WAIT_MS)  # Khó's card went instead
    wait_ready(page)
    assert bad in [c for c in page.locator("#hand button.hand-card").evaluate_all(
        "bs => bs.map(b => b.dataset.card)")]  # fmt: skip
    assert state(page)["match"]["checker"] == {"plays": plays + 1, "asked": 1}


def test_the_hints_own_card_plays_at_once(page: Page) -> None:
    checks = Checks(page)
    open_table(page)
    _switch_on(page, "vi")
    page.locator("#pass-button").wait_for(state="visible", timeout=WAIT_MS)
    page.locator("#hint-button").click()  # the pass too: Khó's
    wait_ready(page)
    page.locator("#pass-button").click()
    wait_ready(page)
    for _ in range(3):
        _checked(page, checks)
        page.locator("#hint-button").click()
        page.wait_for_selector('#hand button.hand-card[data-hinted="true"]', timeout=WAIT_MS)
        wait_ready(page)
        got = _checked(page, checks)  # the hint moved the version: checked again
        hinted = page.locator('#hand button.hand-card[data-hinted="true"]').get_attribute(
            "data-card"
        )
        assert hinted == got["card"] and hinted not in got["flagged"]
        _play(page, hinted)
        expect(page.locator(DIALOG)).to_have_count(0)
    s = state(page)
    assert s["match"]["checker"] == {"plays": 3, "asked": 0} and s["match"]["hints"] == 4
