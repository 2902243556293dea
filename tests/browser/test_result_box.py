"""The result of a hand (issue 10, item 5): an opaque box, with no card of a trick
showing through it or sticking out from under it, on a desktop and a phone; a
negative number in it, on the plates and in the score table written with the one
minus sign (issue 56)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from planted import moon_plays, plant_hand, plant_moon_choice
from playwright.sync_api import Page, expect
from server_process import HeartsServer
from table_page import (
    DESKTOP,
    PHONE,
    card,
    finish_hand_by_api,
    legal_cards,
    new_match_by_api,
    open_table,
    phase,
    play_by_api,
    set_language,
    token,
    wait_ready,
)

from hearts.rules import Rules

pytestmark = pytest.mark.browser

SIZES = {"desktop": DESKTOP, "phone": PHONE}

CARDS_SEEN_JS = """() => [...document.querySelectorAll('#trick .table-card')]
    .filter(c => c.checkVisibility({visibilityProperty: true, opacityProperty: true}))
    .map(c => c.dataset.card || 'leaving')"""


def check_result_alone(page: Page) -> None:
    result = page.locator("#result")
    expect(result).to_be_visible()
    alpha = result.evaluate(
        "r => { const m = getComputedStyle(r).backgroundColor.match(/[\\d.]+/g);"
        " return m.length > 3 ? parseFloat(m[3]) : 1; }"
    )
    assert alpha == 1, alpha  # nothing shows through
    assert page.evaluate(CARDS_SEEN_JS) == []  # nothing sticks out


def last_card(s: dict[str, Any]) -> bool:
    hand = s["hand"]
    return hand["phase"] == "done" or (hand["turn"] == s["seats"][0] and len(hand["cards"]) == 1)


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.browser_context_args(reduced_motion="no-preference")
def test_the_result_box_covers_no_trick(size: str, make_context: Any, artifacts: Path) -> None:
    page = make_context(**SIZES[size], reduced_motion="no-preference").new_page()
    open_table(page)
    # South's last card, reached through the API (what the table shows before it is
    # test_layout's), then played on the page; unless the hand finished itself (the
    # rest of it decided, docs/api.md)
    play_by_api(page, last_card)
    page.reload()
    wait_ready(page)
    if phase(page) == "play":  # the last card: its trick flies off as the result shows
        card(page, legal_cards(page)[0]).click()
        page.wait_for_selector('body[data-phase="done"]')
        check_result_alone(page)
        page.screenshot(path=artifacts / f"{size}-result-live.jpg")
    finish_hand_by_api(page)  # (a no-op if done) and a reload
    check_result_alone(page)


# A phone's sizes, either way up (issue 39, item 3), and a tablet's whose table is
# narrow beside the side panels (the box over its middle lay over East's plate at
# four, over four plates at seven).
PHONE_SIZES = [(390, 844), (360, 640), (844, 390), (640, 360), (1024, 768)]


def settle(page: Page, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


# what the hand's result (or the moon's choice) lies over, of what the table shows at
# the end of a hand: a seat's plate, the note of the table, the rules' badge, the
# marks; and its buttons smaller than 44 px or out of the window
RESULT_OVER_JS = """(id) => {
    const box = e => e.getBoundingClientRect();
    const over = (a, b) => a.left + 1 < b.right && b.left + 1 < a.right
                           && a.top + 1 < b.bottom && b.top + 1 < a.bottom;
    const seen = e => !e.closest('[hidden]') && e.getClientRects().length
                      && getComputedStyle(e).visibility === 'visible';
    const result = document.getElementById(id);
    const r = box(result);
    const out = {over: [], small: [], outside: r.top < 0 || r.left < 0
                 || r.bottom > innerHeight || r.right > innerWidth};
    const things = document.querySelectorAll(
        '#table .seat .plate, #table-note, #rules-badge, #table .marks .mark, #last-trick');
    for (const t of things)
        if (seen(t) && over(r, box(t)))
            out.over.push([t.closest('.seat') ? t.closest('.seat').dataset.seat : t.id,
                           t.className]);
    for (const b of result.querySelectorAll('button, summary'))
        if (seen(b) && (box(b).width < 44 || box(b).height < 44))
            out.small.push([b.id || b.textContent, box(b).width, box(b).height]);
    return out;
}"""


def at_phone_sizes(
    page: Page, artifacts: Path, prefix: str, element_id: str, wrong: list[Any]
) -> Iterator[None]:
    """The page at each phone size in turn, settled: a screenshot, and what is wrong
    with ``element_id`` there (RESULT_OVER_JS) added to ``wrong``; the caller checks
    the rest of that size before the next."""
    for width, height in PHONE_SIZES:
        settle(page, width, height)
        name = f"{prefix}-{width}x{height}"
        page.screenshot(path=artifacts / f"{name}.jpg")
        got = page.evaluate(RESULT_OVER_JS, element_id)
        if got != {"over": [], "small": [], "outside": False}:
            wrong.append((name, got))
        yield


def test_a_hands_result_on_a_phone_covers_no_plate(make_context: Any, artifacts: Path) -> None:
    """The end of a hand on a phone, portrait and landscape, at 3 to 7 seats: the
    result box in the window, over no seat's plate and no note of the table, its
    buttons of 44 px; "Chia ván mới" seen and on top."""
    page = make_context(**PHONE).new_page()
    open_table(page)
    wrong = []
    for players in (4, 3, 5, 6, 7):
        if players != 4:
            new_match_by_api(page, {"players": players})
        finish_hand_by_api(page)
        for _ in at_phone_sizes(page, artifacts, f"result-{players}p", "result", wrong):
            expect(page.locator("#next-hand")).to_be_in_viewport(ratio=1)
    assert wrong == [], "\n".join(map(str, wrong))


def test_the_moon_choice_on_a_phone_covers_no_plate(
    hearts_server: HeartsServer, make_context: Any, artifacts: Path
) -> None:
    """South has shot the moon under "Người bắn tự chọn", on a phone either way up, at
    3 to 7 seats: the two choices in the window, over no seat's plate, note, mark or
    "Vòng trước" (centred on the table they hid West's and East's), each 44 px."""
    page = make_context(**PHONE).new_page()
    open_table(page)
    wrong = []
    for players in (4, 3, 5, 6, 7):
        plant_moon_choice(hearts_server.data_dir, token(page), players)
        page.reload()
        wait_ready(page)
        expect(page.locator("#moon-choice")).to_be_visible()
        for _ in at_phone_sizes(page, artifacts, f"moon-choice-{players}p", "moon-choice", wrong):
            for how in ("add_to_others", "subtract_from_self"):
                option = page.locator(f'.moon-option[data-choice="{how}"]')
                expect(option).to_be_in_viewport(ratio=1)
        page.set_viewport_size(PHONE["viewport"])
    assert wrong == [], "\n".join(map(str, wrong))


LANDSCAPE_PHONES = [(844, 390), (640, 360)]
# the table's box, and the rows of the hand below it (none once it is empty)
TABLE_BOX_JS = """() => { const r = document.getElementById('table').getBoundingClientRect();
    const hand = document.getElementById('hand');
    const rows = hand.querySelector('.hand-card') ? Number(hand.dataset.rows) : 0;
    return [[r.left, r.top, r.width, r.height], rows]; }"""


def test_a_landscape_phones_table_keeps_its_size_to_the_hands_end(make_context: Any) -> None:
    """On a phone turned sideways, at 3 to 7 seats, the table has the same box at the
    pass, in the play, with three cards left and at the end of the hand (the result in the
    hand's place was up to 30 px taller than the hand at 6 and 7 seats, and the table
    shrank); but where the hand needs two rows (17 cards at 640x360), it is shorter."""
    page = make_context(**PHONE).new_page()
    open_table(page)
    boxes: dict[str, dict[str, list[float]]] = {}

    def look(players: int, moment: str) -> None:
        for width, height in LANDSCAPE_PHONES:
            settle(page, width, height)
            box, rows = page.evaluate(TABLE_BOX_JS)
            if rows <= 1:
                boxes.setdefault(f"{players}p-{width}x{height}", {})[moment] = box
        page.set_viewport_size(PHONE["viewport"])

    def south_with(cards: int | None) -> Any:
        return lambda s: (
            s["hand"]["phase"] == "play"
            and s["hand"]["turn"] == s["seats"][0]
            and (cards is None or len(s["hand"]["cards"]) <= cards)
        )

    for players in (5, 6, 7, 3, 4):
        new_match_by_api(page, {"players": players})
        look(players, "pass")
        play_by_api(page, south_with(None))
        page.reload()
        wait_ready(page)
        look(players, "play")
        try:  # the server may play the last tricks itself once the points are settled
            play_by_api(page, south_with(3))
            page.reload()
            wait_ready(page)
            look(players, "three cards left")
        except AssertionError as e:
            assert "the hand is over" in str(e)
        finish_hand_by_api(page)
        look(players, "done")
    wrong = {
        name: seen
        for name, seen in boxes.items()
        if any(
            max(abs(a - b) for a, b in zip(box, seen["done"], strict=True)) > 0.5
            for box in seen.values()
        )
    }
    assert wrong == {}, "\n".join(f"{name}: {seen}" for name, seen in wrong.items())


# every number the end of a hand shows: the result box, the seats' plates (total and
# the hand's points), the score table
NUMBERS_JS = """() => [...document.querySelectorAll('#result-points li, #table .seat .plate'
    + ' :is(.total, .taken), #score-table td')]
    .filter(e => e.getClientRects().length).map(e => e.textContent)"""


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_a_minus_26_is_written_with_one_minus_sign(
    lang: str, hearts_server: HeartsServer, page: Page
) -> None:
    """South shoots the moon under "Trừ 26 cho người bắn" from a total of 0 (issue 56,
    item 11: the result read "−26 = -26", two different minus signs): the result, the
    plate, the score table and the level's mean in "Thành tích" write −26 with the
    page's minus sign (U+2212), none with a hyphen."""
    open_table(page)
    if lang == "en":
        set_language(page, "en")
    rules = Rules(moon="subtract_from_self")
    deal, passes, plays = moon_plays(rules)
    # all but the last trick, whose cards are each seat's last: South's moon
    plant_hand(
        hearts_server.data_dir, token(page), rules, deal, (0, 10, 20, 30), passes, plays[:-4]
    )
    play_by_api(page, lambda s: s["hand"]["phase"] == "done")
    page.reload()
    wait_ready(page)
    south = page.locator('#result-points li[data-seat="S"]')
    expect(south.locator(".rp")).to_have_text("−26")
    expect(south.locator(".rt")).to_have_text("= −26")
    plate = page.locator("#table .seat-S .plate")
    expect(plate.locator(".total")).to_have_text("−26")
    expect(plate.locator(".taken")).to_have_text("−26")
    numbers = page.evaluate(NUMBERS_JS)
    assert "−26" in numbers and not [n for n in numbers if "-" in n], numbers
    # the level's mean in "Thành tích" too: the hand's −26
    expect(page.locator('#stats-levels [data-level="easy"]')).to_contain_text("−26")
