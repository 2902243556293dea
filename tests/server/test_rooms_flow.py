"""Rooms (issue 9): leaving, removing, the creator's handover, an absent player's
automatic decision, who is connected, and the long-poll fallback."""

from __future__ import annotations

import ipaddress
import json
import sys
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from room_guests import Guest, new_room, settled, until_room

from hearts.server.app import create_app
from hearts.server.config import Config
from hearts.server.i18n.messages import ERRORS
from hearts.server.store.db import rooms as rooms_table
from hearts.server.table import computers

# this module's server (the ``client`` fixture of conftest.py): its deals, the
# computers moving at once
CLIENT_OPTIONS = {"seed": 5, "room_pace": 0.0}


def overdue(db_url: str, code: str) -> None:
    """Make the room's next server move due now (as if turn_seconds had passed)."""
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(rooms_table.update().where(rooms_table.c.code == code).values(due_at=1.0))
    engine.dispose()


def test_the_creator_removes_a_guest_only_in_the_lobby(client) -> None:
    creator, guest, other = Guest(client), Guest(client), Guest(client)
    code = new_room(creator)["code"]
    guest.act(code, "join", {"name": "Minh"})
    room = other.act(code, "join", {"name": "Hà"})
    room = creator.room(code)
    assert [s["name"] for s in room["seats"]] == ["Khách 1", "Minh", "Hà", None]
    room = creator.act(code, "remove", {"version": room["version"], "seat": "W"})
    assert room["seats"][1] == {
        "seat": "W",
        "name": None,
        "kind": "empty",
        "connected": False,
        "auto": False,
        "left": None,  # nobody left the seat for good: it was never a computer's
    }
    assert guest.room(code)["you"] is None
    bad = creator.act(code, "remove", {"version": room["version"], "seat": "W"}, status=400)
    assert bad["error"]["code"] == "bad_seat"
    creator.act(code, "start", {"version": room["version"]})
    room = settled(creator, code)
    refused = creator.act(code, "remove", {"version": room["version"], "seat": "N"}, status=409)
    assert refused["error"]["code"] == "wrong_phase"


def test_leaving_mid_match_gives_the_seat_to_a_computer_and_the_room_to_the_next_human(
    client,
) -> None:
    creator, guest = Guest(client), Guest(client)
    code = new_room(creator)["code"]
    guest.act(code, "join", {"name": "Minh"})
    room = creator.act(code, "start", {"version": creator.room(code)["version"]})
    room = settled(creator, code)
    left = creator.act(code, "leave", {"version": room["version"]})
    assert left["you"] is None and left["state"] is None
    seen = guest.room(code)
    assert seen["creator"] == "S"  # the guest is the creator now
    # the creator sat at the guest's E: a computer there now, which says whom it plays
    # for (issue 56 item 7: the page tells the others who left)
    assert seen["seats"][-1]["kind"] == "computer" and seen["seats"][-1]["name"] == "Máy 1"
    assert seen["seats"][-1]["left"] == "Khách 1"
    assert [s["left"] for s in seen["seats"][:-1]] == [None, None, None]
    # the computer plays the creator's seat on: the guest alone finishes the pass
    cards = settled(guest, code)["state"]["hand"]["cards"][:3]
    room = guest.act(code, "pass", {"version": settled(guest, code)["version"], "cards": cards})
    until_room(guest, code, lambda r: r["state"]["hand"]["phase"] == "play")
    # the one who left cannot act any more
    after = creator.act(code, "next-hand", {"version": guest.room(code)["version"]}, status=403)
    assert after["error"]["code"] == "not_in_room"


@pytest.mark.both_databases("the sweep's query of overdue rooms")
def test_an_absent_player_is_played_for_once_and_takes_over_again(client, db_url) -> None:
    creator, guest = Guest(client), Guest(client)
    code = new_room(creator, turn_seconds=600)["code"]
    guest.act(code, "join", {})
    creator.act(code, "start", {"version": creator.room(code)["version"]})
    room = settled(creator, code)
    assert room["turn_seconds"] == 600 and 0 < room["deadline"] <= 600
    # both pass themselves; then wait until it is a human's turn to play
    for p in (creator, guest):
        seen = settled(p, code)
        cards = seen["state"]["hand"]["cards"][:3]
        p.act(code, "pass", {"version": seen["version"], "cards": cards})

    def playing(r: Any) -> bool:
        return bool(r["waiting_for"]) and r["state"]["hand"]["phase"] == "play"

    room = until_room(creator, code, playing)
    (absent,) = room["waiting_for"]
    player = creator if absent == "S" else guest
    before = player.room(code)
    overdue(db_url, code)
    after = until_room(player, code, lambda r: r["version"] > before["version"])
    (auto,) = after["auto_plays"]
    assert auto["step"] == "play" and auto["seat"] == "S"
    assert auto["card"] in before["state"]["hand"]["legal"]
    assert auto["card"] not in after["state"]["hand"]["cards"]
    mine = next(s for s in after["seats"] if s["seat"] == "S")
    assert mine["auto"]
    # the other human's screen marks the same play as automatic, from its own seat
    other = guest if player is creator else creator
    seen = other.room(code)
    assert [a["card"] for a in seen["auto_plays"]] == [auto["card"]]
    assert next(s for s in seen["seats"] if s["seat"] == seen["auto_plays"][0]["seat"])["auto"]
    # one decision only: the table waits on the next human with a whole new timer
    room = until_room(player, code, lambda r: bool(r["waiting_for"]))
    assert room["deadline"] > 500 and len(room["auto_plays"]) == 1
    # the others play until the absent player's turn comes again; they act: not auto
    for _ in range(100):
        room = until_room(player, code, lambda r: bool(r["waiting_for"]) or r["phase"] != "playing")
        if room["waiting_for"] == ["S"]:
            break
        seen = other.room(code)
        card = seen["state"]["hand"]["legal"][0]
        other.act(code, "play", {"version": seen["version"], "card": card}, status=None)
    card = room["state"]["hand"]["legal"][0]
    back = player.act(code, "play", {"version": room["version"], "card": card})
    assert not next(s for s in back["seats"] if s["seat"] == "S")["auto"]
    assert len(back["auto_plays"]) == 1


def test_seats_show_who_is_connected(client) -> None:
    creator, guest = Guest(client), Guest(client)
    code = new_room(creator)["code"]
    guest.act(code, "join", {})
    with client.websocket_connect(f"/api/rooms/{code}/ws") as s:
        s.send_text(json.dumps({"token": creator.token}))
        frame = s.receive_json()
        assert frame["room"]["seats"][0]["connected"]
        with client.websocket_connect(f"/api/rooms/{code}/ws") as g:
            g.send_text(json.dumps({"token": guest.token}))
            g.receive_json()
        # the guest's socket closed: the creator's screen shows it disconnected
        while True:
            frame = s.receive_json()
            if not frame["room"]["seats"][1]["connected"]:
                break


def test_the_long_poll_answers_when_the_room_changes(client) -> None:
    creator, guest = Guest(client), Guest(client)
    code = new_room(creator)["code"]
    v = creator.room(code)["version"]
    answers: list[Any] = []

    def poll() -> None:
        answers.append(creator.call("GET", f"/api/rooms/{code}/events?after={v}"))

    waiter = threading.Thread(target=poll)
    waiter.start()
    time.sleep(0.3)
    assert not answers  # nothing changed yet: it holds
    guest.act(code, "join", {"name": "Minh"})
    waiter.join(10)
    assert answers and answers[0]["version"] == v + 1
    assert answers[0]["seats"][1]["name"] == "Minh"
    # already past: at once
    assert creator.call("GET", f"/api/rooms/{code}/events?after={v}")["version"] == v + 1


def test_long_polls_keep_nothing_once_answered(client) -> None:
    """A long poll's wake-up lives only while it waits: polls of codes of no room (404)
    and a poll answered by a change leave nothing behind (issue 57: 20,000 polls of
    unknown codes grew the server by 175 MB)."""
    live = client.app.state.live
    creator, guest = Guest(client), Guest(client)
    for i in range(200):
        code = f"{i:016d}".translate(str.maketrans("0123456789", "ABCDEFGHIJ"))
        missing = creator.call("GET", f"/api/rooms/{code}/events?after=0", status=404)
        assert missing["error"]["code"] == "room_not_found"
    assert live.kept_wakeups == 0
    code = new_room(creator)["code"]
    v = creator.room(code)["version"]
    answers: list[Any] = []
    waiter = threading.Thread(
        target=lambda: answers.append(creator.call("GET", f"/api/rooms/{code}/events?after={v}"))
    )
    waiter.start()
    time.sleep(0.3)
    assert live.kept_wakeups == 1  # kept while it waits
    guest.act(code, "join", {"name": "Minh"})
    waiter.join(10)
    assert answers and answers[0]["version"] == v + 1
    assert live.kept_wakeups == 0


def _khó_room_after_the_pass(creator: Guest) -> tuple[str, Any]:
    """A room at Khó, started, ``creator``'s three cards passed: its code and the Room
    once the computers moved up to the human's turn."""
    code = new_room(creator, level="hard")["code"]
    creator.act(code, "start", {"version": creator.room(code)["version"]})
    room = settled(creator, code)
    cards = room["state"]["hand"]["cards"][:3]
    creator.act(code, "pass", {"version": room["version"], "cards": cards})
    return code, settled(creator, code)


def test_hard_computers_think_in_the_bot_pool(client) -> None:
    """At Khó the computers' passes and cards are decided in the workers, outside the
    room's transaction, and applied at the version they were made for."""
    creator = Guest(client)
    code, room = _khó_room_after_the_pass(creator)
    hand = room["state"]["hand"]
    assert hand["phase"] == "play" and hand["turn"] == "S"
    played = len(hand["trick"]) + 4 * len(hand["tricks"])
    card = hand["legal"][0]
    room = creator.act(code, "play", {"version": room["version"], "card": card})
    after = settled(creator, code)["state"]["hand"]
    assert after["turn"] == "S" or after["phase"] == "done"  # Khó played up to us again
    assert len(after["trick"]) + 4 * len(after["tricks"]) > played


def test_a_failed_khó_decision_plays_a_plain_card_and_the_room_goes_on(
    client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Khó decision the workers fail to make (an error in the bot) is a plain
    legal card, as at a solo table: the room never stalls asking for it again."""
    real = computers.decide
    failed: list[str] = []

    def failing(level: str, job: Any) -> Any:
        if level == "hard":
            failed.append(job.kind)
            raise RuntimeError("planted: the bot failed")
        return real(level, job)

    monkeypatch.setattr(computers, "decide", failing)
    hand = _khó_room_after_the_pass(Guest(client))[1]["state"]["hand"]
    assert hand["phase"] == "play" and hand["turn"] == "S"
    assert "pass" in failed


def test_long_polls_are_capped_per_token_and_per_address(db_url: str) -> None:
    """One token or one address cannot hold every connection with long polls (issue
    57 item 1: one token held 800): a token's poll over its cap answers its oldest
    at once (a reload is never locked out), a poll over its address's cap is 429
    too_many_polls with Retry-After, while other addresses are served."""
    config = Config(trusted_proxy=(ipaddress.ip_network("10.0.0.1"),))
    app = create_app(db_url, seed=1, room_pace=0.0, executor=ThreadPoolExecutor(1), config=config)
    with TestClient(app, client=("10.0.0.1", 4321)) as c:
        caps = app.state.poll_caps
        caps.limits.update(token=2, address=3)
        creator, guest, third, last = (Guest(c) for _ in range(4))
        code = new_room(creator)["code"]
        for g in (guest, third):
            g.act(code, "join", {})
        v = creator.room(code)["version"]
        answers: dict[str, Any] = {}
        threads: list[threading.Thread] = []

        def call(g: Guest, address: str) -> Any:
            headers = {**g.headers, "X-Forwarded-For": address}
            return c.get(f"/api/rooms/{code}/events?after={v}", headers=headers)

        def hold(name: str, g: Guest, held: int, address: str = "2001:db8:1:2::1") -> None:
            thread = threading.Thread(target=lambda: answers.update({name: call(g, address)}))
            threads.append(thread)
            thread.start()
            deadline = time.monotonic() + 10
            while caps.held != held and time.monotonic() < deadline:
                time.sleep(0.01)
            assert caps.held == held, (name, caps.held)

        hold("first", creator, 1)
        hold("second", creator, 2)
        hold("third", creator, 2)  # over the token's cap: its oldest answered at once
        threads[0].join(10)
        assert answers["first"].status_code == 200 and answers["first"].json()["version"] == v
        assert set(answers) == {"first"}  # the others hold
        hold("guest's", guest, 3, "2001:db8:1:2::77")  # another token of the address (its /64)
        over = call(third, "2001:db8:1:2:ffff::1")
        assert over.status_code == 429 and over.headers["Retry-After"] == "5"
        assert over.json()["error"] == {
            "code": "too_many_polls",
            "message": ERRORS["too_many_polls"][1],
        }
        hold("elsewhere", third, 4, "203.0.113.9")  # another address is served
        last.act(code, "join", {})  # a change answers every poll held
        for t in threads:
            t.join(10)
        held = ("second", "third", "guest's", "elsewhere")
        assert all(answers[n].json()["version"] == v + 1 for n in held), answers
        assert caps.held == 0 and not caps.by_token
