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


def with_a_moon(route: Route) -> None:
    """The match's State with South's moon in its first hand (0 for South, 26 for each
    of the others, the totals and the winner to match): the page draws what it gets."""
    s = route.fetch().json()
    m = s["match"]
    first = m["hands"][0]
    for seat, was in first["points"].items():
        now = 0 if seat == "S" else 26
        m["totals"][seat] += now - was
        first["points"][seat] = now
    first["moon"], first["moon_scoring"] = "S", "add_to_others"
    m["winner"] = min(m["totals"], key=lambda seat: m["totals"][seat])
    route.fulfill(json=s)


# the top bar's match buttons seen, with their heights; the score table's seat
# columns' widths, each row's height, and in each row the top of each cell's points
SCORES_JS = """() => {
    const seen = [...document.querySelectorAll('.topbar button')]
        .filter(b => b.getClientRects().length);
    const buttons = seen.filter(b => ['room-open', 'public-open', 'new-match-open'].includes(b.id))
        .map(b => [b.id, b.getBoundingClientRect().height]);
    const table = document.getElementById('score-table');
    const widths = [...table.tHead.rows[0].cells].slice(1)
        .map(c => c.getBoundingClientRect().width);
    const rows = [...table.tBodies[0].rows].map(r => {
        const tops = [...r.cells].slice(1).map(c => {
            const text = [...c.childNodes].find(n => n.nodeType === 3);
            const range = document.createRange();
            range.selectNodeContents(text);
            return range.getBoundingClientRect().top;
        });
        return [r.getBoundingClientRect().height, tops];
    });
    return {buttons, widths, rows};
}"""


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_the_end_of_a_match_on_a_phone_keeps_its_lines(
    lang: str, match_over: dict[str, Any], make_context: Any, artifacts: Path
) -> None:
    """Issue 56, item 11, at 390×844: at the end of a match (no "Trận mới" in the top
    bar) "Chơi với bạn bè" and "Chơi với mọi người" share a line of their own, two
    lines of words each at most (squeezed beside "Luật chơi" the first took four); in
    "Bảng điểm" a moon's mark keeps its points on their row's line and its column no
    wider than the others (the word "bắn trăng" under the points took a second line
    and widened the column to twice the others')."""
    page = make_context(**PHONE, storage_state=match_over).new_page()
    page.route("**/api/state", with_a_moon)
    page.goto("/")
    wait_ready(page)
    if lang == "en":
        set_language(page, "en")
    expect(page.locator("#result-summary")).to_contain_text(
        "Moons: You (hand 1)" if lang == "en" else "Bắn trăng: Bạn (ván 1)"
    )
    page.get_by_role("button", name="Scores" if lang == "en" else "Bảng điểm").tap()
    moon = page.locator("#score-table tbody tr").first.locator("td").first
    expect(moon).to_contain_class("moon")
    page.screenshot(path=artifacts / f"phone-match-end-moon-scores-{lang}.jpg")
    got = page.evaluate(SCORES_JS)
    assert [b for b, _ in got["buttons"]] == ["room-open", "public-open"], got
    assert all(height <= 45 for _, height in got["buttons"]), got  # two lines at most
    heights = [height for height, _ in got["rows"]]
    assert max(heights) - min(heights) <= 1, got  # one line each, the moon's too
    for _, tops in got["rows"]:
        assert max(tops) - min(tops) <= 1, got
    widths = got["widths"]
    assert widths[0] <= 1.5 * min(widths[1:]), got  # South's, the moon's: not twice
    # the words for a pointer's title and screen readers
    words = "moon" if lang == "en" else "bắn trăng"
    expect(moon).to_have_attribute("title", words)
    expect(moon).to_have_text(f"0 {words}")
    page.get_by_role("button", name="Back to the table" if lang == "en" else "Về bàn").tap()
    page.screenshot(path=artifacts / f"phone-match-end-moon-{lang}.jpg")
