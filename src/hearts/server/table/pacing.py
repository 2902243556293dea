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
>>> Pace(0.7).before_computers(hand)
0.7
>>> for _ in range(4):
...     hand.push(min(c for c in range(52) if hand.legal_mask() >> c & 1))
>>> round(Pace(0.7).before_computers(hand), 2)  # a finished trick on the table
2.1
"""

from __future__ import annotations

from dataclasses import dataclass

from hearts.hand import HandState


@dataclass(frozen=True, slots=True)
class Pace:
    """``gap``: seconds between the computers' moves; ``hold``: the gaps a finished
    trick stays on the table."""

    gap: float
    hold: float = 3.0

    def before_computers(self, hand: HandState) -> float:
        """Seconds from the table's last change to the computers' next move."""
        trick_done = bool(hand.plays) and len(hand.plays) % hand.n == 0
        return self.gap * (self.hold if trick_done else 1)
