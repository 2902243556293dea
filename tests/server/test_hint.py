"""Gợi ý (POST /api/hint): Khó's own pass or card for South, with the mean points
of the options and reasons in Vietnamese; counted per match; refused (409) when
South has nothing to choose or the version is gone."""

from __future__ import annotations

from typing import Any

from hearts.bots.hard import HardBot
from hearts.cards import card_name, cards_of
from hearts.view import PlayerView


def _beside(name: str) -> Any:
    """A test module of this folder (tests/server is not on sys.path)."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _view(south: Any) -> PlayerView:
    store = south.client.app.state.tables.store
    with store.read() as conn:
        loaded = store.load(conn, store.player_id(south.token))
    assert loaded.game is not None
    return loaded.game.south_view()


def _hint(south: Any, state: Any, status: int = 200) -> Any:
    return south.call("POST", "/api/hint", {"version": state["version"]}, status=status)


def _souths_choice(s: Any) -> bool:
    """South to play with a real choice (more than a run of equal cards)."""
    h = s["hand"]
    return bool(h["phase"] == "play" and h["turn"] == "S" and len(h["legal"]) >= 4)


def test_the_hint_is_khos_pass_then_khos_card_and_is_counted(south: Any) -> None:
    state = south.state()
    assert state["hand"]["phase"] == "pass" and state["match"]["hints"] == 0
    got = _hint(south, state)
    view = _view(south)
    want = HardBot().choose_pass(view)
    assert got["card"] is None
    assert sorted(got["cards"]) == sorted(card_name(c) for c in cards_of(want))
    assert set(got["cards"]) <= set(state["hand"]["cards"])
    assert " ".join(card_name(c) for c in cards_of(want)) in got["estimates"]
    assert got["reasons"] and all(isinstance(r, str) and r for r in got["reasons"])
    assert "trung bình" in got["reasons"][-1] and "điểm" in got["reasons"][-1]
    state = got["state"]
    assert state["match"]["hints"] == 1 and state["version"] > 0

    state = south.pass_cards(state, got["cards"])
    state = south.play_hand(state, until=_souths_choice)
    got = _hint(south, state)
    view = _view(south)
    assert got["cards"] is None
    assert got["card"] in state["hand"]["legal"]
    assert got["card"] == card_name(HardBot().choose_play(view))
    assert got["card"] in got["estimates"] and len(got["estimates"]) >= 2
    assert all(k in state["hand"]["legal"] for k in got["estimates"])
    # Counted with the match, kept in the database.
    assert got["state"]["match"]["hints"] == 2
    assert south.state()["match"]["hints"] == 2
    # The hinted card is playable as it is.
    after = south.play(got["state"], got["card"])
    assert after["match"]["hints"] == 2


def test_the_same_position_gets_the_same_hint(south: Any) -> None:
    state = south.play_hand(south.pass_cards(south.state()), until=_souths_choice)
    first = _hint(south, state)
    second = _hint(south, first["state"])  # the same position, a later version
    assert {k: v for k, v in first.items() if k != "state"} == {
        k: v for k, v in second.items() if k != "state"
    }
    assert second["state"]["match"]["hints"] == 2


def test_a_hint_on_a_stale_version_is_409_with_the_state(south: Any) -> None:
    state = south.state()
    moved = south.pass_cards(state)
    body = _hint(south, state, status=409)
    assert body["error"]["code"] == "stale"
    assert body["state"]["version"] == moved["version"]
    assert body["state"]["match"]["hints"] == 0


def test_no_hint_when_south_has_nothing_to_choose(south: Any) -> None:
    state = south.pass_cards(south.state())  # passed: the computers have not yet
    body = _hint(south, state, status=409)
    assert body["error"]["code"] == "wrong_phase" and "state" not in body
    state = south.play_hand(state, until=lambda s: s["hand"]["turn"] not in (None, "S"))
    body = _hint(south, state, status=409)
    assert body["error"]["code"] == "not_your_turn"
    state = south.play_hand(state)
    body = _hint(south, state, status=409)
    assert body["error"]["code"] == "wrong_phase"
    assert south.state()["match"]["hints"] == 0


def test_hints_asked_together_share_one_search_and_hold_up_no_one(db_url: str) -> None:
    """Eight hints at one version: one search in the workers (while it runs, another
    player plays on), one hint counted and answered, the others 409 stale."""
    import asyncio

    import httpx

    flight = _beside("test_single_flight")  # its gated workers and browsers
    Browser, run_on_app, until = flight.Browser, flight.run_on_app, flight.until

    async def scenario(c: httpx.AsyncClient, workers: Any) -> None:
        asker = await Browser.new(c, "easy")
        other = await Browser.new(c, "easy")
        s = (await asker.call("GET", "/api/state")).json()
        v = s["version"]
        hints = [
            asyncio.ensure_future(asker.call("POST", "/api/hint", {"version": v})) for _ in range(8)
        ]
        await until(lambda: workers.calls >= 1)
        await asyncio.sleep(0.3)  # every hint has reached the search by now
        w = await other.passed()  # not held up by the search in progress
        r = await asyncio.wait_for(other.call("POST", "/api/step", {"version": w}), 30)
        assert r.status_code == 200
        workers.gate.set()
        answers = await asyncio.gather(*hints)
        codes = sorted(a.status_code for a in answers)
        assert codes == [200] + [409] * 7, codes
        assert workers.calls == 1
        (ok,) = [a.json() for a in answers if a.status_code == 200]
        assert len(ok["cards"]) == 3 and ok["state"]["match"]["hints"] == 1
        for a in answers:
            if a.status_code == 409:
                assert a.json()["error"]["code"] == "stale"
                assert a.json()["state"]["match"]["hints"] == 1

    run_on_app(db_url, scenario)


def test_a_check_asked_again_at_its_version_is_answered_by_the_first_search(db_url: str) -> None:
    """A reload (or a late call of a burst) asking at a version already worked out gets
    the same answer, without a second search in the workers."""
    flight = _beside("test_single_flight")
    Browser, run_on_app = flight.Browser, flight.run_on_app

    async def scenario(c: Any, workers: Any) -> None:
        workers.gate.set()
        south = await Browser.new(c, "easy")
        s = (await south.call("POST", "/api/step", {"version": await south.passed()})).json()
        while not (s["hand"]["phase"] == "play" and s["hand"]["turn"] == "S"):
            s = (await south.call("POST", "/api/step", {"version": s["version"]})).json()
        body = {"version": s["version"]}
        first = await south.call("POST", "/api/check", body)
        assert first.status_code == 200 and workers.calls == 1
        again = await south.call("POST", "/api/check", body)
        assert again.status_code == 200 and again.json() == first.json()
        assert workers.calls == 1

    run_on_app(db_url, scenario)
