"""A player's finished hands and matches, read back: the record of hand n of the
match on the table, and the statistics by the rules each match was played with.

Every match row keeps its rules (``matches.rules``) and every finished hand its
``hearts-hand/1`` record (``hands.record``), so nothing here is written: it reads.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa

from hearts.rules import Rules, RulesError
from hearts.server.store.db import Store, hands, matches, players
from hearts.server.table.game import rules_json


def hand_record(store: Store, player_id: int, number: int) -> dict[str, Any] | None:
    """Hand ``number`` of the player's match on the table, once finished (else None)."""
    found = hand_played(store, player_id, number)
    return None if found is None else found[0]


def hand_played(
    store: Store, player_id: int, number: int
) -> tuple[dict[str, Any], str | None] | None:
    """Hand ``number`` of the player's match on the table, once finished, with the
    computers' level when it ended (None: a hand of a server before 0005)."""
    with store.read() as conn:
        match_id = conn.execute(
            sa.select(players.c.match_id).where(players.c.id == player_id)
        ).scalar()
        if match_id is None:
            return None
        row = conn.execute(
            sa.select(hands.c.record, hands.c.level).where(
                hands.c.match_id == match_id, hands.c.number == number
            )
        ).one_or_none()
    return None if row is None else (dict(json.loads(row.record)), row.level)


def stats_by_rules(store: Store, player_id: int) -> list[dict[str, Any]]:
    """Finished matches grouped by their rules (all five keys): played, won by South,
    South's best final total; the default table first, then by how often played."""
    with store.read() as conn:
        rows = conn.execute(
            sa.select(matches.c.rules, matches.c.winner, matches.c.south_total).where(
                matches.c.player_id == player_id, matches.c.status == "over"
            )
        ).all()
    tables: dict[str, dict[str, Any]] = {}
    for text, winner, south_total in rows:
        try:
            rules = rules_json(Rules.from_json(json.loads(text)))
        except (RulesError, ValueError, TypeError):
            continue  # a row no server wrote: not a table of this game
        key = json.dumps(rules, sort_keys=True)
        row = tables.setdefault(key, {"rules": rules, "played": 0, "won": 0, "best": None})
        row["played"] += 1
        row["won"] += winner == 0
        if south_total is not None and (row["best"] is None or south_total < row["best"]):
            row["best"] = south_total
    default = rules_json(Rules())
    return sorted(tables.values(), key=lambda r: (r["rules"] != default, -r["played"]))
