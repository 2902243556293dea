"""Gợi ý on the page (issue 11; issue 39, items 9 and 10): in the pass and on South's
turn the button applies Khó's choice in one tap (the pass's cards chosen, to be
confirmed with "Chuyền"; the card to play raised, a tap on it or on "Đánh lá này"
plays it) and shows why,
first in plain words (the line the server's ``why`` names), in Vietnamese and in
English, with no CSP violation; the mark goes once the position changes; the
match counts the hints. Its box leaves South's name and score seen (issue 56)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from table_page import (
    WAIT_MS,
    card,
    choose_pass,
    hand_cards,
    legal_cards,
    open_table,
    phase,
    press_card,
    set_language,
    state,
    wait_ready,
)

from hearts.server.coach.hint import WHY_CODES, why_pattern

pytestmark = pytest.mark.browser

WATCH = """document.addEventListener('securitypolicyviolation', e =>
  (window.__violations = window.__violations || []).push(e.violatedDirective));"""
HINTED = '#hand button.hand-card[data-hinted="true"]'
PRESSED = '#hand button.hand-card[aria-pressed="true"]'
#: Whether the card ``a`` stands higher on the screen than the card ``b`` (raised).
HIGHER_JS = """([a, b]) => {
  const top = (c) => document.querySelector(`#hand button.hand-card[data-card="${c}"]`)
    .getBoundingClientRect().top;
  return top(a) < top(b) - 4;
}"""


def _ask(page: Page, lang: str = "vi") -> list[str]:
    """Press Gợi ý: the hinted cards; the box's first line is why, in ``lang``'s
    words for the server's code, the last the options' mean points."""
    button = page.locator("#hint-button")
    expect(button).to_be_visible()
    expect(button).to_be_enabled()
    button.click()
    expect(page.locator("#hint-box")).to_be_visible(timeout=WAIT_MS)
    wait_ready(page)
    expect(button).to_be_disabled()  # the hint is on screen: no second ask
    why = page.locator("#hint-box p").first
    code = why.get_attribute("data-why")
    assert code in WHY_CODES, code
    text = why.inner_text()
    assert why_pattern(lang, code).fullmatch(text), (code, text)
    lines = page.locator("#hint-box p").all_inner_texts()
    mean, points = ("trung bình", "điểm") if lang == "vi" else ("mean", "points")
    assert len(lines) >= 2 and mean in lines[-1] and points in lines[-1], lines
    return [str(c) for c in page.locator(HINTED).evaluate_all("bs => bs.map(b => b.dataset.card)")]


def _to_a_choice(page: Page) -> None:
    """Play the lowest legal card until South has two legal cards to choose from."""
    while len(legal_cards(page)) < 2:
        assert phase(page) == "play", phase(page)
        name = legal_cards(page)[0]
        press_card(page, name)
        expect(card(page, name)).to_have_count(0, timeout=WAIT_MS)
        wait_ready(page)
        page.wait_for_selector('body[data-phase="play"][data-turn="S"]', timeout=WAIT_MS)


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_one_tap_applies_the_hint_and_it_says_why(page: Page, lang: str) -> None:
    page.add_init_script(WATCH)
    open_table(page)
    if lang == "en":
        set_language(page, "en")
    wait_ready(page)
    count = state(page)["hand"]["pass_count"]
    passing = _ask(page, lang)
    assert len(passing) == count
    # The pass is chosen: the hinted cards and no other, "Chuyền" ready.
    chosen = page.locator(PRESSED).evaluate_all("bs => bs.map(b => b.dataset.card)")
    assert sorted(chosen) == sorted(passing)
    others = [c for c in hand_cards(page) if c not in passing]
    assert page.evaluate(HIGHER_JS, [passing[0], others[0]])
    button = page.locator("#pass-button")
    expect(button).to_be_enabled()
    expect(button).to_be_focused()  # the keyboard's next step too
    button.click()
    wait_ready(page)
    assert sorted(state(page)["hand"]["passed"]) == sorted(passing)
    expect(page.locator(HINTED)).to_have_count(0)
    expect(page.locator("#hint-box")).to_be_hidden()

    page.wait_for_selector('body[data-phase="play"][data-turn="S"]', timeout=WAIT_MS)
    wait_ready(page)
    _to_a_choice(page)
    (hinted,) = _ask(page, lang)
    expect(card(page, hinted)).to_have_attribute("aria-disabled", "false")  # a legal card
    other = next(c for c in hand_cards(page) if c != hinted)
    page.wait_for_function(HIGHER_JS, arg=[hinted, other], timeout=WAIT_MS)  # raised
    expect(card(page, hinted)).to_be_focused()  # Enter would play it
    assert state(page)["match"]["hints"] == 2
    # the second tap, said on a button (issue 59): "Đánh lá này" plays the raised card
    play = page.locator("#hint-play")
    expect(play).to_be_visible()
    expect(play).to_have_text("Đánh lá này" if lang == "vi" else "Play this card")
    before = len(hand_cards(page))
    if lang == "vi":
        press_card(page, hinted)  # the second tap on the card plays it
    else:
        play.click()  # or on the button
    expect(card(page, hinted)).to_have_count(0, timeout=WAIT_MS)
    wait_ready(page)
    assert len(hand_cards(page)) == before - 1
    expect(page.locator("#hint-box")).to_be_hidden()
    expect(play).to_be_hidden()
    assert page.evaluate("window.__violations || []") == []


# South's plate under Gợi ý's box: whether the two boxes meet, and whether the
# middle of its name and of its score is the plate's (not the box's)
SOUTH_SEEN_JS = """() => {
  const box = e => e.getBoundingClientRect();
  const hint = box(document.getElementById('hint-box'));
  const plate = document.querySelector('#table .seat-S .plate'), p = box(plate);
  const meet = hint.left < p.right && p.left < hint.right && hint.top < p.bottom
               && p.top < hint.bottom;
  const hidden = [...plate.querySelectorAll('.name, .total')].filter(e => {
    const r = box(e), hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !hit || !plate.contains(hit);
  }).map(e => e.textContent);
  return {meet, hidden};
}"""
# 1024x768: a short table, South's plate in its bottom right corner (the hand in two
# rows); the larger sizes: the plate in the middle of the table's foot
DESKTOPS = [(1024, 768), (1280, 800), (1440, 900), (1920, 1080)]
TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def _south_seen(page: Page, moment: str, lang: str, shots: Path) -> list[Any]:
    wrong = []
    for width, height in DESKTOPS:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(TWO_FRAMES)
        page.screenshot(path=shots / f"hint-south-{moment}-{lang}-{width}x{height}.jpg")
        expect(page.locator("#hint-box")).to_be_in_viewport(ratio=1)
        got = page.evaluate(SOUTH_SEEN_JS)
        if got != {"meet": False, "hidden": []}:
            wrong.append((moment, width, height, got))
    return wrong


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_the_hint_leaves_souths_name_and_score_seen(
    make_context: Any, lang: str, artifacts: Path
) -> None:
    """Gợi ý's box lies over the table's foot, not over South's plate (issue 56, item
    11: at 1024x768 it hid South's name and score): in the pass and on South's turn,
    at four desktop sizes, the box in the window and off the plate, the plate's name
    and score on top."""
    page = make_context(viewport={"width": 1024, "height": 768}).new_page()
    open_table(page)
    if lang == "en":
        set_language(page, "en")
    page.locator("#hint-button").click()
    expect(page.locator("#hint-box")).to_be_visible(timeout=WAIT_MS)
    wait_ready(page)
    wrong = _south_seen(page, "pass", lang, artifacts)
    page.set_viewport_size({"width": 1024, "height": 768})
    choose_pass(page)
    page.wait_for_selector('body[data-phase="play"][data-turn="S"]', timeout=WAIT_MS)
    wait_ready(page)
    page.locator("#hint-button").click()
    expect(page.locator("#hint-box")).to_be_visible(timeout=WAIT_MS)
    wait_ready(page)
    wrong += _south_seen(page, "play", lang, artifacts)
    assert wrong == [], wrong
