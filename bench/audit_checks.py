"""Checks the audit (bench/audit.py) runs on everything its clients are answered: the
one error shape of every refusal, and the committed deals (docs/fairness.md)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import httpx
import sqlalchemy as sa

from hearts.cards import names
from hearts.fairness import commitment, deal
from hearts.rules import Rules
from hearts.server.store.db import token_hash

#: what a refusal's ``error`` object may hold (docs/api.md, Errors)
ERROR_KEYS = {"code", "message", "reason"}


class ErrorShapes:
    """A response hook for the audit's clients: every answer of 400 or more must be
    ``{"error": {"code", "message"[, "reason"]}}`` (beside it only ``state`` or
    ``room``, the current one for a stale action), whatever part meets it."""

    def __init__(self) -> None:
        self.codes: Counter[str] = Counter()
        self.bad = 0
        self.examples: list[str] = []

    async def hook(self, response: httpx.Response) -> None:
        if response.status_code < 400:
            return
        await response.aread()
        problem = shape_problem(response)
        label = f"{response.status_code} {response.request.method} {response.request.url.path}"
        if problem is None:
            self.codes[f"{response.status_code} {response.json()['error']['code']}"] += 1
            return
        self.bad += 1
        self.codes[f"{response.status_code} (bad shape)"] += 1
        if len(self.examples) < 5:
            self.examples.append(f"{label}: {problem}: {response.text[:160]}")

    def client(self, **kwargs: Any) -> httpx.AsyncClient:
        return httpx.AsyncClient(event_hooks={"response": [self.hook]}, **kwargs)


def shape_problem(response: httpx.Response) -> str | None:
    """What is wrong with a refusal's body (None: the one error shape)."""
    try:
        body = response.json()
    except json.JSONDecodeError:
        return "not JSON"
    if not isinstance(body, dict) or not isinstance(body.get("error"), dict):
        return "no error object"
    if set(body) - {"error", "state", "room"}:
        return f"extra keys {sorted(set(body) - {'error', 'state', 'room'})}"
    error = body["error"]
    if not {"code", "message"} <= set(error) <= ERROR_KEYS:
        return f"error keys {sorted(error)}"
    if not isinstance(error["code"], str) or not isinstance(error["message"], str):
        return "code and message are not text"
    if not error["message"].strip():
        return "an empty message"
    return None


def fairness_of_state(state: Any) -> str | None:
    """What is wrong with a State's seeds (None: nothing): no server seed nor deal
    before the hand is over; once over, the seed matches the commitment and every
    seat's dealt cards are the ones ``hearts.fairness.deal`` gives."""
    hand = state["hand"]
    fair = hand.get("fairness")
    if fair is None:
        return "a hand with no fairness"
    if hand["phase"] != "done":
        if fair["server_seed"] is not None or fair["deal"] is not None:
            return f"server seed shown in phase {hand['phase']}"
        return None
    seed = fair["server_seed"]
    if seed is None:
        return "a hand over with no server seed"
    if commitment(seed) != fair["commitment"]:
        return "server seed does not match the commitment"
    rules = Rules.from_json(state["rules"])
    dealt = deal(rules, seed, fair["client_seeds"], state["match"]["hand_number"])
    n = rules.players
    for k, letter in enumerate(state["seats"]):
        if set(names(dealt[(fair["deal_seat"] + k) % n])) != set(fair["deal"][letter]):
            return f"{letter}'s dealt cards are not the seeds' deal"
    return None


def fairness_of_record(data: dict[str, Any], finished: bool) -> str | None:
    """What is wrong with a stored record's seeds: a finished hand's are revealed and
    give its deal (by ``hearts.fairness`` itself, beside ``record.validate``); a hand
    on the table whose record holds its seed, the same (what a response may show is
    the hidden scan's and the states' check)."""
    fair = data.get("fairness")
    if fair is None:
        return "a record with no fairness"
    seed = fair["server_seed"]
    if seed is None:
        return "a finished hand with no server seed" if finished else None
    if commitment(seed) != fair["commitment"]:
        return "server seed does not match the commitment"
    rules = Rules.from_json(data["rules"])
    dealt = deal(rules, seed, fair["client_seeds"], data["hand"])
    for s, seat in enumerate(rules.seats):
        if set(names(dealt[s])) != set(data["deal"][seat]):
            return f"{seat}'s dealt cards are not the seeds' deal"
    return None


def stored_records(url: str, tokens: list[str] | None = None) -> list[dict[str, Any]]:
    """Every hearts-hand/1 record stored (of these tokens' players if given): finished
    hands, and each match's hand on the table."""
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            ids = None
            if tokens is not None:
                hashes = [token_hash(t) for t in tokens]
                ids = conn.execute(
                    sa.text("SELECT id FROM players WHERE token_hash IN :h").bindparams(
                        sa.bindparam("h", expanding=True)
                    ),
                    {"h": hashes},
                ).scalars()
                ids = list(ids)
            out = []
            for table, column in (("hands", "record"), ("matches", "hand_record")):
                query = f"SELECT player_id, {column} FROM {table}"
                for player_id, text in conn.exec_driver_sql(query):
                    if ids is None or player_id in ids:
                        out.append({"table": table, "player": player_id, "record": text})
            return out
    finally:
        engine.dispose()


def deal_key_of_state(state: Any) -> frozenset[str]:
    """South's 13 dealt cards, from any state of the hand."""
    h = state["hand"]
    played = {p["card"] for t in h["tricks"] for p in t["cards"] if p["seat"] == "S"}
    played |= {p["card"] for p in h["trick"] if p["seat"] == "S"}
    dealt = set(h["cards"]) | played | set(h["passed"] or [])
    return frozenset(dealt - set(h["received"] or []))


def plays_of_state(state: Any) -> list[str]:
    h = state["hand"]
    return [p["card"] for t in h["tricks"] for p in t["cards"]] + [p["card"] for p in h["trick"]]
