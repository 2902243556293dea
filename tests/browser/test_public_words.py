"""The public tables' words say the server's settings (issue 40): "Chơi với mọi người"
tells how long a lobby waits and how long a turn lasts as ``--public-start-seconds``
and ``--public-turn-seconds`` set them, not the defaults' 20 and 30 seconds, in
Vietnamese and in English."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from server_process import HeartsServer
from table_page import wait_ready

pytestmark = pytest.mark.browser


def seek_words(page: Page, button: str) -> str:
    page.get_by_role("button", name=button).click()
    dialog = page.locator("#public-dialog")
    expect(dialog).to_be_visible()
    # the words follow the settings the dialog asks the server for: wait for them
    note = dialog.locator(".nm-note").last
    expect(note).to_contain_text(re.compile("giây|seconds"))
    return str(note.text_content())


def test_the_seek_dialog_says_the_servers_settings(tmp_path: Path, make_context: Any) -> None:
    args = ("--public-start-seconds", "7.5", "--public-turn-seconds", "45")
    server = HeartsServer(tmp_path, args=args)
    server.start()
    try:
        page = make_context(base_url=server.url).new_page()
        page.goto("/")
        wait_ready(page)
        words = seek_words(page, "Chơi với mọi người")
        assert "sau 7,5 giây" in words and "Mỗi lượt 45 giây" in words, words
        assert "20 giây" not in words and "30 giây" not in words
        page.evaluate("localStorage.setItem('hearts-lang', 'en')")
        page.reload()
        wait_ready(page)
        words = seek_words(page, "Play with everyone")
        assert "after 7.5 seconds" in words and "45 seconds per turn" in words, words
    finally:
        server.stop()
