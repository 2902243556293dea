"""Every endpoint of docs/api.md, and every bad input: a 4xx with the error shape,
and nothing changes."""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import warnings
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import sqlalchemy as sa

from hearts.cards import parse_card
from hearts.server.app import create_app
from hearts.server.store.db import Store, players

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

CARD = {"C": "black", "S": "black", "D": "red", "H": "red"}
ENDPOINTS = [
    ("GET", "/api/state", None),
    ("POST", "/api/pass", {"version": 0, "cards": ["2C", "3C", "4C"]}),
    ("POST", "/api/play", {"version": 0, "card": "2C"}),
    ("POST", "/api/step", {"version": 0}),
    ("POST", "/api/hint", {"version": 0}),
    ("POST", "/api/next-hand", {"version": 0}),
    ("POST", "/api/new-match", {"version": 0}),
    ("PUT", "/api/settings", {"level": "hard"}),
    ("GET", "/api/stats", None),
    ("GET", "/api/achievements", None),
]


@pytest.fixture(scope="module")
def shared_client(shared_db_url) -> Any:
    """One app for the many parametrized refusals (none of them changes anything)."""
    with TestClient(create_app(shared_db_url, seed=1, executor=ThreadPoolExecutor(1))) as c:
        yield c


@pytest.fixture(scope="module")
def shared_south(shared_client, new_south_class) -> Any:
    south = new_south_class(shared_client)
    south.call("PUT", "/api/settings", {"level": "easy"})
    return south


#: table/pacing.py's solo paces, as the State says them (the page keeps them)
SOLO_PACE = {"gap_ms": 450, "hold_ms": 1000}
QUICK_PACE = {"gap_ms": 220, "hold_ms": 500}


def souths_turn(s: Any) -> bool:
    return bool(s["hand"]["phase"] == "play" and s["hand"]["turn"] == "S")


def error_of(response: Any, status: int, code: str) -> dict[str, Any]:
    body = response.json()
    assert response.status_code == status, body
    assert set(body) <= {"error", "state"}
    assert body["error"]["code"] == code
    message = body["error"]["message"]
    assert isinstance(message, str) and 0 < len(message) <= 80
    return body


@pytest.mark.both_databases("the players row holds the token's hash alone, on each database")
def test_new_player_gets_an_opaque_token_stored_only_as_a_hash(client, db_url, db_path) -> None:
    tokens = {client.post("/api/players").json()["token"] for _ in range(3)}
    assert len(tokens) == 3
    assert all(len(t) >= 40 for t in tokens)
    for t in tokens:  # the row is made on first use
        client.get("/api/stats", headers={"Authorization": f"Bearer {t}"})
    store = Store(db_url)
    try:
        with store.read() as conn:
            rows = conn.execute(sa.select(players)).all()
    finally:
        store.close()
    stored = {str(v) for r in rows for v in r}
    assert not tokens & stored
    assert {hashlib.sha256(t.encode()).hexdigest() for t in tokens} <= stored
    if db_url.startswith("sqlite"):
        raw = db_path.read_bytes() + (db_path.parent / "hearts.db-wal").read_bytes()
        assert not any(t.encode() in raw for t in tokens)


@pytest.mark.parametrize(("method", "path", "body"), ENDPOINTS)
@pytest.mark.parametrize(
    "header",
    [
        None,
        "Bearer",
        "Bearer forged-token-that-was-never-issued",
        "Basic abc",
        "Bearer " + "x" * 300,
    ],
)
def test_missing_malformed_or_forged_token_is_403_and_nothing_else(
    shared_client, method, path, body, header
) -> None:
    client = shared_client
    headers = {"Authorization": header} if header else {}
    response = client.request(method, path, headers=headers, json=body)
    body = error_of(response, 403, "bad_token")
    assert "state" not in body


def test_first_state_deals_a_match_for_this_token(south) -> None:
    s = south.state()
    assert s["seats"] == ["S", "W", "N", "E"]
    assert s["names"] == {"S": "Bạn", "W": "Tây", "N": "Bắc", "E": "Đông"}
    assert s["settings"] == {"level": "easy", "quick": False, "take_back": True, "pace": SOLO_PACE}
    assert s["match"] == {
        "hand_number": 1,
        "target": 100,
        "totals": {"S": 0, "W": 0, "N": 0, "E": 0},
        "hands": [],
        "over": False,
        "winner": None,
        "hints": 0,
        "take_backs": 0,
        "checker": {"plays": 0, "asked": 0},
    }
    h = s["hand"]
    assert (h["phase"], h["pass_direction"], h["pass_to"], h["pass_from"]) == (
        "pass",
        "left",
        "W",
        "E",
    )
    assert len(h["cards"]) == 13 and sorted(h["legal"]) == sorted(h["cards"])
    assert h["turn"] == "S" and h["passed"] is None and h["received"] is None
    assert h["counts"] == {"S": 13, "W": 13, "N": 13, "E": 13}
    assert h["points"] is None and h["moon"] is None and not h["auto_finished"]
    # Asking again changes nothing.
    assert south.state() == s


def test_each_token_has_its_own_match(client, new_south) -> None:
    a, b = new_south(client), new_south(client)
    assert a.state()["hand"]["cards"] == a.state()["hand"]["cards"]
    # Same seed, each its own deal (the seed is mixed with the match's id) ...
    assert a.state()["hand"]["cards"] != b.state()["hand"]["cards"]
    a.pass_cards(a.state())
    # ... but separate matches.
    assert b.state()["hand"]["passed"] is None


def test_hand_is_sorted_by_suit_with_colours_alternating_and_ranks_ascending(south) -> None:
    cards = south.state()["hand"]["cards"]
    suits = [c[1] for c in cards]
    runs = [s for i, s in enumerate(suits) if i == 0 or suits[i - 1] != s]
    assert len(runs) == len(set(runs)), "each suit in one block"
    colours = [CARD[s] for s in runs]
    reds = colours.count("red")
    blacks = len(colours) - reds
    changes = sum(a != b for a, b in itertools.pairwise(colours))
    assert changes == min(len(colours) - 1, 2 * min(reds, blacks))
    for suit in runs:
        ranks = [parse_card(c) for c in cards if c[1] == suit]
        assert ranks == sorted(ranks)


def test_pass_then_step_exchanges_and_marks_received_cards(south) -> None:
    s = south.state()
    chosen = s["hand"]["cards"][:3]
    s = south.pass_cards(s, chosen)
    h = s["hand"]
    assert h["phase"] == "pass" and sorted(h["passed"]) == sorted(chosen)
    assert h["turn"] is None and h["legal"] == [] and h["received"] is None
    s = south.step(s)
    h = s["hand"]
    assert h["phase"] == "play" and len(h["received"]) == 3 and h["mark_received"]
    assert set(h["received"]) <= set(h["cards"]) and not set(chosen) & set(h["cards"])
    assert h["counts"] == {"S": 13, "W": 13, "N": 13, "E": 13}


def unchanged(south, before: dict[str, Any]) -> None:
    assert south.state() == before


@pytest.mark.parametrize(
    ("cards", "status", "code"),
    [
        (2, 400, "bad_pass"),
        (4, 400, "bad_pass"),
        (0, 400, "bad_pass"),
        ("dup", 400, "bad_pass"),
        (["ZZ", "2C", "3C"], 400, "bad_card"),
        (["10H", "2C", "3C"], 400, "bad_card"),
        ("lower", 400, "bad_card"),  # SPEC §4's notation is upper case
        ("foreign", 400, "not_in_hand"),
        ("QS", 400, "bad_request"),
        ([1, 2, 3], 400, "bad_request"),
    ],
)
def test_bad_pass_is_refused_and_changes_nothing(south, cards, status, code) -> None:
    s = south.state()
    hand = s["hand"]["cards"]
    if isinstance(cards, int):
        cards = hand[:cards]
    elif cards == "dup":
        cards = [hand[0], hand[0], hand[1]]
    elif cards == "lower":
        cards = [hand[0].lower(), hand[1], hand[2]]
    elif cards == "foreign":
        other = next(c for c in ("2C", "AS", "KH", "QD", "7S") if c not in hand)
        cards = [other, hand[0], hand[1]]
    r = south.client.post(
        "/api/pass", headers=south.headers, json={"version": s["version"], "cards": cards}
    )
    error_of(r, status, code)
    unchanged(south, s)


def test_passing_twice_or_on_a_no_pass_hand_is_wrong_phase(south) -> None:
    s = south.pass_cards(south.state())
    r = south.client.post(
        "/api/pass",
        headers=south.headers,
        json={"version": s["version"], "cards": s["hand"]["cards"][:3]},
    )
    error_of(r, 409, "wrong_phase")
    unchanged(south, s)


def test_play_errors_change_nothing(south) -> None:
    s = south.state()
    # Playing during the pass phase.
    r = south.client.post(
        "/api/play", headers=south.headers, json={"version": s["version"], "card": "2C"}
    )
    error_of(r, 409, "wrong_phase")
    s = south.step(south.pass_cards(s))
    lower = s["hand"]["cards"][0].lower()  # SPEC §4's notation is upper case
    for card in ("1C", "", "QSS", lower):
        r = south.client.post(
            "/api/play", headers=south.headers, json={"version": s["version"], "card": card}
        )
        error_of(r, 400, "bad_card")
    unchanged(south, s)


def test_not_your_turn(south) -> None:
    s = south.state()
    # Passing 2C (if South has it) makes a computer lead; else a computer has it.
    hand = s["hand"]["cards"]
    s = south.step(
        south.pass_cards(
            s,
            (["2C"] if "2C" in hand else []) + [c for c in hand if c != "2C"][: 3 - ("2C" in hand)],
        )
    )
    assert s["hand"]["turn"] != "S"
    r = south.client.post(
        "/api/play",
        headers=south.headers,
        json={"version": s["version"], "card": s["hand"]["cards"][0]},
    )
    error_of(r, 409, "not_your_turn")
    unchanged(south, s)


def test_card_not_in_hand_is_refused(south) -> None:
    s = south.play_hand(south.state(), until=souths_turn)
    mine = set(s["hand"]["cards"])
    foreign = next(c for c in ("2C", "AS", "KH", "QD", "7S", "3H", "TC") if c not in mine)
    r = south.client.post(
        "/api/play", headers=south.headers, json={"version": s["version"], "card": foreign}
    )
    error_of(r, 400, "not_in_hand")
    unchanged(south, s)


REASONS = {
    "must_follow_suit": "Phải ra lá ",
    "hearts_not_broken": "Cơ chưa bị phá, chưa được ra cơ",
    "first_trick_points": "Vòng đầu không được đánh cơ hay đầm bích",
    "must_lead_lead_card": "Phải đánh 2 nhép mở vòng đầu",
}


def test_illegal_cards_have_a_vietnamese_reason_and_are_refused_with_it(south) -> None:
    seen: set[str] = set()
    s = south.state()
    for _ in range(3):  # a few hands to meet several rules
        s = south.play_hand(s, until=souths_turn)
        while s["hand"]["phase"] != "done":
            h = s["hand"]
            if h["turn"] == "S":
                assert set(h["legal"]) | set(h["illegal_reasons"]) == set(h["cards"])
                assert not set(h["legal"]) & set(h["illegal_reasons"])
                for card, reason in h["illegal_reasons"].items():
                    r = south.client.post(
                        "/api/play",
                        headers=south.headers,
                        json={"version": s["version"], "card": card},
                    )
                    body = error_of(r, 422, r.json()["error"]["code"])
                    code = body["error"]["code"]
                    assert code in REASONS and reason.startswith(REASONS[code])
                    assert body["error"]["message"] == reason
                    if code == "must_follow_suit":
                        led = h["trick"][0]["card"][1]
                        names = {"C": "nhép", "D": "rô", "S": "bích", "H": "cơ"}
                        assert reason == f"Phải ra lá {names[led]}"
                    seen.add(code)
                if h["illegal_reasons"]:
                    unchanged(south, s)
            else:
                assert h["legal"] == [] and h["illegal_reasons"] == {}
            s = south.advance(s)
        s = south.call("POST", "/api/next-hand", {"version": s["version"]})
    assert "must_follow_suit" in seen


def test_stale_version_gets_409_with_the_current_state(south) -> None:
    s = south.state()
    after = south.pass_cards(s)
    assert after["version"] > s["version"]
    for path, body in (
        ("/api/pass", {"cards": s["hand"]["cards"][:3]}),
        ("/api/step", {}),
        ("/api/play", {"card": "2C"}),
        ("/api/next-hand", {}),
        ("/api/new-match", {}),
    ):
        r = south.client.post(path, headers=south.headers, json={"version": s["version"], **body})
        stale = error_of(r, 409, "stale")
        assert stale["state"] == after
    unchanged(south, after)


def test_the_same_action_twice_applies_once(south) -> None:
    s = south.pass_cards(south.state())
    first = south.step(s)
    r = south.client.post("/api/step", headers=south.headers, json={"version": s["version"]})
    assert error_of(r, 409, "stale")["state"] == first


def test_step_on_souths_move_is_not_computer_turn(south) -> None:
    s = south.state()
    r = south.client.post("/api/step", headers=south.headers, json={"version": s["version"]})
    error_of(r, 409, "not_computer_turn")
    s = south.play_hand(south.state(), until=souths_turn)
    r = south.client.post("/api/step", headers=south.headers, json={"version": s["version"]})
    error_of(r, 409, "not_computer_turn")
    unchanged(south, s)


@pytest.mark.parametrize(
    ("path", "content"),
    [
        ("/api/play", b"{not json"),
        ("/api/play", b""),
        ("/api/play", b"[]"),
        ("/api/play", b'{"version": "3", "card": "2C"}'),
        ("/api/play", b'{"version": 1.5, "card": "2C"}'),
        ("/api/play", b'{"version": true, "card": "2C"}'),
        ("/api/play", b'{"version": -1, "card": "2C"}'),
        ("/api/play", b'{"version": 1e400, "card": "2C"}'),
        ("/api/play", b'{"version": 99999999999999999999999, "card": "2C"}'),
        ("/api/play", b'{"version": 0, "card": 36}'),
        ("/api/play", b'{"version": 0}'),
        ("/api/play", b'{"version": 0, "card": "2C", "extra": 1}'),
        ("/api/pass", b'{"version": 0, "cards": "QS AH KH"}'),
        ("/api/step", b'{"version": null}'),
        ("/api/step", b"\xff\xfe"),
        ("/api/settings", b'{"level": "impossible"}'),
        ("/api/settings", b'{"quick": "yes"}'),
    ],
)
def test_malformed_bodies_are_bad_request(shared_south, path, content) -> None:
    south = shared_south
    before = south.state()
    method = "PUT" if path == "/api/settings" else "POST"
    r = south.client.request(
        method,
        path,
        headers={**south.headers, "Content-Type": "application/json"},
        content=content,
    )
    error_of(r, 400, "bad_request")
    unchanged(south, before)


def test_oversize_body_is_413(south) -> None:
    before = south.state()
    big = b'{"version": 0, "card": "' + b"x" * 20_000 + b'"}'
    headers = {**south.headers, "Content-Type": "application/json"}
    error_of(south.client.post("/api/play", headers=headers, content=big), 413, "too_large")

    def chunks() -> Any:  # no Content-Length: sent chunked
        for _ in range(40):
            yield b" " * 1024

    r = south.client.post("/api/play", headers=headers, content=chunks())
    error_of(r, 413, "too_large")
    unchanged(south, before)


def test_unknown_path_and_method_use_the_error_shape(south) -> None:
    error_of(south.client.get("/api/nothing"), 404, "not_found")
    error_of(south.client.get("/api/play", headers=south.headers), 405, "method_not_allowed")


def test_next_hand_only_when_the_hand_is_over(south) -> None:
    s = south.state()
    r = south.client.post("/api/next-hand", headers=south.headers, json={"version": s["version"]})
    error_of(r, 409, "wrong_phase")
    s = south.play_hand(s)
    assert s["hand"]["phase"] == "done"
    s = south.call("POST", "/api/next-hand", {"version": s["version"]})
    assert s["match"]["hand_number"] == 2 and s["hand"]["pass_direction"] == "right"
    assert s["hand"]["pass_to"] == "E" and s["hand"]["pass_from"] == "W"
    assert len(s["match"]["hands"]) == 1 and s["hand"]["tricks"] == []


def test_new_match_at_any_time(south) -> None:
    s = south.play_hand(south.state(), until=lambda s: len(s["hand"]["tricks"]) >= 2)
    fresh = south.call("POST", "/api/new-match", {"version": s["version"]})
    assert fresh["version"] == s["version"] + 1
    assert fresh["match"]["hand_number"] == 1 and fresh["match"]["hands"] == []
    assert fresh["hand"]["phase"] == "pass" and fresh["hand"]["tricks"] == []
    # An abandoned match is not a match played.
    assert south.call("GET", "/api/stats")["played"] == 0


def test_settings_are_kept_and_need_no_version(south) -> None:
    s = south.state()
    out = south.call("PUT", "/api/settings", {"level": "medium", "quick": True})
    # the page keeps the computers' time at the pace the State says: Chơi nhanh's
    quick = {"level": "medium", "quick": True, "take_back": True, "pace": QUICK_PACE}
    assert out["settings"] == quick
    assert out["version"] == s["version"] and out["hand"] == s["hand"]
    out = south.call("PUT", "/api/settings", {"quick": False})
    kept = {"level": "medium", "quick": False, "take_back": True, "pace": SOLO_PACE}
    assert out["settings"] == kept
    out = south.call("PUT", "/api/settings", {})
    assert south.state()["settings"] == kept


def test_stats_start_empty(south) -> None:
    assert south.call("GET", "/api/stats") == {
        "played": 0,
        "won": 0,
        "moons": 0,
        "best": None,
        "hands": 0,
        "take_back_matches": 0,
        "checker_plays": 0,
        "checker_asked": 0,
        "tables": [],
        "levels": {
            level: {"hands": 0, "points": 0, "average": None}
            for level in ("easy", "medium", "hard")
        },
    }


def test_openapi_describes_the_calls_and_the_state(client) -> None:
    schema = client.get("/openapi.json").json()
    for path in (
        "/api/players",
        "/api/state",
        "/api/pass",
        "/api/play",
        "/api/step",
        "/api/next-hand",
        "/api/new-match",
        "/api/settings",
        "/api/stats",
        "/api/moon",
        "/api/hands/{number}",
        "/api/achievements",
    ):
        assert path in schema["paths"]
    state = schema["components"]["schemas"]["State"]
    assert set(state["properties"]) == {
        "version",
        "settings",
        "rules",
        "seats",
        "names",
        "match",
        "hand",
        "unlocked",
        "fairness",
        "preparing_hard",
    }
    hand = schema["components"]["schemas"]["HandInfo"]["properties"]
    assert {"legal", "illegal_reasons", "mark_received", "auto_finished", "pass_count"} <= set(hand)
    assert "fairness" in hand and "/api/fairness" in schema["paths"]


def test_openapi_s_error_answers_name_their_models(client) -> None:
    """Each call's error answers refer to a model the document holds (ErrorBody;
    StaleBody, with the state, for 409), and every reference in it resolves."""
    schema = client.get("/openapi.json").json()
    play = schema["paths"]["/api/play"]["post"]["responses"]
    ref = "#/components/schemas/"
    assert play["400"]["content"]["application/json"]["schema"] == {"$ref": ref + "ErrorBody"}
    assert play["409"]["content"]["application/json"]["schema"] == {"$ref": ref + "StaleBody"}
    assert "state" in schema["components"]["schemas"]["StaleBody"]["properties"]
    refs = set(re.findall(r'"\$ref": "#/components/schemas/([^"]+)"', json.dumps(schema)))
    held = set(schema["components"]["schemas"])
    assert refs and refs <= held, refs - held
    assert "/_error-models" not in schema["paths"]


def test_page_and_static_files_are_served(client) -> None:
    from hearts.server.app import STATIC_DIR

    if not (STATIC_DIR / "index.html").is_file():
        pytest.skip("the page is not there yet")
    r = client.get("/")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert client.get("/static/js/api.js").status_code == 200
    assert client.get("/static/nothing.js").status_code == 404
