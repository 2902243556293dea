"""Play with friends on the page (issue 9): three people, each in their own browser
(a context with its own storage, hence its own token), create a room, join it by
its link, and play together by tapping cards; a reload puts a player back in their
seat; an absent player's turn is played for them "(tự động)"; a guest who leaves is
replaced by a computer. The server is the real ``hearts serve`` with the computers
unpaced (``--room-pace 0``): the page itself shows each card as it comes."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browser.test_public import play_out, token_of
from playwright.sync_api import BrowserContext, Page, Route, expect
from room_page import (
    LOBBY,
    ROOM_READY,
    create_room,
    create_room_by_api,
    finish_hand_by_api,
    hand_over,
    join_room,
    lobby_names,
    my_turn,
    pass_three,
    play_lowest,
    play_until,
    room_state,
    start,
    wait_table,
)
from server_process import HeartsServer
from table_page import DESKTOP, PHONE, WAIT_MS, hand_cards, set_language, table_cards

pytestmark = pytest.mark.browser


@pytest.fixture()
def player(
    room_server: HeartsServer, make_context: Callable[..., BrowserContext]
) -> Iterator[Callable[..., Page]]:
    """A new player: a page in a browser context of its own (desktop unless told).
    No page may throw a script error."""
    errors: list[str] = []

    def make(**options: Any) -> Page:
        page = make_context(base_url=room_server.url, **{**DESKTOP, **options}).new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page

    yield make
    assert errors == []


def without_websocket(page: Page) -> None:
    """Every WebSocket of this page is closed at once (a proxy that cannot pass it):
    the page must fall back to the long poll."""
    page.route_web_socket(re.compile(r"/ws$"), lambda ws: ws.close())


def seats_of(page: Page) -> dict[str, dict[str, Any]]:
    """The room's seats as this player sees them, by name."""
    return {s["name"]: s for s in room_state(page)["seats"] if s["name"]}


@pytest.mark.parametrize("tricks", [1, pytest.param(13, marks=pytest.mark.slow)])
def test_three_friends_create_join_and_play(
    player: Callable[..., Page], artifacts: Path, tricks: int
) -> None:
    lan = player()
    minh = player(**PHONE)
    ha = player()
    without_websocket(ha)  # Hà's plays come by the long poll
    link = create_room(lan, "Lan")
    assert link.startswith("http://127.0.0.1:") and "/r/" in link
    expect(lan.locator("#mode-badge")).to_have_text("Phòng bạn bè")
    # the creator starts; nobody else can
    expect(lan.get_by_role("button", name="Bắt đầu", exact=True)).to_be_visible()

    join_room(minh, link, "Minh")
    # a name is shown as text, never as HTML
    join_room(ha, link, "<b>Hà</b>")
    expect(lan.locator("#lobby-seats .rs-name b")).to_have_count(0)
    expect(lan.locator("#lobby-seats .rs-name", has_text="<b>Hà</b>")).to_have_count(1)
    for page in (lan, minh, ha):
        expect(page.locator("#lobby-seats .rs-name", has_text="Minh")).to_have_count(1)
    expect(minh.get_by_role("button", name="Bắt đầu", exact=True)).to_have_count(0)
    expect(minh.locator("#lobby-seats li[data-seat='S'] .rs-name")).to_have_text("Minh")
    assert lobby_names(lan)[0] == "Lan"
    expect(lan.locator("#lobby-seats li[data-kind='empty']")).to_have_count(1)
    # Lan and Minh are connected by their sockets (Hà's long poll is not pushed to others)
    for name in ("Lan", "Minh"):
        seat = lan.locator("#lobby-seats li[data-kind='human']", has_text=name)
        expect(seat).to_have_attribute("data-connected", "true")
    lan.screenshot(path=artifacts / "room-desktop-1-lobby.jpg")
    minh.screenshot(path=artifacts / "room-phone-1-lobby.jpg")

    start(lan)
    humans = {"Lan", "Minh", "<b>Hà</b>"}
    for page, me in ((lan, "Lan"), (minh, "Minh"), (ha, "<b>Hà</b>")):
        wait_table(page)
        assert len(hand_cards(page)) == 13
        # the plates name the humans, the viewer at the bottom; the fourth is a computer
        plates = page.locator("#table .seat .plate .name").all_inner_texts()
        assert plates[0] == "Bạn"
        assert set(plates[1:]) - humans == {p for p in plates[1:] if p.startswith("Máy")}
        assert set(plates[1:]) & humans == humans - {me}
    for page in (lan, minh, ha):
        pass_three(page, touch=page is minh)
    for page in (lan, minh, ha):
        page.wait_for_selector(
            f'{ROOM_READY}[data-phase="play"]', state="attached", timeout=WAIT_MS
        )

    # tricks, each human tapping a card on their turn; every screen shows them
    def done() -> bool:
        hand = room_state(lan)["state"]["hand"]
        return hand["phase"] == "done" or len(hand["tricks"]) >= tricks

    play_until([lan, minh, ha], done)
    hand = room_state(lan)["state"]["hand"]
    assert len(hand["tricks"]) == tricks
    for page in (lan, minh, ha):
        expect(page.locator("#tricks-list > li")).to_have_count(tricks, timeout=WAIT_MS)
    assert ha.evaluate("document.body.dataset.live") == "poll"
    if tricks == 1:
        lan.screenshot(path=artifacts / "room-desktop-2-table.jpg")
        minh.screenshot(path=artifacts / "room-phone-2-table.jpg")
        return
    # the end of the hand: the same points on every screen, anyone may deal the next
    for page in (lan, minh, ha):
        page.wait_for_selector(f'{ROOM_READY}[data-phase="done"]', state="attached")
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#score-table tbody tr")).to_have_count(1)
    points = [sorted(room_state(p)["state"]["hand"]["points"].values()) for p in (lan, minh, ha)]
    assert points[0] == points[1] == points[2] and sum(points[0]) in (26, 78)
    minh.screenshot(path=artifacts / "room-phone-3-hand-done.jpg")
    minh.get_by_role("button", name="Chia ván mới").tap()
    for page in (lan, minh, ha):
        page.wait_for_selector(f'{ROOM_READY}[data-hand="2"][data-phase="pass"]', state="attached")


def lan_and_minh_at_the_table(player: Callable[..., Page]) -> tuple[Page, Page, str]:
    """Lan's room (a desktop) with Minh in it (a phone), started: both at the table;
    and the room's link."""
    lan, minh = player(), player(**PHONE)
    link = create_room(lan, "Lan")
    join_room(minh, link, "Minh")
    start(lan)
    wait_table(lan)
    wait_table(minh)
    return lan, minh, link


def mid_trick_for(page: Page) -> bool:
    """This player is to play while others' cards of the trick lie on the table."""
    return my_turn(page) and bool(table_cards(page))


def test_reload_mid_trick_comes_back_to_the_same_seat(player: Callable[..., Page]) -> None:
    lan, minh = player(), player()
    link = create_room(lan, "Lan")
    join_room(minh, link, "Minh")
    start(lan)
    for page in (lan, minh):
        wait_table(page)
        pass_three(page)
    play_until([lan, minh], lambda: mid_trick_for(minh))
    before = {"hand": hand_cards(minh), "table": table_cards(minh), "turn": "S"}
    names = minh.locator("#table .seat .plate .name").all_inner_texts()

    minh.reload()
    minh.wait_for_selector(
        'body[data-mode="room"][data-busy="false"][data-turn="S"]',
        state="attached",
        timeout=WAIT_MS,
    )
    assert {"hand": hand_cards(minh), "table": table_cards(minh), "turn": "S"} == before
    assert minh.locator("#table .seat .plate .name").all_inner_texts() == names
    # the page at "/" also goes back to the room this browser sits in
    minh.goto("/")
    minh.wait_for_url("**/r/*", timeout=WAIT_MS)
    minh.wait_for_selector(f'{ROOM_READY}[data-turn="S"]', state="attached", timeout=WAIT_MS)
    assert hand_cards(minh) == before["hand"]
    # and plays on from there
    play_lowest(minh)


def test_a_guest_who_leaves_is_replaced_by_a_computer(player: Callable[..., Page]) -> None:
    lan, minh = player(), player()
    link = create_room(lan, "Lan", players="5")  # a table of five: the seats on a ring
    join_room(minh, link, "Minh")
    start(lan)
    wait_table(minh)
    expect(minh.locator("#table .seat")).to_have_count(5)
    expect(minh.locator("#table .seat .plate .name", has_text="Lan")).to_have_count(1)
    minh.get_by_role("button", name="Rời phòng").click()
    minh.locator("#room-leave-yes").click()  # asked first: a computer plays on for good
    minh.wait_for_url(lambda url: url.endswith("/"), timeout=WAIT_MS)
    expect(minh.locator("#mode-badge")).to_have_text("Chơi với máy")
    minh.wait_for_selector(
        'body[data-mode="single"][data-busy="false"]', state="attached", timeout=WAIT_MS
    )

    # Lan's screen: that seat is a computer now, on the players' panel and the plate
    expect(lan.locator("#room-players li[data-kind='human']")).to_have_count(1, timeout=WAIT_MS)
    expect(lan.locator("#room-players li[data-kind='computer']")).to_have_count(4)
    expect(lan.locator("#table .seat .plate .name", has_text="Minh")).to_have_count(0)


def test_the_creator_removes_a_guest_in_the_lobby(
    player: Callable[..., Page], artifacts: Path
) -> None:
    lan, minh = player(), player(**PHONE)
    # a browser with the system share sheet (headless Chromium has none: a stand-in)
    lan.add_init_script("navigator.share = async (data) => { window.__shared = data; };")
    link = create_room(lan, "Lan")
    lan.get_by_role("button", name="Chia sẻ…").click()
    assert lan.evaluate("window.__shared.url") == link
    # "Sao chép" puts the invite link on the clipboard
    lan.context.grant_permissions(["clipboard-read", "clipboard-write"])
    lan.get_by_role("button", name="Sao chép").click()
    expect(lan.locator("#room-copied")).to_have_text("Đã sao chép")
    assert lan.evaluate("navigator.clipboard.readText()") == link
    # a link typed in lower case opens the same room (its address put right)
    code = link.rsplit("/", 1)[1]
    lower = link[: -len(code)] + code.lower()
    minh.goto(lower)
    expect(minh.get_by_label("Tên hiển thị (tối đa 20 ký tự)")).to_have_attribute(
        "placeholder", "Khách 2"
    )
    assert minh.url == link
    # on a phone the join screen shows none of the solo table's tabs
    expect(minh.locator("#panel-tabs")).to_be_hidden()
    minh.screenshot(path=artifacts / "room-phone-0-join.jpg")
    join_room(minh, lower, None)  # the default name
    expect(minh.locator("#panel-tabs")).to_be_hidden()  # nor the lobby
    guest = lan.locator("#lobby-seats li[data-kind='human']").nth(1)
    expect(guest.locator(".rs-name")).to_have_text("Khách 2")
    guest.get_by_role("button").click()
    expect(lan.locator("#lobby-seats li[data-kind='human']")).to_have_count(1)
    # the removed guest sees the join screen again (the seat is free)
    expect(minh.get_by_role("button", name="Vào phòng")).to_be_visible(timeout=WAIT_MS)
    assert lan.locator(LOBBY).count() == 1


@pytest.mark.parametrize("until", ["pass", pytest.param("play", marks=pytest.mark.slow)])
def test_an_absent_players_turn_is_made_for_them(
    player: Callable[..., Page], artifacts: Path, until: str
) -> None:
    """Minh closes his page; after the room's 10 s Vừa passes for him, and then plays
    for him: "(tự động)" on his plate, on the message line, under his card."""
    lan, minh = player(), player()
    link = create_room_by_api(lan, "Lan", level="easy", turn_seconds=10)
    join_room(minh, link, "Minh")
    start(lan)
    wait_table(lan)
    minh.close()
    pass_three(lan)
    expect(lan.locator("#message")).to_contain_text("còn")  # the time left to Minh
    status = lan.locator("#table .seat .room-status", has_text="(tự động)")
    expect(status).to_have_count(1, timeout=WAIT_MS)
    expect(lan.locator("#room-players li", has_text="Minh")).to_contain_text("(tự động)")
    # the host marked on the table too, on her own plate (issue 39, item 12)
    host = lan.locator("#table .seat .room-host:visible")
    expect(host).to_have_count(1)
    expect(host).to_have_text("chủ phòng")
    assert host.evaluate("h => h.closest('.seat').classList.contains('seat-S')")
    if until == "pass":
        # Minh comes back: "(tự động)" goes at once on Lan's screen, before he acts
        back = minh.context.new_page()
        back.goto(link)
        wait_table(back)
        expect(status).to_have_count(0, timeout=WAIT_MS)
        expect(lan.locator("#room-players li", has_text="Minh")).not_to_contain_text("(tự động)")
        # and on his screen, Lan's plate says she is the host
        expect(back.locator("#table .seat .room-host:visible")).to_have_count(1)
        lan_plate = back.locator("#table .seat", has_text="Lan")
        expect(lan_plate.locator(".room-host")).to_have_text("chủ phòng")
        return
    auto_card = lan.locator("#trick .table-card[data-card] .auto-tag")
    play_until([lan], lambda: auto_card.count() > 0 or hand_over(lan))
    expect(auto_card.first).to_have_text("(tự động)")
    lan.screenshot(path=artifacts / "room-desktop-3-auto.jpg")


def test_the_next_human_becomes_creator_and_wrong_links_say_so(
    player: Callable[..., Page],
) -> None:
    lan, minh = player(), player(**PHONE)
    link = create_room(lan, "Lan")
    join_room(minh, link, "Minh")
    expect(minh.get_by_role("button", name="Bắt đầu", exact=True)).to_have_count(0)
    lan.get_by_role("button", name="Rời phòng").click()
    lan.wait_for_url(lambda url: url.endswith("/"))
    expect(minh.get_by_role("button", name="Bắt đầu", exact=True)).to_be_visible()
    expect(minh.locator("#lobby-seats li[data-kind='human']")).to_have_count(1)
    # a code nobody made: a clear message and the way back
    lan.goto(link[:-4] + "2222")
    expect(lan.get_by_role("alert")).to_have_text(
        "Không tìm thấy phòng này. Có thể đường dẫn bị sai."
    )
    lan.get_by_role("button", name="Chơi một mình").click()
    lan.wait_for_selector('body[data-mode="single"][data-busy="false"]', state="attached")


def test_leaving_with_the_page_a_version_behind_still_frees_the_seat(
    player: Callable[..., Page],
) -> None:
    """Pressing "Rời phòng" while the page's Room is a version behind the server's
    (another player's change not yet on this page: the leave is refused as stale):
    the page leaves the room as it is now, so the seat is free and the next human is
    the creator; the page never goes home with its player still seated."""
    lan, minh = player(), player()
    link = create_room(lan, "Lan")
    join_room(minh, link, "Minh")
    sent: list[dict[str, Any]] = []

    def behind(route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        if not sent:  # the first try carries the version before the last change
            body["version"] = body["version"] - 1
        sent.append(body)
        route.continue_(post_data=json.dumps(body))

    lan.route("**/api/rooms/*/leave", behind)
    lan.get_by_role("button", name="Rời phòng").click()
    lan.wait_for_url(lambda url: url.endswith("/"))
    expect(minh.locator("#lobby-seats li[data-kind='human']")).to_have_count(1)
    expect(minh.get_by_role("button", name="Bắt đầu", exact=True)).to_be_visible()
    assert len(sent) == 2, sent


def test_the_table_goes_on_after_a_server_restart(
    make_context: Callable[..., BrowserContext], tmp_path: Path
) -> None:
    """The sockets drop when the server stops; the pages reconnect by themselves (no
    reload) and the passes made after the restart reach every screen."""
    server = HeartsServer(tmp_path, args=("--room-pace", "0"))
    server.start()
    try:
        lan, minh = (make_context(base_url=server.url, **DESKTOP).new_page() for _ in range(2))
        link = create_room(lan, "Lan")
        join_room(minh, link, "Minh")
        start(lan)
        for page in (lan, minh):
            wait_table(page)
            page.wait_for_selector('body[data-live="socket"]', state="attached")
        server.restart()
        for page in (lan, minh):
            pass_three(page)
        # Lan passed first: her page learns of Minh's pass from the feed
        for page in (lan, minh):
            page.wait_for_selector(f'{ROOM_READY}[data-phase="play"]', state="attached")
            # A page whose sockets failed during a slow restart polls and tries a socket
            # again within SOCKET_RETRY_MS (15 s, live.js): allow two tries, not one.
            page.wait_for_selector('body[data-live="socket"]', state="attached", timeout=60_000)
    finally:
        # A long poll made while the socket was down still waits on the server (up to
        # 25 s) after the page dropped it, and a SIGTERM waits for it: nothing is
        # checked after this stop, so SIGKILL after 2 s.
        server.stop(timeout=2)


def ledger(page: Page) -> dict[str, Any]:
    """What the page remembers of each deal (static/js/fairness.js), by commitment."""
    got: dict[str, Any] = page.evaluate(
        "JSON.parse(localStorage.getItem('hearts-fairness') || '{}')"
    )
    return got


def test_every_hand_of_a_room_is_checked_with_each_human_s_seed(
    player: Callable[..., Page],
) -> None:
    """Each page sends its own seed for the next deal when a hand ends (and in the
    lobby); hand 2, dealt by the guest's tap, carries both seeds in seat order, and
    each page finds it dealt as committed with its own seed in it."""
    lan, minh = player(), player()
    join_room(minh, create_room(lan, "Lan"), "Minh")
    start(lan)
    for hand in (1, 2):
        for page in (lan, minh):
            wait_table(page)
        room = finish_hand_by_api([lan, minh])
        following = room["fairness"]["next_commitment"]
        fair = room["state"]["hand"]["fairness"]
        for page in (lan, minh):
            done = f'{ROOM_READY}[data-hand="{hand}"][data-phase="done"]'
            page.wait_for_selector(done, state="attached", timeout=WAIT_MS)
            verdict = page.locator("#fairness")  # this hand's, checked by the page
            expect(verdict).to_have_attribute("data-for", f"{fair['commitment']}:ok")
            expect(page.locator("#result-fairness")).to_have_text(
                "Ván này được chia đúng như đã cam kết"
            )
        seeds = [ledger(page)[fair["commitment"]]["seed"] for page in (lan, minh)]
        assert fair["client_seeds"] == seeds and fair["client_seats"] == [0, 1]
        assert all(len(seed) == 32 for seed in seeds) and seeds[0] != seeds[1]
        # each page sent its seed for the next deal as it saw this hand end
        for page in (lan, minh):
            page.wait_for_function(
                "c => (JSON.parse(localStorage.getItem('hearts-fairness') || '{}')[c] || {}).kept",
                arg=following,
                timeout=WAIT_MS,
            )
        if hand == 1:
            minh.get_by_role("button", name="Chia ván mới").click()
            for page in (lan, minh):
                page.wait_for_selector(f'{ROOM_READY}[data-hand="2"]', state="attached")


def test_the_others_are_told_who_left_and_who_is_host_and_when_the_room_closes(
    player: Callable[..., Page], room_server: HeartsServer
) -> None:
    """Issue 56, item 7: the host leaves mid-match; the guest reads who left, which
    computer plays on and that they run the room now; the seat says whom its computer
    plays for, after a reload too; at the end the message line says the room is closed
    (not the "Chơi một mình" button alone)."""
    lan, minh, link = lan_and_minh_at_the_table(player)
    lan.get_by_role("button", name="Rời phòng").click()
    lan.locator("#room-leave-yes").click()
    lan.wait_for_url(lambda url: url.endswith("/"), timeout=WAIT_MS)

    told = "Lan đã rời phòng. Máy 1 chơi thay đến hết trận. Giờ bạn là chủ phòng"
    expect(minh.locator("#message")).to_contain_text(told, timeout=WAIT_MS)

    def says_whom_it_plays_for() -> None:
        listed = minh.locator("#room-players li[data-kind='computer']", has_text="Máy 1")
        expect(listed).to_contain_text("chơi thay Lan, người đã rời phòng")
        plate = minh.locator("#table .seat", has_text="Máy 1")
        expect(plate.locator(".room-status")).to_have_text("thay Lan")

    says_whom_it_plays_for()
    minh.reload()  # the Room itself says it: not only the page that saw Lan go
    wait_table(minh)
    says_whom_it_plays_for()

    code = link.rsplit("/", 1)[1]
    token = token_of(minh)
    minh.goto("about:blank")  # no page draws the cards played through the API
    play_out(room_server.url.rstrip("/"), [token], code)
    minh.goto(f"/r/{code}")
    minh.wait_for_selector(f'{ROOM_READY}[data-room-phase="over"]', state="attached")
    expect(minh.locator("#message")).to_contain_text("Trận đấu kết thúc.")
    expect(minh.locator("#message")).to_contain_text(
        "Phòng đã đóng: bấm «Chơi một mình» để về trang chính."
    )
    expect(minh.get_by_role("button", name="Chơi một mình")).to_be_visible()


# each card of the hand: its name, how far it is moved down from its place in the fan,
# how opaque its face is and whether it is drawn as a card its holder may not play now
HAND_LOOK_JS = """() => [...document.querySelectorAll('#hand button.hand-card')].map(b => [
    b.dataset.card, b.getAttribute('aria-label'),
    new DOMMatrix(getComputedStyle(b).transform).m42,
    parseFloat(getComputedStyle(b.querySelector('.face')).opacity),
    b.classList.contains('illegal')])"""


def check_passed_look(page: Page, passed: list[str], word: str) -> None:
    """The cards ``passed`` lie lower than the others, faded, their names saying
    ``word``; the others as usual. Polled: the card settles after a transition."""

    def look() -> dict[str, tuple[str, float, float]]:
        return {c: (name, down, face) for c, name, down, face, _ in page.evaluate(HAND_LOOK_JS)}

    cards = look()
    for _ in range(50):
        if all(cards[c][1] > 0 and cards[c][2] < 0.5 for c in passed):
            break
        page.wait_for_timeout(100)
        cards = look()
    assert len(cards) == 13 and set(passed) <= set(cards), cards
    for c, (name, down, face) in cards.items():
        if c in passed:
            assert down > 0 and face < 0.5 and name.endswith(f", {word}"), (c, name, down, face)
        else:
            assert down <= 0 and face == 1 and word not in name, (c, name, down, face)


def test_the_cards_passed_look_passed_while_the_others_choose(
    player: Callable[..., Page], artifacts: Path
) -> None:
    """Issue 56, item 11: after Minh's pass, while Lan still chooses hers, the three
    cards Minh passed are still in his hand (the State's hand.cards until the exchange)
    but look set aside, from the State's hand.passed: lower, faded, named "đã chuyền"
    ("passed" in English), after a reload too. Once everyone has passed none does."""
    lan, minh, _ = lan_and_minh_at_the_table(player)
    passed = pass_three(minh, touch=True)
    minh.wait_for_selector(f'{ROOM_READY}[data-phase="pass"]', state="attached")
    check_passed_look(minh, passed, "đã chuyền")
    minh.screenshot(path=artifacts / "room-phone-passed-waiting.jpg")
    set_language(minh, "en")  # a reload: from the Room the server sends
    check_passed_look(minh, passed, "passed")
    minh.screenshot(path=artifacts / "room-phone-passed-waiting-en.jpg")
    pass_three(lan)
    minh.wait_for_selector(f'{ROOM_READY}[data-phase="play"]', state="attached")
    looks = minh.evaluate(HAND_LOOK_JS)
    assert not set(passed) & {c for c, *_ in looks}
    # faded now only if Minh holds the 2♣ and leads it: his other cards may not be played
    assert all(
        down <= 0 and (face == 1 or illegal) and "passed" not in name
        for _, name, down, face, illegal in looks
    ), looks
