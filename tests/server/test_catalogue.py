"""GET /api/rules (server/web/catalogue.py): the rule facts the page reads instead of
keeping its own copy — the default table, what a player may choose, each table
size's deck, the cards that break hearts — as the engine and the API have them."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hearts.cards import parse_card
from hearts.hand import HandState
from hearts.rules import Rules
from hearts.server.app import create_app


@pytest.fixture
def sqlite_client(tmp_path: Path) -> Iterator[TestClient]:
    """The app on SQLite: these facts touch no database."""
    app = create_app(f"sqlite:///{tmp_path / 'hearts.db'}", seed=1, executor=ThreadPoolExecutor(1))
    with TestClient(app) as c:
        yield c


def facts(client: TestClient) -> Any:
    response = client.get("/api/rules")  # no token: the same for everyone
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-cache"
    return response.json()


def test_the_catalogue_states_the_rule_facts(sqlite_client: TestClient) -> None:
    got = facts(sqlite_client)
    assert got["defaults"] == {
        "players": 4,
        "qs_breaks_hearts": False,
        "moon": "add_to_others",
        "jd_bonus": False,
        "target": 100,
    }
    assert got["players"] == [3, 4, 5, 6, 7]
    assert got["moon"] == ["add_to_others", "subtract_from_self", "shooter_chooses"]
    assert got["target"] == {"min": 50, "max": 500}
    assert got["tables"] == {
        "3": {"removed": ["2D"], "hand_size": 17, "lead": "2C"},
        "4": {"removed": [], "hand_size": 13, "lead": "2C"},
        "5": {"removed": ["2D", "2C"], "hand_size": 10, "lead": "3C"},
        "6": {"removed": ["2D", "3D", "3C", "4C"], "hand_size": 8, "lead": "2C"},
        "7": {"removed": ["2D", "3D", "3C"], "hand_size": 7, "lead": "2C"},
    }
    hearts = [f"{r}H" for r in "23456789TJQKA"]
    assert got["breakers"] == {"cards": hearts, "rules": {"qs_breaks_hearts": ["QS"]}}
    assert "/api/rules" in sqlite_client.get("/openapi.json").json()["paths"]


def test_the_defaults_are_a_new_matchs_and_the_target_range_the_apis(
    sqlite_client: TestClient, new_south: Callable[..., Any]
) -> None:
    got = facts(sqlite_client)
    south = new_south(sqlite_client)
    assert south.state()["rules"] == got["defaults"]
    low, high = got["target"]["min"], got["target"]["max"]
    for target, status in ((low - 1, 400), (low, 200), (high, 200), (high + 1, 400)):
        version = south.state()["version"]
        body = {"version": version, "rules": {"target": target}}
        south.call("POST", "/api/new-match", body, status=status)
    for players in got["players"]:
        version = south.state()["version"]
        body = {"version": version, "rules": {"players": players}}
        state = south.call("POST", "/api/new-match", body)
        table = got["tables"][str(players)]
        assert len(state["hand"]["cards"]) == table["hand_size"]


@pytest.mark.parametrize("qs_breaks_hearts", [False, True])
def test_the_breakers_are_the_cards_whose_play_breaks_hearts(
    sqlite_client: TestClient, qs_breaks_hearts: bool
) -> None:
    """South, void in clubs, throws one card on the second trick: hearts are broken
    after it exactly when the catalogue names that card for these rules."""
    got = facts(sqlite_client)["breakers"]
    on = {"qs_breaks_hearts": qs_breaks_hearts}
    extra = [cards for key, cards in got["rules"].items() if on.get(key)]
    named = set(got["cards"]).union(*extra)
    assert ("QS" in named) == qs_breaks_hearts
    rules = Rules(**on)
    for card in ("QS", "2H", "AH", "KS", "JD", "AD"):
        state = HandState(rules, _deal_for(card), "none")
        for c in ("2C", "3C", "4C", "5C", "6C"):  # East wins the first trick, leads 6C
            state.play(parse_card(c))
        assert not state.broken
        state.play(parse_card(card))
        assert state.broken == (card in named), card


def _deal_for(card: str) -> list[int]:
    """South 2C and ``card``, West 3C, North 4C and no other club; East 5C to AC."""
    plain = [f"{r}{s}" for s in "DSH" for r in "23456789TJQKA" if f"{r}{s}" != card]
    east = [f"{r}C" for r in "56789TJQKA"]
    hands = [["2C", card, *plain[:11]], ["3C", *plain[11:23]], ["4C", *plain[23:35]]]
    hands.append(east + plain[35:])
    return [sum(1 << parse_card(c) for c in hand) for hand in hands]


def test_the_page_comes_with_the_same_facts(sqlite_client: TestClient) -> None:
    """The page carries the facts in a meta tag (i18n.js reads them there: no
    GET /api/rules before the first card), the same as the call answers, on every
    page the server serves (a room's link too)."""
    for path in ("/", "/r/ABCD1234"):
        html = sqlite_client.get(path).text
        found = re.search(r'<meta name="hearts-rules" content="([^"]*)">', html)
        assert found, path
        assert json.loads(unescape(found.group(1))) == facts(sqlite_client)
