"""Sound (issue 10, item 9): off by default, one switch kept in the browser; with
it on, the page schedules a card sound for every card, a trick sound for every
trick, and distinct sounds for Q♠ and for hearts broken (window.__heartsSounds
lists what was scheduled; Web Audio makes them, nothing is fetched)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect
from table_page import open_table, play_until, state, token, wait_ready

pytestmark = pytest.mark.browser


def sounds(page: Page) -> list[str]:
    return [str(s) for s in page.evaluate("window.__heartsSounds")]


# At the test pace (conftest.py): the page schedules a card's sound as it shows the
# card, in the same steps at any pace; only the gaps between them are shorter.
def test_sound_is_off_by_default_persists_and_plays_the_events(page: Page) -> None:
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url))
    open_table(page)
    switch = page.get_by_role("switch", name="Âm thanh")
    expect(switch).not_to_be_checked()
    expect(page.locator("body")).to_have_attribute("data-sound", "off")
    # off: the first trick played schedules nothing
    play_until(page, stop=lambda p: p.locator("#tricks-list > li").count() > 0)
    assert sounds(page) == []
    switch.click()
    expect(page.locator("body")).to_have_attribute("data-sound", "on")
    page.reload()
    wait_ready(page)
    expect(page.get_by_role("switch", name="Âm thanh")).to_be_checked()
    before = state(page)["hand"]
    played = 4 * len(before["tricks"]) + len(before["trick"])
    # on: the rest of the hand on the page, every card of it heard once
    play_until(page)
    plays = page.request.get(
        "/api/hands/1", headers={"Authorization": f"Bearer {token(page)}"}
    ).json()["plays"]
    first_heart = next(i for i, c in enumerate(plays) if c[1] == "H")
    heard = sounds(page)
    assert heard.count("card") == 52 - played, heard
    assert heard.count("trick") == 13 - played // 4, heard
    assert heard.count("queen") == (plays.index("QS") >= played), heard
    assert heard.count("hearts") == (first_heart >= played), heard
    origin = urlsplit(page.url).netloc
    assert {urlsplit(url).netloc for url in fetched} == {origin}  # nothing fetched elsewhere
    # off again: stays off after a reload
    page.get_by_role("switch", name="Âm thanh").click()
    page.reload()
    wait_ready(page)
    expect(page.get_by_role("switch", name="Âm thanh")).not_to_be_checked()
