"""Play with everyone on the page (issue 40): two people, each in their own browser,
press "Chơi với mọi người" and "Tìm bàn", are seated together at one public table
(the lobby's 20 s countdown shown, then computers in the empty seats), see each
other's names, play, react (the reaction shows over the sender's seat on the other
page), find their table again after a reload, and open the leaderboard. One page is a
desktop, the other is resized to a phone. The server is the real ``hearts serve``
with the computers unpaced (``--room-pace 0``)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from room_page import ROOM_READY, my_turn, pass_three, play_lowest, wait_table
from server_process import HeartsServer
from table_page import DESKTOP, PHONE, WAIT_MS
from test_english import vietnamese

pytestmark = pytest.mark.browser

CODE_URL = re.compile(r"/r/[A-Za-z0-9]+$")


def seek(page: Page, name: str) -> str:
    """Press "Chơi với mọi người", type a name, "Tìm bàn" (the standard table): the page moves to
    the table's lobby. Returns the table's code."""
    page.goto("/")
    page.get_by_role("button", name="Chơi với mọi người").click()
    dialog = page.locator("#public-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator('input[name="players"][value="4"]')).to_be_checked()
    dialog.get_by_label("Tên người khác thấy").fill(name)
    dialog.get_by_role("button", name="Tìm bàn").click()
    page.wait_for_url(CODE_URL, timeout=WAIT_MS)
    page.wait_for_selector('body[data-phase="lobby"]', state="attached", timeout=WAIT_MS)
    return page.url.rsplit("/", 1)[1]


def play_a_trick_or_two(pages: list[Page]) -> None:
    """Both pass, then each plays their lowest legal card on their turn until two
    tricks are taken (a bounded number of rounds)."""
    for page in pages:
        pass_three(page)
    for _ in range(300):
        if pages[0].evaluate("document.querySelectorAll('#tricks-list > li').length") >= 2:
            return
        acted = False
        for page in pages:
            if my_turn(page):
                play_lowest(page)
                acted = True
        if not acted:
            pages[0].wait_for_timeout(100)
    raise AssertionError("the tricks were never taken")


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
    assert vietnamese(page) == []
