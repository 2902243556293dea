"""A match: hand after hand until someone reaches the target (SPEC §1.10).

>>> import random
>>> m = Match(Rules(target=30))
>>> rng = random.Random(3)
>>> while not m.over:
...     hand = m.deal(rng)
...     for seat in range(4):
...         if hand.phase == "pass":
...             hand.pass_cards(seat, sum(1 << c for c in list(cards_of(hand.hands[seat]))[:3]))
...     while not hand.is_terminal():
...         hand.play(lowest(hand.legal_mask()))
...     _ = m.finish_hand()
>>> max(m.totals) >= 30 and m.winner == m.totals.index(min(m.totals))
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from hearts.cards import cards_of, lowest  # noqa: F401  (used in the doctest)
from hearts.hand import HandState
from hearts.rules import Rules
from hearts.view import PlayerView


@dataclass(frozen=True, slots=True)
class HandResult:
    points: tuple[int, ...]
    shooter: int  # -1 when nobody shot the moon


def moon_choice(rules: Rules, totals: list[int], shooter: int) -> str:
    """How a shooter who may choose scores the moon: adding 26 to the others,
    unless that ends the match without the shooter alone at the lowest total."""
    if rules.moon != "shooter_chooses":
        return rules.moon
    added = [t + (0 if s == shooter else 26) for s, t in enumerate(totals)]
    if max(added) >= rules.target:
        low = min(added)
        if added[shooter] != low or added.count(low) > 1:
            return "subtract_from_self"
    return "add_to_others"


def match_winner(rules: Rules, totals: list[int] | tuple[int, ...]) -> int:
    """The winning seat once a hand ended with someone at the target; -1 while the
    match goes on (nobody at the target, or a tie for the lowest total)."""
    if max(totals) < rules.target:
        return -1
    low = min(totals)
    if list(totals).count(low) > 1:
        return -1
    return list(totals).index(low)


class Match:
    """Totals and finished hands of a match, and the hand being played."""

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules or Rules()
        self.results: list[HandResult] = []
        self.totals: list[int] = [0] * self.rules.players
        self.hand: HandState | None = None

    @property
    def hand_number(self) -> int:
        """The number of the hand in play (or next to be dealt), from 1."""
        return len(self.results) + 1

    @property
    def winner(self) -> int:
        return match_winner(self.rules, self.totals) if self.results else -1

    @property
    def over(self) -> bool:
        return self.winner >= 0

    def pass_direction(self, hand_number: int) -> str:
        return self.rules.pass_direction(hand_number)

    def deal(self, rng: random.Random) -> HandState:
        if self.over:
            raise ValueError("the match is over")
        if self.hand is not None and not self.hand.is_terminal():
            raise ValueError("the current hand is not finished")
        self.hand = HandState.deal(self.rules, len(self.results) + 1, rng)
        return self.hand

    def start(self, hand: HandState) -> HandState:
        """Play ``hand`` (a given deal) as the next hand of the match."""
        if self.over:
            raise ValueError("the match is over")
        self.hand = hand
        return hand

    def finish_hand(self) -> HandResult:
        """Score the finished hand into the totals."""
        hand = self.hand
        if hand is None or not hand.is_terminal():
            raise ValueError("no finished hand to score")
        shooter = hand.shooter()
        points = hand.points(
            moon_choice(self.rules, self.totals, shooter) if shooter >= 0 else None
        )
        result = HandResult(tuple(points), shooter)
        self.results.append(result)
        self.totals = [t + p for t, p in zip(self.totals, points, strict=True)]
        self.hand = None
        return result

    def view(self, seat: int) -> PlayerView:
        """The current hand as ``seat`` sees it, with the match's totals."""
        if self.hand is None:
            raise ValueError("no hand in play")
        return self.hand.view(seat, hand_number=self.hand_number, totals=tuple(self.totals))
