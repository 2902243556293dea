"""The page as an app on the home screen (issue 39, item 16), in Chromium: the
installability criteria (a manifest with names, icons, standalone display; a service
worker that controls the page), a reload without a connection that shows "Không có
kết nối" from the worker's cache and carries on by itself when the connection
returns, with nothing lost and nothing sent twice. Opened without a connection, the page
shows the match it kept, read-only, and the bar over no button of the top bar (issue
56, item 5)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from server_process import HeartsServer
from table_page import (
    HAND,
    PHONE,
    WAIT_MS,
    hand_cards,
    play_by_api,
    table_cards,
    wait_ready,
)

pytestmark = pytest.mark.browser

CONTROLLED = "() => !!navigator.serviceWorker.controller"
KEPT_ENGLISH = """async () => {
    for (const key of await caches.keys()) {
        const cache = await caches.open(key);
        for (const r of await cache.keys()) if (r.url.endsWith('/i18n-en.js')) return true;
    }
    return false;
}"""


def app_page(
    hearts_server: HeartsServer, make_context: Callable[..., BrowserContext], **options: Any
) -> Page:
    """A page whose service worker is allowed, open at "/" and controlled by it."""
    ctx = make_context(base_url=hearts_server.url, service_workers="allow", **options)
    page = ctx.new_page()
    page.goto("/")
    wait_ready(page)
    page.wait_for_function(CONTROLLED, timeout=WAIT_MS)
    return page


def manifest_of(page: Page) -> tuple[dict[str, Any], list[Any]]:
    """Chromium's own reading of the page's manifest, and why it would not install
    (besides the test's own browser context being incognito: a player's is not)."""
    cdp = page.context.new_cdp_session(page)
    got = cdp.send("Page.getAppManifest")
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert got["errors"] == [], got["errors"]
    return json.loads(got["data"]), [e for e in errors if e["errorId"] != "in-incognito"]


def test_the_page_is_installable_in_both_languages(
    hearts_server: HeartsServer, make_context: Callable[..., BrowserContext]
) -> None:
    page = app_page(hearts_server, make_context)
    manifest, errors = manifest_of(page)
    assert errors == []
    assert manifest["lang"] == "vi" and "bạn bè" in manifest["name"]
    assert manifest["short_name"] == "Hearts"
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["theme_color"] == "#0d4a2c"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])

    page.evaluate("localStorage.setItem('hearts-lang', 'en')")
    page.reload()
    wait_ready(page)
    manifest, errors = manifest_of(page)
    assert errors == []
    assert manifest["lang"] == "en" and "friends" in manifest["name"]


def test_a_reload_without_a_connection_says_so_and_carries_on_by_itself(
    hearts_server: HeartsServer, make_context: Callable[..., BrowserContext]
) -> None:
    page = app_page(hearts_server, make_context)
    cards = hand_cards(page)
    version = page.evaluate(
        "fetch('/api/state', {headers: {Authorization: 'Bearer ' +"
        " localStorage.getItem('hearts-token')}}).then(r => r.json()).then(s => s.version)"
    )
    offline_bar = page.locator("#offline")
    expect(offline_bar).to_be_hidden()

    page.context.set_offline(True)
    response = page.reload(wait_until="domcontentloaded")
    assert response is not None and response.from_service_worker  # the kept page
    expect(offline_bar).to_be_visible()
    expect(offline_bar).to_contain_text("Không có kết nối")
    expect(page.locator("body")).to_have_attribute("data-online", "false")

    page.context.set_offline(False)
    expect(offline_bar).to_be_hidden(timeout=WAIT_MS)
    wait_ready(page)
    assert hand_cards(page) == cards  # the same match, the same hand
    again = page.evaluate(
        "fetch('/api/state', {headers: {Authorization: 'Bearer ' +"
        " localStorage.getItem('hearts-token')}}).then(r => r.json()).then(s => s.version)"
    )
    assert again == version  # nothing was sent meanwhile


def test_an_english_page_is_kept_in_english(
    hearts_server: HeartsServer, make_context: Callable[..., BrowserContext]
) -> None:
    """English is fetched only when chosen, so not kept ahead: pwa.js has the worker
    keep it, and the page reloads without a connection in English."""
    ctx = make_context(base_url=hearts_server.url, service_workers="allow")
    ctx.add_init_script("localStorage.setItem('hearts-lang', 'en')")
    page = ctx.new_page()
    page.goto("/")
    wait_ready(page)
    page.wait_for_function(CONTROLLED, timeout=WAIT_MS)
    for _ in range(WAIT_MS // 100):  # until the worker has kept it (the page's promise)
        if page.evaluate(KEPT_ENGLISH):
            break
        page.wait_for_timeout(100)
    assert page.evaluate(KEPT_ENGLISH)
    ctx.set_offline(True)
    page.reload(wait_until="domcontentloaded")
    expect(page.locator("#offline")).to_contain_text("No connection")
    expect(page.locator("#help-button")).to_have_text("Rules")
    ctx.set_offline(False)
    wait_ready(page)
    expect(page.locator("#offline")).to_be_hidden()


# the top bar's buttons seen whose middle lies under something else (the offline bar)
COVERED_JS = """() => [...document.querySelectorAll('.topbar :is(button, label)')].filter(b => {
    const r = b.getBoundingClientRect();
    if (!r.width || !r.height || b.closest('[hidden]')) return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !hit || !b.contains(hit);
}).map(b => b.id || b.textContent.trim())"""


def test_opened_without_a_connection_the_kept_table_shows_read_only(
    hearts_server: HeartsServer, make_context: Callable[..., BrowserContext], artifacts: Any
) -> None:
    page = app_page(hearts_server, make_context, **PHONE)
    # a trick taken, cards of the next one on the table, South to play: the page shows it
    play_by_api(
        page,
        lambda s: s["hand"]["tricks"] and s["hand"]["trick"] and s["hand"]["turn"] == "S",
    )
    page.reload()
    wait_ready(page)
    cards, trick = hand_cards(page), table_cards(page)
    assert trick

    page.context.set_offline(True)
    page.reload(wait_until="domcontentloaded")
    expect(page.locator("#offline")).to_be_visible()
    expect(page.locator("body")).to_have_attribute("data-kept", "true", timeout=WAIT_MS)
    assert hand_cards(page) == cards and table_cards(page) == trick
    assert set(page.locator(HAND).evaluate_all("bs => bs.map(b => b.ariaDisabled)")) == {"true"}
    expect(page.locator("#message")).to_contain_text("chỉ xem")
    page.screenshot(path=f"{artifacts}/offline-kept-390x844.png")
    for width, height in ((390, 844), (844, 390), (1024, 768), (1440, 900)):
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate(COVERED_JS) == [], (width, height)
    page.screenshot(path=f"{artifacts}/offline-kept-1440x900.png")

    page.context.set_offline(False)
    expect(page.locator("#offline")).to_be_hidden(timeout=WAIT_MS)
    wait_ready(page)
    expect(page.locator("body")).not_to_have_attribute("data-kept", "true")
    assert hand_cards(page) == cards and table_cards(page) == trick
    legal = page.locator(HAND).evaluate_all("bs => bs.map(b => b.ariaDisabled)")
    assert "false" in legal  # South's turn again, for real
