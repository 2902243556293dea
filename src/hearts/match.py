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
>>> m.hand.is_terminal() and m.result == m.results[-1] and m.hand_number == len(m.results)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from hearts.cards import cards_of, lowest  # noqa: F401  (used in the doctest)
from hearts.hand import HandState
from hearts.rules import ADD_TO_OTHERS, MOON, SUBTRACT_FROM_SELF, MoonScoring, Rules
from hearts.view import PlayerView


@dataclass(frozen=True, slots=True)
class HandResult:
    points: tuple[int, ...]
    shooter: int  # -1 when nobody shot the moon
    #: Every (seat, card) played in the hand, in order: public at the table, the
    #: match's memory in later hands' views (:attr:`PlayerView.earlier`).  Empty in
    #: results saved before it was kept.
    plays: tuple[tuple[int, int], ...] = ()

    def to_json(self) -> dict[str, object]:
        return {
            "points": list(self.points),
            "shooter": self.shooter,
            "plays": [list(p) for p in self.plays],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HandResult:
        plays = tuple((int(s), int(c)) for s, c in data.get("plays", ()))
        return cls(tuple(data["points"]), data["shooter"], plays)

    @property
    def moon(self) -> MoonScoring | None:
        """How the moon was scored (None without one): the shooter's own points
        tell, as only subtracting leaves them at -26 or below (-36 with the J♦)."""
        if self.shooter < 0:
            return None
        return SUBTRACT_FROM_SELF if self.points[self.shooter] <= -MOON else ADD_TO_OTHERS


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
    """Totals and finished hands of a match, and the hand on the table.

    A finished hand stays on the table, scored, until the next deal:
    :attr:`hand_number` is the number of the hand on the table (or of the next to be
    dealt when there is none).
    """

    def __init__(
        self,
        rules: Rules | None = None,
        results: list[HandResult] | tuple[HandResult, ...] = (),
        totals: list[int] | None = None,
        hand: HandState | None = None,
        hand_number: int | None = None,
    ) -> None:
        self.rules = rules or Rules()
        self.results: list[HandResult] = list(results)
        n = self.rules.players
        self.totals: list[int] = (
            list(totals)
            if totals is not None
            else [sum(r.points[s] for r in self.results) for s in range(n)]
        )
        self.hand: HandState | None = hand
        self.hand_number = len(self.results) + 1 if hand_number is None else hand_number

    def copy(self) -> Match:
        return Match(
            self.rules,
            self.results,
            self.totals,
            self.hand.copy() if self.hand is not None else None,
            self.hand_number,
        )

    @property
    def scored(self) -> bool:
        """Whether the hand on the table is finished and in the totals."""
        return self.hand is not None and len(self.results) >= self.hand_number

    @property
    def result(self) -> HandResult | None:
        """The score of the hand on the table, once scored."""
        return self.results[self.hand_number - 1] if self.scored else None

    @property
    def winner(self) -> int:
        return match_winner(self.rules, self.totals) if self.results else -1

    @property
    def over(self) -> bool:
        return self.winner >= 0

    def deal(self, rng: random.Random) -> HandState:
        """Deal the next hand (the one on the table must be finished and scored)."""
        if self.over:
            raise ValueError("the match is over")
        if self.hand is not None and not self.scored:
            raise ValueError("the current hand is not finished")
        return self.start(HandState.deal(self.rules, len(self.results) + 1, rng))

    def start(self, hand: HandState) -> HandState:
        """Play ``hand`` (a given deal) as the next hand of the match."""
        if self.over:
            raise ValueError("the match is over")
        self.hand = hand
        self.hand_number = len(self.results) + 1
        return hand

    def finish_hand(self, moon: str | None = None) -> HandResult:
        """Score the finished hand into the totals (once: again, the same result).

        ``moon``: how the shooter chose to score a moon when the rules let them
        choose; None lets :meth:`Rules.moon_choice` choose (a computer shooter).
        The hand stays on the table until the next deal.
        """
        hand = self.hand
        if hand is None or not hand.is_terminal():
            raise ValueError("no finished hand to score")
        done = self.result
        if done is not None:
            return done
        shooter = hand.shooter()
        if moon is None:
            moon = self.rules.moon_choice(self.totals, hand.penalties(), hand.jd_taker())
        points = hand.points(moon)
        plays = hand.seat_plays()
        result = HandResult(tuple(points), shooter, plays)
        self.results.append(result)
        self.totals = [t + p for t, p in zip(self.totals, points, strict=True)]
        return result

    def view(self, seat: int) -> PlayerView:
        """The hand on the table as ``seat`` sees it, with the totals before it and
        the plays of the match's earlier hands."""
        if self.hand is None:
            raise ValueError("no hand in play")
        totals = self.totals
        done = self.result
        if done is not None:
            totals = [t - p for t, p in zip(totals, done.points, strict=True)]
        earlier = tuple(r.plays for r in self.results[: self.hand_number - 1] if r.plays)
        return self.hand.view(
            seat, hand_number=self.hand_number, totals=tuple(totals), earlier=earlier
        )
