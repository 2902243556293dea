"""A room's table from each seat: the hand turned so that the viewer sits at 0 is the
same hand as the one a hearts-hand/1 record with its seats renamed gives (the
straightforward way), at every step of hands of 3 to 7 seats."""

from __future__ import annotations

import random

import pytest

from hearts.cards import cards_of
from hearts.hand import HandState
from hearts.record import read_record, write_record
from hearts.rules import Rules
from hearts.server.roomview import turned_hand

FIELDS = ("passes", "hands", "phase", "plays", "trick", "leader", "turn", "taken", "winners")
MORE = ("broken", "first_leader", "broken_at", "direction")


def by_record(hand: HandState, viewer: int, number: int) -> HandState:
    letters = hand.rules.seats
    record = write_record(hand, number)
    record.pop("points", None)
    for key in ("deal", "passes"):
        record[key] = {
            letters[(letters.index(k) - viewer) % hand.n]: v for k, v in record[key].items()
        }
    return read_record(record)[0]


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_a_turned_hand_is_the_hand_seen_from_that_seat(players: int) -> None:
    rng = random.Random(players)
    rules = Rules(players=players)
    number = players % 3 + 1  # left, right or across (or none at 4)
    hand = HandState.deal(rules, number, rng)
    while True:
        for viewer in range(players):
            mine, theirs = turned_hand(hand, viewer), by_record(hand, viewer, number)
            assert tuple(mine.deal_masks) == tuple(theirs.deal_masks)
            for name in FIELDS + MORE:
                assert getattr(mine, name) == getattr(theirs, name), name
            assert mine.view(0) == theirs.view(0)
            assert mine.view(0).hand == hand.hands[viewer]
        if hand.phase == "pass":
            seat = next(s for s in range(players) if not hand.passes[s])
            held = list(cards_of(hand.hands[seat]))
            hand.pass_cards(seat, sum(1 << c for c in rng.sample(held, rules.pass_count)))
        elif hand.phase == "play":
            hand.push(rng.choice(list(cards_of(hand.legal_mask()))))
        else:
            return
