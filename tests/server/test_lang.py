"""The server's words in the player's language (docs/api.md, Language): Vietnamese for
every caller that says nothing, English for ``X-Hearts-Lang: en``: error messages,
why a card may not be played, the seat names, the hint's reasons, the achievements,
a rejected hand record."""

from __future__ import annotations

import json
import re
from typing import Any

from hearts.server.coach.hint import WHY_CODES, why_pattern
from hearts.server.i18n import lang

# a letter only Vietnamese writes (a tone or a hook): none in any English text
VIETNAMESE = re.compile(
    "[àáảãạăằắẳẵặâầấẩẫậèéẻẽẹêềếểễệìíỉĩịòóỏõọôồốổỗộơờớởỡợùúủũụưừứửữựỳýỷỹỵđ]", re.IGNORECASE
)
EN = {"X-Hearts-Lang": "en"}


def call(south: Any, method: str, path: str, body: Any = None, lang_header: bool = True) -> Any:
    headers = {**south.headers, **(EN if lang_header else {})}
    return south.client.request(method, path, headers=headers, json=body)


def texts(data: Any) -> list[str]:
    """Every string in a JSON answer, keys of the illegal reasons aside."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [t for v in data.values() for t in texts(v)]
    if isinstance(data, list):
        return [t for v in data for t in texts(v)]
    return []


def vietnamese(data: Any) -> list[str]:
    return [t for t in texts(data) if VIETNAMESE.search(t)]


def test_choose() -> None:
    assert lang.choose("en") == lang.choose("EN-gb") == "en"
    assert lang.choose(None) == lang.choose("") == lang.choose("vi") == lang.choose("fr") == "vi"


def test_vietnamese_unless_english_is_asked(south: Any) -> None:
    s = south.state()
    assert s["names"] == {"S": "Bạn", "W": "Tây", "N": "Bắc", "E": "Đông"}
    english = call(south, "GET", "/api/state").json()
    assert english["names"] == {"S": "You", "W": "West", "N": "North", "E": "East"}
    assert vietnamese(english) == []
    # a refusal: Vietnamese by default, English when asked
    wrong = {"version": s["version"], "cards": ["2C"]}
    vi = call(south, "POST", "/api/pass", wrong, lang_header=False)
    en = call(south, "POST", "/api/pass", wrong)
    assert vi.status_code == en.status_code == 400
    assert vi.json()["error"]["code"] == en.json()["error"]["code"] == "bad_pass"
    assert VIETNAMESE.search(vi.json()["error"]["message"])
    assert en.json()["error"]["message"] == "Choose 3 different cards to pass"
    gone = call(south, "GET", "/api/hands/99").json()
    assert gone["error"]["message"] == "This hand is not over or does not exist"


def test_illegal_reasons_and_play_refusal_in_english(south: Any) -> None:
    s = south.pass_cards(south.state())
    while not (s["hand"]["turn"] == "S" and s["hand"]["illegal_reasons"]):
        s = south.advance(s)
    vi_reasons = s["hand"]["illegal_reasons"]
    assert all(VIETNAMESE.search(r) for r in vi_reasons.values())
    h = call(south, "GET", "/api/state").json()["hand"]
    assert set(h["illegal_reasons"]) == set(vi_reasons)
    assert vietnamese(h["illegal_reasons"]) == []
    assert all(
        r.startswith(("You must", "Lead the", "Hearts are", "No hearts"))
        for r in h["illegal_reasons"].values()
    ), h["illegal_reasons"]
    card = next(iter(vi_reasons))
    refused = call(south, "POST", "/api/play", {"version": s["version"], "card": card})
    assert refused.status_code == 422
    assert refused.json()["error"]["message"] == h["illegal_reasons"][card]


def test_hint_and_achievements_in_english(south: Any) -> None:
    s = south.state()
    hint = call(south, "POST", "/api/hint", {"version": s["version"]}).json()
    assert hint["reasons"] and vietnamese(hint["reasons"]) == []
    assert "points" in hint["reasons"][-1]
    # The pass hint says why in plain English first, not only numbers (issue 39, 10).
    assert len(hint["reasons"]) >= 2 and hint["why"] in WHY_CODES
    assert why_pattern("en", hint["why"]).fullmatch(hint["reasons"][0]), hint
    listing = call(south, "GET", "/api/achievements").json()
    assert len(listing["achievements"]) >= 15
    assert vietnamese([(a["name"], a["condition"]) for a in listing["achievements"]]) == []
    vi = south.call("GET", "/api/achievements")
    assert [a["id"] for a in vi["achievements"]] == [a["id"] for a in listing["achievements"]]
    assert VIETNAMESE.search(vi["achievements"][0]["name"])


def test_rejected_record_in_english(south: Any) -> None:
    r = call(south, "POST", "/api/records/check", {"record": "{}"})
    assert r.status_code == 400
    assert vietnamese(r.json()) == []
    assert r.json()["error"]["message"].startswith("This file is not a saved Hearts hand")


def test_a_room_in_english(south: Any) -> None:
    room = call(south, "POST", "/api/rooms", {"level": "easy"}).json()
    assert room["seats"][0]["name"] == "Guest 1"
    started = call(
        south, "POST", f"/api/rooms/{room['code']}/start", {"version": room["version"]}
    ).json()
    assert started["state"]["names"]["S"] == "You"
    assert [s["name"] for s in started["seats"][1:]] == ["Computer 2", "Computer 3", "Computer 4"]
    assert vietnamese(started) == []
    vi = south.call("GET", f"/api/rooms/{room['code']}")
    assert vi["state"]["names"]["S"] == "Bạn" and vi["seats"][1]["name"] == "Máy 2"
    # the live feed: a socket says its language on its address
    for path, you in (("ws?lang=en", "You"), ("ws", "Bạn")):
        with south.client.websocket_connect(f"/api/rooms/{room['code']}/{path}") as ws:
            ws.send_text(json.dumps({"token": south.token}))
            pushed = ws.receive_json()
            assert pushed["type"] == "room" and pushed["room"]["state"]["names"]["S"] == you
