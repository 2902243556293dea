"""Hearts: rules engine, computer players and web game.

The core speaks in small ints and bit masks (see :mod:`hearts.cards`); the full
state of a hand is :class:`hearts.hand.HandState`, what one seat knows is
:class:`hearts.view.PlayerView`.
"""

from hearts.cards import card_name, cards_of, mask_of, parse_card
from hearts.hand import HandState
from hearts.legal import IllegalAction
from hearts.match import Match
from hearts.rules import Rules
from hearts.view import PlayerView

__all__ = [
    "HandState",
    "IllegalAction",
    "Match",
    "PlayerView",
    "Rules",
    "card_name",
    "cards_of",
    "mask_of",
    "parse_card",
]
__version__ = "0.1.0"
