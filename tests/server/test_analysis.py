"""Phân tích (POST /api/analysis, GET /api/analysis/{hand}): after a hand Khó weighs
each of South's decisions from South's view then, in the background, and lists
where it differs with the cost in points; the three costliest are marked; it
stops when the player moves on."""

from __future__ import annotations

import sys
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server.test_variants import Player, plant, planted_match  # a moon planted on the table

from hearts.cards import card_name, parse_card
from hearts.rules import Rules
from hearts.server.coach import analysis

SMALL = 48  # playouts: a quick analysis for the tests


def _highest(state: Any) -> Any:
    return max(state["hand"]["legal"], key=lambda c: "23456789TJQKA".index(c[0]))


def _lowest(state: Any) -> Any:
    return min(state["hand"]["legal"], key=lambda c: "23456789TJQKA".index(c[0]))


def _careless_hand(south: Any) -> Any:
    """A hand where South passes its lowest cards and plays its highest legal card,
    its lowest when it leads (the highest every time shot the moon with the tests'
    first deal: a hand with nothing to analyse)."""
    state = south.state()
    state = south.pass_cards(state, state["hand"]["cards"][:3])
    while state["hand"]["phase"] != "done":
        if state["hand"]["turn"] != "S":
            state = south.step(state)
            continue
        state = south.play(state, _highest(state) if state["hand"]["trick"] else _lowest(state))
    return state


def _wait(south: Any, hand: int, until: str = "done") -> Any:
    deadline = time.monotonic() + 60  # liveness only
    while time.monotonic() < deadline:
        got = south.call("GET", f"/api/analysis/{hand}")
        if got["status"] != "running":
            assert got["status"] == until, got
            return got
        time.sleep(0.05)
    raise AssertionError("the analysis never finished")


def test_the_analysis_lists_where_khó_differs_with_the_cost(south: Any) -> None:
    south.client.app.state.coach.analysis_iterations = SMALL
    _careless_hand(south)
    record = south.call("GET", "/api/hands/1")
    started = south.call("POST", "/api/analysis", {"hand": 1})
    assert started["hand"] == 1 and started["total"] == 14  # the pass and 13 cards
    got = _wait(south, 1)
    assert got["done"] == got["total"] == 14
    steps = analysis.decisions(record, (0, 0, 0, 0))
    by_index = {s.index: s for s in steps}
    found = got["decisions"]
    assert found, "a careless hand has decisions Khó makes otherwise"
    for d in found:
        step = by_index[d["index"]]
        # South's own choice, against Khó's, from South's view then
        if d["kind"] == "play":
            assert d["played"] == record["plays"][d["index"]] and d["played"] != d["best"]
            assert step.view.legal >> parse_card(d["best"]) & 1
            assert d["trick"] == d["index"] // 4 + 1
        else:
            assert sorted(d["played"]) == sorted(record["passes"]["S"]) and d["trick"] == 0
        assert abs(d["cost"] - (d["points"]["played"] - d["points"]["best"])) < 0.011
        # deterministic: the same as Khó's weighing of that view now
        again = analysis.weigh(step.view, step.chosen, SMALL)
        assert again is not None and {**again, "costly": d["costly"]} == d
    # the three costliest with a positive cost are marked, no other
    positive = sorted((d["cost"] for d in found if d["cost"] > 0), reverse=True)
    marked = sorted((d["cost"] for d in found if d["costly"]), reverse=True)
    assert marked == positive[:3]
    # in the hand's order
    order = [-1 if d["index"] is None else d["index"] for d in found]
    assert order == sorted(order)
    # asking again finds the same analysis (no second run)
    assert south.call("POST", "/api/analysis", {"hand": 1}) == got
    assert [card_name(s.chosen) for s in steps if s.kind == "play"] == [
        c for i, c in enumerate(record["plays"]) if i in by_index
    ]


def test_only_finished_hands_are_analysed(south: Any) -> None:
    body = south.call("POST", "/api/analysis", {"hand": 1}, status=404)
    assert body["error"]["code"] == "not_found"
    assert south.call("GET", "/api/analysis/1", status=404)["error"]["code"] == "not_found"
    assert south.call("POST", "/api/analysis", {"hand": 0}, status=400)["error"]["code"] == (
        "bad_request"
    )


def test_the_analysis_stops_when_the_player_moves_on(south: Any) -> None:
    coach = south.client.app.state.coach
    coach.analysis_iterations = 40_000  # seconds of work: still running when the deal comes
    state = _careless_hand(south)
    started = south.call("POST", "/api/analysis", {"hand": 1})
    assert started["status"] == "running"
    south.call("POST", "/api/next-hand", {"version": state["version"]})
    got = south.call("GET", "/api/analysis/1")
    assert got["status"] == "cancelled" and got["done"] < got["total"]
    time.sleep(0.5)
    assert south.call("GET", "/api/analysis/1")["done"] == got["done"]
    # a new one can start on the hand (still hand 1 of this match)
    coach.analysis_iterations = SMALL
    assert south.call("POST", "/api/analysis", {"hand": 1})["status"] == "running"
    _wait(south, 1)


class HeldAnalysis(ThreadPoolExecutor):
    """Bot workers where every weighing of the analysis waits for ``gate`` (noting
    its budget, and how many are in the workers at once); the rest runs at once."""

    def __init__(self) -> None:
        super().__init__(max_workers=3)
        self.gate = threading.Event()
        self.budgets: list[int] = []
        self.weighing = self.most = self.others = 0
        self._lock = threading.Lock()

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        if fn is not analysis.weigh:
            self.others += 1
            return super().submit(fn, *args, **kwargs)
        self.budgets.append(args[2])

        def held() -> Any:
            with self._lock:
                self.weighing += 1
                self.most = max(self.most, self.weighing)
            try:
                assert self.gate.wait(60), "the test never opened the gate"
                raise RuntimeError("not weighed: the test is over")
            finally:
                with self._lock:
                    self.weighing -= 1

        return super().submit(held)


def test_the_analysis_runs_on_a_larger_budget_and_holds_up_no_one(
    app_client: Any, new_south: Any
) -> None:
    """With the server's settings, the analysis weighs on twice Khó's budget, one
    decision at a time in the workers; while its decision is in them another
    player's Khó decides and that player's table goes on."""
    held = HeldAnalysis()
    client = app_client(executor=held)  # the default budget (config.analysis_iterations)
    south = new_south(client)
    south.call("PUT", "/api/settings", {"level": "easy"})
    state = _careless_hand(south)
    assert south.call("POST", "/api/analysis", {"hand": 1})["status"] == "running"
    deadline = time.monotonic() + 30  # liveness only
    while not held.weighing and time.monotonic() < deadline:
        time.sleep(0.02)
    assert held.weighing == 1
    assert held.budgets == [analysis.ITERATIONS]  # the config's default is the analysis's

    other = new_south(client)
    other.call("PUT", "/api/settings", {"level": "hard"})
    passed = other.pass_cards(other.state())
    after = other.step(passed)  # the computers' passes: Khó, in the workers
    assert after["hand"]["phase"] == "play" and held.others >= 1
    # still the first decision of the analysis: one at a time
    assert held.budgets == [analysis.ITERATIONS] and held.most == 1
    assert south.call("GET", "/api/analysis/1")["done"] == 0
    south.call("POST", "/api/next-hand", {"version": state["version"]})
    held.gate.set()


def test_analyses_beyond_the_caps_are_429_with_retry_after(app_client: Any, new_south: Any) -> None:
    """A process runs a few analyses at once, fewer of one address: one more is 429
    analysis_busy with Retry-After (the player's own running one is not counted)."""
    held = HeldAnalysis()
    client = app_client(executor=held)
    coach = client.app.state.coach
    players = [new_south(client) for _ in range(2)]
    for player in players:
        player.call("PUT", "/api/settings", {"level": "easy"})
        _careless_hand(player)
    first, second = players
    assert first.call("POST", "/api/analysis", {"hand": 1})["status"] == "running"
    for caps in ((4, 1), (1, 4)):  # of this address (every test call's), of the process
        coach.analysis_caps = caps
        refused = client.post("/api/analysis", json={"hand": 1}, headers=second.headers)
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["code"] == "analysis_busy"
        assert refused.headers["retry-after"] == "10"
        assert first.call("POST", "/api/analysis", {"hand": 1})["status"] == "running"
    coach.analysis_caps = (2, 2)
    assert second.call("POST", "/api/analysis", {"hand": 1})["status"] == "running"
    held.gate.set()


class Charging(ThreadPoolExecutor):
    """Bot workers whose weighing charges every play 12.6 points, as the search once
    charged the cards of a moon (its playouts seldom carry a moon through)."""

    def __init__(self) -> None:
        super().__init__(max_workers=2)
        self.weighed = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        if fn is not analysis.weigh:
            return super().submit(fn, *args, **kwargs)
        self.weighed += 1
        view, chosen = args[0], args[1]
        index = len(view.plays)
        found = {"kind": "play", "index": index, "trick": index // view.n + 1}
        found |= {"played": card_name(chosen), "best": card_name(chosen), "cost": 12.6}
        found["points"] = {"played": 12.6, "best": 0.0}
        return super().submit(lambda: found)


def test_a_moon_is_measured_by_its_result(app_client: Any, new_south: Any, db_url: str) -> None:
    """South shot the moon: the analysis weighs none of the hand's decisions and
    lists none (no cost for the moon's cards), however the search would charge
    them; South's decisions are still counted."""
    workers = Charging()
    south = new_south(app_client(executor=workers))
    south.call("PUT", "/api/settings", {"level": "easy"})
    south.state()
    plant(db_url, south.token, planted_match(Rules(), [0, 0, 0, 0], 0))
    done = Player(south).play_hand(south.state())
    assert done["hand"]["phase"] == "done" and done["hand"]["moon"] == "S"
    record = south.call("GET", "/api/hands/4")
    steps = analysis.decisions(record, (0, 0, 0, 0))
    assert len(steps) == 13 and all(s.moon for s in steps)
    south.call("POST", "/api/analysis", {"hand": 4})
    got = _wait(south, 4)
    assert got["total"] == got["done"] == 13
    assert got["decisions"] == [] and workers.weighed == 0
