"""Chuyển sang máy khác (issue 39, item 17) across two browser contexts: the code's
link opened in another browser makes it the owner of the player's match; the old
browser is told and starts afresh; a used or guessed code is refused there."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, Route, expect
from server_process import HeartsServer
from table_page import hand_cards, wait_ready

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
