"""A human's actions at any table: a pass, a card, how a moon counts, the next hand.

Every mode applies them here: a solo table (:mod:`hearts.server.solo.tables`, South's
seat), a room of friends and a public table (:mod:`hearts.server.rooms.service`, the
caller's seat).  What differs by mode (who may act, what a deal does to the seats) is
the caller's; the action itself, what it checks and what it changes, is this module's.

>>> from hearts.fairness import HandSeeds, derived_seed
>>> from hearts.rules import Rules
>>> from hearts.server.table.game import Game
>>> game = Game.new(Rules(), 1, HandSeeds(derived_seed(1, "doc")), 1)
>>> no_deal = lambda: None
>>> apply(game, 0, Play("2C"), no_deal)
Traceback (most recent call last):
...
hearts.server.table.game.GameError: wrong_phase
>>> cards = game.state(0, "easy", False)["hand"]["cards"][:3]
>>> apply(game, 0, Pass(cards), no_deal)
>>> game.hand.passes[0].bit_count()
3
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hearts.fairness import HandSeeds
from hearts.server.table.game import Game


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass these cards (``hand.pass_count`` of them, in SPEC's notation)."""

    cards: list[str]


@dataclass(frozen=True, slots=True)
class Play:
    """Play this card."""

    card: str


@dataclass(frozen=True, slots=True)
class Moon:
    """Score the moon this seat shot: ``add_to_others`` or ``subtract_from_self``."""

    choice: str


@dataclass(frozen=True, slots=True)
class NextHand:
    """Deal the next hand (the hand over, the match not), from the table's next seeds
    (docs/fairness.md) with this seat's ``client_seed`` if it sent one."""

    client_seed: str | None = None


HumanAction = Pass | Play | Moon | NextHand


def apply(game: Game, seat: int, action: HumanAction, seeds: Callable[[], HandSeeds]) -> None:
    """``action`` of the human at ``seat`` on ``game``, or a :class:`GameError` (and
    the caller's transaction changes nothing).  ``seeds`` gives the table's next
    deal's seeds: only a next hand asks for them."""
    match action:
        case Pass(cards):
            game.seat_pass(seat, cards)
        case Play(card):
            game.seat_play(seat, card)
        case Moon(choice):
            game.seat_moon(seat, choice)
        case NextHand():
            game.next_hand(seeds())


__all__ = ["HumanAction", "Moon", "NextHand", "Pass", "Play", "apply"]
