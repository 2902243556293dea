"""Committed deals checked by the page (docs/fairness.md): its own checker
(static/js/fairness.js, WebCrypto and a shuffle of its own) meets the shared test
vectors; a hand the page dealt with its seed is found dealt as committed, and a
tampered reveal is caught; a hand dealt without its seed is not checkable."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect
from table_page import finish_hand_by_api, new_match_by_api, open_table, state

from hearts.cards import names
from hearts.rules import Rules

pytestmark = pytest.mark.browser

VECTORS = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "fairness_vectors.json").read_text()
)["vectors"]

CHECK_JS = """async ([v, removed]) => {
    const f = await import('/static/js/fairness.js');
    const args = [v.server_seed, v.client_seeds, v.hand_number];
    return {
        commitment: await f.commitmentOf(v.server_seed),
        deck: await f.shuffledDeck(...args, removed),
        deal: await f.dealOf(...args, v.rules.players, removed),
    };
}"""


def test_the_page_s_own_checker_meets_the_shared_vectors(page: Page) -> None:
    open_table(page)
    for v in VECTORS:
        rules = Rules(**v["rules"])
        got = page.evaluate(CHECK_JS, [v, names(rules.removed)])
        assert got["commitment"] == v["commitment"]
        assert got["deck"] == v["deck"]
        assert got["deal"] == [v["deal"][seat] for seat in rules.seats]


def verdict(page: Page) -> str:
    note = page.locator("#result-fairness")
    expect(note).to_be_visible()
    return str(note.get_attribute("data-fairness"))


def test_a_hand_the_page_dealt_is_found_dealt_as_committed(page: Page) -> None:
    open_table(page)  # a new player: the page dealt its first match with its seed
    fair = state(page)["hand"]["fairness"]
    assert len(fair["client_seeds"]) == 1 and len(fair["client_seeds"][0]) == 32
    expect(page.locator("#fairness")).to_contain_text(fair["commitment"][:12])
    finish_hand_by_api(page)
    assert verdict(page) == "ok"
    expect(page.locator("#result-fairness")).to_have_text("Ván này được chia đúng như đã cam kết")
    page.locator("#fairness summary").click()
    expect(page.locator("#fairness")).to_contain_text(fair["client_seeds"][0])


def tampered(change: Any) -> Any:
    """A route handler: the State's reveal changed by ``change(fairness)``."""

    def handle(route: Route) -> None:
        response = route.fetch()
        body = response.json()
        fair = body.get("hand", {}).get("fairness")
        if fair and fair["server_seed"]:
            change(fair)
        route.fulfill(response=response, json=body)

    return handle


def swap_two_cards(fair: dict[str, Any]) -> None:
    seats = list(fair["deal"])
    a, b = fair["deal"][seats[1]], fair["deal"][seats[2]]
    a[0], b[0] = b[0], a[0]


def another_seed(fair: dict[str, Any]) -> None:
    fair["server_seed"] = ("0" if fair["server_seed"][0] != "0" else "1") + fair["server_seed"][1:]


@pytest.mark.parametrize("change", [another_seed, swap_two_cards])
def test_a_tampered_reveal_is_caught(page: Page, change: Any) -> None:
    open_table(page)
    page.route("**/api/state", tampered(change))
    finish_hand_by_api(page)
    assert verdict(page) == "bad"
    expect(page.locator("#result-fairness")).to_contain_text("KHÔNG được chia như đã cam kết")


def test_a_hand_dealt_without_the_page_s_seed_is_not_checkable(page: Page) -> None:
    open_table(page)
    new_match_by_api(page, {})  # an API client that sends no seed
    assert state(page)["hand"]["fairness"]["client_seeds"] == []
    finish_hand_by_api(page)
    assert verdict(page) == "unchecked"
    expect(page.locator("#result-fairness")).to_contain_text("không kiểm tra được")
