"""The "hearts broken" mark follows the table's rules while cards land one by one:
with "Đầm bích phá cơ" (qs_breaks_hearts) Q♠ breaks hearts, and the page's snapshots
between two States (tablepage.js) show the mark from the moment Q♠ lands, not before.

The hand is dealt by the test so that every card up to Q♠ is forced: South leads 2C,
West must take it with its only club, A♣, and must then lead Q♠ (it holds nothing
else but hearts, which are not broken); North and East follow in spades. The page
is sent all seven cards in one State (as a room's push may bring several): the
answer to South's card is the State at South's next turn."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from planted import deal_of, plant_hand
from playwright.sync_api import Page, Route, expect
from server_process import HeartsServer
from table_page import card, open_table, state, token, wait_ready

from hearts.rules import Rules

# the cards landing one by one are what this test watches: at their real pace
pytestmark = [pytest.mark.browser, pytest.mark.real_pace]

DEAL = [
    ["2C", "2H", "3H", *(f"{r}D" for r in "23456789TJ")],  # South
    ["AC", "QS", *(f"{r}H" for r in "456789TJQKA")],  # West
    [*(f"{r}C" for r in "345678"), *(f"{r}S" for r in "2345678")],  # North
    [*(f"{r}C" for r in "9TJQK"), *(f"{r}S" for r in "9TJKA"), "QD", "KD", "AD"],  # East
]

# Every change of the trick or of the mark: the cards on the table and the mark.
RECORD_JS = """() => {
    window.__marks = [];
    const take = () => {
        const cards = [...document.querySelectorAll('#trick .table-card[data-card]')]
            .map(c => c.dataset.card).sort().join(' ');
        const broken = !document.getElementById('mark-hearts').hidden;
        const last = window.__marks[window.__marks.length - 1];
        if (!last || last.cards !== cards || last.broken !== broken)
            window.__marks.push({cards, broken});
    };
    new MutationObserver(take).observe(document.getElementById('table'),
        {subtree: true, childList: true, attributes: true});
}"""


def post(base: str, path: str, bearer: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        base.rstrip("/") + path,
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {bearer}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        got: dict[str, Any] = json.loads(response.read())
        return got


def test_queen_of_spades_breaks_hearts_as_it_lands(page: Page, hearts_server: HeartsServer) -> None:
    open_table(page)
    plant_hand(
        hearts_server.data_dir, token(page), Rules(qs_breaks_hearts=True), deal_of(DEAL), (0,) * 4
    )
    page.reload()
    wait_ready(page)
    expect(page.locator("#rules-badge")).to_contain_text("phá cơ")
    expect(page.locator("#mark-hearts")).to_be_hidden()
    # the lead card of this table (GET /api/rules) named on the message line
    expect(page.locator("#message")).to_have_text("Đến lượt bạn: mở vòng đầu bằng 2 nhép")
    bearer = token(page)

    def answer_at_souths_next_turn(route: Route) -> None:
        got = route.fetch().json()
        while got["hand"]["turn"] not in (None, "S"):
            got = post(hearts_server.url, "/api/step", bearer, {"version": got["version"]})
        route.fulfill(json=got)

    page.route("**/api/play", answer_at_souths_next_turn, times=1)
    page.evaluate(RECORD_JS)
    card(page, "2C").click()
    wait_ready(page)

    s = state(page)
    plays = [p["card"] for t in s["hand"]["tricks"] for p in t["cards"]] + [
        p["card"] for p in s["hand"]["trick"]
    ]
    assert plays[:2] == ["2C", "AC"] and plays[4] == "QS" and len(plays) == 7, plays
    assert s["hand"]["hearts_broken"] and s["hand"]["turn"] == "S"
    marks: list[dict[str, Any]] = page.evaluate("window.__marks")
    landed = next(i for i, m in enumerate(marks) if "QS" in m["cards"].split())
    assert not any(m["broken"] for m in marks[:landed]), marks  # not before Q♠ lands
    assert all(m["broken"] for m in marks[landed:]), marks  # from then on
    # the snapshot with Q♠ alone on the table, before North's and East's cards
    assert {"cards": "QS", "broken": True} in marks[landed:], marks
    expect(page.locator("#mark-hearts")).to_be_visible()
