"""Chuyển sang máy khác (issue 39, item 17) across two browser contexts: the code's
link opened in another browser makes it the owner of the player's match; the old
browser is told and starts afresh; a used or guessed code is refused there."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, Route, WebSocketRoute, expect
from room_page import create_room_by_api
from server_process import HeartsServer
from table_page import PHONE, hand_cards, token, wait_ready

pytestmark = pytest.mark.browser


def browser(hearts_server: HeartsServer, make_context: Callable[..., BrowserContext]) -> Page:
    page = make_context(base_url=hearts_server.url).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def open_link(page: Page, link: str) -> None:
    """The transfer's link, and "Nhận" once the page asks."""
    page.goto(link)
    dialog = page.locator("#transfer-claim")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Nhận", exact=True).click()


def test_the_link_moves_the_match_and_the_old_browser_starts_afresh(
    hearts_server: HeartsServer, make_context: Callable[..., BrowserContext]
) -> None:
    old = browser(hearts_server, make_context)
    old.goto("/")
    wait_ready(old)
    cards = hand_cards(old)
    old.get_by_role("button", name="Chuyển sang máy khác").click()
    dialog = old.locator("#transfer-dialog")
    expect(dialog.locator("#transfer-code")).to_have_text(
        re.compile(r"^[A-Z2-9]{5}-[A-Z2-9]{5}-[A-Z2-9]{5}$")
    )
    link = dialog.locator("#transfer-link").inner_text().strip()
    assert link.startswith(hearts_server.url.rstrip("/") + "/t/")
    old.wait_for_function(
        "() => document.querySelector('#transfer-dialog img.qr-code').naturalWidth > 0"
    )

    new = browser(hearts_server, make_context)
    new.goto("/")
    wait_ready(new)
    assert hand_cards(new) != cards  # its own match first
    open_link(new, link)
    new.wait_for_url(hearts_server.url.rstrip("/") + "/")
    wait_ready(new)
    assert hand_cards(new) == cards  # now the old browser's

    old.reload()
    moved = old.locator("#moved-dialog")
    expect(moved).to_be_visible()
    expect(moved).to_contain_text("đã được chuyển sang máy khác")
    moved.get_by_role("button", name="Bắt đầu lại").click()
    wait_ready(old)
    assert hand_cards(old) != cards  # a match of its own again
    new.reload()
    wait_ready(new)
    assert hand_cards(new) == cards  # still the new browser's

    # the link again, in a third browser: used
    third = browser(hearts_server, make_context)
    open_link(third, link)
    expect(third.locator("#transfer-claim [role=alert]")).to_have_text("Mã chuyển này đã được dùng")
    for page in (old, new, third):
        assert page.errors == []  # type: ignore[attr-defined]


def test_a_guessed_code_is_refused(
    hearts_server: HeartsServer, make_context: Callable[..., BrowserContext]
) -> None:
    page = browser(hearts_server, make_context)
    open_link(page, "/t/ABCDE-FGHJK-MNPQR")
    expect(page.locator("#transfer-claim [role=alert]")).to_have_text("Mã chuyển không đúng")


def test_a_claim_whose_answer_is_lost_is_sent_again_with_the_same_claim_id(
    hearts_server: HeartsServer, make_context: Callable[..., BrowserContext]
) -> None:
    """The server commits the claim but its answer never reaches the page (the
    connection drops): the page claims again with the same claim id and gets the
    player."""
    old = browser(hearts_server, make_context)
    old.goto("/")
    wait_ready(old)
    cards = hand_cards(old)
    old.get_by_role("button", name="Chuyển sang máy khác").click()
    link = old.locator("#transfer-link").inner_text().strip()

    new = browser(hearts_server, make_context)
    sent: list[dict[str, str]] = []

    def drop_first_answer(route: Route) -> None:
        sent.append(route.request.post_data_json)
        if len(sent) == 1:
            route.fetch()  # the server commits the claim ...
            route.abort("connectionreset")  # ... and its answer is lost
        else:
            route.continue_()

    new.route("**/api/transfer/claim", drop_first_answer)
    open_link(new, link)
    new.wait_for_url(hearts_server.url.rstrip("/") + "/")
    wait_ready(new)
    assert hand_cards(new) == cards
    assert len(sent) == 2 and sent[0] == sent[1], sent
    assert re.fullmatch(r"[0-9a-f]{32}", sent[0]["claim_id"])
    assert new.evaluate("localStorage.getItem('hearts-transfer-claim')") is None
    assert new.errors == []  # type: ignore[attr-defined]


# what a page says while it waits for a lost connection, or shows the match it kept
# for one, in both languages: not once the server has said the player moved
NET_WORDS = ("kết nối", "có mạng", "connection")


def mover(
    server: HeartsServer, make_context: Callable[..., BrowserContext], n: int, **size: Any
) -> Page:
    """A browser at an address of its own (the rooms' server trusts 127.0.0.1 as a
    proxy): transfers are limited per address, and the other tests here make some."""
    stranger = {"X-Forwarded-For": f"10.56.11.{n}"}
    return make_context(base_url=server.url, extra_http_headers=stranger, **size).new_page()


@pytest.mark.parametrize("where", ["solo", "room"])
def test_the_old_device_does_not_say_it_lost_the_connection(
    where: str,
    room_server: HeartsServer,
    make_context: Callable[..., BrowserContext],
    artifacts: Path,
) -> None:
    """Issue 56, item 11: the player moves to another device; the old browser, opened
    again at its table (solo, in Vietnamese) or in its room (in English), says "Đã
    chuyển sang máy khác" and nothing else: not "Mất kết nối với máy chủ…" under it,
    nor the kept match "có mạng trở lại là đánh tiếp", and it stops asking (a 410 is
    no lost connection to try again)."""
    old = mover(room_server, make_context, 1 if where == "solo" else 2, **PHONE)
    errors: list[str] = []
    old.on("pageerror", lambda e: errors.append(str(e)))
    if where == "room":
        old.goto("/")
        old.evaluate("localStorage.setItem('hearts-lang', 'en')")
        create_room_by_api(old, "Lan")
    else:
        old.goto("/")
        wait_ready(old)
    headers = {"Authorization": f"Bearer {token(old)}"}
    code = old.request.post("/api/transfer", headers=headers).json()["code"]
    claimed = old.request.post(
        "/api/transfer/claim", data={"code": code, "claim_id": "0" * 32}
    )  # as another device's "Nhận"
    assert claimed.ok, claimed.text()

    asked: list[str] = []
    old.on("request", lambda r: asked.append(r.url) if "/api/" in r.url else None)
    old.reload()
    moved = old.locator("#moved-dialog")
    expect(moved).to_be_visible()
    title = "Moved to another device" if where == "room" else "Đã chuyển sang máy khác"
    expect(moved).to_contain_text(title)
    # a retry's wait is 0.5 s, then 1 s, 2 s ...: over 2.5 s the page asked again and
    # again, saying each time the connection was lost
    old.wait_for_timeout(2500)
    said = old.locator("#message").inner_text()
    assert not any(word in said.lower() for word in NET_WORDS), said
    expect(old.locator("#room-bar-net:visible, #offline:visible")).to_have_count(0)
    calls = [url for url in asked if "/api/rules" not in url]
    assert len(calls) <= 2, calls  # the inline script's State and api.js's, no more
    old.screenshot(path=artifacts / f"transfer-old-device-{where}-phone.jpg")
    assert errors == []


def test_a_room_page_left_open_stops_at_its_next_socket(
    room_server: HeartsServer, make_context: Callable[..., BrowserContext]
) -> None:
    """The old browser's room page stays open after the move; when its socket drops
    (a phone asleep, a restart) the new one is refused as moved: the page says so and
    stops, with no "Connection lost, reconnecting…" and no long poll after it."""
    old = mover(room_server, make_context, 3)
    sockets: list[WebSocketRoute] = []

    def through(ws: WebSocketRoute) -> None:
        ws.connect_to_server()
        sockets.append(ws)

    old.route_web_socket(re.compile(r"/ws(\?lang=en)?$"), through)
    old.goto("/")
    old.evaluate("localStorage.setItem('hearts-lang', 'en')")
    create_room_by_api(old, "Lan")
    old.wait_for_selector('body[data-live="socket"]', state="attached")
    headers = {"Authorization": f"Bearer {token(old)}"}
    code = old.request.post("/api/transfer", headers=headers).json()["code"]
    claimed = old.request.post("/api/transfer/claim", data={"code": code, "claim_id": "1" * 32})
    assert claimed.ok, claimed.text()
    sockets[-1].close()
    expect(old.locator("#moved-dialog")).to_contain_text("Moved to another device")
    old.wait_for_timeout(2500)  # a retry's wait: nothing more is tried or said
    expect(old.locator("#room-bar-net")).to_be_hidden()
    assert old.evaluate("document.body.dataset.live") == "moved"
    assert len(sockets) == 2, sockets
