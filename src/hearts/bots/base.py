"""The one interface every computer player implements.

A bot is given a :class:`~hearts.view.PlayerView` and nothing else: never the
state, never another seat's cards.  It must be deterministic given the view (its
randomness is seeded from ``view.seed()``), so its choice cannot depend on how
the hidden cards lie.
"""

from __future__ import annotations

from typing import Protocol

from hearts.view import PlayerView


class Bot(Protocol):
    #: ``easy`` / ``medium`` / ``hard`` (or a bench-only reference name).
    name: str

    def choose_pass(self, view: PlayerView) -> int:
        """The cards to pass, as a mask of ``view.rules.pass_count`` cards of ``view.hand``."""
        ...

    def choose_play(self, view: PlayerView) -> int:
        """The card to play: one card of ``view.legal``."""
        ...


LEVELS = ("easy", "medium", "hard")


def get_bot(level: str, **options: object) -> Bot:
    """A new bot of ``level`` (``easy``, ``medium``, ``hard``), with its options."""
    if level == "easy":
        from hearts.bots.easy import EasyBot

        return EasyBot(**options)  # type: ignore[arg-type]
    if level == "medium":
        from hearts.bots.medium import MediumBot

        return MediumBot(**options)  # type: ignore[arg-type]
    if level == "hard":
        from hearts.bots.hard import HardBot

        return HardBot(**options)
    raise ValueError(f"unknown bot level {level!r}; choose from {', '.join(LEVELS)}")
