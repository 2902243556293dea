"""The page on a first start (issue 56, item 1): while the server still prepares Khó
(its kernel compiling), the table is there and playable, and once South has passed at
Khó the message line says "Đang chuẩn bị máy Khó…" until Khó's passes arrive; then
the game goes on as usual.  The warm-up is held by tests/kernel_gate.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from kernel_gate import GATE_ENV, KernelGate
from playwright.sync_api import Page, expect
from server_process import HeartsServer
from table_page import WAIT_MS, card, hand_cards, open_table, phase, wait_ready

pytestmark = pytest.mark.browser

PREPARING = "Đang chuẩn bị máy Khó…"


def test_the_page_says_kho_is_being_prepared_until_its_cards_come(
    page: Page, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, artifacts: Path
) -> None:
    gate = KernelGate(tmp_path)
    env = gate.env()
    monkeypatch.setenv("PYTHONPATH", env["PYTHONPATH"])
    monkeypatch.setenv(GATE_ENV, env[GATE_ENV])
    (tmp_path / "data").mkdir()
    server = HeartsServer(tmp_path / "data")
    server.start()
    try:
        open_table(page, server.url, level="hard")
        assert phase(page) == "pass"
        for c in hand_cards(page)[:3]:
            card(page, c).click()
        page.locator("#pass-button").click()
        message = page.locator("#message")
        expect(message).to_contain_text(PREPARING)
        page.screenshot(path=str(artifacts / "first-start-preparing-kho.png"))
        gate.open()
        wait_ready(page, WAIT_MS * 2)  # a compile, if the cache is cold
        assert phase(page) == "play"
        expect(message).not_to_contain_text(PREPARING)
    finally:
        server.stop()
