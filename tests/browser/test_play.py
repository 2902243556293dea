"""Playing on the real page: passing, a whole hand, illegal cards, the yellow bar of
received cards, the tricks panel, the keyboard."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from table_page import (
    HAND,
    card,
    choose_pass,
    finished_tricks,
    hand_cards,
    legal_cards,
    open_table,
    phase,
    play,
    play_until,
    rank,
    south_to_play,
    state,
    table_cards,
    wait_ready,
)

pytestmark = pytest.mark.browser

NAMES = {"S": "Bạn", "W": "Tây", "N": "Bắc", "E": "Đông"}
SUIT = {"C": "♣", "D": "♦", "S": "♠", "H": "♥"}
REASONS = {
    "Phải ra lá nhép",
    "Phải ra lá rô",
    "Phải ra lá bích",
    "Phải ra lá cơ",
    "Cơ chưa bị phá, chưa được ra cơ",
    "Vòng đầu không được đánh cơ hay đầm bích",
    "Phải đánh 2 nhép mở vòng đầu",
}
YELLOW = "rgb(255, 212, 0)"
SPOKEN_SUIT = {"C": "nhép", "D": "rô", "S": "bích", "H": "cơ"}
SPOKEN_RANK = {"T": "10", "A": "Át"}


def spoken(c: str) -> str:
    """A card's accessible name in Vietnamese, as SPEC §4 gives it ("Q bích")."""
    return f"{SPOKEN_RANK.get(c[0], c[0])} {SPOKEN_SUIT[c[1]]}"


def top(page: Page, name: str) -> float:
    box = card(page, name).bounding_box()
    assert box is not None
    return float(box["y"])


def received_on_page(page: Page) -> list[str]:
    found = page.locator(f"{HAND}.received").evaluate_all("bs => bs.map(b => b.dataset.card)")
    return [str(c) for c in found]


def bar(page: Page, name: str) -> dict[str, Any]:
    """The yellow bar drawn under a card (its ::before box), as the player sees it."""
    got: dict[str, Any] = card(page, name).evaluate(
        """b => { const s = getComputedStyle(b, '::before');
                  return {content: s.content, display: s.display, color: s.backgroundColor,
                          top: parseFloat(s.top), height: parseFloat(s.height),
                          cardHeight: b.getBoundingClientRect().height}; }"""
    )
    return got


def has_bar(page: Page, name: str) -> bool:
    b = bar(page, name)
    drawn = b["content"] not in ("none", "normal") and b["display"] != "none"
    return drawn and b["color"] == YELLOW


def card_label(c: str) -> str:
    return ("10" if c[0] == "T" else c[0]) + SUIT[c[1]] + "\ufe0e"


def test_choose_and_pass_three_cards(page: Page) -> None:
    open_table(page)
    assert phase(page) == "pass"
    hand = hand_cards(page)
    assert len(hand) == 13
    assert legal_cards(page) == hand  # any card may be chosen
    for c in hand:  # each card is a button named by what it shows, then in Vietnamese
        name = f"{card_label(c)}, {spoken(c)}"
        expect(page.get_by_role("button", name=name, exact=True)).to_have_attribute("data-card", c)
    button = page.locator("#pass-button")
    expect(button).to_have_text("Chuyền sang trái")  # hand 1 passes to the left (Tây)
    expect(button).to_be_disabled()
    expect(page.locator('.seat[data-seat="W"]')).to_contain_class("pass-target")

    first, second, third, fourth = sorted(hand, key=rank)[-4:]
    page.mouse.move(1, 1)
    resting = top(page, first)
    for i, c in enumerate((first, second, third), 1):
        card(page, c).click()
        expect(card(page, c)).to_have_attribute("aria-pressed", "true")
        expect(card(page, c)).to_contain_class("selected")
        expect(page.locator("#message")).to_contain_text(f"đã chọn {i}/3")
    page.mouse.move(1, 1)
    assert top(page, first) <= resting - 10  # a chosen card rises
    expect(button).to_be_enabled()
    # three chosen: the other cards cannot be chosen now
    expect(card(page, fourth)).to_have_attribute("aria-disabled", "true")

    # tapping a chosen card again drops it
    card(page, first).click()
    expect(card(page, first)).to_have_attribute("aria-pressed", "false")
    page.mouse.move(1, 1)
    assert top(page, first) == pytest.approx(resting, abs=1)
    expect(button).to_be_disabled()
    expect(card(page, fourth)).to_have_attribute("aria-disabled", "false")

    card(page, fourth).click()
    expect(card(page, fourth)).to_have_attribute("aria-pressed", "true")
    passed = {second, third, fourth}
    button.click()
    wait_ready(page)

    assert phase(page) == "play"
    expect(button).to_be_hidden()
    s = state(page)["hand"]
    assert set(s["passed"]) == passed
    received = set(s["received"])
    now = set(hand_cards(page))
    assert len(now) == 13 and not now & passed and received <= now
    assert now == set(hand) - passed | received
    # the received cards carry the yellow bar, and only they
    assert set(received_on_page(page)) == received
    for c in now:
        assert has_bar(page, c) == (c in received), c
    expect(page.locator("#table-note")).to_contain_text(f"Nhận từ {NAMES['E']}")


@pytest.mark.browser_context_args(reduced_motion="no-preference")  # cards fly, as for most players
def test_play_a_whole_hand(page: Page) -> None:
    open_table(page)
    choose_pass(page)
    plays = 0
    while phase(page) != "done":
        assert south_to_play(page)
        legal = legal_cards(page)
        assert legal and set(legal) <= set(hand_cards(page))
        h = state(page)["hand"]
        # the table shows the trick so far, each card at its player's place
        assert table_cards(page) == {p["seat"]: p["card"] for p in h["trick"]}
        assert set(legal) == set(h["legal"])
        mine = min(legal, key=rank)
        play(page, mine)
        plays += 1
        h = state(page)["hand"]
        on_table = [(p["seat"], p["card"]) for t in h["tricks"] for p in t["cards"]]
        assert ("S", mine) in on_table + [(p["seat"], p["card"]) for p in h["trick"]]
    s = state(page)
    # the server finishes the last tricks itself when nothing can change any more
    assert plays == 13 or (plays < 13 and s["hand"]["auto_finished"])
    assert hand_cards(page) == []
    points = s["hand"]["points"]
    result = page.locator("#result")
    expect(result).to_be_visible()
    expect(page.locator("#result-title")).to_have_text("Điểm ván 1")
    shown = {
        str(li.get_attribute("data-seat")): int(li.locator(".rp").inner_text())
        for li in page.locator("#result-points li").all()
    }
    assert shown == points
    moon = s["hand"]["moon"]
    if moon:
        assert points[moon] == 0 and all(p == 26 for seat, p in points.items() if seat != moon)
        expect(result).to_contain_text("bắn trăng")
    else:
        assert sum(points.values()) == 26
        # every point is in a trick the panel shows
        taken = dict.fromkeys(NAMES, 0)
        for t in s["hand"]["tricks"]:
            taken[t["winner"]] += t["points"]
        assert taken == points
    assert page.locator("#tricks-list > li").count() == 13

    rows = page.locator("#score-table tbody tr")
    expect(rows).to_have_count(1)
    # a moon's cell carries its tag after the number ("0 bắn trăng"), on the shooter's cell only
    texts = rows.first.locator("td").all_inner_texts()
    cells = [int(x.split()[0]) for x in texts]
    assert cells == [points[seat] for seat in "SWNE"]
    assert ["bắn trăng" in x for x in texts] == [seat == moon for seat in "SWNE"]
    totals = [int(x) for x in page.locator("#score-table tfoot td").all_inner_texts()]
    assert totals == cells
    expect(page.locator("#next-hand")).to_have_text("Chia ván mới")
    expect(page.locator("#next-hand")).to_be_enabled()

    page.locator("#next-hand").click()
    wait_ready(page)
    assert phase(page) == "pass" and len(hand_cards(page)) == 13
    expect(page.locator("#pass-button")).to_have_text("Chuyền sang phải")
    expect(result).to_be_hidden()
    expect(rows).to_have_count(1)  # the score table keeps the finished hand


def test_illegal_cards_are_marked_and_do_nothing(page: Page) -> None:
    open_table(page)
    play_until(page, stop=lambda p: south_to_play(p) and len(legal_cards(p)) < len(hand_cards(p)))
    assert south_to_play(page)
    s = state(page)["hand"]
    hand, legal = hand_cards(page), legal_cards(page)
    illegal = [c for c in hand if c not in legal]
    assert set(legal) == set(s["legal"]) and set(illegal) == set(s["illegal_reasons"])
    for c in illegal:
        b = card(page, c)
        expect(b).to_have_attribute("aria-disabled", "true")
        expect(b).to_contain_class("illegal")
        looks = b.evaluate(
            """b => ({face: parseFloat(getComputedStyle(b.querySelector('.face')).opacity),
                      line: getComputedStyle(b, '::after').backgroundImage})"""
        )
        assert looks["face"] < 1  # dimmed
        assert "linear-gradient" in looks["line"]  # crossed by a diagonal line
        assert b.get_attribute("title") == s["illegal_reasons"][c]
    for c in legal:
        expect(card(page, c)).to_have_attribute("aria-disabled", "false")
        expect(card(page, c)).not_to_contain_class("illegal")

    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.method != "GET" else None)
    before = (hand_cards(page), table_cards(page), page.evaluate("document.body.dataset.hand"))
    target = illegal[0]
    card(page, target).click(force=True)  # aria-disabled: a player can still tap it
    reason = s["illegal_reasons"][target]
    assert reason in REASONS
    expect(page.locator("#message")).to_have_text(reason)
    expect(page.locator("#message")).to_have_class("warn")
    after = (hand_cards(page), table_cards(page), page.evaluate("document.body.dataset.hand"))
    assert after == before
    assert south_to_play(page) and not sent
    assert state(page)["hand"]["cards"] == s["cards"]
    # and a legal card still plays
    play(page, legal[0])
    assert legal[0] not in hand_cards(page)


def test_yellow_bar_goes_after_the_first_trick(page: Page) -> None:
    open_table(page)
    choose_pass(page)
    assert south_to_play(page) and finished_tricks(page) == 0
    received = state(page)["hand"]["received"]
    assert sorted(received_on_page(page)) == sorted(received)
    for c in received:
        b = bar(page, c)
        assert has_bar(page, c)
        assert b["top"] >= b["cardHeight"] - 12 and b["height"] > 3  # under the card
    expect(page.locator("#table-note")).to_be_visible()

    play(page, min(legal_cards(page), key=rank))  # South's card of trick 1
    assert finished_tricks(page) >= 1
    assert received_on_page(page) == []
    for c in hand_cards(page):
        assert not has_bar(page, c), c
    expect(page.locator("#table-note")).to_be_hidden()


def test_trick_panel_fills(page: Page) -> None:
    open_table(page)
    expect(page.locator("#tricks-empty")).to_be_visible()
    play_until(page, stop=lambda p: finished_tricks(p) >= 3)
    tricks = state(page)["hand"]["tricks"]
    rows = page.locator("#tricks-list > li")
    expect(rows).to_have_count(len(tricks))
    expect(page.locator("#tricks-empty")).to_be_hidden()
    for i, t in enumerate(tricks):
        row = rows.nth(i)
        expect(row.locator(".tn")).to_have_text(f"Vòng {i + 1}")
        expect(row.locator(".tl")).to_have_text(f"{NAMES[t['leader']]} đánh trước")
        cells = row.locator(".tc")
        expect(cells).to_have_count(4)
        seats = [str(x) for x in cells.locator(".ts").all_inner_texts()]
        assert seats == [NAMES[p["seat"]] for p in t["cards"]]
        labels = cells.locator(".ctext").all_inner_texts()
        assert labels == [card_label(p["card"]) for p in t["cards"]]
        expect(row.locator(".tc.won .ts")).to_have_text(NAMES[t["winner"]])
        expect(row.locator(".tw")).to_have_text(f"{NAMES[t['winner']]} ăn")
        expect(row.locator(".tp")).to_have_text(f"{t['points']} điểm")
        assert t["cards"][0]["seat"] == t["leader"]


def focused_card(page: Page) -> str | None:
    got = page.evaluate(
        "() => { const a = document.activeElement;"
        " return a && a.matches('#hand button.hand-card') ? a.dataset.card : null; }"
    )
    return None if got is None else str(got)


def test_keyboard_arrows_and_enter(page: Page) -> None:
    open_table(page)
    # Tab reaches the hand: one tab stop for the whole hand
    for _ in range(30):
        page.keyboard.press("Tab")
        if focused_card(page):
            break
    hand = hand_cards(page)
    assert focused_card(page) == hand[0]
    page.keyboard.press("ArrowRight")
    assert focused_card(page) == hand[1]
    page.keyboard.press("ArrowLeft")
    assert focused_card(page) == hand[0]
    page.keyboard.press("ArrowLeft")  # wraps around
    assert focused_card(page) == hand[-1]
    page.keyboard.press("Home")
    assert focused_card(page) == hand[0]

    # pass three cards with the keyboard: Enter chooses, Enter again drops
    page.keyboard.press("Enter")
    expect(card(page, hand[0])).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Enter")
    expect(card(page, hand[0])).to_have_attribute("aria-pressed", "false")
    for i in range(3):
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        expect(card(page, hand[1 + i])).to_have_attribute("aria-pressed", "true")
    for _ in range(30):
        if page.evaluate("document.activeElement.id") == "pass-button":
            break
        page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    wait_ready(page)
    assert phase(page) == "play" and south_to_play(page)

    # play: arrows to a legal card, Enter plays it, focus stays in the hand
    legal = legal_cards(page)
    hand = hand_cards(page)
    card(page, hand[0]).focus()
    target = legal[-1]
    for _ in range(hand.index(target)):
        page.keyboard.press("ArrowRight")
    assert focused_card(page) == target
    page.keyboard.press("Enter")
    expect(card(page, target)).to_have_count(0)
    wait_ready(page)
    assert target not in hand_cards(page)
    assert focused_card(page) in hand_cards(page)
    if south_to_play(page):
        illegal = [c for c in hand_cards(page) if c not in legal_cards(page)]
        if illegal:  # Enter on an illegal card says why and plays nothing
            card(page, illegal[0]).focus()
            page.keyboard.press("Enter")
            expect(page.locator("#message")).to_have_class("warn")
            assert illegal[0] in hand_cards(page)
