"""The side panels beside the table (issue 56, item 11): where one scrolls, no line of
its text is seen cut through its middle at an edge with more beyond it (at 1024x768
and 1440x900 the tricks list's top line and an achievement's were): a band of the
paper's colour lies over the line cut there, at the panel's edges and at those of the
score table's head and foot; and none at an end, where nothing is hidden. In
Vietnamese and English. Screenshots in ``test-artifacts/side-panels-*.jpg``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from table_page import open_table, play_by_api, set_language, wait_ready

pytestmark = pytest.mark.browser

SIZES = [(1024, 768), (1440, 900), (1920, 1080)]
SCROLLERS = ["tricks-scroll", "scores-panel", "stats-panel"]

# a long match's score table: ten more hands after the real ones
MORE_HANDS_JS = """() => {
    const body = document.querySelector('#score-table tbody');
    for (let i = 1; i <= 10; i++) {
        const tr = document.createElement('tr');
        tr.innerHTML = '<th scope="row">' + (i + 1) + '</th><td>3</td><td>13</td><td>0</td>'
            + '<td>10</td>';
        body.append(tr);
    }
    document.getElementById('score-empty').hidden = true;
}"""

# The scroller ``id`` scrolled to ``at`` (0 its top, 1 its end): the lines of its text
# cut by an edge with more beyond it and not under that edge's band (opaque, as tall
# as the line's part in sight), and the bands shown at an end, where nothing is hidden.
# The edges: the scroller's own, and for the score table those of its head and foot
# when they are stuck there (rows scroll under them).
CUT_JS = """async ([id, at]) => {
    const s = document.getElementById(id);
    s.scrollTop = at * (s.scrollHeight - s.clientHeight);
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    const r = s.getBoundingClientRect();
    const top = r.top + s.clientTop, bottom = top + s.clientHeight;
    const band = (el, pseudo) => {
        const cs = getComputedStyle(el, pseudo);
        return cs.content === 'none' || cs.opacity !== '1' ? 0 : parseFloat(cs.height);
    };
    const edges = [];  // [y, 1: the band goes down from it, -1: up, its height, name]
    if (s.scrollTop > 1) edges.push([top, 1, band(s, '::before'), 'top']);
    if (s.scrollTop + s.clientHeight < s.scrollHeight - 1)
        edges.push([bottom, -1, band(s, '::after'), 'bottom']);
    const head = s.querySelector('thead th'), foot = s.querySelector('tfoot th');
    if (head && Math.abs(head.getBoundingClientRect().top - top) < 1)
        edges.push([head.getBoundingClientRect().bottom, 1, band(head, '::after'), 'head']);
    if (foot && Math.abs(foot.getBoundingClientRect().bottom - bottom) < 1)
        edges.push([foot.getBoundingClientRect().top, -1, band(foot, '::before'), 'foot']);
    const cut = [];
    const walker = document.createTreeWalker(s, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!n.textContent.trim() || n.parentElement.closest('thead, tfoot')) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        for (const l of range.getClientRects())
            for (const [y, dir, tall, name] of edges) {
                if (!(l.top < y - 1 && l.bottom > y + 1)) continue;
                const seen = dir > 0 ? l.bottom - y : y - l.top;
                if (seen > tall) cut.push([name, n.textContent.trim().slice(0, 30), seen, tall]);
            }
    }
    const shownAtEnd = [];
    if (s.scrollTop <= 1 && band(s, '::before')) shownAtEnd.push('top band at the top');
    if (s.scrollTop + s.clientHeight >= s.scrollHeight - 1 && band(s, '::after'))
        shownAtEnd.push('bottom band at the end');
    return {scrolls: s.scrollHeight > s.clientHeight, edges: edges.map(e => e[3]), cut,
            shownAtEnd};
}"""


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_a_scrolling_panel_cuts_no_line_in_sight(
    lang: str, make_context: Any, artifacts: Path
) -> None:
    page = make_context(viewport={"width": 1024, "height": 768}).new_page()
    open_table(page)
    if lang == "en":
        set_language(page, "en")
    # half a hand played: six tricks in their list, South to play
    play_by_api(
        page,
        lambda s: (
            s["hand"]["phase"] == "play"
            and len(s["hand"]["tricks"]) >= 6
            and s["hand"]["turn"] == s["seats"][0]
        ),
    )
    page.reload()
    wait_ready(page)
    page.evaluate(MORE_HANDS_JS)
    wrong, scrolled = [], set()
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        for id_ in SCROLLERS:
            for at in (0, 0.5, 1):
                got = page.evaluate(CUT_JS, [id_, at])
                if got["scrolls"]:
                    scrolled.add(id_)
                if got["cut"] or got["shownAtEnd"]:
                    wrong.append((width, height, id_, at, got))
            if id_ == "tricks-scroll":
                page.evaluate(CUT_JS, [id_, 1])  # the latest trick in sight, as the page has it
        page.screenshot(path=artifacts / f"side-panels-{lang}-{width}x{height}.jpg")
    assert scrolled == set(SCROLLERS), scrolled  # each was seen scrolling somewhere
    assert wrong == [], "\n".join(map(str, wrong))


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_a_short_score_table_is_seen_whole(lang: str, make_context: Any) -> None:
    """A first hand's score table and its lines below (the target, in two lines at
    1024x768) are all in sight: the panel does not scroll, and so shows no band (its
    last line lay in the panel's padding, a scroll of 13 px, the achievements beside
    it longer)."""
    page = make_context(viewport={"width": 1024, "height": 768}).new_page()
    open_table(page)
    if lang == "en":
        set_language(page, "en")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        got = page.evaluate(CUT_JS, ["scores-panel", 0])
        assert not got["scrolls"] and got["edges"] == [], (width, height, got)
