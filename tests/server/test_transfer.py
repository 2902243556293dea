"""Chuyển sang máy khác (issue 39, item 17) through the API: a one-time code moves a
player's match, statistics and achievements to another browser; the old browser is
told (410 ``moved``) and may start afresh; a reused, expired, guessed or malformed
code is refused and changes nothing; claims are limited per address."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hearts.server.players import transfer

South = Any  # tests/server/conftest.py's South: one browser
pytestmark = pytest.mark.both_databases("the claim's SQL: a token replaced, a code used once")

CODE = re.compile(r"[A-HJKMNP-TV-Z2-9]{5}-[A-HJKMNP-TV-Z2-9]{5}-[A-HJKMNP-TV-Z2-9]{5}")


def new_code(player: South) -> str:
    got = player.call("POST", "/api/transfer")
    assert got["expires_in"] == 600
    assert CODE.fullmatch(got["code"]), got
    return str(got["code"])


def claim(client: TestClient, code: str, status: int = 200, claim_id: str | None = None) -> Any:
    body = {"code": code} if claim_id is None else {"code": code, "claim_id": claim_id}
    response = client.post("/api/transfer/claim", json=body)
    assert response.status_code == status, response.text
    assert response.headers["cache-control"] == "no-store"
    return response.json()


def played(south: South) -> Any:
    """South's match after a finished hand (statistics, maybe achievements)."""
    state = south.play_hand(south.state())
    return south.call("POST", "/api/next-hand", {"version": state["version"]})


def test_a_code_moves_the_match_statistics_and_achievements(
    client: TestClient, south: South, new_south: Callable[..., South]
) -> None:
    state = played(south)
    stats = south.call("GET", "/api/stats")
    goals = south.call("GET", "/api/achievements")
    other = new_south(client)
    other.state()  # the other browser had its own player: it is replaced

    token = claim(client, new_code(south))["token"]
    moved = new_south(client, token)
    now = moved.state()
    assert now["hand"] == state["hand"] and now["match"] == state["match"]
    assert now["version"] == state["version"] + 1  # what the old browser sent is stale
    assert moved.call("GET", "/api/stats") == stats
    assert moved.call("GET", "/api/achievements") == goals

    # the old browser is told, on every call, and nothing of the player changes
    for method, path, body in [
        ("GET", "/api/state", None),
        ("GET", "/api/stats", None),
        ("POST", "/api/step", {"version": now["version"]}),
        ("POST", "/api/transfer", None),
    ]:
        refused = south.call(method, path, body, status=410)
        assert refused["error"]["code"] == "moved"
    assert moved.state() == now
    # it starts afresh with a new token
    fresh = new_south(client)
    assert fresh.state()["match"]["hand_number"] == 1


def test_a_code_is_used_once(
    client: TestClient, south: South, new_south: Callable[..., South]
) -> None:
    south.state()
    code = new_code(south)
    first = claim(client, code)["token"]
    refused = claim(client, code.lower(), status=410)
    assert refused["error"]["code"] == "transfer_used"
    mover = new_south(client, first)
    assert mover.state()["version"] >= 1


def test_a_lost_answer_is_asked_again_with_the_same_claim_id(
    client: TestClient, south: South, new_south: Callable[..., South]
) -> None:
    """The claim committed but its answer was lost: the page claims again with its
    claim id and gets the same token, which works; any other caller is refused."""
    state = played(south)
    code = new_code(south)
    claim_id, other_id = "0123456789abcdef" * 2, "f" * 32
    first = claim(client, code, claim_id=claim_id)["token"]
    again = claim(client, code.lower().replace("-", ""), claim_id=claim_id)["token"]
    assert again == first
    moved = new_south(client, again)
    now = moved.state()
    assert now["hand"] == state["hand"] and now["match"] == state["match"]
    assert now["version"] == state["version"] + 1  # the repeat moved nothing
    for refused in (claim(client, code, 410, other_id), claim(client, code, 410)):
        assert refused["error"]["code"] == "transfer_used"
    assert south.call("GET", "/api/state", status=410)["error"]["code"] == "moved"

    # moved on again from there (a new code replaces the used one): no token any more
    token = claim(client, new_code(moved))["token"]
    assert claim(client, code, 404, claim_id)["error"]["code"] == "transfer_unknown"
    assert new_south(client, token).state()["version"] == state["version"] + 2


def test_an_expired_code_is_refused(client: TestClient, south: South) -> None:
    state = south.state()
    transfers: transfer.Transfers = client.app.state.transfers  # type: ignore[attr-defined]
    code = new_code(south)
    now = transfers.clock()
    transfers.clock = lambda: now + 601
    refused = claim(client, code, status=410)
    assert refused["error"]["code"] == "transfer_expired"
    assert south.state() == state  # still this browser's


@pytest.mark.parametrize(
    "code",
    [
        "ABCDE-FGHJK-MNPQR",  # well formed, never issued
        "ABCDE-FGHJK-MNPQ",  # short
        "ABCDE-FGHJK-MNPQ0",  # a symbol codes never have
        "",
        "x" * 64,
    ],
)
def test_a_guessed_or_malformed_code_is_refused(
    client: TestClient, south: South, code: str
) -> None:
    state = south.state()
    new_code(south)
    refused = claim(client, code, status=404)
    assert refused["error"]["code"] == "transfer_unknown"
    assert south.state() == state


def test_a_new_code_replaces_the_earlier_one(client: TestClient, south: South) -> None:
    south.state()
    first = new_code(south)
    second = new_code(south)
    assert claim(client, first, status=404)["error"]["code"] == "transfer_unknown"
    claim(client, second)


def test_bad_bodies_and_tokens(client: TestClient) -> None:
    for body in (
        {},
        {"code": 5},
        {"code": "ABCDE", "more": 1},
        {"code": "ABCDE-FGHJK-MNPQR", "claim_id": "0123"},
        {"code": "ABCDE-FGHJK-MNPQR", "claim_id": "G" * 32},
        {"code": "ABCDE-FGHJK-MNPQR", "claim_id": 5},
    ):
        response = client.post("/api/transfer/claim", json=body)
        assert response.status_code == 400, body
        assert response.json()["error"]["code"] == "bad_request", response.text
    assert client.post("/api/transfer").status_code == 403


def test_claims_are_limited_per_address(client: TestClient, south: South) -> None:
    south.state()
    code = new_code(south)  # one try of the address
    for _ in range(transfer.CLAIM_BURST - 1):
        claim(client, "ABCDE-FGHJK-MNPQR", status=404)
    refused = client.post("/api/transfer/claim", json={"code": code})
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "transfer_limited"
    assert 0 < int(refused.headers["retry-after"]) <= math.ceil(transfer.CLAIM_INTERVAL)
    assert south.state()["version"] >= 0  # the right code, refused: still the old browser's


def test_the_retention_removes_expired_codes_and_the_moves_of_removed_players(
    client: TestClient, south: South
) -> None:
    import datetime as dt

    import sqlalchemy as sa

    from hearts.server.store import retention
    from hearts.server.store.db import moved_tokens, transfers

    store = client.app.state.tables.store  # type: ignore[attr-defined]

    def rows() -> tuple[int, int]:
        with store.read() as conn:
            count = sa.select(sa.func.count())
            return (
                conn.execute(count.select_from(transfers)).scalar_one(),
                conn.execute(count.select_from(moved_tokens)).scalar_one(),
            )

    played(south)
    claim(client, new_code(south))
    new_code(south.__class__(client))  # another player's code, unused
    assert rows() == (2, 1)
    retention.prune(store, retention.Policy())
    assert rows() == (2, 1)  # nothing is due yet
    later = dt.datetime.now(dt.UTC) + dt.timedelta(days=401)
    retention.prune(store, retention.Policy(), now=later)
    assert rows() == (0, 0)
