"""Máy đã biết gì (GET /api/knew/{hand}): after a hand, each computer decision with
what its seat could see then and, for Khó, its belief about the cards it could
not see beside where they were; only for the token's own finished hands."""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from hearts.cards import parse_card
from hearts.server.coach import knew

WATCHED = ["QS", "AS", "KS", "AH", "KH", "QH", "JH"]


def _hand_at_hard(south: Any) -> Any:
    """Hand 1 played at Dễ until its last four tricks, those at Khó: the hand
    ends at Khó, so the report gives Khó's beliefs (quickly)."""
    state = south.play_hand(south.state(), until=lambda s: sum(s["hand"]["counts"].values()) <= 16)
    assert state["hand"]["phase"] == "play"
    assert south.call("GET", "/api/knew/1", status=409)["error"]["code"] == "hand_in_play"
    south.call("PUT", "/api/settings", {"level": "hard"})
    return south.play_hand(south.state())


def _start_hands(south: Any, record: Any) -> dict[str, list[str]]:
    return south.call("POST", "/api/records/check", {"record": record})["start"]


def test_each_computer_decision_with_what_it_saw_and_believed(south: Any) -> None:
    _hand_at_hard(south)
    record = south.call("GET", "/api/hands/1")
    got = south.call("GET", "/api/knew/1")
    assert got["hand"] == 1 and got["level"] == "hard" and got["watched"] == WATCHED
    decisions = got["decisions"]
    passes = [d for d in decisions if d["kind"] == "pass"]
    plays = [d for d in decisions if d["kind"] == "play"]
    assert [d["seat"] for d in passes] == ["W", "N", "E"]  # hand 1 passes left
    assert [d["index"] for d in plays] == [
        i for i in range(52) if record["plays"][i] not in _start_hands(south, record)["S"]
    ]
    start = _start_hands(south, record)
    for d in passes:
        assert sorted(d["chose"]) == sorted(record["passes"][d["seat"]])
        assert sorted(d["hand"]) == sorted(record["deal"][d["seat"]])
        assert d["received"] == [] and d["played"] == 0
        assert d["where"] == {
            c: s for c in WATCHED for s, cards in record["deal"].items()
            if c in cards and s != d["seat"]
        }  # fmt: skip
    for d in plays:
        i = d["index"]
        gone = set(record["plays"][:i])
        assert d["chose"] == record["plays"][i] and d["played"] == i
        # hand 1 passes left: it was passed the cards of the seat on its right
        assert d["from"] == {"W": "S", "N": "W", "E": "N"}[d["seat"]]
        passer = {"W": "S", "N": "W", "E": "N"}[d["seat"]]
        assert sorted(d["received"]) == sorted(record["passes"][passer])
        assert sorted(d["passed"]) == sorted(record["passes"][d["seat"]])
        assert d["trick"] == i // 4 + 1
        assert sorted(d["hand"]) == sorted(c for c in start[d["seat"]] if c not in gone)
        assert [p["card"] for p in d["table"]] == record["plays"][i - i % 4 : i]
        # the watched cards it could not see, where they really were (the passed
        # cards it knows of are hidden too: it knows where they went)
        assert d["where"] == {
            c: s for c in WATCHED for s, cards in start.items()
            if c in cards and s != d["seat"] and c not in gone
        }  # fmt: skip
    weighed = [d for d in decisions if d["belief"] is not None]
    assert len(weighed) >= 20  # Khó weighs most decisions (not the forced cards)
    for d in weighed:
        b = d["belief"]
        assert b["worlds"] > 0
        assert set(b["seats"]) == {"S", "W", "N", "E"} - {d["seat"]}
        for card in d["where"]:
            shares = [b["seats"][s][card] for s in b["seats"]]
            assert abs(sum(shares) - 100) <= 2 and all(0 <= x <= 100 for x in shares)
        for row in b["seats"].values():
            assert set(row) == set(d["where"])
    # what it received it knows the sender no longer holds: no share at the sender
    # for a card the seat passed on, all of it at the receiver
    for d in weighed:
        for card in set(d["where"]) & set(record["passes"][d["seat"]]):
            to = {"W": "N", "N": "E", "E": "S"}[d["seat"]]
            if d["kind"] == "play" and d["where"][card] == to:
                assert d["belief"]["seats"][to][card] == 100
    # deterministic: asked again, and made again from the views alone
    assert south.call("GET", "/api/knew/1") == got
    steps = knew.decisions(record, (0, 0, 0, 0))
    for step, d in list(zip(steps, decisions, strict=True))[::7]:
        assert knew.believe(step.view) == d["belief"]
        assert step.where == {parse_card(c): "SWNE".index(s) for c, s in d["where"].items()}


def test_only_the_owner_s_finished_hands(south: Any, new_south: Any) -> None:
    state = south.play_hand(south.state())
    # another browser has no hand 1: the same 404 as a hand that never was
    other = new_south(south.client)
    assert other.call("GET", "/api/knew/1", status=404)["error"]["code"] == "not_found"
    for hand in ("2", "0", "99999999999"):
        assert south.call("GET", f"/api/knew/{hand}", status=404)["error"]["code"] == "not_found"
    forged = south.client.get("/api/knew/1", headers={"Authorization": "Bearer forged"})
    assert forged.status_code == 403
    got = south.call("GET", "/api/knew/1")
    assert got["level"] == "easy"  # Dễ imagines no deals: only what each seat saw
    assert all(d["belief"] is None for d in got["decisions"])
    # the next hand, while it is played: 409, and hand 1 still answers
    state = south.call("POST", "/api/next-hand", {"version": state["version"]})
    assert south.call("GET", "/api/knew/2", status=409)["error"]["code"] == "hand_in_play"
    assert south.call("GET", "/api/knew/1") == got


def test_the_report_counts_in_the_analyses_caps(south: Any, new_south: Any) -> None:
    south.play_hand(south.state())
    coach = south.client.app.state.coach
    coach.analysis_caps = (0, 0)  # the server already runs its cap of analyses
    got = south.client.get("/api/knew/1", headers=south.headers)
    assert got.status_code == 429 and got.json()["error"]["code"] == "analysis_busy"
    coach.analysis_caps = (4, 2)
    assert south.call("GET", "/api/knew/1")["hand"] == 1


class HeldBeliefs(ThreadPoolExecutor):
    """Bot workers where every belief waits for ``gate``; the rest runs at once."""

    def __init__(self) -> None:
        super().__init__(max_workers=3)
        self.gate = threading.Event()
        self.waiting = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        if fn is not knew.believe:
            return super().submit(fn, *args, **kwargs)

        def held() -> Any:
            self.waiting += 1
            assert self.gate.wait(60), "the test never opened the gate"
            return fn(*args, **kwargs)

        return super().submit(held)


def test_a_report_being_made_counts_in_the_caps_of_the_others(
    app_client: Any, new_south: Any
) -> None:
    """While one player's report is worked out, it counts in the analyses' caps: one
    more analysis or report of another player beyond them is 429 analysis_busy."""
    held = HeldBeliefs()
    client = app_client(executor=held)
    coach = client.app.state.coach
    first, second = new_south(client), new_south(client)
    for player in (first, second):
        player.call("PUT", "/api/settings", {"level": "easy"})
        _hand_at_hard(player)
    with ThreadPoolExecutor(max_workers=1) as asker:
        asked = asker.submit(first.call, "GET", "/api/knew/1")
        deadline = time.monotonic() + 30  # liveness only
        while not held.waiting and time.monotonic() < deadline:
            time.sleep(0.02)
        try:
            assert held.waiting == 1
            coach.analysis_caps = (1, 4)
            for method, path, body in (
                ("POST", "/api/analysis", {"hand": 1}),  # answers at once if let through
                ("GET", "/api/knew/1", None),
            ):
                refused = client.request(method, path, json=body, headers=second.headers)
                assert refused.status_code == 429, refused.text
                assert refused.json()["error"]["code"] == "analysis_busy"
        finally:
            held.gate.set()
        got = asked.result(timeout=60)
    assert got["level"] == "hard" and any(d["belief"] for d in got["decisions"])
    assert second.call("GET", "/api/knew/1")["hand"] == 1  # room again
