"""Public tables (issue 40): "Tìm bàn" over the rooms, the lobby's start, newcomers
at the next deal, names strangers see, reactions, hiding, leaving for good, the
rating and the leaderboard.

Every rule of trust of the issue has its test here: nobody receives another seat's
cards (a whole public match with a newcomer and a leaver scanned against the true
hands), one table per player and never over-full (many seekers at once on two
server processes over PostgreSQL: test_public_processes.py), the limits refuse
clearly and change nothing, and a match is rated once, never when abandoned.
Computers play at once here (``room_pace=0``).
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent))
from room_guests import Guest, leaks, settled, until_room

from hearts.server.config import Config
from hearts.server.i18n.messages import ERRORS
from hearts.server.store.db import public_players, public_tables, rating_changes
from hearts.server.store.db import ratings as ratings_table
from hearts.server.store.db import rooms as rooms_table
from hearts.server.web.ratelimit import TokenBuckets

# behind a trusted proxy, so that a test can make strangers from many addresses
CLIENT_OPTIONS = {
    "seed": 5,
    "room_pace": 0.0,
    "peer": "127.0.0.1",
    "config": Config(trusted_proxy=(ipaddress.ip_network("127.0.0.1/32"),)),
}
SHORT = {"target": 50}
LIVE = 30.0  # a generous bound for "it got there" on a loaded machine


def seek(guest: Guest, status: int = 200, **body: Any) -> Any:
    options = {"rules": SHORT, "level": "easy", **body}
    return guest.call("POST", "/api/public/seek", options, status)


def stranger(client: Any, n: int) -> Guest:
    """A player from an address of their own (10.0.0.n) whose token is in use already
    (older than any table it will sit at: public/rating.py's rule)."""
    guest = Guest(client, address=f"10.0.0.{n}")
    where(guest)
    return guest


def where(guest: Guest) -> Any:
    """Where the guest sits (the settings the answer carries too left out)."""
    got = guest.call("GET", "/api/public/table")
    assert got.pop("settings") == {
        "start_seconds": 20.0,
        "turn_seconds": 30,
        "reaction_seconds": 3.0,
    }
    return got


def step(guest: Guest, code: str) -> bool:
    """The guest's pass, card or next deal if the table waits on it: whether it moved."""
    room = guest.room(code)
    if room["phase"] != "playing" or room["state"] is None:
        return False
    hand, v = room["state"]["hand"], room["version"]
    if hand["phase"] == "pass" and hand["passed"] is None:
        guest.act(code, "pass", {"version": v, "cards": hand["cards"][:3]}, status=None)
    elif hand["phase"] == "play" and hand["turn"] == room["you"]:
        guest.act(code, "play", {"version": v, "card": hand["legal"][0]}, status=None)
    elif hand["phase"] == "done" and not room["state"]["match"]["over"]:
        guest.act(code, "next-hand", {"version": v}, status=None)
    else:
        return False
    return True


def play(guests: list[Guest], code: str, done: Any) -> Any:
    deadline = time.monotonic() + 10 * LIVE
    while time.monotonic() < deadline:
        room = guests[0].room(code)
        if done(room):
            return room
        if not any(step(g, code) for g in guests):
            time.sleep(0.01)
    raise AssertionError("the match did not go on")


def overdue(db_url: str, code: str) -> None:
    """Make the table's next server move due now (as if the turn's time had passed)."""
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(rooms_table.update().where(rooms_table.c.code == code).values(due_at=1.0))
    engine.dispose()


def engine_of(client: Any) -> sa.Engine:
    return client.app.state.tables.store.engine


@pytest.mark.both_databases("seating is the public tables' SQL and row locks")
def test_seekers_of_one_kind_sit_together_and_a_full_table_starts(client) -> None:
    guests = [Guest(client) for _ in range(5)]
    first = seek(guests[0], name="Lan")
    code = first["code"]
    assert first["seated"] and first["room"]["phase"] == "lobby"
    assert first["room"]["public"]["start_in"] > 0
    assert [s["kind"] for s in first["room"]["seats"]] == ["human", "empty", "empty", "empty"]
    other = seek(guests[4], rules={"target": 100})  # other rules: another table
    assert other["code"] != code
    assert seek(guests[1])["code"] == code
    again = seek(guests[1])  # a second "Tìm bàn": the same table, nothing changes
    assert again["code"] == code and again["room"]["version"] == guests[1].room(code)["version"]
    assert seek(guests[2], name="Minh")["room"]["phase"] == "lobby"
    full = seek(guests[3])
    assert full["code"] == code and full["room"]["phase"] == "playing"
    room = full["room"]
    assert [s["kind"] for s in room["seats"]] == ["human"] * 4
    names = [s["name"] for s in room["seats"]]
    assert "Lan" in names and "Minh" in names
    # nobody owns it: no host for the page to show (issue 56, item 4)
    assert room["creator"] is None and guests[0].room(code)["creator"] is None
    assert sum(bool(re.fullmatch(r"Khách \d{4}", n)) for n in names) == 2
    assert where(guests[2]) == {"code": code, "seated": True}
    assert where(Guest(client)) == {"code": None, "seated": False}
    # a public table is nobody's: the rooms' join, start and remove are refused
    outsider = Guest(client)
    refused = outsider.act(code, "join", {}, status=409)
    assert refused["error"] == {"code": "public_table", "message": ERRORS["public_table"][1]}
    lobby = other["room"]
    assert (
        guests[4].act(other["code"], "start", {"version": lobby["version"]}, status=409)["error"][
            "code"
        ]
        == "public_table"
    )
    with engine_of(client).connect() as conn:
        rows = conn.execute(sa.select(public_tables.c.phase, public_tables.c.open_seats)).all()
        assert sorted(rows) == [("lobby", 3), ("playing", 0)]
        assert conn.execute(sa.select(sa.func.count()).select_from(public_players)).scalar() == 5


def test_names_strangers_see(client) -> None:
    guest = Guest(client)
    for bad in ("đụ má", "Fuckface", "v.c.l", "ADMIN"):
        refused = seek(guest, name=bad, status=400)
        assert refused["error"] == {
            "code": "name_not_allowed",
            "message": ERRORS["name_not_allowed"][1],
        }
    assert seek(guest, level="expert", status=400)["error"]["code"] == "bad_request"
    assert seek(guest, rules={"players": 9}, status=400)["error"]["code"] == "bad_rules"
    assert where(guest)["code"] is None  # nothing changed
    assert seek(guest, name="  Dũng  ")["room"]["seats"][0]["name"] == "Dũng"


def test_names_at_one_table_are_distinct(client, monkeypatch) -> None:
    """Two generated names that would be the same: the second is drawn again; a
    chosen name already at the table (or in its queue) gets a number."""
    from hearts.server.public import names

    numbers = iter([7, 7, 7, 7, 12])
    monkeypatch.setattr(names, "draw_number", lambda: next(numbers))
    guests = [Guest(client) for _ in range(4)]
    code = seek(guests[0])["code"]  # Khách 0007
    seek(guests[1])  # 7, 7, 7 taken: Khách 0012
    # a generated name is the server's: nobody may choose one (issue 57)
    assert seek(guests[2], name="khách 0007", status=400)["error"]["code"] == "name_not_allowed"
    room = seek(guests[2], name="Lan")["room"]
    shown = sorted(s["name"] for s in room["seats"] if s["name"])
    assert shown == ["Khách 0007", "Khách 0012", "Lan"]
    # the lobby starts with a computer; a newcomer queues: distinct from the table too
    with client.app.state.tables.store.write() as conn:
        conn.execute(public_tables.update().values(start_at=0.0))
    assert [r.code for r in client.app.state.seating.start_due()] == [code]
    assert seek(guests[3], name="LAN")["room"]["public"]["queued"] == 1
    with client.app.state.tables.store.read() as conn:
        public = client.app.state.rooms.db.load(conn, code).public
    assert [q["name"] for q in public["queue"]] == ["LAN 2"]


def test_seeking_is_limited_per_player_and_per_address(client) -> None:
    limits = client.app.state.public_limits
    limits.seek_player = TokenBuckets(1, 1000.0)
    one, two, three = Guest(client), Guest(client), Guest(client)
    code = seek(one)["code"]
    refused = seek(one, status=429)
    assert refused["error"] == {"code": "seek_limited", "message": ERRORS["seek_limited"][1]}
    limits.seek_address = TokenBuckets(1, 1000.0)
    seek(two)
    assert seek(three, status=429)["error"]["code"] == "seek_limited"
    assert where(three)["code"] is None
    assert [s["kind"] for s in one.room(code)["seats"]].count("human") == 2


@pytest.mark.both_databases("reactions and hiding are changes of the room's row")
def test_reactions_hiding_and_their_limits(client) -> None:
    lan, minh, an = Guest(client), Guest(client), Guest(client)
    three = {"players": 3, "target": 50}
    code = seek(lan, rules=three, name="Lan")["code"]
    seek(minh, rules=three, name="Minh")
    room = seek(an, rules=three, name="An")["room"]
    assert room["phase"] == "playing"
    path = f"/api/public/{code}"
    before = lan.room(code)["version"]
    for bad in ("hello", "<b>hi</b>", ""):
        refused = lan.call("POST", f"{path}/react", {"reaction": bad}, 400)
        assert refused["error"]["code"] == "bad_reaction"
    assert lan.room(code)["version"] == before
    sent = minh.call("POST", f"{path}/react", {"reaction": "thanks"})
    assert sent["public"]["reactions"][-1]["seat"] == "P1"  # the sender's own
    seen = lan.room(code)
    # minh sits after lan in play order: lan sees minh's reaction over "P2"
    assert [r["reaction"] for r in seen["public"]["reactions"]] == ["thanks"]
    minh_letter = seen["public"]["reactions"][0]["seat"]
    assert next(s for s in seen["seats"] if s["seat"] == minh_letter)["name"] == "Minh"
    version = seen["version"]
    too_soon = minh.call("POST", f"{path}/react", {"reaction": "like"}, 429)
    assert too_soon["error"] == {
        "code": "reaction_too_soon",
        "message": "Mỗi 3 giây chỉ gửi được một biểu cảm",
    }
    assert lan.room(code)["version"] == version
    # lan hides minh: his name and his reactions, for lan only
    hidden = lan.call("POST", f"{path}/hide", {"seat": minh_letter})
    assert hidden["public"]["hidden"] == [minh_letter]
    shown = next(s for s in hidden["seats"] if s["seat"] == minh_letter)
    assert shown["name"] == "Người chơi ẩn"
    assert hidden["public"]["reactions"] == []
    assert "Minh" not in str(hidden["state"]["names"])
    an_sees = an.room(code)
    assert "Minh" in [s["name"] for s in an_sees["seats"]]
    assert [r["reaction"] for r in an_sees["public"]["reactions"]] == ["thanks"]
    # hiding oneself, an unknown seat or nobody's: refused
    assert lan.call("POST", f"{path}/hide", {"seat": "P1"}, 400)["error"]["code"] == "bad_seat"
    assert lan.call("POST", f"{path}/hide", {"seat": "E"}, 400)["error"]["code"] == "bad_seat"
    # not seated there: refused
    outsider = Guest(client)
    assert (
        outsider.call("POST", f"{path}/react", {"reaction": "like"}, 403)["error"]["code"]
        == "not_in_room"
    )
    # the per-player bucket refuses before the room is touched
    client.app.state.public_limits.react_player = TokenBuckets(1, 1000.0)
    an.call("POST", f"{path}/react", {"reaction": "wow"})
    version = an.room(code)["version"]
    limited = an.call("POST", f"{path}/react", {"reaction": "wow"}, 429)
    assert limited["error"]["code"] == "react_limited"
    assert an.room(code)["version"] == version
    shown_again = lan.call("POST", f"{path}/hide", {"seat": minh_letter, "hidden": False})
    assert shown_again["public"]["hidden"] == []


def answer_to(socket: Any, message: dict[str, Any]) -> tuple[Any, list[Any]]:
    """Send ``message`` on a room socket: its answer, and the pushes before it."""
    socket.send_text(json.dumps(message))
    pushes = []
    while True:
        frame = socket.receive_json()
        if frame["type"] == "answer":
            return frame, pushes
        pushes.append(frame)


def pushed(socket: Any, check: Any) -> Any:
    """The first Room pushed on ``socket`` for which ``check`` holds."""
    for _ in range(50):
        frame = socket.receive_json()
        if frame.get("type") == "room" and check(frame["room"]):
            return frame["room"]
    raise AssertionError("never pushed")


class Recorded:
    """A room socket that keeps every frame it received (to scan them for leaks)."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.frames: list[Any] = []

    def send_text(self, text: str) -> None:
        self.socket.send_text(text)

    def receive_json(self) -> Any:
        frame = self.socket.receive_json()
        self.frames.append(frame)
        return frame


@pytest.mark.both_databases("a reaction is a change of the room's row")
def test_a_reaction_over_the_socket_is_pushed_to_the_others_and_limited(client, history) -> None:
    """``{"type": "react"}`` on the room's socket: answered like the REST call, pushed
    live to the other seats' sockets; the 3 s rule and the per-player and per-address
    buckets refuse it as they refuse REST, and change nothing."""
    lan, minh, an = Guest(client), Guest(client), Guest(client)
    three = {"players": 3, "target": 50}
    code = seek(lan, rules=three, name="Lan")["code"]
    seek(minh, rules=three, name="Minh")
    seek(an, rules=three, name="An")
    url = f"/api/rooms/{code}/ws"
    with client.websocket_connect(url) as lan_raw, client.websocket_connect(url) as minh_raw:
        lan_ws, minh_ws = Recorded(lan_raw), Recorded(minh_raw)
        for ws, guest in ((lan_ws, lan), (minh_ws, minh)):
            ws.send_text(json.dumps({"token": guest.token}))
            assert ws.receive_json()["type"] == "room"
        sent, _ = answer_to(minh_ws, {"type": "react", "id": 1, "reaction": "wow"})
        assert sent["status"] == 200 and sent["id"] == 1
        mine = sent["room"]["public"]["reactions"]
        assert [(r["seat"], r["reaction"]) for r in mine] == [(sent["room"]["you"], "wow")]
        seen = pushed(lan_ws, lambda r: r["public"]["reactions"] != [])
        minh_letter = next(s["seat"] for s in seen["seats"] if s["name"] == "Minh")
        assert [(r["seat"], r["reaction"]) for r in seen["public"]["reactions"]] == [
            (minh_letter, "wow")
        ]
        version = seen["version"]
        for message, code_, status in (
            ({"reaction": "hello"}, "bad_reaction", 400),
            ({"reaction": "like"}, "reaction_too_soon", 429),
            ({}, "bad_request", 400),
        ):
            refused, _ = answer_to(minh_ws, {"type": "react", "id": 2, **message})
            assert (refused["status"], refused["error"]["code"]) == (status, code_), refused
            words = {"reaction_too_soon": "Mỗi 3 giây chỉ gửi được một biểu cảm"}
            assert refused["error"]["message"] == words.get(code_, ERRORS[code_][1])
        limits = client.app.state.public_limits
        limits.react_player = TokenBuckets(1, 1000.0)
        assert answer_to(lan_ws, {"type": "react", "id": 3, "reaction": "like"})[0]["status"] == 200
        limited, _ = answer_to(lan_ws, {"type": "react", "id": 4, "reaction": "nice"})
        assert limited["error"]["code"] == "react_limited" and limited["retry_after"] >= 1
        limits.react_player = TokenBuckets(100, 0.0)
        limits.react_address = TokenBuckets(1, 1000.0)
        too_soon, _ = answer_to(lan_ws, {"type": "react", "id": 5, "reaction": "sad"})
        assert too_soon["error"]["code"] == "reaction_too_soon"  # the address's token spent
        by_address, _ = answer_to(minh_ws, {"type": "react", "id": 6, "reaction": "sad"})
        assert by_address["error"]["code"] == "react_limited"
    assert lan.room(code)["version"] == version + 1  # lan's one "like" only
    for ws, seat in ((lan_ws, 0), (minh_ws, 1)):  # nobody saw another hand's cards
        assert sum(bool((f.get("room") or {}).get("state")) for f in ws.frames) >= 2
        for frame in ws.frames:
            assert leaks(frame, seat, history) == [], frame
    # REST and the socket share the buckets: the address has no token left
    assert lan.call("POST", f"/api/public/{code}/react", {"reaction": "sad"}, 429)


def test_a_public_match_with_a_newcomer_and_a_leaver_shows_nobody_another_hand(
    client, history
) -> None:
    """One human opens a table that starts at once with computers; two newcomers
    queue and take computers' seats at the next deal; one leaves for good in the
    second hand; the match is played out and rated: the leaver last.  No message to
    any of them names a card of another hand."""
    client.app.state.seating.start_seconds = 0.0
    lan, minh, an = (stranger(client, n) for n in (1, 2, 3))
    code = seek(lan, name="Lan")["code"]
    room = until_room(lan, code, lambda r: r["phase"] == "playing")
    assert [s["kind"] for s in room["seats"]] == ["human", "computer", "computer", "computer"]
    assert room["level"] == "easy"
    queued = seek(minh, name="Minh")
    with client.websocket_connect(f"/api/rooms/{code}/ws") as socket:
        socket.send_text(json.dumps({"token": minh.token}))  # the newcomer's pushes too
        assert queued["code"] == code and not queued["seated"]
        assert queued["room"]["state"] is None
        assert seek(an, name="An")["room"]["public"]["queued"] == 2
        assert where(an) == {"code": code, "seated": False}
        assert an.call("POST", f"/api/public/{code}/react", {"reaction": "like"}, 403)
        play([lan], code, lambda r: r["state"]["match"]["hands"] != [])  # the first hand
        room = play([lan], code, lambda r: r["state"]["hand"]["phase"] != "done")
        assert [s["kind"] for s in room["seats"]].count("human") == 3
        seat_of = {}
        for guest in (minh, an):
            seen = guest.room(code)
            assert seen["you"] == "S" and seen["state"] is not None
            seat_of[guest.token] = next(
                i
                for i, s in enumerate(lan.room(code)["seats"])
                if s["name"] == seen["seats"][0]["name"]
            )
        gone = an.call("POST", f"/api/public/{code}/leave")
        assert gone["you"] is None
        # the computer in An's seat says whom it plays for (issue 56 item 7)
        left = [s["left"] for s in lan.room(code)["seats"] if s["kind"] == "computer"]
        assert sorted(map(str, left)) == ["An", "None"]  # and a computer from the start
        assert where(an)["code"] is None  # free to seek again
        final = play([lan, minh], code, lambda r: r["phase"] == "over")
        assert final["state"]["match"]["over"]
        for guest, seat in ((lan, 0), (minh, seat_of[minh.token]), (an, seat_of[an.token])):
            for message in guest.received:
                assert leaks(message, seat, history) == [], message
        frames = []
        while not frames or frames[-1].get("room", {}).get("phase") != "over":
            frames.append(socket.receive_json())
    assert len(frames) > 50 and any(f["room"]["state"] is None for f in frames)  # queued first
    for frame in frames:
        assert leaks(frame, seat_of[minh.token], history) == [], frame
    # rated once: the two who stayed by their totals; the leaver, who played no whole
    # hand here, is no opponent and is not rated (public/rating.py)
    rated = final["public"]["rated"]
    assert rated is not None and rated["place"] in (1, 2)
    assert minh.room(code)["public"]["rated"]["place"] in (1, 2)
    board = an.call("GET", "/api/leaderboard")
    assert rated["people"] == 2  # the place is among the people rated, not the seats
    assert board["me"] is None
    assert {e["name"] for e in board["all"]} == {"Lan", "Minh"}
    assert board["week"] == board["all"]
    with engine_of(client).connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(rating_changes)).scalar() == 2
        assert set(conn.execute(sa.select(ratings_table.c.matches)).scalars()) == {1}
        assert conn.execute(sa.select(sa.func.count()).select_from(public_players)).scalar() == 0
    # over: every action is refused and changes nothing
    over = minh.call("POST", f"/api/public/{code}/react", {"reaction": "like"}, 409)
    assert over["error"]["code"] == "match_over"


@pytest.mark.both_databases("the sweep's query of overdue rooms, on a public table")
def test_an_away_player_is_played_for_and_coming_back_gives_the_seat_back(client, db_url) -> None:
    """Minh is away: when his turn's time is over, Vừa passes for him, marked
    "(tự động)" on every screen; he is still seated (not gone, not last). Back within
    the match, he finds his table, the table waits on him again with a whole timer,
    and his own card takes the mark away."""
    lan, minh, an = Guest(client), Guest(client), Guest(client)
    three = {"players": 3, "target": 50}
    code = seek(lan, rules=three, name="Lan")["code"]
    seek(minh, rules=three, name="Minh")
    seek(an, rules=three, name="An")  # full: the match starts at once
    for guest in (lan, an):
        until_room(guest, code, lambda r: r["state"] is not None)
        assert step(guest, code)  # they pass; Minh does not
    before = until_room(lan, code, lambda r: r["waiting_for"] != [])
    minh_letter = next(s["seat"] for s in before["seats"] if s["name"] == "Minh")
    assert before["waiting_for"] == [minh_letter] and before["deadline"] > 20
    overdue(db_url, code)  # as if his 30 s had passed
    after = until_room(lan, code, lambda r: r["state"]["hand"]["phase"] == "play")
    seat = next(s for s in after["seats"] if s["seat"] == minh_letter)
    assert seat["kind"] == "human" and seat["name"] == "Minh" and seat["auto"]
    assert after["auto_plays"] == [{"seat": minh_letter, "step": "pass", "card": None}]
    assert after["public"].get("left", []) == []
    # he comes back: the same table, his seat, his cards (passed for him)
    assert where(minh) == {"code": code, "seated": True}
    back = minh.room(code)
    me = back["seats"][0]
    assert back["you"] == me["seat"] and me["name"] == "Minh" and me["auto"] and me["connected"]
    assert back["state"]["hand"]["passed"] is not None
    # the others play until it is his turn: the table waits on him, a whole timer
    room = back
    for _ in range(200):
        room = minh.room(code)
        if room["waiting_for"] == [me["seat"]]:
            break
        if not any(step(g, code) for g in (lan, an)):
            time.sleep(0.01)
    assert room["waiting_for"] == [me["seat"]] and room["deadline"] > 20
    played = minh.act(
        code, "play", {"version": room["version"], "card": room["state"]["hand"]["legal"][0]}
    )
    assert not played["seats"][0]["auto"]
    seen = lan.room(code)
    assert not next(s for s in seen["seats"] if s["seat"] == minh_letter)["auto"]
    assert [a["step"] for a in seen["auto_plays"]] == ["pass"]  # his own card: no mark


@pytest.mark.both_databases("the rating's rows and the abandoned table's")
def test_an_abandoned_match_is_not_rated_and_a_lobby_never_starts_without_a_human(
    client,
) -> None:
    three = {"players": 3, "target": 50}
    guests = [Guest(client) for _ in range(3)]
    code = ""
    for g in guests:
        code = seek(g, rules=three)["code"]
    assert guests[0].room(code)["phase"] == "playing"
    for g in guests:
        g.call("POST", f"/api/public/{code}/leave")
    loner = Guest(client)
    assert seek(loner, rules=three)["code"] != code  # an abandoned table seats nobody
    loner.call("POST", f"/api/public/{seek(loner, rules=three)['code']}/leave")
    seating = client.app.state.seating
    with client.app.state.tables.store.write() as conn:
        conn.execute(public_tables.update().values(start_at=0.0))
        phases = dict(conn.execute(sa.select(public_tables.c.code, public_tables.c.phase)).all())
    assert phases[code] == "abandoned"
    assert seating.start_due() == []  # the loner's lobby has no human: it waits
    with engine_of(client).connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(rating_changes)).scalar() == 0
        assert conn.execute(sa.select(sa.func.count()).select_from(ratings_table)).scalar() == 0
        assert conn.execute(sa.select(sa.func.count()).select_from(public_players)).scalar() == 0
    assert guests[0].call("GET", "/api/leaderboard") == {"week": [], "all": [], "me": None}
    # the answer carries the player's own place: no cache on the way keeps it
    board = client.get("/api/leaderboard", headers=guests[0].headers)
    assert board.headers["cache-control"] == "no-store"


@pytest.mark.both_databases("the leaderboard's SQL")
def test_the_leaderboard_top_week_and_keeping_off(client) -> None:
    guests = [Guest(client) for _ in range(4)]
    store = client.app.state.tables.store
    for g in guests:
        where(g)  # the token's row is made on its first call
    ids = [store.player_id(g.token) for g in guests]
    now = dt.datetime.now(dt.UTC)
    old = now - dt.timedelta(days=15)
    with client.app.state.tables.store.write() as conn:
        for pid, (name, mu, when) in zip(
            ids[:3], [("Lan", 30.0, now), ("Minh", 35.0, old), ("An", 20.0, now)], strict=True
        ):
            conn.execute(
                ratings_table.insert().values(
                    player_id=pid,
                    mu=mu,
                    sigma=2.0,
                    conservative=mu - 6.0,
                    matches=3,
                    name=name,
                    hidden=False,
                    rated_at=when,
                )
            )
    board = guests[0].call("GET", "/api/leaderboard")
    assert board["all"] == [
        {"rank": 1, "name": "Minh", "rating": 29.0},
        {"rank": 2, "name": "Lan", "rating": 24.0},
        {"rank": 3, "name": "An", "rating": 14.0},
    ]
    assert [e["name"] for e in board["week"]] == ["Lan", "An"]
    assert board["me"]["rank"] == 2 and board["me"]["rating"] == 24.0
    assert guests[3].call("GET", "/api/leaderboard")["me"] is None
    off = guests[1].call("PUT", "/api/leaderboard/me", {"hidden": True})
    assert [e["name"] for e in off["all"]] == ["Lan", "An"]
    assert off["me"]["rank"] is None and off["me"]["hidden"]
    assert guests[0].call("GET", "/api/leaderboard")["all"][0] == {
        "rank": 1,
        "name": "Lan",
        "rating": 24.0,
    }
    # an unrated player keeping off stays unrated (and off the boards)
    assert guests[3].call("PUT", "/api/leaderboard/me", {"hidden": True})["me"] is None
    back = guests[1].call("PUT", "/api/leaderboard/me", {"hidden": False})
    assert back["me"]["rank"] == 1
    assert guests[1].call("PUT", "/api/leaderboard/me", {"hidden": "yes"}, 400)
    assert client.get("/api/leaderboard").status_code == 403


def test_rating_a_match_twice_is_refused_by_the_database(client) -> None:
    """The second guard behind the version check: one rating_changes row per player
    and match."""
    from hearts.fairness import HandSeeds, derived_seed
    from hearts.rules import Rules
    from hearts.server.public import rating
    from hearts.server.rooms.store import Room, Seat
    from hearts.server.table.game import Game

    rules = Rules(target=50)
    game = Game.new(rules, 1, HandSeeds(derived_seed(1, "rated")), 99)
    seats = [Seat(seat=i, kind="human", name=f"P{i}", player_id=1000 + i) for i in range(4)]
    room = Room(99, "X" * 16, 5, "over", 0, rules, "easy", None, game, seats, public={})
    with client.app.state.tables.store.write() as conn:
        changes = rating.rate(conn, room)
    assert sorted(c["place"] for c in changes.values()) == [1, 1, 1, 1]
    with pytest.raises(sa.exc.IntegrityError), client.app.state.tables.store.write() as conn:
        rating.rate(conn, room)


@pytest.mark.both_databases("the retention's deletes, on each database")
def test_the_retention_removes_a_public_table_whole_and_a_rating_with_its_player(
    client,
) -> None:
    from hearts.server.store import retention
    from hearts.server.store.db import players, rooms, token_hash

    store = client.app.state.tables.store
    lan, minh = Guest(client), Guest(client)
    code = seek(lan)["code"]
    seek(minh)
    now = dt.datetime.now(dt.UTC)
    with store.write() as conn:
        conn.execute(rooms.update().values(updated_at=now - dt.timedelta(days=2)))
        ids = [store.player_id(g.token) for g in (lan, minh)]
        for pid, days in zip(ids, (3, 500), strict=True):
            conn.execute(
                ratings_table.insert().values(
                    player_id=pid,
                    mu=25.0,
                    sigma=8.0,
                    conservative=1.0,
                    matches=1,
                    name="x",
                    hidden=False,
                    rated_at=now,
                )
            )
            conn.execute(
                players.update()
                .where(players.c.token_hash == token_hash([lan, minh][ids.index(pid)].token))
                .values(last_seen_at=now - dt.timedelta(days=days))
            )
    done = retention.prune(store, retention.Policy())
    assert done.codes == [code] and done.ids == [ids[1]]  # lan: rated, so used
    with store.read() as conn:
        for table in (public_tables, public_players):
            assert conn.execute(sa.select(sa.func.count()).select_from(table)).scalar() == 0
        kept = conn.execute(sa.select(ratings_table.c.player_id)).scalars().all()
    assert kept == [ids[0]]
    client.app.state.rooms.forget_all(done.codes)
    assert where(lan)["code"] is None and seek(lan)["code"] != code


@pytest.mark.both_databases("the version check and the rating in one transaction")
def test_the_change_that_ends_a_match_rates_it_once_whoever_makes_it(client) -> None:
    """Two processes making the last move of a match from the same version: the
    version check refuses the second before it rates anything."""
    from hearts.server.store.db import Stale

    three = {"players": 3, "target": 50}
    guests = [stranger(client, n) for n in range(3)]
    code = ""
    for g in guests:
        code = seek(g, rules=three)["code"]
    play(guests, code, lambda r: r["state"]["match"]["hands"] != [])  # a whole hand each
    rooms = client.app.state.rooms
    store = client.app.state.tables.store
    with store.read() as conn:
        before = rooms.db.load(conn, code)
    assert before.phase == "playing"

    def ended(room: Any, _seat: Any) -> None:
        room.phase = "over"

    for attempt in range(2):
        after = rooms.next_version(before, None, ended)
        if attempt == 0:
            with store.write() as conn:
                rooms.write_in(conn, after, before)
            totals = before.game.totals
            places = sorted(1 + sum(o < t for o in totals) for t in totals)
            assert sorted(c["place"] for c in after.public["rated"].values()) == places
        else:
            with pytest.raises(Stale), store.write() as conn:
                rooms.write_in(conn, after, before)
    with store.read() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(rating_changes)).scalar() == 3
        assert set(conn.execute(sa.select(ratings_table.c.matches)).scalars()) == {1}


def test_the_public_settings_reach_the_tables(db_url) -> None:
    """docs/config.md's ``public_*`` settings: the lobby's start, the turn, the
    reactions' interval and the seek and reaction buckets are the server's config."""
    from concurrent.futures import ThreadPoolExecutor

    from fastapi.testclient import TestClient

    from hearts.server.app import create_app
    from hearts.server.config import Config

    config = Config(
        public_start_seconds=0.0,
        public_turn_seconds=45,
        public_reaction_seconds=0.0,
        public_seek_burst=1,
        public_seek_interval=1000.0,
        public_react_burst=2,
        public_react_interval=1000.0,
    )
    app = create_app(db_url, seed=1, executor=ThreadPoolExecutor(1), config=config, room_pace=0.0)
    with TestClient(app) as own:
        lan, minh = Guest(own), Guest(own)
        first = seek(lan)
        code = first["code"]
        assert first["room"]["public"]["start_in"] < 1  # not 20
        # no 20 s wait; then the computers pass and the table waits on lan
        room = until_room(lan, code, lambda r: r["phase"] == "playing" and r["waiting_for"])
        room = until_room(lan, code, lambda r: not r["computer_to_move"])
        assert room["turn_seconds"] == 45 and room["deadline"] > 30
        assert seek(lan, status=429)["error"]["code"] == "seek_limited"  # one seek
        assert seek(minh)["code"] == code  # queued for the next deal
        path = f"/api/public/{code}/react"
        lan.call("POST", path, {"reaction": "like"})
        lan.call("POST", path, {"reaction": "wow"})  # no 3 s between them
        assert lan.call("POST", path, {"reaction": "sad"}, 429)["error"]["code"] == "react_limited"
    # the page's words and the refusal say the settings (Vietnamese, and English)
    config = Config(public_start_seconds=45.0, public_turn_seconds=60, public_reaction_seconds=7.5)
    app = create_app(db_url, seed=1, executor=ThreadPoolExecutor(1), config=config, room_pace=0.0)
    with TestClient(app) as own:
        lan = Guest(own)
        settings = lan.call("GET", "/api/public/table")["settings"]
        assert settings == {"start_seconds": 45.0, "turn_seconds": 60, "reaction_seconds": 7.5}
        seated = seek(lan, rules={"target": 75})  # a table of its own: the first one runs
        assert seated["seated"]
        path = f"/api/public/{seated['code']}/react"
        lan.call("POST", path, {"reaction": "like"})
        words = lan.call("POST", path, {"reaction": "wow"}, 429)["error"]["message"]
        assert words == "Mỗi 7,5 giây chỉ gửi được một biểu cảm"
        english = own.post(
            path, headers={**lan.headers, "X-Hearts-Lang": "en"}, json={"reaction": "wow"}
        )
        assert english.json()["error"]["message"] == "One reaction every 7.5 seconds at most"
    # the defaults are the documented ones
    default = Config()
    assert (default.public_start_seconds, default.public_turn_seconds) == (20.0, 30)
    assert default.public_reaction_seconds == 3.0
    assert (default.public_seek_burst, default.public_seek_interval) == (5, 2.0)
    assert (default.public_react_burst, default.public_react_interval) == (3, 3.0)


@pytest.mark.both_databases("leaving under churn: the table's row, locked")
def test_leaving_always_succeeds_while_others_seek_and_leave(client) -> None:
    """Leave is answered 200 however many others seek and leave the same table at the
    same moment (issue 57: 85 of 1,791 leaves were 500 after 20 stale retries), and
    whoever left sits nowhere."""
    import concurrent.futures

    limits = client.app.state.public_limits
    limits.seek_player = TokenBuckets(10_000, 0.001)
    limits.seek_address = TokenBuckets(10_000, 0.001)
    players = [Guest(client) for _ in range(6)]

    def churn(guest: Guest) -> list[int]:
        statuses = []
        for _ in range(15):
            code = seek(guest, rules={"target": 50, "players": 7})["code"]
            response = client.post(f"/api/public/{code}/leave", headers=guest.headers)
            statuses.append(response.status_code)
        return statuses

    with concurrent.futures.ThreadPoolExecutor(len(players)) as pool:
        statuses = [s for got in pool.map(churn, players) for s in got]
    assert statuses == [200] * len(statuses)
    for guest in players:
        assert where(guest)["code"] is None


@pytest.mark.both_databases("leaving: the table's row, locked")
def test_a_leave_from_a_table_one_is_no_longer_at_has_left_already(client) -> None:
    """Issue 57 item 5: a queued newcomer whose table was abandoned (its queue emptied),
    or a leave sent twice, is answered 200 with the table as a non-member's, nothing
    changed: leaving never fails because one has gone already."""
    client.app.state.seating.start_seconds = 0.0  # it starts with computers at once
    lan, newcomer = stranger(client, 1), stranger(client, 2)
    code = seek(lan)["code"]
    until_room(lan, code, lambda r: r["phase"] == "playing")
    # the computers at rest: on PostgreSQL a seek passes over a table whose row a
    # computer's card holds locked (skip locked), and opens another
    settled(lan, code)
    assert seek(newcomer)["code"] == code  # queued for a computer's seat
    assert not where(newcomer)["seated"]
    lan.call("POST", f"/api/public/{code}/leave")  # the last human: abandoned, queue emptied
    version = lan.room(code)["version"]
    gone = newcomer.call("POST", f"/api/public/{code}/leave")
    assert gone["you"] is None and gone["version"] == version
    again = lan.call("POST", f"/api/public/{code}/leave")  # sent twice
    assert again["you"] is None and again["version"] == version
    assert where(newcomer)["code"] is None
