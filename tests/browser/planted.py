"""A hand dealt by the test: written into the server's database for a browser's
token, as the match on its table (the page shows it once reloaded)."""

from __future__ import annotations

from pathlib import Path

from hearts.cards import parse_card
from hearts.hand import HandState
from hearts.match import HandResult, Match
from hearts.rules import Rules
from hearts.server.store.db import Store
from hearts.server.table.game import Game


def deal_of(hands: list[list[str]]) -> list[int]:
    """Each seat's cards (in play order from South) as the engine's masks."""
    return [sum(1 << parse_card(c) for c in hand) for hand in hands]


def plant_hand(
    data_dir: Path, browser_token: str, rules: Rules, deal: list[int], totals: tuple[int, ...]
) -> None:
    """Hand 4 (no pass at four) of a match at ``rules``, dealt ``deal``, after three
    hands that leave the match at ``totals``."""
    zero = (0,) * len(totals)
    match = Match(rules, [HandResult(totals, -1), HandResult(zero, -1), HandResult(zero, -1)])
    match.start(HandState(rules, deal, "none"))
    store = Store(f"sqlite:///{data_dir / 'hearts.db'}")
    try:
        with store.write() as conn:
            pid = store.player_id(browser_token)
            assert pid is not None
            loaded = store.load(conn, pid)
            store.bump_version(conn, pid, loaded.player.version)
            store.new_match(conn, loaded, lambda key: Game(match=match, match_no=2, deal_key=key))
            loaded.results_saved = len(match.results)
            store.save(conn, loaded)
    finally:
        store.close()
