"""The page works under its Content-Security-Policy (no inline script or style): it
loads from versioned URLs, a pass and a card are played, and Chromium reports no
violation; an inline script is refused."""

from __future__ import annotations

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
    csp = page.request.get("/").headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp

    open_table(page)
    # every script from a versioned URL: langwait.js before the first paint, boot.js
    # (the first State), main.js
    scripts = page.locator("script").evaluate_all("ss => ss.map(s => s.getAttribute('src'))")
    assert len(scripts) == 3 and all(str(s).startswith("/static/v/") for s in scripts), scripts
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
