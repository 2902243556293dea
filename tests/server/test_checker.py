"""Cảnh báo nước đi (POST /api/check): the cards of South's play that Khó's search
rates clearly worse than its own choice (the hint's card), beyond the search's
noise, each with a line; no action (the version stays), not a hint; refused (409)
outside South's play or on a stale version."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hearts.bots.base import get_bot
from hearts.bots.hard import HardBot
from hearts.cards import card_name, cards_of, parse_card
from hearts.hand import HandState
from hearts.rules import Rules
from hearts.server.coach import checker, hint
from hearts.server.table.game import Checker
from hearts.view import PlayerView


def _view(south: Any) -> PlayerView:
    store = south.client.app.state.tables.store
    with store.read() as conn:
        loaded = store.load(conn, store.player_id(south.token))
    assert loaded.game is not None
    return loaded.game.south_view()


def _check(south: Any, state: Any, status: int = 200) -> Any:
    return south.call("POST", "/api/check", {"version": state["version"]}, status=status)


def _souths_turn(s: Any) -> bool:
    h = s["hand"]
    return bool(h["phase"] == "play" and h["turn"] == "S" and len(h["legal"]) >= 2)


def _flagged_position(south: Any) -> tuple[Any, Any]:
    """The first of South's turns (South playing its lowest card) whose check flags
    a card: the State and the check."""
    state = south.pass_cards(south.state())
    for _ in range(8):  # hands
        while state["hand"]["phase"] != "done":
            state = south.play_hand(state, until=_souths_turn)
            if state["hand"]["phase"] == "done":
                break
            got = _check(south, state)
            if got["flagged"]:
                return state, got
            state = south.play(state)
        state = south.call("POST", "/api/next-hand", {"version": state["version"]})
        if state["hand"]["phase"] == "pass":
            state = south.pass_cards(state)
    raise AssertionError("no card flagged in 8 hands")


def test_a_clearly_worse_card_is_flagged_and_khos_own_card_is_not(south: Any) -> None:
    state, got = _flagged_position(south)
    view = _view(south)
    w = HardBot().weigh_play(view)
    # Khó's choice is the hint's card, never flagged; the version did not move.
    assert got["card"] == card_name(w.choice) and got["card"] not in got["flagged"]
    assert got["version"] == state["version"] == south.state()["version"]
    assert south.state()["match"]["hints"] == 0
    kept = checker.kept_for(view, set(w.options))
    for name, flag in got["flagged"].items():
        assert name in state["hand"]["legal"]
        option = kept[parse_card(name)]
        # Beyond the search's noise, in Khó's measure (points, moons counted).
        gap = hint.moon_points(view, w, option) - hint.moon_points(view, w, w.choice)
        assert gap > checker.CHECK_POINTS
        assert flag["why"] in checker.CHECK_CODES and flag["measure"] in ("points", "moon")
        assert hint.label(w.choice) in flag["line"] and "trung bình +" in flag["line"]
        assert list(flag["figures"]) == [card_name(option), got["card"]]
        figures = list(flag["figures"].values())
        assert figures[0] - figures[1] > 0  # the line's "+": the card costs more
    # Not flagged: every card the search rated within its noise.
    for card in cards_of(view.legal):
        option = kept[card]
        gap = hint.moon_points(view, w, option) - hint.moon_points(view, w, w.choice)
        assert (card_name(card) in got["flagged"]) == (gap > checker.CHECK_POINTS)
    # The same position, the same check; the hint's card plays as it is.
    assert _check(south, state) == got
    hinted = south.call("POST", "/api/hint", {"version": state["version"]})
    assert hinted["card"] == got["card"]
    south.play(hinted["state"], got["card"])


def test_the_check_is_in_the_callers_language(south: Any) -> None:
    state, got = _flagged_position(south)
    headers = {**south.headers, "X-Hearts-Lang": "en"}
    body = {"version": state["version"]}
    english = south.client.post("/api/check", headers=headers, json=body).json()
    assert english["flagged"].keys() == got["flagged"].keys()
    for flag in english["flagged"].values():
        assert "more points on average" in flag["line"], flag["line"]


def test_no_check_outside_souths_play_or_on_a_stale_version(south: Any) -> None:
    state = south.state()
    assert state["hand"]["phase"] == "pass"
    assert _check(south, state, status=409)["error"]["code"] == "wrong_phase"
    moved = south.pass_cards(state)
    body = _check(south, state, status=409)
    assert body["error"]["code"] == "stale" and body["state"]["version"] == moved["version"]
    state = south.play_hand(moved, until=lambda s: s["hand"]["turn"] not in (None, "S"))
    assert _check(south, state, status=409)["error"]["code"] == "not_your_turn"


def test_a_card_is_judged_by_the_weighed_card_of_its_run() -> None:
    """Cards with nothing between them but cards gone play alike: the search weighs
    the lowest of the run, and the check judges the others by it."""
    rng, bot = random.Random(3), get_bot("medium")
    for _ in range(50):
        state = HandState.deal(Rules(), 4, rng)
        while not state.is_terminal():
            view = state.view(state.turn, hand_number=4, totals=(0, 0, 0, 0))
            options = set(HardBot().play_candidates(view)) if state.turn == 0 else set()
            kept = checker.kept_for(view, options)
            if options and len(options) < view.legal.bit_count():
                assert set(kept) == set(cards_of(view.legal))
                assert set(kept.values()) == options
                for card, option in kept.items():
                    assert card // 13 == option // 13 and option <= card
                return
            state.play(bot.choose_play(view))
    pytest.fail("no run of equal cards")


def test_the_match_counts_the_cards_played_with_the_checker_and_its_questions(
    south: Any,
) -> None:
    state = south.pass_cards(south.state())
    assert state["match"]["checker"] == {"plays": 0, "asked": 0}
    modes = ["on", "asked", "on", None]
    for mode in modes:
        state = south.play_hand(state, until=_souths_turn)
        card = state["hand"]["legal"][0]
        body = {"version": state["version"], "card": card, "checker": mode}
        state = south.call("POST", "/api/play", body)
    assert state["match"]["checker"] == {"plays": 3, "asked": 1}
    assert south.state()["match"]["checker"] == {"plays": 3, "asked": 1}  # kept
    bad = {"version": state["version"], "card": "2C", "checker": "maybe"}
    assert south.call("POST", "/api/play", bad, status=400)["error"]["code"]


@pytest.mark.parametrize(
    ("modes", "clean"),
    [
        (["on", "on"], True),
        (["on", "asked"], False),
        (["on", None, "on"], False),
        ([], False),  # no card of South's checked
    ],
)
def test_a_clean_match_is_checked_throughout_and_never_asked(
    modes: list[str | None], clean: bool
) -> None:
    record = Checker()
    for mode in modes:
        record = record.after(mode)
    assert record.clean is clean
    assert record.plays == sum(m is not None for m in modes)
