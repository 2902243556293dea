"""The table's rules through the API (issue 8): every player count and option plays a
whole hand whose points add up under the rules, removed cards are never dealt, the
record of each finished hand validates, bad rules change nothing, and South chooses
how a moon is scored under "shooter_chooses" while computers choose by themselves."""

from __future__ import annotations

from typing import Any

import pytest

from hearts.cards import card_name, cards_of, mask_of, parse_card
from hearts.hand import HandState
from hearts.match import HandResult, Match
from hearts.record import validate
from hearts.rules import SHOOTER_CHOOSES, Rules
from hearts.server.store.db import Store
from hearts.server.table.game import Game

RULE_KEYS = {"players", "qs_breaks_hearts", "moon", "jd_bonus", "target"}


class Player:
    """A browser at any table: South is ``seats[0]``, passes ``pass_count`` cards."""

    def __init__(self, south: Any) -> None:
        self.s = south

    def new_match(self, rules: Any, status: int = 200) -> Any:
        body = {"version": self.s.state()["version"], "rules": rules}
        return self.s.call("POST", "/api/new-match", body, status)

    def advance(self, state: Any) -> Any:
        hand, me = state["hand"], state["seats"][0]
        if hand["phase"] == "pass" and hand["passed"] is None:
            return self.s.pass_cards(state, hand["cards"][-hand["pass_count"] :])
        if hand["turn"] == me:
            return self.s.play(state)
        return self.s.step(state)

    def play_hand(self, state: Any) -> Any:
        for _ in range(400):
            if state["hand"]["phase"] in ("done", "moon_choice"):
                return state
            state = self.advance(state)
        raise AssertionError("the hand did not finish")


def check_keyed(state: Any, players: int) -> None:
    """``seats`` in play order, South first, and every per-seat object keyed by them."""
    seats = state["seats"]
    assert len(seats) == players == len(set(seats))
    assert state["names"][seats[0]] == "Bạn" and len(set(state["names"].values())) == players
    keyed = [state["names"], state["match"]["totals"], state["hand"]["counts"]]
    keyed += [state["hand"]["taken"]] + [h["points"] for h in state["match"]["hands"]]
    if state["hand"]["points"] is not None:
        keyed.append(state["hand"]["points"])
    for per_seat in keyed:
        assert list(per_seat) == seats
    for play in state["hand"]["trick"] + [p for t in state["hand"]["tricks"] for p in t["cards"]]:
        assert play["seat"] in seats


def hand_sum(rules: Rules, points: dict[str, int], record: dict[str, Any]) -> None:
    """The hand's points add up under the rules: 26, or a moon, and the J♦'s −10."""
    jd = 0
    if rules.jd_bonus:
        jd = -10
    n = rules.players
    assert sum(points.values()) in {26 + jd, 26 * (n - 1) + jd, -26 + jd}
    assert validate(record) == points  # the record's points are the rules' points


CASES = [
    {"players": 3},
    {"players": 5, "qs_breaks_hearts": True},
    {"players": 6, "jd_bonus": True, "target": 150},
    {"players": 7, "moon": "subtract_from_self"},
    {"players": 4, "qs_breaks_hearts": True, "jd_bonus": True, "moon": "shooter_chooses"},
    {"target": 50},
]


@pytest.mark.parametrize("given", CASES, ids=lambda g: "-".join(f"{k}={v}" for k, v in g.items()))
def test_a_whole_hand_at_each_table(south, given: dict[str, Any]) -> None:
    player = Player(south)
    s = player.new_match(given)
    rules = Rules(**given)
    assert s["rules"] == {**{k: getattr(Rules(), k) for k in RULE_KEYS}, **given}
    assert set(s["rules"]) == RULE_KEYS and s["match"]["target"] == rules.target
    check_keyed(s, rules.players)
    h = s["hand"]
    assert h["pass_count"] == 3 and len(h["cards"]) == rules.hand_size
    assert set(h["counts"].values()) == {rules.hand_size}
    assert h["pass_direction"] == rules.pass_direction(1) == "left"
    assert h["pass_to"] == s["seats"][1] and h["pass_from"] == s["seats"][-1]
    assert south.call("GET", "/api/hands/1", status=404)["error"]["code"] == "not_found"

    # A pass of the wrong size is refused with the table's count, and nothing changes.
    wrong = south.call(
        "POST", "/api/pass", {"version": s["version"], "cards": h["cards"][:2]}, status=400
    )
    assert wrong["error"] == {
        "code": "bad_pass",
        "message": "Hãy chọn đúng 3 lá khác nhau để chuyền",
    }
    assert south.state() == s

    seen = set(h["cards"])
    while s["hand"]["phase"] != "done":
        s = player.advance(s)
        check_keyed(s, rules.players)
        seen |= {p["card"] for p in s["hand"]["trick"]}
        seen |= {p["card"] for t in s["hand"]["tricks"] for p in t["cards"]}
    h = s["hand"]
    assert len(h["tricks"]) == rules.hand_size and all(
        len(t["cards"]) == rules.players for t in h["tricks"]
    )
    # Every trick reads in play order: each seat follows the one before it.
    seats = s["seats"]
    for t in h["tricks"]:
        order = [seats.index(p["seat"]) for p in t["cards"]]
        assert order == [(order[0] + i) % rules.players for i in range(rules.players)]
    lead = card_name(rules.lead_card)
    assert h["tricks"][0]["cards"][0]["card"] == lead  # 3♣ when 2♣ is removed
    removed = {card_name(c) for c in cards_of(rules.removed)}
    assert seen == {card_name(c) for c in cards_of(rules.deck)} and not seen & removed
    assert sum(t["points"] for t in h["tricks"]) == sum(h["taken"].values())

    record = south.call("GET", "/api/hands/1")
    assert record["format"] == "hearts-hand/1" and set(record["deal"]) == set(seats)
    dealt = {c for cards in record["deal"].values() for c in cards}
    assert not dealt & removed and len(dealt) == rules.players * rules.hand_size
    assert Rules.from_json(record["rules"]) == rules
    hand_sum(rules, h["points"], record)
    assert h["points"] == s["match"]["hands"][0]["points"] == s["match"]["totals"]
    assert south.call("GET", "/api/hands/2", status=404)["error"]["code"] == "not_found"

    # The rules stay with the match: the next hand is dealt at the same table.
    if not s["match"]["over"]:
        nxt = south.call("POST", "/api/next-hand", {"version": s["version"]})
        assert nxt["rules"] == s["rules"] and nxt["hand"]["pass_direction"] == "right"
        assert nxt["hand"]["pass_to"] == s["seats"][-1]


def test_missing_rules_are_the_default_table(south) -> None:
    player = Player(south)
    s = player.new_match(None)
    assert s["rules"] == {
        "players": 4,
        "qs_breaks_hearts": False,
        "moon": "add_to_others",
        "jd_bonus": False,
        "target": 100,
    }
    assert s["seats"] == ["S", "W", "N", "E"]
    assert player.new_match({})["rules"] == s["rules"]


BAD_RULES = [
    ({"players": 8}, "Số người chơi phải từ 3 đến 7"),
    ({"players": 2}, "Số người chơi phải từ 3 đến 7"),
    ({"players": "5"}, "Số người chơi phải từ 3 đến 7"),
    ({"players": True}, "Số người chơi phải từ 3 đến 7"),
    ({"pass_count": 2}, "Không có luật tên pass_count"),
    ({"colour": "red"}, "Không có luật tên colour"),
    ({"moon": "x"}, "Cách tính bắn trăng không hợp lệ"),
    ({"target": 0}, "Điểm kết thúc trận phải từ 50 đến 500"),
    ({"target": 10_000}, "Điểm kết thúc trận phải từ 50 đến 500"),
    ({"target": 49}, "Điểm kết thúc trận phải từ 50 đến 500"),
    ({"target": 100.0}, "Điểm kết thúc trận phải từ 50 đến 500"),
    ({"jd_bonus": 1}, "J♦ trừ 10 điểm phải là true hoặc false"),
    ({"qs_breaks_hearts": "yes"}, "Đầm bích phá cơ phải là true hoặc false"),
    ([4], "Luật chơi phải là một đối tượng JSON"),
    ("players=5", "Luật chơi phải là một đối tượng JSON"),
]


@pytest.mark.parametrize(("rules", "message"), BAD_RULES)
def test_bad_rules_are_400_and_change_nothing(south, rules: Any, message: str) -> None:
    before = south.state()
    body = Player(south).new_match(rules, status=400)
    assert body == {"error": {"code": "bad_rules", "message": message}}
    assert south.state() == before


def moon_deal(rules: Rules, shooter: int) -> HandState:
    """A no-pass hand in which ``shooter`` holds every club, so it leads and wins every
    trick (nobody else can follow) and takes every heart and Q♠."""
    suits = ["2C-AC", "2D-AD", "2S-AS", "2H-AH"]
    suits = suits[-shooter:] + suits[:-shooter] if shooter else suits
    deal = []
    for text in suits:
        lo, hi = text.split("-")
        deal.append(mask_of(range(parse_card(lo), parse_card(hi) + 1)))
    return HandState(rules, deal, "none")


def plant(db_url: str, token: str, game: Game) -> None:
    """Put ``game`` on the player's table as their next match (as the server would)."""
    store = Store(db_url)
    try:
        with store.write() as conn:
            pid = store.player_id(token)
            assert pid is not None
            loaded = store.load(conn, pid)
            store.bump_version(conn, pid, loaded.player.version)
            store.new_match(conn, loaded, lambda _match_id: game)
            # Its earlier hands were "played" elsewhere: keep their scores, no records.
            loaded.results_saved = len(game.results)
            store.save(conn, loaded)
    finally:
        store.close()


def planted_match(rules: Rules, totals: list[int], shooter: int) -> Game:
    """Hand 4 (no pass) of a match at ``totals``, dealt so that ``shooter`` shoots."""
    zero = (0,) * rules.players
    results = [HandResult(tuple(totals), -1), HandResult(zero, -1), HandResult(zero, -1)]
    match = Match(rules, results)
    match.start(moon_deal(rules, shooter))
    return Game(match=match, match_no=2)


def test_south_chooses_how_the_moon_is_scored(south, db_url) -> None:
    rules = Rules(moon=SHOOTER_CHOOSES, jd_bonus=True)
    south.state()
    plant(db_url, south.token, planted_match(rules, [10, 20, 30, 40], 0))
    player = Player(south)
    s = player.play_hand(south.state())
    h = s["hand"]
    assert h["phase"] == "moon_choice" and h["turn"] is None and h["points"] is None
    assert h["moon_choice"] == {
        "add_to_others": {
            "points": {"S": -10, "W": 26, "N": 26, "E": 26},
            "totals": {"S": 0, "W": 46, "N": 56, "E": 66},
        },
        "subtract_from_self": {
            "points": {"S": -36, "W": 0, "N": 0, "E": 0},
            "totals": {"S": -26, "W": 20, "N": 30, "E": 40},
        },
    }
    assert s["match"]["totals"] == {"S": 10, "W": 20, "N": 30, "E": 40}
    # Nothing else may happen until South chooses.
    for path in ("/api/step", "/api/next-hand"):
        assert south.call("POST", path, {"version": s["version"]}, status=409)
    assert south.call("GET", "/api/hands/4", status=404)
    bad = {"version": s["version"], "choice": "shooter_chooses"}
    assert south.call("POST", "/api/moon", bad, status=400)["error"]["code"] == "bad_request"
    assert south.state() == s

    done = south.call(
        "POST", "/api/moon", {"version": s["version"], "choice": "subtract_from_self"}
    )
    h = done["hand"]
    assert h["phase"] == "done" and h["moon"] == "S" and h["moon_scoring"] == "subtract_from_self"
    assert h["points"] == {"S": -36, "W": 0, "N": 0, "E": 0}
    assert done["match"]["totals"] == {"S": -26, "W": 20, "N": 30, "E": 40}
    assert done["match"]["hands"][-1]["moon_scoring"] == "subtract_from_self"
    record = south.call("GET", "/api/hands/4")
    assert validate(record) == h["points"]
    assert south.call(
        "POST", "/api/moon", {"version": done["version"], "choice": "add_to_others"}, status=409
    )
    assert south.call("GET", "/api/stats")["moons"] == 1


def test_computer_shooters_choose_and_the_result_says_how(south, db_url) -> None:
    # West shoots at 45, East at 10: adding 26 would end the match (target 50) with
    # East at the lowest total, so West subtracts.
    rules = Rules(moon=SHOOTER_CHOOSES, target=50)
    south.state()
    plant(db_url, south.token, planted_match(rules, [30, 45, 40, 10], 1))
    s = Player(south).play_hand(south.state())
    h = s["hand"]
    assert h["phase"] == "done" and h["moon"] == "W" and h["moon_choice"] is None
    assert h["moon_scoring"] == "subtract_from_self"
    assert h["points"] == {"S": 0, "W": -26, "N": 0, "E": 0}


@pytest.mark.both_databases("the statistics' aggregates, on each database")
def test_stats_keep_the_rules_of_each_match(south, db_url) -> None:
    # East shoots under "add to the others": everybody else passes 50; East wins.
    rules = Rules(target=50, players=4, jd_bonus=True)
    south.state()
    plant(db_url, south.token, planted_match(rules, [30, 45, 40, 20], 3))
    s = Player(south).play_hand(south.state())
    assert s["match"]["over"] and s["match"]["winner"] == "E"
    assert s["hand"]["moon_scoring"] == "add_to_others"
    stats = south.call("GET", "/api/stats")
    assert stats["played"] == 1 and stats["won"] == 0
    assert stats["tables"] == [
        {
            "rules": {
                "players": 4,
                "qs_breaks_hearts": False,
                "moon": "add_to_others",
                "jd_bonus": True,
                "target": 50,
            },
            "played": 1,
            "won": 0,
            "best": s["match"]["totals"]["S"],
        }
    ]
