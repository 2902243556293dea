"""Máy đã biết gì on the page (issue 41): after a hand at Khó, the review shows for
each computer decision of the trick on screen what its seat could see, Khó's
estimated chances for the hidden cards, and marks the seat that really held each."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from table_page import WAIT_MS, finish_hand_by_api, open_table, token

pytestmark = pytest.mark.browser

NAMES = {"S": "Bạn", "W": "Tây", "N": "Bắc", "E": "Đông"}


def _get(page: Page, path: str) -> Any:
    r = page.request.get(path, headers={"Authorization": f"Bearer {token(page)}"})
    assert r.ok, (r.status, r.text())
    return r.json()


def _marked(page: Page) -> list[tuple[str, str, str]]:
    """(deciding seat, card, seat marked as its real holder) on screen."""
    found = page.locator("#rv-knew .kn-decision").evaluate_all(
        "ds => ds.flatMap(d => [...d.querySelectorAll('td[data-real=\"true\"]')]"
        ".map(td => [d.dataset.seat, td.dataset.card, td.dataset.seat]))"
    )
    return [(str(a), str(b), str(c)) for a, b, c in found]


def _holders(record: Any, before: int) -> dict[str, str]:
    """Where each card was after the pass, before play ``before`` (the start hands
    of the review, less the cards played)."""
    gone = set(record["plays"][:before])
    start = {}
    for seat, cards in record["deal"].items():
        for c in cards:
            if c not in record["passes"].get(seat, []):
                start[c] = seat
    to = {"S": "W", "W": "N", "N": "E", "E": "S"}  # hand 1 passes left
    for seat, cards in record["passes"].items():
        for c in cards:
            start[c] = to[seat]
    return {c: s for c, s in start.items() if c not in gone}


def test_the_review_shows_what_the_computers_knew_beside_where_the_cards_were(
    page: Page,
) -> None:
    open_table(page, level="hard")
    finish_hand_by_api(page)
    record = _get(page, "/api/hands/1")
    page.locator("#review-open").click()
    knew = page.locator("#rv-knew")
    expect(knew).to_contain_text("Máy đã biết gì")
    page.locator("#rv-knew-open").click()
    decisions = knew.locator(".kn-decision")
    expect(decisions.first).to_be_visible(timeout=WAIT_MS)
    report = _get(page, "/api/knew/1")
    assert report["level"] == "hard"
    # the last trick: its computer plays, each with its belief beside the truth
    last = [d for d in report["decisions"] if d["trick"] == 13]
    expect(decisions).to_have_count(len(last))
    for d, shown in zip(last, decisions.all(), strict=True):
        expect(shown).to_contain_text(NAMES[d["seat"]] + " đánh")
    # the pass and an early trick: a table of chances per card and seat, the real
    # holder marked, and that holder is where the card really was
    # (the early trick: the first from the second on where a computer had a choice to
    # weigh; in one run's deal none had at the second, each following with its only card)
    early = min(d["trick"] for d in report["decisions"] if d["trick"] >= 2 and d["belief"])
    for step in (0, early):
        page.locator(f'.rv-step[data-step="{step}"]').click()
        here = [d for d in report["decisions"] if d["trick"] == step]
        expect(decisions).to_have_count(len(here))
        weighed = [d for d in here if d["belief"]]
        assert weighed, here
        expect(knew.locator("table.kn-table")).to_have_count(sum(1 for d in weighed if d["where"]))
        marked = _marked(page)
        want = []
        for d in weighed:
            if step == 0:
                truth = {c: s for s, cards in record["deal"].items() for c in cards}
            else:
                truth = _holders(record, d["index"])
            want += [(d["seat"], c, truth[c]) for c in report["watched"] if c in d["where"]]
        assert sorted(marked) == sorted(want) and marked
        # each row's chances, in %, as Khó counted them
        d = weighed[0]
        card = next(c for c in report["watched"] if c in d["where"])
        for seat, row in d["belief"]["seats"].items():
            cell = knew.locator(
                f'.kn-decision[data-seat="{d["seat"]}"] td[data-card="{card}"][data-seat="{seat}"]'
            ).first
            expect(cell).to_contain_text(f"{row[card]}%")
        expect(knew.locator(".kn-decision").first).to_contain_text("Trên tay:")
