"""A public table on a landscape phone (issue 56, item 4): nobody is its host, so no
"chủ phòng" on it; a reaction merged with "Đến lượt bạn" has no stray full stop, its
bubble over North lies inside the table (844×390, 640×360, 390×844), and a three-line
message leaves the reaction buttons beside the table, clear of the hand (844×390,
640×360); leaving asks
"Rời bàn hẳn?" with a "Rời bàn" button. In a room of friends the host's mark beside
North's plate covers none of the trick at 844×390. The other players are the server's
API with tokens of their own; the page is the player under test."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser.test_public import call, token_of
from playwright.sync_api import BrowserContext, Page, expect
from room_page import wait_table
from server_process import HeartsServer

pytestmark = pytest.mark.browser

LANDSCAPE = {"viewport": {"width": 844, "height": 390}, "is_mobile": True, "has_touch": True}
LONG_NAME = "Nguyễn Thị Minh Khai"  # 20 characters, the most a name may have


def new_token(url: str) -> str:
    request = call(url, "", "POST", "/api/players")
    token: str = request[1]["token"]
    return token


def play_to_norths_card(url: str, code: str, others: list[str], me: str) -> None:
    """Everyone passes; then each plays their first legal card (the page's player its
    own too, through the API) until it is the page's turn with North's card on the
    table."""
    for token in [*others, me]:
        room = call(url, token, "GET", f"/api/rooms/{code}")[1]
        hand = room["state"]["hand"]
        if hand["phase"] == "pass" and hand["passed"] is None:
            body = {"version": room["version"], "cards": hand["cards"][: hand["pass_count"]]}
            call(url, token, "POST", f"/api/rooms/{code}/pass", body)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for token in [*others, me]:
            room = call(url, token, "GET", f"/api/rooms/{code}")[1]
            hand = room["state"]["hand"]
            mine = token == me and hand["turn"] == "S"
            if mine and any(p["seat"] == "N" for p in hand["trick"]):
                return
            if hand["phase"] == "play" and hand["turn"] == "S" and not room["computer_to_move"]:
                body = {"version": room["version"], "card": hand["legal"][0]}
                call(url, token, "POST", f"/api/rooms/{code}/play", body)
        time.sleep(0.05)
    raise AssertionError("North's card never came before the page's turn")


# Boxes on the page: the visible room marks and reaction bubbles over a card of the
# trick; the reaction bar and its buttons against the hand and the window; the message
# line's lines; the bubble against the table.
BOXES_JS = """() => {
    const box = (e) => e.getBoundingClientRect();
    const seen = (e) => !e.hidden && e.getClientRects().length;
    const over = (a, b) =>
        a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const cards = [...document.querySelectorAll('#trick .table-card[data-card]')].map(box);
    const marks = [...document.querySelectorAll('#table .seat :is(.room-host, .room-status)')]
        .filter(seen);
    const hand = box(document.getElementById('hand'));
    const table = box(document.getElementById('table'));
    const bar = document.getElementById('reaction-bar');
    const msg = document.getElementById('message');
    const bubble = document.querySelector('#table .reaction-bubble');
    const b = bubble && box(bubble);
    const style = getComputedStyle(msg);
    const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
    return {
        marksOverCards: marks.filter(m => cards.some(c => over(box(m), c))).map(m => m.textContent),
        lines: Math.round(box(msg).height / line),
        barOverHand: !!bar && over(box(bar), hand),
        buttonsHidden: [...(bar ? bar.querySelectorAll('button') : [])].filter(x => {
            const r = box(x);
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return r.bottom > innerHeight || over(r, hand) || !hit || !x.contains(hit);
        }).map(x => x.dataset.reaction),
        bubble: b && {inside: b.top >= table.top && b.bottom <= table.bottom
                       && b.left >= table.left && b.right <= table.right,
                      overCard: cards.some(c => over(b, c))},
    };
}"""


def react_from_north(url: str, code: str, token: str, page: Page) -> dict[str, Any]:
    """North's player says "Hay quá!": the page's boxes while it shows."""
    call(url, token, "POST", f"/api/public/{code}/react", {"reaction": "nice"})
    expect(page.locator('#table .seat-N[data-reaction-shown="nice"]')).to_have_count(1)
    got: dict[str, Any] = page.evaluate(BOXES_JS)
    return got


def test_a_public_table_on_a_landscape_phone(
    room_server: HeartsServer, make_context: Callable[..., BrowserContext], artifacts: Path
) -> None:
    url = room_server.url.rstrip("/")
    rules = {"rules": {"target": 75}}  # a table of its own on the shared server
    page = make_context(base_url=room_server.url, **LANDSCAPE).new_page()
    page.goto("/")
    page.wait_for_function("() => !!localStorage.getItem('hearts-token')")
    me = token_of(page)
    # seats in the order they are taken: North (the first, who opened the table),
    # East, the page's South, West (the last: the table starts)
    north, east, west = new_token(url), new_token(url), new_token(url)
    code = call(url, north, "POST", "/api/public/seek", {**rules, "name": LONG_NAME})[1]["code"]
    call(url, east, "POST", "/api/public/seek", {**rules, "name": "Tuấn"})
    assert call(url, me, "POST", "/api/public/seek", {**rules, "name": "Lan"})[1]["code"] == code
    call(url, west, "POST", "/api/public/seek", {**rules, "name": "Minh"})
    page.goto(f"/r/{code}")
    wait_table(page)
    play_to_norths_card(url, code, [north, east, west], me)
    expect(page.locator('#trick .table-card[data-seat="N"]')).to_have_count(1)
    expect(page.locator("#table .seat-N .plate")).to_contain_text(LONG_NAME)

    # nobody's table: no host on it, nor in the list of players
    expect(page.locator("#table .room-host:visible")).to_have_count(0)
    expect(page.locator("#room-players")).not_to_contain_text("chủ phòng")

    got = react_from_north(url, code, north, page)
    page.screenshot(path=str(artifacts / "public-844x390.png"))
    message = page.locator("#message")
    expect(message).to_contain_text(f"{LONG_NAME}: Hay quá! Đến lượt bạn")
    assert got["lines"] >= 3, got  # the long message of the issue
    assert not got["barOverHand"] and got["buttonsHidden"] == [], got
    assert got["bubble"] == {"inside": True, "overCard": False}, got
    assert got["marksOverCards"] == [], got

    # the smaller landscape phone: the column beside the table is narrower still
    page.set_viewport_size({"width": 640, "height": 360})
    time.sleep(3.1)  # a player's reactions are 3 s apart at least
    got = react_from_north(url, code, north, page)
    page.screenshot(path=str(artifacts / "public-640x360.png"))
    assert got["lines"] >= 3, got
    assert not got["barOverHand"] and got["buttonsHidden"] == [], got
    assert got["bubble"] == {"inside": True, "overCard": False}, got

    page.set_viewport_size({"width": 390, "height": 844})
    time.sleep(3.1)
    got = react_from_north(url, code, north, page)
    page.screenshot(path=str(artifacts / "public-390x844.png"))
    assert got["bubble"] == {"inside": True, "overCard": False}, got

    # leaving: the question and its button in the same words
    leave = page.locator("#room-leave-table")
    expect(leave).to_have_text("Rời bàn")
    leave.click()
    expect(page.locator(".room-ask")).to_contain_text("Rời bàn hẳn?")
    expect(page.locator("#room-leave-yes")).to_have_text("Rời bàn")
    page.locator("#room-bar").get_by_role("button", name="Thôi").click()
    expect(leave).to_be_visible()


def test_a_rooms_host_mark_beside_norths_plate(
    room_server: HeartsServer, make_context: Callable[..., BrowserContext], artifacts: Path
) -> None:
    url = room_server.url.rstrip("/")
    page = make_context(base_url=room_server.url, **LANDSCAPE).new_page()
    page.goto("/")
    page.wait_for_function("() => !!localStorage.getItem('hearts-token')")
    me = token_of(page)
    # the host at seat 0, a guest, the page, a computer: the host sits North of the page
    host, guest = new_token(url), new_token(url)
    body = {"name": "Chủ", "turn_seconds": None, "level": "easy"}
    code = call(url, host, "POST", "/api/rooms", body)[1]["code"]
    call(url, guest, "POST", f"/api/rooms/{code}/join", {"name": "Khách"})
    call(url, me, "POST", f"/api/rooms/{code}/join", {"name": "Lan"})
    version = call(url, host, "GET", f"/api/rooms/{code}")[1]["version"]
    assert call(url, host, "POST", f"/api/rooms/{code}/start", {"version": version})[0] == 200
    page.goto(f"/r/{code}")
    wait_table(page)
    play_to_norths_card(url, code, [host, guest], me)
    expect(page.locator('#trick .table-card[data-seat="N"]')).to_have_count(1)
    expect(page.locator("#table .seat-N .room-host")).to_be_visible()
    page.screenshot(path=str(artifacts / "room-host-844x390.png"))
    assert page.evaluate(BOXES_JS)["marksOverCards"] == []
