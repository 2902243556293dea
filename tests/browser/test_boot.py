"""The page's start on a slow link (issue 39: the first playable card): its first calls
to the server wait for no file (index.html's inline script sends them as the page
arrives), a new player reaches a playable hand after one call (the page comes with its
first deal's commitment: the call makes the player and deals with the page's seed; a
page whose ticket is refused, two in sequence), a returning one after one, the page has
one style sheet, and index.html fetches the first screen's modules at once (its list is
main.js's import graph, so it cannot rot)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from playwright.sync_api import BrowserContext, Page, Route, expect
from playwright.sync_api import Error as PlaywrightError
from room_page import create_room_by_api, join_room
from table_page import LEGAL, finish_hand_by_api, play_by_api, state, wait_ready

pytestmark = pytest.mark.browser

STATIC = Path(__file__).resolve().parents[2] / "src" / "hearts" / "server" / "static"
# a static import at a line's start: `import ... from "./x.js";` or `import "./x.js";`
IMPORT = re.compile(r'^import\s+(?:[^"\';]*?\s+from\s+)?["\']\./([\w-]+\.js)["\']', re.M)


def imports_of(entry: str) -> set[str]:
    """``entry`` and every module it imports statically, transitively."""
    seen: set[str] = set()
    todo = [entry]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += IMPORT.findall((STATIC / "js" / name).read_text())
    return seen


def head_modules() -> list[tuple[str, bool]]:
    """index.html's module scripts and module preloads in order: (file, fetched low)."""
    head = (STATIC / "index.html").read_text().split("</head>")[0]
    tags = re.findall(r'<(?:script type="module"[^>]*|link rel="modulepreload"[^>]*)>', head)
    found = []
    for tag in tags:
        name = re.search(r'(?:src|href)="/static/js/([\w-]+\.js)"', tag)
        assert name, tag
        found.append((name.group(1), 'fetchpriority="low"' in tag))
    return found


def test_the_preload_list_is_the_first_screen_s_import_graph() -> None:
    names = [name for name, _ in head_modules()]
    assert len(names) == len(set(names)), names
    assert set(names) == imports_of("main.js")
    # none lowered: over HTTP/1.1 Chromium holds lowered ones back, one at a time,
    # while a style sheet loads (bench/page_results.md)
    assert not any(low for _, low in head_modules())


def test_the_first_card_s_files_and_call_go_in_two_rounds_over_http_1_1() -> None:
    """Over HTTP/1.1 Chromium takes six files at a time from one server, each a round
    trip on a slow link (bench/page_results.md): the style sheets, the modules of the
    first screen and the first State's one call fit in two rounds of six; the rule
    facts come with the page (no call for them)."""
    head = (STATIC / "index.html").read_text().split("</head>")[0]
    sheets = re.findall(r'<link rel="stylesheet"', head)
    assert len(sheets) + len(imports_of("main.js")) + 1 <= 12, (sheets, imports_of("main.js"))
    assert not re.search(r'<link[^>]+href="/api/', head), "a call preloaded beside the State's"
    assert '<meta name="hearts-rules" content="">' in head


def test_the_page_has_two_style_sheets_fetched_together() -> None:
    """Each file costs a share of a round trip on a slow link: the page's style is two
    sheets (each small enough to read at once), both in the head, fetched at once."""
    head = (STATIC / "index.html").read_text().split("</head>")[0]
    sheets = re.findall(r'<link rel="stylesheet" href="/static/([^"]+)"', head)
    assert sheets == ["style.css", "layout.css"], sheets


def first_calls(page: Page, url: str, wait_for: str, *also: str) -> tuple[list[str], list[str]]:
    """Open ``url`` with every static file held back until the page has sent
    ``wait_for`` and the calls in ``also`` (a call that waited for a file would never be
    sent: the test times out); the calls to the server sent while the files were held,
    and all those made before the first playable card."""
    # a page already open may still send its own late calls (the achievements panel's):
    # leave it first, so that only this load's calls are counted
    page.goto("about:blank")
    held: list[Route] = []
    released = False

    def hold(route: Route) -> None:
        if released:
            route.continue_()
        else:
            held.append(route)

    page.route("**/static/**", hold)
    calls: list[str] = []

    def seen(request: object) -> None:
        path = urlparse(request.url).path  # type: ignore[attr-defined]
        if path.startswith("/api/"):
            calls.append(f"{request.method} {path}")  # type: ignore[attr-defined]

    page.on("request", seen)
    with page.expect_request(lambda r: urlparse(r.url).path == wait_for, timeout=20_000):
        page.goto(url, wait_until="commit")
    # the preload scanner and the inline script race: either may send first
    for _ in range(400):
        if all(any(c.endswith(" " + path) for c in calls) for path in also):
            break
        page.wait_for_timeout(50)
    while_held = list(calls)
    released = True
    for route in held:
        route.continue_()
    page.wait_for_selector(LEGAL, timeout=30_000)
    wait_ready(page)
    before = list(calls)
    page.remove_listener("request", seen)
    return while_held, before


# the calls that may bring a first State
DEALING = {"POST /api/players", "GET /api/fairness", "POST /api/new-match", "GET /api/state"}


def test_a_new_player_s_first_hand_needs_one_call(page: Page, base_url: str) -> None:
    _, calls = first_calls(page, base_url, "/api/players")
    # the rule facts come with the page (its data block): no call for them
    assert "GET /api/rules" not in calls, calls
    # the page came with its first deal's commitment: one call makes the player and
    # deals, nothing in sequence after it
    assert [c for c in calls if c in DEALING] == ["POST /api/players"], calls
    assert_dealt_as_promised(page, page_promise(page))


def page_promise(page: Page) -> str:
    """The commitment the page came with (its first-deal ticket's)."""
    content = page.locator('meta[name="hearts-first-deal"]').get_attribute("content")
    assert content and len(content.split(" ")) == 2, content
    return content.split(" ")[1]


def assert_dealt_as_promised(page: Page, promised: str) -> None:
    """The page knew ``promised`` before it sent its seed (docs/fairness.md), the first
    hand was dealt under it with that seed, and the page's own checker finds the hand
    dealt as committed once it is over."""
    fair = state(page)["hand"]["fairness"]
    kept = page.evaluate("JSON.parse(localStorage.getItem('hearts-fairness'))")
    assert fair["commitment"] == promised
    assert kept[promised]["promised"] == promised
    assert fair["client_seeds"] == [kept[promised]["seed"]]
    finish_hand_by_api(page)
    note = page.locator("#result-fairness")
    expect(note).to_be_visible()
    assert note.get_attribute("data-fairness") == "ok"


def test_a_page_with_a_used_ticket_deals_in_two_calls(page: Page, base_url: str) -> None:
    """A page kept from before (its ticket used or expired) still deals the hand its
    page was promised: the ticket's refusal, the token with a commitment, the deal."""
    kept_page = page.request.get(base_url)
    html = kept_page.text()
    ticket = re.search(r'name="hearts-first-deal" content="(\S+) ', html)
    assert ticket
    used = page.request.post(
        "/api/players", data={"first_deal": {"ticket": ticket.group(1), "client_seed": "ab"}}
    )
    assert used.ok, used.text()
    page.route(base_url, lambda route: route.fulfill(response=kept_page, body=html))
    _, calls = first_calls(page, base_url, "/api/new-match")
    page.unroute(base_url)
    assert [c for c in calls if c in DEALING] == [
        "POST /api/players",  # refused: ticket_used
        "POST /api/players",
        "POST /api/new-match",
    ], calls
    promised = page.evaluate(
        "Object.values(JSON.parse(localStorage.getItem('hearts-fairness')))[0].promised"
    )
    assert promised != page_promise(page)
    assert_dealt_as_promised(page, promised)


def test_a_returning_player_s_hand_needs_one_call(page: Page, base_url: str) -> None:
    page.goto(base_url)
    wait_ready(page)
    _, calls = first_calls(page, base_url, "/api/state")
    assert [c for c in calls if c != "GET /api/rules"][:1] == ["GET /api/state"], calls
    assert "POST /api/players" not in calls and "POST /api/new-match" not in calls, calls


def test_a_room_s_link_deals_no_solo_match(
    page: Page, make_context: Callable[..., BrowserContext]
) -> None:
    """The inline script leaves a room's page to room.js: a guest opening the invite
    link gets no solo match (nor its first State) before joining."""
    link = create_room_by_api(page, "Chủ")
    guest = make_context().new_page()
    calls: list[str] = []
    guest.on(
        "request",
        lambda r: (
            calls.append(f"{r.method} {urlparse(r.url).path}")
            if urlparse(r.url).path.startswith("/api/")
            else None
        ),
    )
    join_room(guest, link, "Khách")
    assert "POST /api/new-match" not in calls and "GET /api/state" not in calls, calls


def without_ticket(route: Route) -> None:
    """The page as served, its first-deal ticket left out."""
    served = route.fetch()
    html = re.sub(r'(name="hearts-first-deal" content=")[^"]*', r"\1", served.text())
    route.fulfill(response=served, body=html)


def test_a_call_before_the_first_deal_s_answer_makes_no_second_player(page: Page) -> None:
    """Between the inline script's two calls (a page without a first-deal ticket) the
    page's own modules may already call the server (a room created at once): they use
    the new player's token, not a second one, and the first deal stays that player's."""
    page.goto("about:blank")
    held: dict[str, list[Route]] = {"players": [], "new-match": []}

    def holder(routes: list[Route]) -> Callable[[Route], None]:
        return lambda route: routes.append(route)

    for name, routes in held.items():
        page.route(f"**/api/{name}", holder(routes))
    page.route("**/", without_ticket)
    page.goto("/", wait_until="commit")
    api_js = """async () => {
        const href = document.querySelector('link[rel="modulepreload"][href$="/api.js"]').href;
        return (await import(href)).ensureToken();
    }"""
    # api.js is here (it read no token: there was none) before the token comes
    page.wait_for_selector('link[rel="modulepreload"][href$="/api.js"]', state="attached")
    page.evaluate("""async () => {
        const href = document.querySelector('link[rel="modulepreload"][href$="/api.js"]').href;
        await import(href);
    }""")
    release(page, held["players"], "players")
    page.wait_for_function("() => !!localStorage.getItem('hearts-token')")
    first = page.evaluate("localStorage.getItem('hearts-token')")
    assert page.evaluate(api_js) == first
    release(page, held["new-match"], "new-match")
    page.wait_for_selector(LEGAL, timeout=30_000)
    wait_ready(page)
    assert page.evaluate("localStorage.getItem('hearts-token')") == first


def release(page: Page, routes: list[Route], name: str) -> None:
    """Let the held call ``name`` go (waiting for it to be asked for first)."""
    for _ in range(200):
        if routes:
            break
        page.wait_for_timeout(50)
    assert routes, f"{name} was not asked for"
    page.unroute(f"**/api/{name}")
    for route in routes:
        with contextlib.suppress(PlaywrightError):  # a loaded run: handled already
            route.continue_()


def test_the_room_buttons_and_the_sound_switch_work_before_their_modules(page: Page) -> None:
    """ondemand.js and sound.js come after the first card (the page's weight): pressed
    before they are here, "Chơi với mọi người" opens its dialog and the sound's switch
    is kept (both presses were lost while their modules were on the way)."""
    held: list[Route] = []
    late = re.compile(r".*/js/(ondemand|sound)\.js$")
    page.route(late, lambda route: held.append(route))
    page.goto("/")
    wait_ready(page)
    page.get_by_role("button", name="Chơi với mọi người").click()
    expect(page.locator("#public-dialog")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#public-dialog")).to_be_hidden()
    switch = page.get_by_role("switch", name="Âm thanh")
    switch.click()
    assert held, "the modules came before the presses: nothing was tried"
    for route in held:
        route.continue_()
    page.unroute(late)
    expect(page.locator("body")).to_have_attribute("data-sound", "on")
    expect(switch).to_be_checked()
    page.reload()
    wait_ready(page)
    expect(page.locator("body")).to_have_attribute("data-sound", "on")


def test_a_page_ready_at_a_hand_s_end_shows_its_result(page: Page, make_context: Any) -> None:
    """result.js comes when a hand's end is on the table: until it has drawn the
    result, the page is not ready (``data-busy``), so a page that says it waits for the
    player shows the whole table (the result box was still missing in one run)."""
    page.goto("/")
    wait_ready(page)
    play_by_api(page, lambda s: s["hand"]["phase"] == "done")
    # the same player in a browser without the page's files in its cache
    fresh = make_context(storage_state=page.context.storage_state()).new_page()
    held: list[Route] = []
    result_js = re.compile(r".*/js/result\.js$")
    fresh.route(result_js, lambda route: held.append(route))
    fresh.goto("/")
    expect(fresh.locator("body")).to_have_attribute("data-phase", "done")
    for _ in range(300):  # the page asks for result.js once it has the hand's State
        if held:
            break
        fresh.wait_for_timeout(50)
    assert held, "the page never asked for result.js"
    fresh.wait_for_timeout(200)  # time to say it is ready, were it wrongly so
    assert fresh.locator("body").get_attribute("data-busy") == "true"
    held[0].continue_()
    wait_ready(fresh)
    assert fresh.locator("#result").is_visible()
    expect(fresh.locator("#result-auto")).to_have_text(re.compile(r"\S"), use_inner_text=False)
