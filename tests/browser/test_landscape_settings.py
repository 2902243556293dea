"""The settings on a landscape phone (issue 56, item 11): the one-line top bar has no
room for the computers' level, "Chơi nhanh" and the sound, and under "Các bảng" (the
panels) nobody looked for them. They lie behind the bar's own "Cài đặt" (a gear),
one tap away, at 844×390 and 640×360, in Vietnamese and in English."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from table_page import set_language, wait_ready
from test_layout import check_fit, options

pytestmark = pytest.mark.browser

WORDS = {
    "vi": {"open": "Cài đặt", "level": "Dễ", "quick": "Chơi nhanh", "sound": "Âm thanh",
           "panels": "Các bảng"},
    "en": {"open": "Settings", "level": "Easy", "quick": "Quick play", "sound": "Sound",
           "panels": "Panels"},
}  # fmt: skip


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_the_settings_are_one_tap_away_on_a_landscape_phone(
    lang: str, make_context: Any, artifacts: Path
) -> None:
    words = WORDS[lang]
    page = make_context(**options(844, 390)).new_page()
    page.goto("/")  # the settings as a new player has them (Vừa): none chosen here yet
    wait_ready(page)
    if lang == "en":
        set_language(page, "en")
    gear = page.get_by_role("button", name=words["open"], exact=True)
    level = page.get_by_role("radio", name=words["level"], exact=True)
    quick = page.get_by_role("switch", name=words["quick"])
    sound = page.get_by_role("switch", name=words["sound"])
    for width, height in ((844, 390), (640, 360)):
        page.set_viewport_size({"width": width, "height": height})
        where = f"{width}x{height} {lang}"
        # the table screen: the gear in the top bar (check_fit: 44 px, on top, in the
        # window), the settings out of sight
        expect(gear).to_be_in_viewport(ratio=1)
        assert gear.evaluate("b => !!b.closest('.topbar')"), where
        expect(page.locator(".settings")).to_be_hidden()
        check_fit(page, f"{where} table")
        # one tap: the three, whole, each a tap target of 44 px on top of what it lies over
        gear.tap()
        for seen in (level, quick, sound):
            expect(seen).to_be_visible()
        expect(page.locator(".settings")).to_be_in_viewport(ratio=1)
        check_fit(page, f"{where} settings")
        page.screenshot(path=artifacts / f"landscape-settings-{width}x{height}-{lang}.jpg")
        # a second tap on the gear puts them away
        gear.tap()
        expect(page.locator(".settings")).to_be_hidden()
    # a choice made there is the player's: stored, and still shown when they come back
    gear.tap()
    expect(level).not_to_be_checked()
    with page.expect_response(lambda r: "/api/settings" in r.url and r.ok):
        level.locator("xpath=..").tap()
    expect(level).to_be_checked()
    # a tap elsewhere (the table) puts them away; "Các bảng" holds the panels alone
    page.locator("#table").tap(position={"x": 20, "y": 20})
    expect(page.locator(".settings")).to_be_hidden()
    page.get_by_role("button", name=words["panels"], exact=True).tap()
    expect(page.locator("#scores-panel")).to_be_visible()
    expect(page.locator(".settings")).to_be_hidden()
    page.keyboard.press("Escape")
    page.reload()
    gear.tap()
    expect(level).to_be_checked()
