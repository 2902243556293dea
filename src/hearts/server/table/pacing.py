"""The one pacing rule of every table: how long the computers' next move waits.

A computer's pass or card comes one ``gap`` after the table's last change; after a
finished trick, ``hold`` gaps, so the trick can be read before it is gathered.  Who
keeps that time is the table's mode (docs/server.md, "Pacing"): at a solo table the
page (it asks ``POST /api/step`` once its gap is shown, so Chơi nhanh and the trick's
hold stay the one player's), at a shared table the server (``Rooms.next_due``), so no
page can rush the others.

>>> from hearts.hand import HandState
>>> from hearts.rules import Rules
>>> import random
>>> hand = HandState.deal(Rules(), 4, random.Random(1))  # no pass: play at once
>>> Pace.of_gap(0.7).before_computers(hand)
0.7
>>> for _ in range(4):
...     hand.push(min(c for c in range(52) if hand.legal_mask() >> c & 1))
>>> round(Pace.of_gap(0.7).before_computers(hand), 2)  # a finished trick on the table
2.1
>>> solo(quick=True).to_api()
{'gap_ms': 220, 'hold_ms': 500}
"""

from __future__ import annotations

from dataclasses import dataclass

from hearts.hand import HandState


@dataclass(frozen=True, slots=True)
class Pace:
    """``gap``: seconds between the computers' moves; ``hold``: seconds a finished
    trick stays on the table."""

    gap: float
    hold: float

    @classmethod
    def of_gap(cls, gap: float, holds: float = 3.0) -> Pace:
        """A shared table's pace: a finished trick held ``holds`` gaps."""
        return cls(gap, gap * holds)

    def before_computers(self, hand: HandState) -> float:
        """Seconds from the table's last change to the computers' next move."""
        trick_done = bool(hand.plays) and len(hand.plays) % hand.n == 0
        return self.hold if trick_done else self.gap

    def to_api(self) -> dict[str, int]:
        """The State's ``settings.pace``: what the page of a solo table waits."""
        return {"gap_ms": round(self.gap * 1000), "hold_ms": round(self.hold * 1000)}


#: A solo table's pace, which its page keeps, and Chơi nhanh's.
SOLO = Pace(0.45, 1.0)
QUICK = Pace(0.22, 0.5)


def solo(quick: bool) -> Pace:
    return QUICK if quick else SOLO
