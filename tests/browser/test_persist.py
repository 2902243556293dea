"""The match is kept for this browser: reload the page or restart the server in the
middle of a trick and play on; the level and quick play are remembered; the cards
chosen to pass are still chosen after a reload."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from server_process import HeartsServer
from table_page import (
    body,
    card,
    finished_tricks,
    hand_cards,
    legal_cards,
    mid_trick,
    open_table,
    phase,
    play,
    play_by_api,
    play_until,
    set_language,
    set_settings,
    south_to_play,
    state,
    table_cards,
    token,
    wait_ready,
)

pytestmark = pytest.mark.browser


def snapshot(page: Page) -> dict[str, Any]:
    """What the player sees of the hand: their cards, the trick on the table, the
    tricks panel, the hand number, the scores."""
    return {
        "hand": hand_cards(page),
        "table": table_cards(page),
        "tricks": page.locator("#tricks-list > li").all_inner_texts(),
        "hand_number": body(page, "hand"),
        "phase": body(page, "phase"),
        "turn": body(page, "turn"),
        "totals": page.locator("#score-table tfoot td").all_inner_texts(),
        "legal": legal_cards(page),
    }


def past_first_trick_mid_trick(page: Page) -> bool:
    return finished_tricks(page) >= 1 and mid_trick(page)


@pytest.mark.real_pace  # the reload must come while the computers' cards still land
def test_reload_mid_trick_and_play_on(page: Page) -> None:
    open_table(page)
    play_until(page, stop=past_first_trick_mid_trick)
    assert mid_trick(page)
    before = snapshot(page)
    assert before["table"] == {p["seat"]: p["card"] for p in state(page)["hand"]["trick"]}

    page.reload()
    wait_ready(page)
    assert snapshot(page) == before

    # play a card, and reload while the computers are still answering it
    target = before["legal"][0]
    with page.expect_response(lambda r: "/api/play" in r.url and r.ok):
        card(page, target).click()
    page.reload()
    wait_ready(page)
    assert target not in hand_cards(page)
    s = state(page)["hand"]
    played = [p["card"] for t in s["tricks"] for p in t["cards"]] + [p["card"] for p in s["trick"]]
    assert target in played
    assert hand_cards(page) == s["cards"]
    assert table_cards(page) == {p["seat"]: p["card"] for p in s["trick"]}
    assert finished_tricks(page) == len(s["tricks"]) > len(before["tricks"])

    # and the hand goes on
    if south_to_play(page):
        n = len(hand_cards(page))
        play(page, legal_cards(page)[0])
        assert len(hand_cards(page)) == n - 1


def test_restart_server_mid_hand_and_play_on(own_server: HeartsServer, make_context: Any) -> None:
    context: BrowserContext = make_context(base_url=own_server.url)
    page = context.new_page()
    open_table(page)
    play_until(page, stop=past_first_trick_mid_trick)
    before = snapshot(page)

    own_server.stop()
    # the server is gone: a tap says the connection is lost and nothing is lost
    target = before["legal"][0]
    card(page, target).click()
    expect(page.locator("#message")).to_contain_text("Mất kết nối")
    wait_ready(page)
    assert hand_cards(page) == before["hand"] and table_cards(page) == before["table"]

    own_server.restart()  # same port, same data dir
    page.reload()
    wait_ready(page)
    assert snapshot(page) == before

    play(page, target)
    assert target not in hand_cards(page)
    assert finished_tricks(page) > len(before["tricks"])
    after = snapshot(page)

    own_server.restart()
    page.reload()
    wait_ready(page)
    assert snapshot(page) == after
    if south_to_play(page):
        play(page, legal_cards(page)[0])


def checked_settings(page: Page) -> tuple[str, bool]:
    level = page.locator('input[name="level"]:checked').get_attribute("value")
    return str(level), page.get_by_role("switch", name="Chơi nhanh").is_checked()


def test_level_and_quick_play_are_remembered(page: Page, make_context: Any, base_url: str) -> None:
    page.goto("/")
    wait_ready(page)
    assert checked_settings(page) == ("medium", False)  # Vừa, normal pace
    expect(page.get_by_role("radio", name="Vừa")).to_be_checked()

    set_settings(page, level="hard", quick=True)
    page.reload()
    wait_ready(page)
    assert checked_settings(page) == ("hard", True)
    expect(page.get_by_role("radio", name="Khó")).to_be_checked()

    # another window of the same browser (same stored token) sees the same choice
    stored = {
        "origins": [
            {
                "origin": base_url.rstrip("/"),
                "localStorage": [{"name": "hearts-token", "value": token(page)}],
            }
        ]
    }
    twin = make_context(storage_state=stored).new_page()
    twin.goto("/")
    wait_ready(twin)
    assert checked_settings(twin) == ("hard", True)

    set_settings(twin, level="easy", quick=False)
    page.reload()
    wait_ready(page)
    assert checked_settings(page) == ("easy", False)

    # another browser (no token) has its own settings
    stranger = make_context().new_page()
    stranger.goto("/")
    wait_ready(stranger)
    assert checked_settings(stranger) == ("medium", False)


PRESSED = '#hand button.hand-card[aria-pressed="true"]'
CHOSEN = {"vi": "đã chọn {}/3", "en": "{}/3 chosen"}


def chosen(page: Page) -> list[str]:
    return sorted(page.locator(PRESSED).evaluate_all("bs => bs.map(b => b.dataset.card)"))


def reload(page: Page) -> None:
    page.reload()
    wait_ready(page)


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_the_cards_chosen_to_pass_survive_a_reload(page: Page, lang: str) -> None:
    """A reload in the pass (issue 56, item 11) forgets none of the cards chosen: two
    chosen, then three, then one put back, each still chosen after a reload, the
    message's count and "Chuyền" with them; a kept card no longer in the hand is not
    chosen again, nor is any card of one hand in the next hand's pass."""
    open_table(page)
    if lang == "en":
        set_language(page, "en")
    assert phase(page) == "pass"
    cards = sorted(hand_cards(page)[-3:])
    message, button = page.locator("#message"), page.locator("#pass-button")
    for c in cards[:2]:
        card(page, c).click()
        expect(card(page, c)).to_have_attribute("aria-pressed", "true")
    reload(page)
    assert chosen(page) == cards[:2]
    expect(message).to_contain_text(CHOSEN[lang].format(2))
    expect(button).to_be_disabled()
    card(page, cards[2]).click()
    reload(page)
    assert chosen(page) == cards
    expect(message).to_contain_text(CHOSEN[lang].format(3))
    expect(button).to_be_enabled()
    card(page, cards[0]).click()  # put back
    reload(page)
    assert chosen(page) == cards[1:]
    # what is kept is checked against the hand: a card not held is not chosen
    page.evaluate(
        """() => {
            const k = 'hearts-pass-chosen', kept = JSON.parse(sessionStorage.getItem(k));
            const held = new Set([...document.querySelectorAll('#hand [data-card]')]
                .map(b => b.dataset.card));
            const stranger = ['2C', '3C', '4C', 'AS', 'AH'].find(c => !held.has(c));
            kept.cards = [stranger, ...kept.cards];
            sessionStorage.setItem(k, JSON.stringify(kept));
        }"""
    )
    reload(page)
    assert chosen(page) == cards[1:]
    expect(message).to_contain_text(CHOSEN[lang].format(2))
    expect(button).to_be_disabled()
    # the next hand's pass starts with none chosen
    play_by_api(page, lambda s: s["hand"]["phase"] == "done")
    reload(page)
    page.locator("#next-hand").click()
    wait_ready(page)
    assert phase(page) == "pass" and chosen(page) == []
    reload(page)
    assert phase(page) == "pass" and chosen(page) == []
    expect(message).to_contain_text(CHOSEN[lang].format(0))
