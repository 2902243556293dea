"""Schemathesis over ``/openapi.json`` (issue 37): requests made from the schema, those
it allows and those it does not, on every operation, with a real token and real room
codes (a room in its lobby, a room in play) as well as without: never a 5xx, and
every refusal in the one error shape. Seeded (derandomized), so a run repeats."""

from __future__ import annotations

import warnings
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.generation.modes import GenerationMode

from hearts.server.app import create_app
from hearts.server.config import Config
from hearts.server.rooms import api as rooms_api

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

pytestmark = pytest.mark.both_databases(
    "the store's SQL under arbitrary input: integer ranges and text differ between them"
)

#: Generated requests of each operation, by mode, for each token and room code (and
#: with neither): some 460 a database, few enough for the suite's time.
EXAMPLES = {GenerationMode.POSITIVE: 3, GenerationMode.NEGATIVE: 2}
#: Stands for a new player's token, made for the request that has it: a join or a
#: room's first call goes as far as for a stranger.
NEW_PLAYER = "new player"
#: The calls whose every answer may be 404 here (no finished hand, no analysis).
NOT_FOUND_HERE = {"/api/hands/{number}", "/api/analysis/{hand}", "/api/analysis"}


@pytest.fixture
def world(db_url: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    """An app (no limit on new tokens and joins: the calls go past them) with a
    player in a match who made a room in its lobby and one in play."""
    monkeypatch.setattr(rooms_api, "POLL_SECONDS", 0.05)  # the long-poll's wait
    app = create_app(
        db_url,
        seed=1,
        executor=ThreadPoolExecutor(max_workers=1),
        room_pace=0.0,
        config=Config(new_player_interval=0),
    )
    with TestClient(app, raise_server_exceptions=False) as client:
        auth = {"Authorization": f"Bearer {client.post('/api/players').json()['token']}"}
        auths = [auth, {"Authorization": NEW_PLAYER}]
        assert client.get("/api/state", headers=auth).status_code == 200
        lobby = client.post("/api/rooms", headers=auth, json={"name": "Lan"}).json()
        playing = client.post("/api/rooms", headers=auth, json={"level": "easy"}).json()
        start = {"version": playing["version"]}
        started = client.post(f"/api/rooms/{playing['code']}/start", headers=auth, json=start)
        assert started.status_code == 200, started.text
        yield client, auths, [lobby["code"], playing["code"]]


def can_be_invalid(operation: Any) -> bool:
    """Whether some request of the operation breaks its schema: it takes a body, or a
    parameter that is more than any text (a room's code is any text)."""
    schemas = [p.definition.get("schema", {}) for p in operation.iter_parameters()]
    return bool(list(operation.body)) or any(s.get("type") != "string" for s in schemas)


def cases(operation: Any, auths: list[dict[str, str]], codes: list[str]) -> Any:
    """Each way to ask the operation: valid and invalid, with a token (the rooms'
    creator's, a new player's) and a real room code, or with neither (a generated
    code, no token); with how many examples."""
    for mode, examples in EXAMPLES.items():
        if mode == GenerationMode.NEGATIVE and not can_be_invalid(operation):
            continue
        yield operation.as_strategy(mode), examples
        for auth in auths:
            for code in codes if "{code}" in operation.path else [None]:
                fixed = {"code": code} if code else None
                yield operation.as_strategy(mode, path_parameters=fixed, headers=auth), examples


def test_no_generated_request_gets_a_server_error(world: Any) -> None:
    client, auths, codes = world
    schema = schemathesis.openapi.from_dict(client.get("/openapi.json").json())
    seen: dict[tuple[str, str], set[int]] = defaultdict(set)

    def send(case: Any) -> None:
        sent = case.as_transport_kwargs(base_url="http://testserver")
        if sent["headers"].get("Authorization") == NEW_PLAYER:
            token = client.post("/api/players").json()["token"]
            sent["headers"]["Authorization"] = f"Bearer {token}"
        response = client.request(
            sent["method"],
            sent["url"],
            params=sent.get("params"),
            headers=sent.get("headers"),
            json=sent.get("json"),
            content=sent.get("data"),
        )
        seen[case.method.upper(), case.path].add(response.status_code)
        where = (sent["method"], sent["url"], sent.get("json"), response.text[:300])
        assert response.status_code < 500, where
        if response.status_code >= 400:
            error = response.json()["error"]
            # a bad record's answer also says why, for the page to word (``reason``)
            assert {"code", "message"} <= set(error) <= {"code", "message", "reason"}, where
            assert error["code"], where

    operations = [result.ok() for result in schema.get_all_operations()]
    for operation in operations:
        for strategy, examples in cases(operation, auths, codes):
            run = settings(
                max_examples=examples,
                derandomize=True,
                database=None,
                deadline=None,
                suppress_health_check=list(HealthCheck),
            )(given(case=strategy)(send))
            run()
    assert len(seen) == len(operations) >= 29  # every operation the schema names was asked
    assert {("GET", "/api/rooms/{code}"), ("POST", "/api/rooms/{code}/play")} <= set(seen)
    documented = client.get("/openapi.json").json()["paths"]
    missing: list[str] = []
    for (method, path), statuses in seen.items():
        if path not in NOT_FOUND_HERE:  # past the token and the room's code
            assert statuses - {403, 404}, (method, path, statuses)
        # every answer the route gave is one the schema says it gives
        said = {int(k) for k in documented[path][method.lower()]["responses"] if k.isdigit()}
        missing.extend(f"{method} {path} {code}" for code in sorted(statuses - said))
    assert missing == [], missing
