"""With a server seed, deals are reproducible but every match has its own: the
seed is mixed with the match's database id, which no client chooses."""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hearts.match import Match
from hearts.rules import Rules
from hearts.server.app import create_app
from hearts.server.table.game import Game


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


@pytest.mark.both_databases("match ids from each database's own sequence")
def test_two_tokens_get_different_deals_and_a_fresh_server_the_same_again(
    fresh_db_url: str, tmp_path: Any, new_south: Callable[..., Any]
) -> None:
    deals = first_deals(fresh_db_url, new_south, 3)
    assert len({tuple(d) for d in deals}) == len(deals)  # no match repeats another's deal
    # Reproducible: the same seed on another fresh database deals the same again.
    assert first_deals(f"sqlite:///{tmp_path / 'again.db'}", new_south, 3) == deals
    # The first token's first deal is the one release 0.1.0 dealt for seed 1.
    match = Match(Rules())
    match.deal(random.Random("1:1:1"))
    assert deals[0] == Game(match=match, match_no=1).state(1, "medium", False)["hand"]["cards"]
