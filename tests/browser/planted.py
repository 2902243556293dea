"""A hand dealt by the test: written into the server's database for a browser's
token, as the match on its table (the page shows it once reloaded)."""

from __future__ import annotations

from collections.abc import Sequence
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
    data_dir: Path,
    browser_token: str,
    rules: Rules,
    deal: list[int],
    totals: tuple[int, ...],
    passes: Sequence[int] = (),
    plays: Sequence[int] = (),
) -> None:
    """Hand 4 (no pass at four) of a match at ``rules``, dealt ``deal``, after three
    hands that leave the match at ``totals``; each seat's ``passes`` (a mask a seat)
    and ``plays`` already made in it."""
    zero = (0,) * len(totals)
    match = Match(rules, [HandResult(totals, -1), HandResult(zero, -1), HandResult(zero, -1)])
    hand = match.start(HandState(rules, deal, rules.pass_direction(4)))
    for seat, mask in enumerate(passes):
        hand.pass_cards(seat, mask)
    for c in plays:
        hand.play(c)
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


def moon_plays(rules: Rules) -> tuple[list[int], list[int], list[int]]:
    """A deal of hand 4 at ``rules``, its passes (each seat's lowest cards) and a whole
    hand's legal plays in which South takes every point card: South holds the highest
    cards, the others the rest; a search over the plays, pruned as soon as another
    seat takes a point card."""
    size, points = rules.hand_size, rules.point_cards
    deck = [c for c in range(52) if rules.deck >> c & 1]
    south = sorted(deck, key=lambda c: (-(c % 13), -(c // 13)))[:size]
    rest = [c for c in deck if c not in south]
    hands = [south] + [rest[i : i + size] for i in range(0, len(rest), size)]
    held = [sum(1 << c for c in h) for h in hands]  # after the pass
    direction = rules.pass_direction(4)
    # each seat passes the lowest cards of those its receiver then holds
    probe = HandState(rules, held, direction)
    passes = [0] * rules.players
    if probe.phase == "pass":
        for seat in range(rules.players):
            to = probe.receiver(seat)
            passes[seat] = sum(
                1 << c for c in sorted(hands[to], key=lambda c: c % 13)[: rules.pass_count]
            )
    deal = [held[s] & ~passes[probe.passer(s)] | passes[s] for s in range(rules.players)]
    hand = HandState(rules, deal, direction)
    if hand.phase == "pass":
        for seat, mask in enumerate(passes):
            hand.pass_cards(seat, mask)
    else:
        passes = []

    def search() -> bool:
        if any(hand.taken[s] & points for s in range(1, rules.players)):
            return False
        if not hand.hands[hand.turn]:
            return hand.shooter() == 0
        high = hand.turn == 0  # South plays high, the others duck
        for c in sorted(hand.legal_actions(), key=lambda c: -(c % 13) if high else c % 13):
            hand.push(c)
            if search():
                return True
            hand.undo()
        return False

    assert search(), "no moon found"
    return deal, passes, list(hand.plays)


def plant_moon_choice(data_dir: Path, browser_token: str, players: int) -> None:
    """A hand at ``players`` seats, "shooter chooses", that South has just shot the
    moon in: the table waits for South's choice."""
    rules = Rules(players=players, moon="shooter_chooses")
    deal, passes, plays = moon_plays(rules)
    totals = tuple(range(10, 10 * players + 1, 10))
    plant_hand(data_dir, browser_token, rules, deal, totals, passes, plays)
