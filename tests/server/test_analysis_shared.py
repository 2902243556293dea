"""Phân tích kept in the database (analysisdb.py): two app instances on one database
(two server processes) answer an analysis the same; one whose process went silent is
taken over by the next one asked and ends with the findings of one uninterrupted
run; moving on through one instance stops the search running in the other."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest

from hearts.server.coach import analysis
from hearts.server.coach import analysis_store as analysisdb

pytestmark = pytest.mark.both_databases(
    "two apps on one database hand an analysis over through its rows"
)

SMALL = 48  # playouts: a quick analysis for the tests
LIVE = 60.0  # seconds: a liveness bound only


def _careless_hand(south: Any) -> Any:
    """A hand where South passes its lowest cards and plays its highest legal card,
    its lowest when it leads (test_analysis.py's: decisions Khó makes otherwise, and
    no moon, which has nothing to analyse)."""
    state = south.state()
    state = south.pass_cards(state, state["hand"]["cards"][:3])
    while state["hand"]["phase"] != "done":
        if state["hand"]["turn"] == "S":
            pick = max if state["hand"]["trick"] else min
            card = pick(state["hand"]["legal"], key=lambda c: "23456789TJQKA".index(c[0]))
            state = south.play(state, card)
        else:
            state = south.step(state)
    return state


class Stalling(ThreadPoolExecutor):
    """A bot pool that runs the first ``runs`` jobs and then hangs (a process that
    stopped answering: killed, or frozen)."""

    def __init__(self, runs: int) -> None:
        super().__init__(max_workers=1)
        self.runs = runs
        self.submitted = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.submitted += 1
        if self.submitted > self.runs:
            return Future()  # never done
        return super().submit(fn, *args, **kwargs)


def _poll(south: Any, hand: int, until: Callable[[Any], bool]) -> Any:
    deadline = time.monotonic() + LIVE
    while time.monotonic() < deadline:
        got = south.call("GET", f"/api/analysis/{hand}")
        if until(got):
            return got
        time.sleep(0.05)
    raise AssertionError(f"the analysis never got there: {got}")


def _expected(record: Any) -> list[Any]:
    """The findings of one uninterrupted analysis at the SMALL budget."""
    found = [analysis.weigh(s.view, s.chosen, SMALL) for s in analysis.decisions(record, (0,) * 4)]
    a = analysis.Analysis(1, 0, 1, total=len(found), found=[f for f in found if f is not None])
    return list(a.to_json()["decisions"])


def test_an_analysis_made_by_one_process_is_read_by_another(
    south: Any, app_client: Any, new_south: Any
) -> None:
    south.client.app.state.coach.analysis_iterations = SMALL
    _careless_hand(south)
    other = new_south(app_client(), south.token)  # the same browser, the other process
    assert other.call("GET", "/api/analysis/1", status=404)["error"]["code"] == "not_found"
    started = south.call("POST", "/api/analysis", {"hand": 1})
    assert started["status"] == "running"
    seen = _poll(other, 1, lambda got: got["status"] == "done")
    assert seen == south.call("GET", "/api/analysis/1")
    assert seen["done"] == seen["total"] == 14
    assert seen["decisions"] == _expected(south.call("GET", "/api/hands/1"))
    # asked again through the other process: the same analysis, not a second run
    assert other.call("POST", "/api/analysis", {"hand": 1}) == seen
    assert not other.client.app.state.coach._analysing


def test_a_silent_process_s_analysis_is_taken_over(
    db_url: str, app_client: Any, new_south: Any
) -> None:
    stalling = Stalling(runs=3)
    first = app_client(executor=stalling)
    coach = first.app.state.coach
    coach.analysis_iterations = SMALL
    coach.analysis_heartbeat = 3600.0  # it hangs: no heartbeat either
    south = new_south(first)
    south.call("PUT", "/api/settings", {"level": "easy"})
    _careless_hand(south)
    south.call("POST", "/api/analysis", {"hand": 1})
    # the 4th decision hangs; the 3rd one's write may land just after it was sent
    hung = _poll(south, 1, lambda got: stalling.submitted > 3 and got["done"] >= 3)
    assert hung["status"] == "running" and hung["done"] == 3

    second = app_client()
    second.app.state.coach.analysis_stale = 0.5
    other = new_south(second, south.token)
    time.sleep(0.6)
    got = _poll(other, 1, lambda got: got["status"] != "running")
    assert got["status"] == "done" and got["done"] == got["total"] == 14
    # the 3 decisions weighed before and the 11 after: one uninterrupted run's findings
    assert got["decisions"] == _expected(south.call("GET", "/api/hands/1"))
    assert stalling.submitted == 4  # the silent process weighed nothing more
    assert south.call("GET", "/api/analysis/1") == got


def test_moving_on_in_one_process_stops_the_search_in_the_other(
    db_url: str, app_client: Any, new_south: Any
) -> None:
    first = app_client(executor=Stalling(runs=0))  # still weighing the first decision
    coach = first.app.state.coach
    coach.analysis_heartbeat = 0.1
    south = new_south(first)
    south.call("PUT", "/api/settings", {"level": "easy"})
    state = _careless_hand(south)
    south.call("POST", "/api/analysis", {"hand": 1})
    assert coach._analysing
    other = new_south(app_client(), south.token)
    other.call("POST", "/api/next-hand", {"version": state["version"]})
    deadline = time.monotonic() + LIVE
    while coach._analysing and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not coach._analysing, "the first process is still searching"
    got = south.call("GET", "/api/analysis/1")
    assert got["status"] == "cancelled" and got["done"] == 0
    assert other.call("GET", "/api/analysis/1") == got


def test_a_process_that_stops_leaves_its_analysis_to_another_at_once(
    db_url: str, app_client: Any, new_south: Any
) -> None:
    from fastapi.testclient import TestClient

    from hearts.server.app import create_app

    stalling = Stalling(runs=2)
    with TestClient(create_app(db_url, seed=1, executor=stalling)) as first:
        first.app.state.coach.analysis_iterations = SMALL
        south = new_south(first)
        south.call("PUT", "/api/settings", {"level": "easy"})
        _careless_hand(south)
        south.call("POST", "/api/analysis", {"hand": 1})
        _poll(south, 1, lambda _got: stalling.submitted > 2)
    # stopped (its lifespan ended): the next process asked goes on with it, with no
    # wait for its heartbeat to go stale (analysisdb.STALE)
    other = new_south(app_client(), south.token)
    assert other.client.app.state.coach.analysis_stale == analysisdb.STALE
    got = other.call("GET", "/api/analysis/1")
    assert got["status"] == "running" and got["done"] == 2
    assert other.client.app.state.coach._analysing  # taken over here
    done = _poll(other, 1, lambda got: got["status"] != "running")
    assert done["decisions"] == _expected(other.call("GET", "/api/hands/1"))
