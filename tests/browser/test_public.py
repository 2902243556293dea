"""Play with everyone on the page (issue 40): two people, each in their own browser,
press "Chơi với mọi người" and "Tìm bàn", are seated together at one public table
(the lobby's 20 s countdown shown, then computers in the empty seats), see each
other's names, play, react (the reaction shows over the sender's seat on the other
page), find their table again after a reload, and open the leaderboard. One page is a
desktop, the other is resized to a phone. Three more, at a table of three, are seated
together, one is away and back, they react and play, one leaves for good and the
match, played out through the API, shows as his last place. The server is the real
``hearts serve`` with the computers unpaced (``--room-pace 0``): conftest.py's
``room_server``, shared with the rooms' tests."""

from __future__ import annotations

import json
import re
import sqlite3
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from room_page import (
    ROOM_READY,
    pass_three,
    play_until,
    room_state,
    wait_table,
)
from server_process import HeartsServer
from table_page import DESKTOP, PHONE, WAIT_MS, card, legal_cards, press_card, rank
from test_english import vietnamese

pytestmark = pytest.mark.browser

CODE_URL = re.compile(r"/r/[A-Za-z0-9]+$")


def seek(page: Page, name: str, players: int = 4, target: int | None = None) -> str:
    """Press "Chơi với mọi người", type a name, "Tìm bàn" (the standard table, or one of
    ``players`` to ``target``): the page moves to the table (its lobby, unless this
    seat filled it). Returns the table's code."""
    page.goto("/")
    page.get_by_role("button", name="Chơi với mọi người").click()
    dialog = page.locator("#public-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator('input[name="players"][value="4"]')).to_be_checked()
    if players != 4:
        dialog.locator(f'input[name="players"][value="{players}"]').check()
    if target is not None:
        dialog.locator('input[name="target"]').fill(str(target))
    dialog.get_by_label("Tên người khác thấy").fill(name)
    dialog.get_by_role("button", name="Tìm bàn").click()
    page.wait_for_url(CODE_URL, timeout=WAIT_MS)
    page.wait_for_selector(
        'body[data-phase="lobby"], body[data-room-phase="playing"]',
        state="attached",
        timeout=WAIT_MS,
    )
    return page.url.rsplit("/", 1)[1]


def play_a_trick_or_two(pages: list[Page]) -> None:
    """Both pass, then each plays their lowest legal card on their turn until two
    tricks are taken (a bounded number of rounds)."""
    for page in pages:
        pass_three(page)
    play_until(
        pages,
        lambda: pages[0].evaluate("document.querySelectorAll('#tricks-list > li').length") >= 2,
        rounds=300,
    )


def test_two_strangers_seek_play_react_and_see_the_board(
    room_server: HeartsServer, make_context: Callable[..., BrowserContext]
) -> None:
    errors: list[str] = []
    pages = []
    for _ in range(2):
        page = make_context(base_url=room_server.url, **DESKTOP).new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        pages.append(page)
    an, binh = pages

    code = seek(an, "An")
    countdown = an.locator(".public-start[data-start-in]")
    expect(countdown).to_be_visible()
    expect(countdown).to_contain_text(re.compile(r"Bàn bắt đầu sau \d+ giây"))
    assert seek(binh, "Bình") == code  # the same table, the oldest waiting
    expect(an.locator(".public-seats .rs-name", has_text="Bình")).to_be_visible()
    expect(binh.locator(".public-seats .rs-name", has_text="An")).to_be_visible()

    # the 20 s pass: computers take the two empty seats and the match starts
    binh.set_viewport_size(PHONE["viewport"])
    for page in pages:
        wait_table(page)
    expect(an.locator("#room-players .rs-name", has_text="Bình")).to_have_count(1)
    expect(binh.locator("#table .seat .plate", has_text="An")).to_have_count(1)
    expect(an.locator("#room-players [data-kind='computer']")).to_have_count(2)

    play_a_trick_or_two(pages)

    # a reaction: shown over An's seat on Bình's page (a stranger's, "Tây"/"Bắc"/"Đông")
    an.locator('[data-reaction="thanks"]').click()
    shown = binh.locator('#table .seat[data-reaction-shown="thanks"]')
    expect(shown).to_have_count(1)
    expect(shown).to_contain_text("Cảm ơn")
    expect(shown.locator(".plate")).to_contain_text("An")
    expect(shown).to_have_count(0, timeout=10_000)  # gone after its 2 s

    # a reload finds the table again, by its path and from the main page
    binh.reload()
    wait_table(binh)
    binh.goto("/")
    binh.wait_for_url(re.compile(f"/r/{code}$"), timeout=WAIT_MS)
    binh.wait_for_selector(f'{ROOM_READY}[data-room-phase="playing"]', state="attached")

    # the leaderboard: nobody rated yet, An not rated either
    an.locator("#room-panel").get_by_role("button", name="Bảng xếp hạng").click()
    board = an.locator("#leaderboard")
    expect(board).to_be_visible()
    expect(board.locator("#lb-me")).to_contain_text("chưa có điểm xếp hạng")
    board.get_by_role("button", name="Mọi lúc").click()
    expect(board.get_by_role("button", name="Mọi lúc")).to_have_attribute("aria-pressed", "true")
    expect(board.locator(".lb-empty")).to_be_visible()
    # how the rating goes, in a player's words (issue 56 item 2): no μ − 3σ
    about = board.locator(".lb-about")
    expect(about).to_contain_text("không tính máy")
    expect(about).not_to_contain_text("σ")
    board.get_by_role("button", name="Đóng").click()
    expect(board).to_be_hidden()

    # An hides Bình: "Người chơi ẩn" instead of the name, and no reaction of Bình's
    an.locator("#room-players .room-seat", has_text="Bình").get_by_role("button", name="Ẩn").click()
    expect(an.locator("#table .seat .plate", has_text="Người chơi ẩn")).to_have_count(1)
    expect(an.locator("#room-players .rs-name", has_text="Bình")).to_have_count(0)
    binh.locator('[data-reaction="like"]').click()
    expect(binh.locator('#table .seat[data-seat="S"][data-reaction-shown="like"]')).to_have_count(1)
    expect(an.locator("[data-reaction-shown]")).to_have_count(0)
    an.get_by_role("button", name="Hiện lại").click()
    expect(an.locator("#table .seat .plate", has_text="Bình")).to_have_count(1)

    # An leaves for good, warned that the match counts as last place; a computer
    # takes the seat on Bình's page, and An's page is at no table any more
    an.locator("#room-leave-table").click()
    expect(an.locator(".room-ask")).to_contain_text("về chót")
    an.locator("#room-leave-yes").click()
    an.wait_for_selector('body[data-mode="single"]', state="attached", timeout=WAIT_MS)
    expect(binh.locator('#room-players [data-kind="computer"]')).to_have_count(3)
    assert errors == []


def test_in_english(room_server: HeartsServer, make_context: Callable[..., BrowserContext]) -> None:
    """The seek dialog and the leaderboard in English: no Vietnamese word on screen."""
    page = make_context(base_url=room_server.url, **PHONE).new_page()
    page.goto("/")
    page.locator("#lang-switch").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.get_by_role("button", name="Play with everyone").click()
    dialog = page.locator("#public-dialog")
    expect(dialog.get_by_role("button", name="Find a table")).to_be_visible()
    assert vietnamese(page) == []
    dialog.get_by_role("button", name="Leaderboard").click()
    board = page.locator("#leaderboard")
    expect(board.locator("#lb-me")).to_contain_text("no rating yet")
    expect(board.locator(".lb-about")).to_contain_text("computers not counted")
    expect(board.locator(".lb-about")).not_to_contain_text("σ")
    # the names on the board are the players' own words (other tests' players on this
    # server: "Bình"), not the page's
    names = [n.strip() for n in board.locator(".lb-name").all_text_contents()]
    assert [text for text in vietnamese(page) if text not in names] == []


# -- three strangers (issue 40's browser test) -------------------------------------
def call(url: str, token: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """The server's JSON API with a page's token (moves the test does not watch)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method=method)
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


MY_TURN_OF_THREE = f'{ROOM_READY}[data-phase="play"][data-turn="P1"]'


def token_of(page: Page) -> str:
    token: str = page.evaluate("localStorage.getItem('hearts-token')")
    return token


def play_out(
    url: str, tokens: list[str], code: str, done: Callable[[Any], bool] | None = None
) -> dict[str, Any]:
    """The players of ``tokens`` play the match to its end (or until ``done(room)``)
    through the API (the first legal card; the next deal; the moon added to the
    others): its last Room."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        moved = False
        for token in tokens:
            _, room = call(url, token, "GET", f"/api/rooms/{code}")
            if room["phase"] == "over" or (done is not None and done(room)):
                return dict(room)
            state, v = room["state"], room["version"]
            hand, path = state["hand"], f"/api/rooms/{code}/"
            if hand["phase"] == "pass" and hand["passed"] is None:
                body = {"version": v, "cards": hand["cards"][: hand["pass_count"]]}
                moved |= call(url, token, "POST", path + "pass", body)[0] == 200
            elif hand["phase"] == "play" and hand["turn"] == room["you"]:
                body = {"version": v, "card": hand["legal"][0]}
                moved |= call(url, token, "POST", path + "play", body)[0] == 200
            elif hand["phase"] == "moon_choice" and hand["moon_choice"]:
                body = {"version": v, "choice": "add_to_others"}
                moved |= call(url, token, "POST", path + "moon", body)[0] == 200
            elif hand["phase"] == "done" and not state["match"]["over"]:
                moved |= call(url, token, "POST", path + "next-hand", {"version": v})[0] == 200
        if not moved:
            time.sleep(0.02)
    raise AssertionError("the match did not end")


def overdue(server: HeartsServer, code: str) -> None:
    """The table's next server move due now, as if its 30 s turn had passed (the
    server's sweep finds it within a second or two)."""
    with sqlite3.connect(server.data_dir / "hearts.db") as db:
        db.execute("UPDATE rooms SET due_at = 1.0 WHERE code = ?", (code,))


def away_and_back(
    server: HeartsServer, code: str, an: Page, binh: Page, chi: Page, errors: list[str]
) -> Page:
    """Chi closes her page before passing; An and Bình pass; when her time is over
    (made due at once) Vừa passes for her, "(tự động)" on the others' pages; she comes
    back on the main page, which finds her table, and the mark goes. Her new page."""
    chi.close()
    pass_three(an)
    pass_three(binh)
    chi_seat = next(s["seat"] for s in room_state(an)["seats"] if s["name"] == "Chi")
    for _ in range(200):
        if room_state(an)["waiting_for"] == [chi_seat]:
            break
        an.wait_for_timeout(50)
    overdue(server, code)
    status = an.locator("#table .seat .room-status", has_text="(tự động)")
    expect(status).to_have_count(1, timeout=WAIT_MS)
    expect(an.locator("#room-players li", has_text="Chi")).to_contain_text("(tự động)")
    expect(binh.locator("#table .seat .room-status", has_text="(tự động)")).to_have_count(1)
    back = chi.context.new_page()
    back.on("pageerror", lambda e: errors.append(str(e)))
    back.goto("/")
    back.wait_for_url(re.compile(f"/r/{code}$"), timeout=WAIT_MS)
    wait_table(back)
    expect(status).to_have_count(0, timeout=WAIT_MS)
    expect(an.locator("#room-players li", has_text="Chi")).not_to_contain_text("(tự động)")
    return back


def a_trick_of_three(pages: list[Page]) -> None:
    """Each page plays its lowest legal card on its turn (each sees itself as "P1" at
    a table of three) until the first trick is taken."""
    an = pages[0]
    for _ in range(300):
        if an.evaluate("document.querySelectorAll('#tricks-list > li').length") >= 1:
            return
        acted = False
        for page in pages:
            if page.evaluate(f"!!document.querySelector('{MY_TURN_OF_THREE}')"):
                choice = min(legal_cards(page), key=rank)
                press_card(page, choice)
                expect(card(page, choice)).to_have_count(0, timeout=WAIT_MS)
                acted = True
        if not acted:
            an.wait_for_timeout(100)
    raise AssertionError("the trick was never taken")


def test_three_strangers_play_react_one_is_away_and_back_one_leaves_for_good(
    room_server: HeartsServer, make_context: Callable[..., BrowserContext]
) -> None:
    """Three people seek a table of three (phone and desktop sizes) and are seated
    together; Chi closes her page and Vừa passes for her, "(tự động)", until she comes
    back; An reacts, the others see it; a trick is played on the pages; Bình leaves for
    good; An and Chi finish the match (through the API: the pages are not watched);
    An's page shows her place and rating change, and Bình's leaderboard shows the
    match as his last place."""
    errors: list[str] = []
    pages = []
    for n, size in enumerate((DESKTOP, PHONE, DESKTOP)):
        # three addresses, and tokens in use before the table opens: real opponents
        # (public/rating.py)
        stranger = {"X-Forwarded-For": f"10.1.0.{n + 1}"}
        page = make_context(base_url=room_server.url, extra_http_headers=stranger, **size)
        page = page.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto("/")
        page.wait_for_function("() => !!localStorage.getItem('hearts-token')")
        pages.append(page)
    an, binh, chi = pages
    code = seek(an, "An", players=3, target=50)
    assert seek(binh, "Bình", players=3, target=50) == code
    assert seek(chi, "Chi", players=3, target=50) == code  # full: it starts at once
    for page in pages:
        wait_table(page)
    for page, others in ((an, ("Bình", "Chi")), (binh, ("An", "Chi")), (chi, ("An", "Bình"))):
        for name in others:
            expect(page.locator("#room-players .rs-name", has_text=name)).to_have_count(1)
    expect(an.locator("#room-players [data-kind='computer']")).to_have_count(0)

    chi = away_and_back(room_server, code, an, binh, chi, errors)
    pages = [an, binh, chi]
    a_trick_of_three(pages)

    # An reacts (over her page's socket, no REST call): shown over her seat on both
    # other pages
    posted: list[str] = []
    an.on("request", lambda r: posted.append(r.url) if r.url.endswith("/react") else None)
    an.locator('[data-reaction="wow"]').click()
    for page in (binh, chi):
        shown = page.locator('#table .seat[data-reaction-shown="wow"]')
        expect(shown).to_have_count(1)
        expect(shown.locator(".plate")).to_contain_text("An")
    expect(an.locator('#table .seat[data-reaction-shown="wow"]')).to_have_count(1)
    assert posted == []

    # the first hand played out (through the API), then Bình leaves for good: a
    # computer takes his seat
    url = room_server.url.rstrip("/")
    tokens = [token_of(an), token_of(binh), token_of(chi)]
    play_out(url, tokens, code, lambda room: room["state"]["match"]["hands"] != [])
    binh.locator("#room-leave-table").click()
    expect(binh.locator(".room-ask")).to_contain_text("về chót")
    binh.locator("#room-leave-yes").click()
    binh.wait_for_selector('body[data-mode="single"]', state="attached", timeout=WAIT_MS)
    expect(an.locator('#room-players [data-kind="computer"]')).to_have_count(1)

    # An and Chi play the match out; it is rated: Bình last of the three
    tokens = [token_of(an), token_of(chi)]
    chi.close()  # no page draws the cards played through the API
    an.goto("about:blank")
    play_out(url, tokens, code)
    rated = call(url, tokens[0], "GET", f"/api/rooms/{code}")[1]["public"]["rated"]
    assert rated is not None and rated["place"] in (1, 2)
    an.goto(f"/r/{code}")
    rated_line = an.locator("#public-rated")
    expect(rated_line).to_be_visible(timeout=WAIT_MS)
    # the place among the three people, beside a score table that ranks four seats
    # (issue 56 item 2)
    people = f"Trong 3 người chơi ở bàn (không tính máy), bạn xếp thứ {rated['place']}."
    expect(rated_line).to_contain_text(people)
    # what happened, beside "Chơi một mình" (issue 56 item 7)
    expect(an.locator("#message")).to_contain_text("Bàn đã đóng")
    expect(an.locator("#room-players li[data-kind='computer']")).to_contain_text(
        "chơi thay Bình, người đã rời bàn"
    )
    _, board = call(url, token_of(binh), "GET", "/api/leaderboard")
    last = board["me"]["last"]
    assert last["place"] == 3 and last["change"] < 0 and board["me"]["matches"] == 1
    binh.get_by_role("button", name="Chơi với mọi người").click()
    binh.locator("#public-dialog").get_by_role("button", name="Bảng xếp hạng").click()
    change = f"{-last['change']:.2f}".replace(".", ",")
    expect(binh.locator("#lb-me")).to_contain_text(f"trận gần nhất: thứ 3 (−{change})")
    assert errors == []
