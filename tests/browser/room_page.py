"""What players of a room (play with friends) do on the page, as Playwright steps.

Each player is a page in its own browser context (its own localStorage, hence its
own token). Every wait is tied to the page's state: ``body[data-mode="room"]``, the
room's phase in ``data-room-phase``, the hand's phase and whose turn in
``data-phase`` / ``data-turn`` (the viewer is always "S"), and ``data-busy`` while
cards are landing or an action is on its way.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect
from table_page import (
    LEGAL,
    WAIT_MS,
    card,
    hand_cards,
    legal_cards,
    press_card,
    rank,
    token,
)

ROOM_READY = 'body[data-mode="room"][data-busy="false"]'
LOBBY = 'body[data-phase="lobby"]'
MY_TURN = f'{ROOM_READY}[data-phase="play"][data-turn="S"]'
PASSING = f'{ROOM_READY}[data-phase="pass"]'


def create_room(
    page: Page,
    name: str,
    level: str = "Dễ",
    turn: str = "không giới hạn",
    players: str = "4",
) -> str:
    """On the single-player page, "Chơi với bạn bè": choose and create; the page moves
    to the room's lobby. Returns the invite link shown there."""
    page.goto("/")
    page.get_by_role("button", name="Chơi với bạn bè").click()
    dialog = page.locator("#room-dialog")
    expect(dialog).to_be_visible()
    dialog.locator(f'input[name="players"][value="{players}"]').check()
    dialog.get_by_role("radio", name=level, exact=True).check()
    dialog.get_by_role("radio", name=turn, exact=True).check()
    dialog.get_by_label("Tên của bạn").fill(name)
    dialog.get_by_role("button", name="Tạo phòng").click()
    page.wait_for_url(re.compile(r"/r/[A-Z2-7]+$"), timeout=WAIT_MS)
    page.wait_for_selector(LOBBY, state="attached", timeout=WAIT_MS)
    return invite_link(page)


def create_room_by_api(page: Page, name: str, **body: Any) -> str:
    """A room made through the JSON API with the page's token (settings the dialog
    does not offer, e.g. a 10 s turn), then its lobby opened. Returns the invite link."""
    page.goto("/")
    # the page's own player (its first call makes one): not a second one, which the
    # server's limit on new players from one address may refuse
    page.wait_for_function("() => localStorage.getItem('hearts-token')")
    got = page.evaluate(
        """async (body) => {
            let t = localStorage.getItem('hearts-token');
            if (!t) {
                const r = await fetch('/api/players', {method: 'POST'});
                t = (await r.json()).token;
                localStorage.setItem('hearts-token', t);
            }
            const r = await fetch('/api/rooms', {method: 'POST', body: JSON.stringify(body),
                headers: {Authorization: 'Bearer ' + t, 'Content-Type': 'application/json'}});
            return await r.json();
        }""",
        {"name": name, **body},
    )
    page.goto(f"/r/{got['code']}")
    page.wait_for_selector(LOBBY, state="attached", timeout=WAIT_MS)
    return invite_link(page)


def invite_link(page: Page) -> str:
    link = page.locator("[data-room-link]")
    expect(link).to_be_visible()
    return link.inner_text().strip()


def join_room(page: Page, link: str, name: str | None) -> None:
    """Open the invite link, type a display name (or keep the default) and join."""
    page.goto(link)
    field = page.get_by_label("Tên hiển thị (tối đa 20 ký tự)")
    expect(field).to_be_visible()
    if name is not None:
        field.fill(name)
    page.get_by_role("button", name="Vào phòng").click()
    page.wait_for_selector(LOBBY, state="attached", timeout=WAIT_MS)


def lobby_names(page: Page) -> list[str]:
    return [t.strip() for t in page.locator("#lobby-seats .rs-name").all_inner_texts()]


def start(page: Page) -> None:
    page.get_by_role("button", name="Bắt đầu", exact=True).click()


def wait_table(page: Page) -> None:
    """Until the room's table is drawn and nothing is landing."""
    page.wait_for_selector(
        f'{ROOM_READY}[data-room-phase="playing"]', state="attached", timeout=WAIT_MS
    )


def pass_three(page: Page, touch: bool = False) -> list[str]:
    """Tap the three highest cards and press the pass button."""
    page.wait_for_selector(PASSING, state="attached", timeout=WAIT_MS)
    cards = sorted(hand_cards(page), key=rank)[-3:]
    for c in cards:
        press_card(page, c, touch)
        expect(card(page, c)).to_have_attribute("aria-pressed", "true")
    button = page.locator("#pass-button")
    expect(button).to_be_enabled()
    if touch:
        button.tap()
    else:
        button.click()
    expect(button).to_be_hidden(timeout=WAIT_MS)
    return cards


def my_turn(page: Page) -> bool:
    return bool(page.evaluate(f"!!document.querySelector('{MY_TURN}')"))


def hand_over(page: Page) -> bool:
    return bool(page.evaluate("document.body.dataset.phase === 'done'"))


def play_lowest(page: Page, touch: bool = False) -> str:
    """On this player's turn: tap the lowest legal card and wait until it has left
    the hand."""
    page.wait_for_selector(f"{MY_TURN} {LEGAL}", state="attached", timeout=WAIT_MS)
    choice = min(legal_cards(page), key=rank)
    press_card(page, choice, touch)
    expect(card(page, choice)).to_have_count(0, timeout=WAIT_MS)
    return choice


def room_state(page: Page) -> dict[str, Any]:
    """The Room as this page's token sees it (through the page's own API)."""
    got: dict[str, Any] = page.evaluate(
        """async () => {
            const t = localStorage.getItem('hearts-token');
            const code = location.pathname.split('/').pop();
            const r = await fetch('/api/rooms/' + code, {headers: {Authorization: 'Bearer ' + t}});
            return await r.json();
        }"""
    )
    return got


def finish_hand_by_api(pages: list[Page]) -> dict[str, Any]:
    """Each player's pass and cards through the JSON API with its page's token (its
    first cards, its lowest legal one) until the hand is over: a shortcut to the end
    of a hand that the pages watch come. The Room then, as the first page sees it."""
    code = pages[0].url.rstrip("/").split("/")[-1]
    for _ in range(2000):
        moved = False
        for page in pages:
            headers = {"Authorization": f"Bearer {token(page)}"}
            room = page.request.get(f"/api/rooms/{code}", headers=headers).json()
            hand = room["state"]["hand"]
            if hand["phase"] == "done":
                return room
            body: dict[str, Any] | None = None
            if hand["phase"] == "pass" and hand["passed"] is None:
                body, what = {"cards": hand["cards"][:3]}, "pass"
            elif hand["phase"] == "play" and hand["turn"] == "S" and not room["computer_to_move"]:
                body, what = {"card": hand["legal"][0]}, "play"
            if body is not None:
                body["version"] = room["version"]
                page.request.post(f"/api/rooms/{code}/{what}", headers=headers, data=body)
                moved = True
        if not moved:
            pages[0].wait_for_timeout(20)
    raise AssertionError("the hand did not end")


def play_until(pages: list[Page], stop: Callable[[], bool], rounds: int = 600) -> None:
    """Each player taps their lowest legal card whenever it is their turn, until
    ``stop()``; a bounded number of rounds (the hand has 13 tricks)."""
    for _ in range(rounds):
        if stop():
            return
        acted = False
        for page in pages:
            if my_turn(page):
                play_lowest(page)
                acted = True
                if stop():
                    return
        if not acted:
            pages[0].wait_for_timeout(100)
    raise AssertionError("the hand never got there")
