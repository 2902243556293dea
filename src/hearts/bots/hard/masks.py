"""The card facts Khó's playouts work on, as int masks, derived from
:mod:`hearts.cards` and :mod:`hearts.rules` (the compiled kernel reads them as
compile-time constants, the reference twin as module globals)."""

from __future__ import annotations

from hearts.cards import (
    HEARTS,
    HEARTS_MASK,
    JACK_DIAMONDS,
    JD_BIT,
    POINT_CARDS,
    QS_BIT,
    QUEEN_SPADES,
    SPADES,
    SUIT_MASKS,
)
from hearts.rules import JD_POINTS, MOON

__all__ = ["JD_POINTS", "MOON"]

QS = QUEEN_SPADES
JD = JACK_DIAMONDS
#: The first heart: a card ``>= FIRST_HEART`` is a heart.
FIRST_HEART = HEARTS * 13
HEARTS_BITS = HEARTS_MASK
NOT_HEARTS = ~HEARTS_MASK
#: K♠ and A♠, the spades above Q♠.
HIGH_SPADES = SUIT_MASKS[SPADES] & ~((QS_BIT << 1) - 1)
#: 2♠ to J♠, the spades below Q♠.
LOW_SPADES = SUIT_MASKS[SPADES] & (QS_BIT - 1)
POINTS = POINT_CARDS
NO_POINTS = ~POINT_CARDS
#: Cards that still change the score (J♦ too, under its rule).
STAKES = POINT_CARDS | JD_BIT
SUIT_BITS = SUIT_MASKS

# The playout policy's weights (its habits' thresholds, not card facts).
VOID_RISK = 6
FLUSH = 6
HEART_DUMP = 4
