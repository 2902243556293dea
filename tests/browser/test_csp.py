"""The page works under its Content-Security-Policy (no inline style, no inline script
but index.html's own, allowed by its hash): it loads from versioned URLs, a pass and a
card are played, and Chromium reports no violation; any other inline script is refused."""

from __future__ import annotations

import base64
import hashlib
import re

import pytest
from playwright.sync_api import Page
from table_page import choose_pass, hand_cards, lowest_legal, open_table, play, south_to_play

pytestmark = pytest.mark.browser

WATCH = """document.addEventListener('securitypolicyviolation', e =>
  (window.__violations = window.__violations || []).push(e.violatedDirective));"""
INLINE = """() => { const s = document.createElement('script');
  s.textContent = 'window.__inline = true'; document.head.append(s); }"""


def test_the_page_plays_under_its_csp_without_a_violation(page: Page) -> None:
    console: list[str] = []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    page.add_init_script(WATCH)
    served = page.request.get("/")
    csp = served.headers["content-security-policy"]
    assert "unsafe-inline" not in csp
    # script-src: this server, and the page's one inline script by its hash, no other
    inline = re.findall(r"<script>(.*?)</script>", served.text(), re.S)
    assert len(inline) == 1, inline
    digest = base64.b64encode(hashlib.sha256(inline[0].encode()).digest()).decode()
    script_src = [d.strip() for d in csp.split(";") if d.strip().startswith("script-src ")]
    assert script_src == [f"script-src 'self' 'sha256-{digest}'"], csp

    open_table(page)
    # the inline script (before the first paint: English, the first State) and main.js
    # from a versioned URL
    scripts = page.locator("script").evaluate_all("ss => ss.map(s => s.getAttribute('src'))")
    assert scripts[0] is None and len(scripts) == 2, scripts
    assert str(scripts[1]).startswith("/static/v/"), scripts
    choose_pass(page)
    assert south_to_play(page)
    before = len(hand_cards(page))
    play(page, lowest_legal(page))
    assert len(hand_cards(page)) == before - 1

    assert page.evaluate("window.__violations || []") == []
    refused = [line for line in console if "Content Security Policy" in line]
    assert refused == [], refused

    # The policy is in force: an inline script is refused and reported.
    page.evaluate(INLINE)
    page.wait_for_function("(window.__violations || []).length > 0")
    assert page.evaluate("window.__inline === undefined")
    assert page.evaluate("window.__violations")[0].startswith("script-src")
