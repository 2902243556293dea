"""Gợi ý on the page (issue 11; issue 39, items 9 and 10): in the pass and on South's
turn the button applies Khó's choice in one tap (the pass's cards chosen, to be
confirmed with "Chuyền"; the card to play raised, a tap on it or on "Đánh lá này"
plays it) and shows why,
first in plain words (the line the server's ``why`` names), in Vietnamese and in
English, with no CSP violation; the mark goes once the position changes; the
match counts the hints."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from table_page import (
    WAIT_MS,
    card,
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
