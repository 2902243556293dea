"""Committed deals (docs/fairness.md) through the API: every State promises the next
deal's seed by its commitment, the deal is the function of that seed and the
browser's, the seed is revealed once the hand is over and kept across a restart.
With a server seed (``--seed``), deals are reproducible but every player has its own."""

from __future__ import annotations

import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from processes import kill_group

sys.path.insert(0, str(Path(__file__).resolve().parent))
from live_server import serve_secretly

from hearts.cards import names
from hearts.fairness import ServerSeeds, commitment, deal
from hearts.record import validate
from hearts.rules import Rules
from hearts.server.app import create_app

SEED = "0123456789abcdef0123456789abcdef"


def first_deals(url: str, new_south: Callable[..., Any], tokens: int) -> list[list[str]]:
    """South's cards of the first deal of ``tokens`` new tokens, then of token 1's
    second match, on a server seeded 1."""
    app = create_app(url, seed=1, executor=ThreadPoolExecutor(1), prune_every=None)
    with TestClient(app) as client:
        players = [new_south(client) for _ in range(tokens)]
        deals = [p.state()["hand"]["cards"] for p in players]
        first = players[0].state()
        second = players[0].call("POST", "/api/new-match", {"version": first["version"]})
        return [*deals, second["hand"]["cards"]]


@pytest.mark.both_databases("player ids from each database's own sequence")
def test_two_tokens_get_different_deals_and_a_fresh_server_the_same_again(
    fresh_db_url: str, tmp_path: Any, new_south: Callable[..., Any]
) -> None:
    deals = first_deals(fresh_db_url, new_south, 3)
    assert len({tuple(d) for d in deals}) == len(deals)  # no match repeats another's deal
    # Reproducible: the same seed on another fresh database deals the same again.
    assert first_deals(f"sqlite:///{tmp_path / 'again.db'}", new_south, 3) == deals
    # The seed fixes the server seeds: player 1's first, then the one after it.
    seeds = ServerSeeds(1)
    first = seeds.first("player:1")
    for cards, server_seed in ((deals[0], first), (deals[3], seeds.after(first))):
        south = deal(Rules(), server_seed, [], 1)[0]
        assert sorted(cards) == sorted(names(south))


def finish(south: Any, state: dict[str, Any]) -> dict[str, Any]:
    """Play the hand out, checking that no answer holds its server seed before."""
    secret = None
    while state["hand"]["phase"] != "done":
        assert state["hand"]["fairness"]["server_seed"] is None
        state = south.advance(state)
        secret = state["hand"]["fairness"]["server_seed"]
    assert secret is not None
    return state


def test_a_deal_is_the_function_of_the_promised_seed_and_the_browser_s(south: Any) -> None:
    state = south.state()  # the first match: dealt with no client seed
    assert state["hand"]["fairness"]["client_seeds"] == []
    promised = state["fairness"]["next_commitment"]
    state = south.call("POST", "/api/new-match", {"version": state["version"], "client_seed": SEED})
    fair = state["hand"]["fairness"]
    assert fair["commitment"] == promised and fair["client_seeds"] == [SEED]
    assert fair["server_seed"] is None and fair["deal"] is None and fair["deal_seat"] == 0
    assert state["fairness"]["next_commitment"] != promised  # a new seed for the next deal
    dealt = state["hand"]["cards"]
    state = finish(south, state)
    fair = state["hand"]["fairness"]
    assert commitment(fair["server_seed"]) == promised
    masks = deal(Rules(), fair["server_seed"], [SEED], 1)
    assert fair["deal"] == {seat: names(m) for seat, m in zip("SWNE", masks, strict=True)}
    assert sorted(fair["deal"]["S"]) == sorted(dealt)
    record = south.call("GET", "/api/hands/1")
    assert record["fairness"] == {k: fair[k] for k in ("commitment", "client_seeds", "server_seed")}
    validate(record)  # hearts validate checks the seeds too
    promised = state["fairness"]["next_commitment"]
    state = south.call("POST", "/api/next-hand", {"version": state["version"], "client_seed": "ab"})
    assert state["hand"]["fairness"]["commitment"] == promised
    assert state["hand"]["fairness"]["client_seeds"] == ["ab"]


@pytest.mark.parametrize("seed", ["", "AB", "xyz", "a" * 65, " ab", 12])
def test_a_bad_client_seed_is_400_and_changes_nothing(south: Any, seed: Any) -> None:
    state = south.state()
    for path in ("/api/new-match", "/api/next-hand"):
        body = south.call("POST", path, {"version": state["version"], "client_seed": seed}, 400)
        code = "bad_request" if not isinstance(seed, str) else "bad_client_seed"
        assert body["error"]["code"] == code
    assert south.state() == state


def test_a_new_player_reads_the_commitment_then_deals_its_first_match(south: Any) -> None:
    promised = south.call("GET", "/api/fairness")
    assert south.call("GET", "/api/fairness") == promised  # nothing dealt, nothing taken
    state = south.call(
        "POST", "/api/new-match", {"version": promised["version"], "client_seed": SEED}
    )
    assert state["match"]["hand_number"] == 1
    assert state["hand"]["fairness"]["commitment"] == promised["next_commitment"]
    assert state["hand"]["fairness"]["client_seeds"] == [SEED]


def test_a_new_player_may_get_the_commitment_with_its_token(client: Any) -> None:
    # One round trip less for a new player's page: the token and its first deal's
    # commitment together; that deal is then the one promised, with the page's seed.
    got = client.post("/api/players", json={"fairness": True}).json()
    auth = {"Authorization": f"Bearer {got['token']}"}
    promised = got["fairness"]
    assert client.get("/api/fairness", headers=auth).json() == promised
    body = {"version": promised["version"], "client_seed": SEED}
    state = client.post("/api/new-match", json=body, headers=auth).json()
    assert state["hand"]["fairness"]["commitment"] == promised["next_commitment"]
    assert state["hand"]["fairness"]["client_seeds"] == [SEED]
    # Not asked (a room's or a transfer's page), the token alone: nothing is stored.
    for asked in (None, {"fairness": False}):
        plain = client.post("/api/players", json=asked).json()
        assert plain["fairness"] is None
        assert client.app.state.tables.store.player_id(plain["token"]) is None
    bad = client.post("/api/players", json={"fairness": "yes"})
    assert bad.status_code == 400, bad.text


@pytest.mark.both_databases("the seeds kept in each database")
def test_the_seeds_are_kept_across_a_restart(db_url: str, new_south: Callable[..., Any]) -> None:
    def app() -> TestClient:
        return TestClient(create_app(db_url, executor=ThreadPoolExecutor(1), prune_every=None))

    with app() as client:
        south = new_south(client)
        state = south.call(
            "POST", "/api/new-match", {"version": south.state()["version"], "client_seed": SEED}
        )
        token = south.token
    with app() as client:  # a new process on the same database (no --seed: secrets)
        south = new_south(client, token)
        again = south.state()
        assert again["hand"]["fairness"] == state["hand"]["fairness"]
        assert again["fairness"] == state["fairness"]
        done = finish(south, again)
        assert (
            commitment(done["hand"]["fairness"]["server_seed"])
            == (state["hand"]["fairness"]["commitment"])
        )


@pytest.mark.slow  # a server starts
def test_a_kill_9_keeps_the_hand_s_commitment_and_the_next(
    tmp_path: Path, new_south: Callable[..., Any]
) -> None:
    proc, url = serve_secretly(tmp_path)
    try:
        token = httpx.post(f"{url}/api/players", timeout=30).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        promised = httpx.get(f"{url}/api/fairness", headers=auth, timeout=30).json()
        body = {"version": promised["version"], "client_seed": SEED}
        before = httpx.post(f"{url}/api/new-match", headers=auth, json=body, timeout=30).json()
    finally:
        kill_group(proc)  # no clean stop
    # the database as the killed server left it, served again
    app = create_app(f"sqlite:///{tmp_path / 'hearts.db'}", executor=ThreadPoolExecutor(1))
    with TestClient(app) as client:
        south = new_south(client, token)
        after = south.state()
        assert after["hand"]["fairness"] == before["hand"]["fairness"]
        assert after["hand"]["fairness"]["commitment"] == promised["next_commitment"]
        assert after["fairness"] == before["fairness"]
        done = finish(south, after)
        assert commitment(done["hand"]["fairness"]["server_seed"]) == promised["next_commitment"]
