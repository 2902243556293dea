"""Tables of 3 to 7 players and the other rules on the page (issue 8): the "Trận mới"
dialog, a whole hand at 3, 5 and 7 players on a phone and at 6 on a desktop, every
seat's name, total, count of cards and played card in sight, the trick in play order,
and the moon dialog when South shoots under "Người bắn tự chọn".  Screenshots go to
``test-artifacts/`` for a person to look at."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from planted import plant_hand
from playwright.sync_api import Page, expect
from server_process import HeartsServer
from table_page import (
    DESKTOP,
    LEGAL,
    PHONE,
    WAIT_MS,
    body,
    card,
    hand_cards,
    open_table,
    phase,
    play_by_api,
    press_card,
    rank,
    state,
    token,
    wait_ready,
)

from hearts.cards import mask_of, parse_card
from hearts.rules import Rules

pytestmark = pytest.mark.browser


def start_match(page: Page, rules: dict[str, Any]) -> None:
    """Open "Trận mới", choose ``rules`` like a player, start (confirming if asked)."""
    page.locator("#new-match-open").click()
    dialog = page.locator("#new-match-dialog")
    expect(dialog).to_be_visible()
    players = rules.get("players", 4)
    dialog.locator(f'input[name="players"][value="{players}"]').check()
    for key in ("qs_breaks_hearts", "jd_bonus"):
        box = dialog.locator(f'input[name="{key}"]')
        if box.is_checked() != bool(rules.get(key, False)):
            box.click()
    dialog.locator(f'input[name="moon"][value="{rules.get("moon", "add_to_others")}"]').check()
    dialog.locator('input[name="target"]').fill(str(rules.get("target", 100)))
    dialog.locator("#nm-start").click()
    if page.locator("#nm-confirm").is_visible():
        page.locator("#nm-yes").click()
    expect(dialog).to_be_hidden()
    wait_ready(page)
    got = state(page)["rules"]
    assert got == {**got, **rules}


def me(page: Page) -> str:
    return str(state(page)["seats"][0])


def legal(page: Page) -> list[str]:
    return [str(c) for c in page.locator(LEGAL).evaluate_all("bs => bs.map(b => b.dataset.card)")]


def pass_cards(page: Page) -> None:
    count = state(page)["hand"]["pass_count"]
    chosen = sorted(hand_cards(page), key=rank)[-count:]
    for c in chosen:
        press_card(page, c)
    button = page.locator("#pass-button")
    expect(button).to_be_enabled()
    button.click()
    wait_ready(page)


def check_seats(page: Page, s: dict[str, Any]) -> None:
    """Every seat's name, total and (for the others) count of cards are in sight,
    inside the window, and no two seats' plates overlap."""
    view = page.viewport_size
    assert view is not None
    boxes = []
    for seat in s["seats"]:
        plate = page.locator(f'.seat[data-seat="{seat}"] .plate')
        expect(plate).to_be_visible()
        expect(plate.locator(".name")).to_have_text(s["names"][seat])
        expect(plate.locator(".total")).to_have_text(
            str(s["match"]["totals"][seat]).replace("-", "−")
        )
        if seat != s["seats"][0]:
            count = plate.locator(".count")
            if len(s["seats"]) != 4:  # at four the fan of backs shows the count
                expect(count).to_be_visible()
            expect(count).to_have_text(f"{s['hand']['counts'][seat]} lá")
        box = plate.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= view["width"], (seat, box)
        boxes.append((seat, box))
    for i, (a, p) in enumerate(boxes):
        for b, q in boxes[i + 1 :]:
            apart = (
                p["x"] + p["width"] <= q["x"]
                or q["x"] + q["width"] <= p["x"]
                or p["y"] + p["height"] <= q["y"]
                or q["y"] + q["height"] <= p["y"]
            )
            assert apart, (a, p, b, q)


def check_trick(page: Page, s: dict[str, Any]) -> None:
    """The cards on the table are the trick's, each by its seat's name, numbered in
    play order at tables other than four."""
    trick = s["hand"]["trick"]
    cards = page.locator("#trick .table-card[data-card]")
    expect(cards).to_have_count(len(trick))
    for i, p in enumerate(trick):
        c = page.locator(f'#trick .table-card[data-card="{p["card"]}"]')
        expect(c).to_be_visible()
        assert c.get_attribute("data-seat") == p["seat"]
        if len(s["seats"]) != 4:
            assert c.get_attribute("data-order") == str(i + 1)
            slot = page.locator(f'#trick .slot[data-slot="{p["seat"]}"] .slot-name')
            expect(slot).to_have_text(s["names"][p["seat"]])


def play_hand(page: Page, shots: Path | None = None, prefix: str = "") -> dict[str, Any]:
    """Pass and play lowest legal cards until the hand is over; a screenshot and the
    checks of the table in the middle of a trick."""
    south = me(page)
    shot = False
    for _ in range(200):
        wait_ready(page)
        p = phase(page)
        if p in ("done", "moon_choice"):
            return state(page)
        if p == "pass":
            pass_cards(page)
            continue
        assert p == "play" and body(page, "turn") == south, (p, body(page, "turn"))
        s = state(page)
        check_seats(page, s)
        check_trick(page, s)
        if shots is not None and not shot and s["hand"]["trick"] and s["hand"]["tricks"]:
            page.screenshot(path=shots / f"{prefix}-trick.jpg")
            shot = True
        name = min(legal(page), key=rank)
        card(page, name).click()
        expect(card(page, name)).to_have_count(0, timeout=WAIT_MS)
    raise AssertionError("the hand did not end")


TABLES = [
    ("phone", 3, {"players": 3}),
    ("phone", 5, {"players": 5, "qs_breaks_hearts": True, "jd_bonus": True, "target": 150}),
    ("phone", 7, {"players": 7, "moon": "subtract_from_self"}),
    ("desktop", 6, {"players": 6, "jd_bonus": True, "moon": "shooter_chooses"}),
]


@pytest.mark.parametrize(("size", "players", "rules"), TABLES, ids=lambda v: str(v))
def test_a_whole_hand_at_each_table_size(
    size: str, players: int, rules: dict[str, Any], make_context: Any, artifacts: Path
) -> None:
    page = make_context(**(PHONE if size == "phone" else DESKTOP)).new_page()
    open_table(page)
    start_match(page, rules)
    s = state(page)
    prefix = f"{size}-{players}p"
    assert len(s["seats"]) == players and s["hand"]["pass_direction"] == "left"
    expect(page.locator("#pass-button")).to_have_text("Chuyền sang trái")
    expect(page.locator("#rules-badge")).to_be_visible()
    expect(page.locator("#rules-badge")).to_contain_text(f"{players} người")
    expect(page.locator("#score-table thead th")).to_have_count(players + 1)
    assert len(hand_cards(page)) == Rules(players=players).hand_size
    check_seats(page, s)
    page.screenshot(path=artifacts / f"{prefix}-pass.jpg")

    s = play_hand(page, artifacts, prefix)
    if s["hand"]["phase"] == "moon_choice":  # South shot the moon and may choose
        page.locator('.moon-option[data-choice="add_to_others"]').click()
        wait_ready(page)
        s = state(page)
    assert s["hand"]["phase"] == "done"
    expect(page.locator("#result")).to_be_visible()
    for seat in s["seats"]:
        li = page.locator(f'#result-points li[data-seat="{seat}"]')
        expect(li.locator(".rn")).to_have_text(s["names"][seat])
    expect(page.locator("#score-table tbody tr")).to_have_count(1)
    # The points are each cell's first text; a moon adds a tag after them.  Read
    # the text node itself: on a phone the score panel is a closed tab, and a
    # hidden element's innerText has no line break before the tag.
    cells = page.locator("#score-table tbody tr td").evaluate_all(
        "tds => tds.map(td => [...td.childNodes].filter(n => n.nodeType === 3)"
        " .map(n => n.textContent).join(''))"
    )
    # a moon's crescent comes before the points (the cell's first child): its text only
    numbers = [re.search(r"[−-]?\d+", c) for c in cells]
    assert [int(m.group().replace("−", "-")) if m else None for m in numbers] == [
        s["hand"]["points"][seat] for seat in s["seats"]
    ]
    page.screenshot(path=artifacts / f"{prefix}-end.jpg")
    # The next hand passes to the right, named on the button.
    page.locator("#next-hand").click()
    wait_ready(page)
    expect(page.locator("#pass-button")).to_have_text("Chuyền sang phải")


# the controls of the open dialog (its fields, choices, buttons) under 44 px either way
SMALL_IN_DIALOG_JS = """() => [...document.querySelectorAll(
        'dialog[open] :is(input:not([type=radio]):not([type=checkbox]), button, label)')]
    .map(e => [e.name || e.id || e.textContent.trim(), e.getBoundingClientRect()])
    .filter(([, r]) => r.width && (r.width < 44 || r.height < 44))
    .map(([what, r]) => [what, r.width, r.height])"""


def test_new_match_dialog_defaults_and_confirm(make_context: Any, artifacts: Path) -> None:
    page = make_context(**PHONE).new_page()
    open_table(page)
    # every control of the two dialogs is 44 px at least (the target score's box was 40)
    page.locator("#room-open").click()
    expect(page.locator("#room-dialog")).to_be_visible()
    assert page.evaluate(SMALL_IN_DIALOG_JS) == []
    page.keyboard.press("Escape")
    expect(page.locator("#room-dialog")).to_be_hidden()
    pass_cards(page)  # the match is under way: leaving it asks first
    page.locator("#new-match-open").click()
    dialog = page.locator("#new-match-dialog")
    expect(dialog).to_be_visible()
    assert page.evaluate(SMALL_IN_DIALOG_JS) == []
    dialog.locator('input[name="players"][value="5"]').check()
    expect(dialog.locator("#nm-removed")).to_contain_text("2 rô, 2 nhép")
    expect(dialog.locator("#nm-moon-add")).to_have_text("Cộng 26 cho bốn nhà kia")
    dialog.locator('input[name="target"]').fill("20")
    dialog.locator("#nm-start").click()
    expect(dialog.locator("#nm-error")).to_have_text("Điểm kết thúc trận phải từ 50 đến 500")
    page.screenshot(path=artifacts / "phone-new-match-dialog.jpg")
    dialog.locator('input[name="target"]').fill("200")
    dialog.locator("#nm-start").click()
    expect(page.locator("#nm-confirm")).to_be_visible()
    page.locator("#nm-no").click()
    expect(page.locator("#nm-confirm")).to_be_hidden()
    dialog.locator("#nm-close").click()
    assert state(page)["rules"]["players"] == 4  # nothing changed
    start_match(page, {"players": 5, "target": 200})
    expect(page.locator("#rules-badge")).to_have_text("5 người · đến 200")
    # "Luật mặc định": one tap back to the default table (and the confirmation).
    pass_cards(page)
    page.locator("#new-match-open").click()
    page.locator("#nm-default").click()
    page.locator("#nm-yes").click()
    wait_ready(page)
    s = state(page)
    assert s["rules"] == {
        "players": 4,
        "qs_breaks_hearts": False,
        "moon": "add_to_others",
        "jd_bonus": False,
        "target": 100,
    }
    expect(page.locator("#rules-badge")).to_be_hidden()
    assert s["seats"] == ["S", "W", "N", "E"] and len(hand_cards(page)) == 13


def plant_moon(data_dir: Path, browser_token: str) -> None:
    """Deal South every club in hand 4 (no pass) of a "shooter chooses" match with
    the J♦ rule: South leads and wins every trick, and shoots the moon."""
    rules = Rules(moon="shooter_chooses", jd_bonus=True)
    deal = []
    for lo, hi in (("2C", "AC"), ("2D", "AD"), ("2S", "AS"), ("2H", "AH")):
        deal.append(mask_of(range(parse_card(lo), parse_card(hi) + 1)))
    plant_hand(data_dir, browser_token, rules, deal, (10, 20, 30, 40))


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_moon_dialog_shows_the_totals_of_each_choice(
    size: str, hearts_server: HeartsServer, make_context: Any, artifacts: Path
) -> None:
    page = make_context(**(PHONE if size == "phone" else DESKTOP)).new_page()
    open_table(page)
    plant_moon(hearts_server.data_dir, token(page))
    page.reload()
    wait_ready(page)
    expect(page.locator("#rules-badge")).to_have_text("4 người · trăng tự chọn · J♦\ufe0e −10")
    # twelve tricks through the API, the last on the page: the moon's choice comes in play
    play_by_api(page, lambda s: s["hand"]["phase"] != "play" or len(s["hand"]["tricks"]) >= 12)
    page.reload()
    wait_ready(page)
    s = play_hand(page)
    assert s["hand"]["phase"] == "moon_choice"
    box = page.locator("#moon-choice")
    expect(box).to_be_visible()
    add = box.locator('.moon-option[data-choice="add_to_others"]')
    sub = box.locator('.moon-option[data-choice="subtract_from_self"]')
    expect(add).to_contain_text("Cộng 26 cho ba nhà kia")
    expect(add).to_contain_text("Bạn 0 · Tây 46 · Bắc 56 · Đông 66")
    expect(sub).to_contain_text("Trừ 26 cho bạn")
    expect(sub).to_contain_text("Bạn −26 · Tây 20 · Bắc 30 · Đông 40")
    expect(page.locator("#next-hand")).to_be_hidden()
    page.screenshot(path=artifacts / f"{size}-moon-choice.jpg")
    sub.click()
    wait_ready(page)
    expect(box).to_be_hidden()
    expect(page.locator("#result-moon")).to_contain_text("Bạn chọn: trừ 26 cho bạn")
    expect(page.locator('#result-points li[data-seat="S"] .rp')).to_have_text("−36")
    expect(page.locator("#score-table tfoot td").first).to_have_text("−26")
    # The J♦ (−10) shows in the trick log of the trick that took it.
    expect(page.locator("#tricks-list .tp.bonus").first).to_contain_text("−10")
    page.screenshot(path=artifacts / f"{size}-moon-chosen.jpg")
    assert state(page)["match"]["totals"] == {"S": -26, "W": 20, "N": 30, "E": 40}
