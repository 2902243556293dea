"""Who took the trick (issue 10, item 6): while a finished trick is held on the table
the message names its taker and its points, also after a reload during the hold."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from table_page import (
    RECORDER_JS,
    choose_pass,
    finished_tricks,
    open_table,
    play_by_api,
    play_until,
    recorded,
    state,
    trick_key,
    wait_ready,
)

# the hold of a finished trick is what these tests watch: at its real length
pytestmark = [pytest.mark.browser, pytest.mark.real_pace]

NAMES = {"S": "Bạn", "W": "Tây", "N": "Bắc", "E": "Đông"}


def took(trick: dict[str, Any]) -> str:
    """The message of the hold, e.g. "Tây ăn vòng (+3)"."""
    pts = trick["points"]
    return f"{NAMES[trick['winner']]} ăn vòng" + (f" (+{pts})" if pts else "")


def test_the_message_names_who_took_each_trick(page: Page) -> None:
    page.add_init_script(RECORDER_JS)
    open_table(page)
    choose_pass(page)
    play_until(page, stop=lambda p: finished_tricks(p) >= 4)
    tricks = state(page)["hand"]["tricks"]
    shown = recorded(page)
    for t in tricks:
        # the whole trick on the table, the taker's card marked, the message naming him
        held = {"message": took(t), "cards": trick_key(t), "winner": t["winner"]}
        assert held in shown, (held, [s for s in shown if s["cards"] == trick_key(t)])
    # no message says the next player is playing while a finished trick is held
    for s in shown:
        if s["winner"]:
            assert "ăn vòng" in s["message"], s


def test_a_reload_during_the_hold_shows_the_trick_just_taken(page: Page) -> None:
    open_table(page)
    # the server just finished the third trick; nobody has led the fourth yet
    s = play_by_api(
        page,
        lambda s: (
            s["hand"]["phase"] == "play"
            and len(s["hand"]["tricks"]) == 3
            and not s["hand"]["trick"]
        ),
    )
    last = s["hand"]["tricks"][-1]
    page.add_init_script(RECORDER_JS)
    page.reload()
    wait_ready(page)
    held = {"message": took(last), "cards": trick_key(last), "winner": last["winner"]}
    assert held in recorded(page), recorded(page)
    # then the table goes on: the trick is cleared (or the next one begun)
    assert trick_key(last) not in page.locator("#trick").evaluate(
        "t => [...t.querySelectorAll('.table-card[data-card]')]"
        ".map(c => c.dataset.seat + ':' + c.dataset.card).sort().join(' ')"
    )
    expect(page.locator("#tricks-list > li")).to_have_count(3)
