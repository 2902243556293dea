"""Loading the page as a phone on a slow link would (issue 10, item 12): Chromium's CPU
slowed 4× and DevTools' "Slow 4G" network (CDP), a fresh cache. Measures the bytes
transferred and the time from the start of navigation to the first card South may
tap; beside it, a reference in the same browser and the same throttling: one static
page of the same weight (its load event), so a figure can be read against the
machine's state at that moment. Used by tests/browser/test_page_weight.py and
bench/page.py."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from playwright.sync_api import Browser, Page

# DevTools' "Slow 4G" preset (bytes per second, ms)
SLOW_4G = {
    "offline": False,
    "latency": 150 * 3.75,
    "downloadThroughput": 1.6 * 1000 * 1000 / 8 * 0.9,
    "uploadThroughput": 750 * 1000 / 8 * 0.9,
}
CPU_SLOWDOWN = 4

# the first moment the page waits for South with a card to tap
FIRST_CARD_JS = """(() => {
    const check = () => {
        if (window.__firstCard) return;
        const b = document.body;
        if (b && b.dataset.busy === 'false'
            && document.querySelector('#hand button.hand-card[aria-disabled="false"]'))
            window.__firstCard = performance.now();
    };
    new MutationObserver(check).observe(document, {subtree: true, childList: true,
        attributes: true});
})();"""


def throttled_page(browser: Browser, throttle: bool, **context: Any) -> tuple[Page, Any]:
    """A page in a fresh context (empty cache), throttled if asked, counting the bytes
    of every response it receives (headers included, as sent: gzip)."""
    ctx = browser.new_context(**context)
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    if throttle:
        cdp.send("Network.emulateNetworkConditions", SLOW_4G)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    got: dict[str, float] = {}
    cdp.on(
        "Network.loadingFinished", lambda e: got.__setitem__(e["requestId"], e["encodedDataLength"])
    )
    return page, got


def load_game(browser: Browser, url: str, throttle: bool, **context: Any) -> dict[str, float]:
    """Open the game at ``url``: bytes transferred (all requests until the network is
    idle) and ms to the first playable card."""
    page, got = throttled_page(browser, throttle, **context)
    page.add_init_script(FIRST_CARD_JS)
    page.goto(url, wait_until="commit", timeout=120_000)
    page.wait_for_function("() => window.__firstCard", timeout=120_000, polling=50)
    first = float(page.evaluate("window.__firstCard"))
    page.wait_for_load_state("networkidle", timeout=120_000)
    result = {"ms": first, "bytes": float(sum(got.values())), "requests": float(len(got))}
    page.context.close()
    return result


@contextmanager
def reference_server(size: int) -> Iterator[str]:
    """A static page of ``size`` bytes (incompressible text in a comment, sent as is)
    on a free port of 127.0.0.1; yields its address."""
    filler = (b"0123456789abcdefghijklmnopqrstuvwxyz" * (size // 36 + 1))[:size]
    body = b"<!doctype html><title>ref</title><p>ref<!--" + filler + b"-->"

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def load_reference(browser: Browser, url: str, throttle: bool) -> dict[str, float]:
    """The reference page: bytes and ms to its load event."""
    page, got = throttled_page(browser, throttle)
    page.goto(url, wait_until="load", timeout=120_000)
    ms = float(page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd"))
    result = {"ms": ms, "bytes": float(sum(got.values())), "requests": float(len(got))}
    page.context.close()
    return result
