"""Sharing a room's link (issue 39, item 13): the system share sheet where the browser
has one ("Chia sẻ…", hidden otherwise), and the QR code of the link that the server
draws, shown on asking ("Mã QR")."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import BrowserContext, expect
from room_page import create_room_by_api
from server_process import HeartsServer

pytestmark = pytest.mark.browser

# a browser with a share sheet: what the page asks it to share
FAKE_SHARE = """navigator.share = (data) => { (window.__shared ||= []).push(data);
    return Promise.resolve(); };"""


def test_the_share_sheet_and_the_qr_code_carry_the_invite_link(
    hearts_server: HeartsServer, make_context: Callable[..., BrowserContext]
) -> None:
    plain = make_context(base_url=hearts_server.url).new_page()
    create_room_by_api(plain, "Lan")
    expect(plain.get_by_role("button", name="Chia sẻ…")).to_be_hidden()  # no share sheet

    ctx = make_context(base_url=hearts_server.url)
    ctx.add_init_script(FAKE_SHARE)
    page = ctx.new_page()
    link = create_room_by_api(page, "Minh")
    page.get_by_role("button", name="Chia sẻ…").click()
    shared = page.evaluate("window.__shared")
    assert [s["url"] for s in shared] == [link]

    image = page.get_by_role("img", name="Mã QR của đường dẫn vào phòng", exact=False)
    expect(image).to_be_hidden()  # asked for only when opened
    page.locator("details.qr summary").click()
    expect(image).to_be_visible()
    page.wait_for_function(
        "() => document.querySelector('img.qr-code').complete"
        " && document.querySelector('img.qr-code').naturalWidth > 0"
    )
    src = image.get_attribute("src") or ""
    assert parse_qs(urlsplit(src).query)["link"] == [link]
    box = page.locator("details.qr summary").bounding_box()
    assert box is not None and box["height"] >= 44
