"""The cards on a big screen (issue 56, item 11: at 1920x1080 they looked small, the
sizes of 1440x900 on a table of 1532x762): they grow with the window, the hand's, the
trick's and the opponents' backs at least a fifth wider at 1920x1080 than at
1440x900, and wider again at 2560x1440; the table with its whole trick and the whole
hand still seen at once, with no scrolling, no card of the trick over a plate. The
sizes of 1440x900 themselves are left as they were. Screenshots in
``test-artifacts/card-sizes-*.jpg``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from table_page import open_table, play_by_api, wait_ready
from test_layout import COVER_JS, FILL_TRICK_JS, TRICK_JS, check_fit, check_hand

pytestmark = pytest.mark.browser

WIDTHS_JS = """() => {
    const w = sel => document.querySelector(sel).offsetWidth;  // turned or not
    return {hand: w('#hand button.hand-card'), trick: w('#trick .table-card[data-card]'),
            back: w('#table .seat-N .fan .mini-back')};
}"""
TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def test_the_cards_grow_on_a_big_screen(make_context: Any, artifacts: Path) -> None:
    page = make_context(viewport={"width": 1440, "height": 900}).new_page()
    open_table(page)
    # a trick on the table, South to play, then every seat's card of it
    play_by_api(
        page,
        lambda s: (
            s["hand"]["phase"] == "play"
            and len(s["hand"]["trick"]) >= 1
            and s["hand"]["turn"] == s["seats"][0]
        ),
    )
    page.reload()
    wait_ready(page)
    assert page.evaluate(FILL_TRICK_JS) == 4
    widths = {}
    for width, height in [(1440, 900), (1920, 1080), (2560, 1440)]:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(TWO_FRAMES)
        name = f"{width}x{height}"
        page.screenshot(path=artifacts / f"card-sizes-{name}.jpg")
        widths[name] = page.evaluate(WIDTHS_JS)
        check_fit(page, name)
        check_hand(page, name)
        for c in page.evaluate(TRICK_JS):
            assert c["inTable"] and c["corner"], (name, c)
        assert page.evaluate(COVER_JS) == [], f"{name}: a card of the trick over a plate"
    small, big, bigger = widths["1440x900"], widths["1920x1080"], widths["2560x1440"]
    assert small == {"hand": 96, "trick": 84, "back": 38}, small
    for what in small:
        assert big[what] >= 1.2 * small[what], (what, widths)
        assert bigger[what] > big[what], (what, widths)
