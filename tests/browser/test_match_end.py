"""The end of a match (issue 10, item 3): the ranking with totals, a short summary
and "Trận mới", on a desktop and a phone. The match is played to 50 points through
the API (a few hands) once per worker (``match_over``, tests/browser/conftest.py) and
shown in a browser of the size's own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect
from table_page import DESKTOP, PHONE, set_language, state, wait_ready

pytestmark = pytest.mark.browser

NAMES = {"S": "Bạn", "W": "Tây", "N": "Bắc", "E": "Đông"}
ENGLISH = {"S": "You", "W": "West", "N": "North", "E": "East"}
SIZES = {"desktop": DESKTOP, "phone": PHONE}


@pytest.mark.parametrize("size", sorted(SIZES))
def test_end_of_match_screen(
    size: str, match_over: dict[str, Any], make_context: Any, artifacts: Path
) -> None:
    page = make_context(**SIZES[size], storage_state=match_over).new_page()
    page.goto("/")
    wait_ready(page)
    m = state(page)["match"]
    assert m["over"]
    result = page.locator("#result")
    expect(result).to_be_visible()
    expect(page.locator("#result-title")).to_have_text("Kết thúc trận")
    # the ranking: every seat, the lowest total first, with its place and total
    rows = page.locator("#result-ranking li")
    expect(rows).to_have_count(4)
    seats = [str(x) for x in rows.evaluate_all("ls => ls.map(l => l.dataset.seat)")]
    totals = [m["totals"][seat] for seat in seats]
    assert sorted(seats) == sorted(NAMES) and totals == sorted(totals)
    for i, seat in enumerate(seats):
        place = 1 + sum(t < m["totals"][seat] for t in totals)
        expect(rows.nth(i).locator(".rk")).to_have_text(f"{place}.")
        expect(rows.nth(i).locator(".rn")).to_have_text(NAMES[seat])
        expect(rows.nth(i).locator(".rp")).to_have_text(str(m["totals"][seat]).replace("-", "−"))
    assert seats[0] == m["winner"]
    expect(page.locator("#result-points")).to_be_hidden()
    # the summary: hands played, South's best and worst hand; the winner's line
    summary = page.locator("#result-summary")
    expect(summary).to_contain_text(f"{len(m['hands'])} ván")
    mine = [h["points"]["S"] for h in m["hands"]]
    best = mine.index(min(mine)) + 1
    expect(summary).to_contain_text(f"Ván tốt nhất của bạn: ván {best} ")
    worst = mine.index(max(mine)) + 1
    expect(summary).to_contain_text(f"tệ nhất: ván {worst} (")
    moons = [f"{NAMES[h['moon']]} (ván {i + 1})" for i, h in enumerate(m["hands"]) if h["moon"]]
    if moons:
        expect(summary).to_contain_text("Bắn trăng: " + ", ".join(moons))
    else:
        expect(summary).not_to_contain_text("Bắn trăng")
    expect(page.locator("#result-winner")).to_be_visible()
    if m["winner"] == "S":
        expect(result).to_contain_class("won")
    page.screenshot(path=artifacts / f"{size}-match-end.jpg")
    # the same box in English
    set_language(page, "en")
    expect(page.locator("#result-title")).to_have_text("Match over")
    expect(rows.nth(0).locator(".rn")).to_have_text(ENGLISH[seats[0]])
    expect(summary).to_contain_text(f"Your best hand: hand {best} ")
    page.screenshot(path=artifacts / f"{size}-match-end-en.jpg")
    set_language(page, "vi")
    # one "Trận mới", in the action bar; it opens the new-match dialog
    expect(page.locator("#new-match-open")).to_be_hidden()
    expect(page.locator("#next-hand")).to_be_hidden()
    page.locator("#new-match").click()
    expect(page.locator("#new-match-dialog")).to_be_visible()
    if size == "desktop":
        check_a_win_looks_like_one(page, m, artifacts)


def check_a_win_looks_like_one(page: Page, m: dict[str, Any], artifacts: Path) -> None:
    """A match South won shows as a win (the gold box, "Bạn thắng trận"), one it lost
    does not. Whoever the seeded deals make win, the page is shown both: the State of
    the same match, its winner's and South's totals swapped (the page draws what the
    server sends), and West's moon in its first hand for the summary's moon line."""
    result = page.locator("#result")
    won = m["winner"] == "S"
    page.reload()
    expect(page.locator("#result-title")).to_have_text("Kết thúc trận")
    if won:
        expect(result).to_contain_class("won")
    else:
        expect(result).not_to_contain_class("won")
    other = "N" if won else m["winner"]

    def swapped(route: Route) -> None:
        s = route.fetch().json()
        totals = s["match"]["totals"]
        totals["S"], totals[other] = totals[other], totals["S"]
        s["match"]["winner"] = other if won else "S"
        s["match"]["hands"][0]["moon"] = "W"
        route.fulfill(json=s)

    page.route("**/api/state", swapped)
    page.reload()
    expect(page.locator("#result-title")).to_have_text("Kết thúc trận")
    winner = page.locator("#result-winner")
    expect(page.locator("#result-summary")).to_contain_text("Bắn trăng: Tây (ván 1)")
    if won:
        expect(result).not_to_contain_class("won")
    else:
        expect(result).to_contain_class("won")
        expect(winner).to_have_text(f"Bạn thắng trận với {m['totals'][m['winner']]} điểm!")
        expect(page.locator("#result-ranking li .rn").first).to_have_text("Bạn")
        page.screenshot(path=artifacts / "desktop-match-won.jpg")
    page.unroute("**/api/state")
