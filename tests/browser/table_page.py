"""What a player does on the page, as Playwright steps (used by the browser tests).

Every wait is tied to the page's own state (the ``body`` data attributes of SPEC §4's
hooks), never to a fixed delay: ``data-busy`` stays "true" until the last computer
card has landed, so "not busy" means the player may act.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Locator, Page, expect

WAIT_MS = 90_000  # a generous ceiling for one wait on a loaded 2-core machine
READY = 'body[data-busy="false"]:not([data-phase="loading"])'
RANKS = "23456789TJQKA"

# browser context options of the two sizes the page is made for
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
DESKTOP = {"viewport": {"width": 1440, "height": 900}}

HAND = "#hand button.hand-card"
LEGAL = '#hand button.hand-card[aria-disabled="false"]'
ON_TABLE = "#trick .table-card[data-card]"


def rank(card: str) -> int:
    return RANKS.index(card[0])


def wait_ready(page: Page, timeout: float = WAIT_MS) -> None:
    """Until the page waits for the player (or the hand / match is over)."""
    page.wait_for_selector(READY, state="attached", timeout=timeout)


def body(page: Page, name: str) -> str:
    return str(page.evaluate(f"document.body.dataset.{name} || ''"))


def phase(page: Page) -> str:
    return body(page, "phase")


def hand_cards(page: Page) -> list[str]:
    return [str(c) for c in page.locator(HAND).evaluate_all("bs => bs.map(b => b.dataset.card)")]


def legal_cards(page: Page) -> list[str]:
    return [str(c) for c in page.locator(LEGAL).evaluate_all("bs => bs.map(b => b.dataset.card)")]


def table_cards(page: Page) -> dict[str, str]:
    """The cards of the trick on the table, seat -> card."""
    found = page.locator(ON_TABLE).evaluate_all(
        "cs => cs.map(c => [c.dataset.seat, c.dataset.card])"
    )
    return {str(seat): str(c) for seat, c in found}


def card(page: Page, name: str) -> Locator:
    return page.locator(f'#hand button.hand-card[data-card="{name}"]')


_VISIBLE_POINT_JS = """(el) => {
    const r = el.getBoundingClientRect();
    for (const fy of [0.5, 0.25, 0.12, 0.75, 0.9])
      for (const fx of [0.5, 0.25, 0.12, 0.75, 0.9]) {
        const x = r.left + r.width * fx, y = r.top + r.height * fy;
        const hit = document.elementFromPoint(x, y);
        if (hit && (hit === el || el.contains(hit))) return {x, y};
      }
    return null;
}"""


def press_card(page: Page, name: str, touch: bool = False) -> None:
    """Tap (or click) South's card where a player sees it: a raised neighbour may
    cover the card's middle in a tight fan, so the first point of it on top."""
    target = card(page, name)
    target.scroll_into_view_if_needed()
    point = target.evaluate(_VISIBLE_POINT_JS)
    assert point is not None, f"{name}: no visible part to tap"
    if touch:
        page.touchscreen.tap(point["x"], point["y"])
    else:
        page.mouse.click(point["x"], point["y"])


def open_table(page: Page, url: str = "/", level: str = "easy", quick: bool = True) -> None:
    """Open the page, wait for the table, and choose the level and quick play."""
    page.goto(url)
    wait_ready(page)
    set_settings(page, level, quick)


LEVEL_WORD = {"easy": "Dễ", "medium": "Vừa", "hard": "Khó"}


def set_settings(page: Page, level: str | None = None, quick: bool | None = None) -> None:
    """Click the level and the quick-play switch like a player, and wait until the
    server has stored each change. On a landscape phone they lie behind "Cài đặt"."""
    overlay = not page.locator(".settings").is_visible()
    if overlay:
        page.locator("#settings-open").click()
    if level is not None:
        radio = page.get_by_role("radio", name=LEVEL_WORD[level], exact=True)
        if not radio.is_checked():
            with page.expect_response(lambda r: "/api/settings" in r.url and r.ok):
                radio.check()
        expect(radio).to_be_checked()
    if quick is not None:
        switch = page.get_by_role("switch", name="Chơi nhanh")
        if switch.is_checked() != quick:
            with page.expect_response(lambda r: "/api/settings" in r.url and r.ok):
                switch.click()
        expect(switch).to_be_checked(checked=quick)
    if overlay:
        page.locator("#settings-open").click()
        expect(page.locator(".settings")).to_be_hidden()


def highest_three(page: Page) -> list[str]:
    return sorted(hand_cards(page), key=rank)[-3:]


def lowest_three(page: Page) -> list[str]:
    return sorted(hand_cards(page), key=rank)[:3]


def choose_pass(page: Page, cards: list[str] | None = None) -> list[str]:
    """Choose three cards (the three highest by default) and press the pass button:
    cards chosen already (a hint chooses its pass) are tapped again if not wanted."""
    wait_ready(page)
    assert phase(page) == "pass"
    if cards is None:
        cards = highest_three(page)
    pressed = '#hand button.hand-card[aria-pressed="true"]'
    chosen = page.locator(pressed).evaluate_all("bs => bs.map(b => b.dataset.card)")
    for c in [c for c in chosen if c not in cards]:
        card(page, c).click()
        expect(card(page, c)).to_have_attribute("aria-pressed", "false")
    for c in [c for c in cards if c not in chosen]:
        card(page, c).click()
        expect(card(page, c)).to_have_attribute("aria-pressed", "true")
    button = page.locator("#pass-button")
    expect(button).to_be_enabled()
    button.click()
    wait_ready(page)
    return cards


def play(page: Page, name: str) -> None:
    """Tap a legal card and wait until the computers have answered."""
    assert name in legal_cards(page), (name, legal_cards(page))
    card(page, name).click()
    expect(card(page, name)).to_have_count(0, timeout=WAIT_MS)
    wait_ready(page)


def lowest_legal(page: Page) -> str:
    return min(legal_cards(page), key=rank)


def highest_legal(page: Page) -> str:
    return max(legal_cards(page), key=rank)


def south_to_play(page: Page) -> bool:
    return phase(page) == "play" and body(page, "turn") == "S"


def play_until(
    page: Page, stop: Any = None, pick: Any = lowest_legal, pass_pick: Any = highest_three
) -> None:
    """Pass and play (``pick`` chooses among the legal cards) until the hand is
    done or ``stop(page)`` says so at a moment South is to act."""
    while True:
        wait_ready(page)
        if phase(page) == "done" or (stop is not None and stop(page)):
            return
        if phase(page) == "pass":
            choose_pass(page, pass_pick(page))
        elif south_to_play(page):
            play(page, pick(page))
        else:
            raise AssertionError(f"not busy, yet nothing to do: {phase(page)} {body(page, 'turn')}")


def state(page: Page) -> dict[str, Any]:
    """The server's State for this page's token (read through the page's own API)."""
    got: dict[str, Any] = page.evaluate(
        """async () => {
            const t = localStorage.getItem('hearts-token');
            const r = await fetch('/api/state', {headers: {Authorization: 'Bearer ' + t}});
            return await r.json();
        }"""
    )
    return got


def finished_tricks(page: Page) -> int:
    return page.locator("#tricks-list > li").count()


def mid_trick(page: Page) -> bool:
    """South is to play a card while others of the trick already lie on the table."""
    return south_to_play(page) and bool(table_cards(page))


def token(page: Page) -> str:
    return str(page.evaluate("localStorage.getItem('hearts-token')"))


def play_by_api(page: Page, until: Any, pick: Any = None) -> dict[str, Any]:
    """Pass and play through the JSON API with the page's token (South's lowest
    cards to pass, its first legal card to play, or ``pick(hand)``'s, the computers
    by ``/api/step``) until ``until(state)`` holds; return that state. The page is not
    reloaded."""
    headers = {"Authorization": f"Bearer {token(page)}"}
    api = page.request
    at = "{}://{}".format(*urlsplit(page.url))  # the page's server (maybe a test's own)
    s: dict[str, Any] = api.get(f"{at}/api/state", headers=headers).json()
    for _ in range(400):
        hand, version = s["hand"], s["version"]
        if until(s):
            return s
        if hand["phase"] == "done":
            raise AssertionError("the hand is over")
        if hand["phase"] == "pass" and hand["passed"] is None:
            cards = sorted(hand["cards"], key=rank)[: hand["pass_count"]]
            body = {"version": version, "cards": cards}
            r = api.post(f"{at}/api/pass", headers=headers, data=body)
        elif hand["turn"] == s["seats"][0]:
            body = {"version": version, "card": pick(hand) if pick else hand["legal"][0]}
            r = api.post(f"{at}/api/play", headers=headers, data=body)
        else:
            r = api.post(f"{at}/api/step", headers=headers, data={"version": version})
        assert r.ok or r.status == 409, (r.status, r.text())
        # each answer is the State after it (a 409's is fetched again)
        s = r.json() if r.ok else api.get(f"{at}/api/state", headers=headers).json()
    raise AssertionError("the condition never held")


def finish_hand_by_api(page: Page) -> None:
    """Play the rest of the hand through the JSON API with the page's token (a
    shortcut to an end-of-hand table), then reload the page to show it."""
    play_by_api(page, lambda s: s["hand"]["phase"] == "done")
    page.reload()
    wait_ready(page)


def finish_match_by_api(page: Page) -> dict[str, Any]:
    """Play the match to its end through the JSON API with the page's token (hands
    after hands), then reload the page to show it; the last State."""
    headers = {"Authorization": f"Bearer {token(page)}"}
    for _ in range(40):
        s = play_by_api(page, lambda s: s["hand"]["phase"] == "done")
        if s["match"]["over"]:
            page.reload()
            return s
        r = page.request.post("/api/next-hand", headers=headers, data={"version": s["version"]})
        assert r.ok, r.text()
    raise AssertionError("the match did not end")


def new_match_by_api(page: Page, rules: dict[str, Any]) -> None:
    """Start a match at ``rules`` through the JSON API with the page's token, then
    reload the page to show it."""
    headers = {"Authorization": f"Bearer {token(page)}"}
    version = page.request.get("/api/state", headers=headers).json()["version"]
    body = {"version": version, "rules": rules}
    r = page.request.post("/api/new-match", headers=headers, data=body)
    assert r.ok, (r.status, r.text())
    page.reload()
    wait_ready(page)


def set_language(page: Page, lang: str) -> None:
    """The page again in ``lang`` ("vi", "en"), as its language switch leaves it."""
    page.evaluate("lang => localStorage.setItem('hearts-lang', lang)", lang)
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    wait_ready(page)


SMALL_TEXT_JS = """min => {
    const small = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!n.textContent.trim() || !el) continue;
        // card faces and icons (an achievement's "10") are pictures (aria-hidden, named
        // beside them); sr-only is unseen
        if (el.closest('.face, .sr-only, svg[aria-hidden="true"]')) continue;
        if (!el.getClientRects().length) continue;
        const cs = getComputedStyle(el);
        if (cs.visibility !== 'visible') continue;
        const size = parseFloat(cs.fontSize);
        if (size < min) small.push([n.textContent.trim().slice(0, 40), el.className, size]);
    }
    for (const c of document.querySelectorAll('.table-card[data-order]')) {
        const size = parseFloat(getComputedStyle(c, '::after').fontSize);
        if (size < min) small.push([c.dataset.order, 'order badge', size]);
    }
    return small;
}"""


def small_text(page: Page, min_px: float = 13) -> list[Any]:
    """The text on screen set smaller than ``min_px`` (text, its element's class, size)."""
    found: list[Any] = page.evaluate(SMALL_TEXT_JS, min_px)
    return found


# Records what the page shows at every change of the message or the table: the
# message, the cards of the trick (seat, card) and the seat whose card wins. Added as
# an init script, it sees the page from its first paint (a reload included).
RECORDER_JS = """(() => {
    window.__shown = [];
    const take = () => {
        const msg = document.getElementById('message');
        const cards = [...document.querySelectorAll('#trick .table-card[data-card]')]
            .map(c => c.dataset.seat + ':' + c.dataset.card).sort().join(' ');
        const win = document.querySelector('#trick .table-card.winner[data-card]');
        const now = {message: msg ? msg.textContent : '', cards,
                     winner: win ? win.dataset.seat : ''};
        const last = window.__shown[window.__shown.length - 1];
        if (!last || JSON.stringify(last) !== JSON.stringify(now)) window.__shown.push(now);
    };
    new MutationObserver(take).observe(document, {subtree: true, childList: true,
        characterData: true, attributes: true, attributeFilter: ['class']});
})();"""


def recorded(page: Page) -> list[dict[str, str]]:
    """What the page showed since the recorder was added (see RECORDER_JS)."""
    got: list[dict[str, str]] = page.evaluate("window.__shown || []")
    return got


def trick_key(trick: dict[str, Any]) -> str:
    """A finished trick as RECORDER_JS writes its cards."""
    return " ".join(sorted(f"{p['seat']}:{p['card']}" for p in trick["cards"]))
