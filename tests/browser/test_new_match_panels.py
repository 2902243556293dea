"""The score panel follows "Trận mới" without a reload (issue 56, item 3): a new match
at other rules has the same empty score table as the one before it, and the panel's
lines (where the match ends, this match's rules) used to stay those of the first."""

from __future__ import annotations

from typing import Any

import pytest
from browser.test_variants import start_match
from playwright.sync_api import expect
from table_page import PHONE, open_table

pytestmark = pytest.mark.browser


def test_the_score_panel_says_each_new_matchs_target_and_rules(make_context: Any) -> None:
    page = make_context(**PHONE).new_page()
    open_table(page)
    target, rules = page.locator("#score-target"), page.locator("#score-rules")
    expect(target).to_contain_text("từ 100 điểm")
    expect(rules).to_be_hidden()

    start_match(page, {"target": 200, "jd_bonus": True})
    expect(page.locator("#rules-badge")).to_contain_text("đến 200")
    ends = "Trận kết thúc khi có người từ 200 điểm trở lên; ai ít điểm nhất thắng."
    expect(target).to_have_text(ends)
    expect(rules).to_have_text("Luật trận này: 4 người · J♦\ufe0e −10 · đến 200")

    start_match(page, {"target": 50})
    expect(target).to_contain_text("từ 50 điểm")
    expect(rules).to_have_text("Luật trận này: 4 người · đến 50")

    start_match(page, {"target": 100})  # the default table again: no rules line
    expect(target).to_contain_text("từ 100 điểm")
    expect(rules).to_be_hidden()
