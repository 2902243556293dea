"""The server's moves at any table, and the one way they are made.

A move is the computers' next decision (every mode's one rule,
:meth:`~hearts.server.table.game.Game.computers_job`) and, at a shared table, what
the server does for a human it waits on and the next deal: a mode says which with
its :class:`Policy`.  :class:`Driver` makes a move: a light level decides in the
move's own transaction; Khó's decision (:class:`Heavy`) is thought in the bot
workers outside any lock or transaction, then applied by a second attempt that
finds the table where Khó saw it, or refuses.  Callers that ask for a table's move
while one is under way join it (a double tap, two tabs, a timer and the sweep).

>>> from hearts.fairness import HandSeeds, derived_seed
>>> from hearts.rules import Rules
>>> game = Game.new(Rules(), 1, HandSeeds(derived_seed(1, "doc")), 1)
>>> make(game, frozenset({0}), "easy", None, SOLO)
Traceback (most recent call last):
...
hearts.server.table.game.GameError: not_computer_turn
>>> made = make(game, frozenset({0}), "easy", None, SHARED)
>>> [seat for seat in range(4) if game.hand.passes[seat]]
[1, 2, 3]
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from hearts.cards import card_name
from hearts.fairness import HandSeeds
from hearts.hand import DONE, PASS, PLAY
from hearts.server.table.computers import Choices, Heavy, decide, decide_here
from hearts.server.table.game import Game, Job

R = TypeVar("R")

#: Vừa decides for a human a shared table waits on.
AUTO_LEVEL = "medium"


@dataclass(frozen=True, slots=True)
class Policy:
    """What the server moves at a table besides its computers' decisions."""

    #: a human the table waits on is decided for when the move falls due (a shared
    #: table's timer); else the move is the computers' only, and they pass once the
    #: humans have (a solo page asks for each move: a human's is refused)
    plays_for_away: bool
    #: the server deals the next hand when one is over (else a human's NextHand does)
    deals: bool


#: A solo table: its page asks for each computer's move.
SOLO = Policy(plays_for_away=False, deals=False)
#: A room of friends, a public table: the server keeps the time, the table goes on.
SHARED = Policy(plays_for_away=True, deals=True)


@dataclass(frozen=True, slots=True)
class Decision:
    """Khó's choices for the job it was given, made on the table at ``at``."""

    choices: Choices
    at: int | None


@dataclass
class Made:
    """What a move did besides the computers' own decisions (a shared table's record)."""

    #: the decisions made for humans the table waited on: {"seat", "step", "card"}
    auto: list[dict[str, Any]] = field(default_factory=list)
    #: the seat whose moon was counted as a computer would choose
    moon_for: int | None = None
    dealt: bool = False


def make(
    game: Game,
    humans: frozenset[int],
    level: str,
    decided: Decision | None,
    policy: Policy,
    at: int | None = None,
    seeds: Callable[[], HandSeeds] | None = None,
) -> Made:
    """The table's next move on ``game`` (its computers at ``level``; ``decided``:
    Khó's choices when they were thought outside, else a light level decides here or
    :class:`Heavy` is raised with ``at``); a :class:`GameError` when the policy gives
    the server no move now.  ``seeds`` gives the next deal's seeds (where the policy
    deals)."""
    if not policy.plays_for_away:
        _computers(game, game.computer_job(humans), level, decided, at)
        return Made()
    job = game.computers_job(humans)
    if job is not None:
        _computers(game, job, level, decided, at)
        return Made()
    hand = game.hand
    if hand.phase == PASS:
        waiting = [s for s in sorted(humans) if not hand.passes[s]]
        job = Job("pass", tuple(game.match.view(s) for s in waiting))
        game.apply_computer(job, decide(AUTO_LEVEL, job))
        return Made(auto=[{"seat": s, "step": "pass", "card": None} for s in waiting])
    if hand.phase == PLAY:
        seat = hand.turn
        job = Job("play", (game.match.view(seat),))
        before = len(hand.plays)
        game.apply_computer(job, decide(AUTO_LEVEL, job))
        return Made(auto=[{"seat": seat, "step": "play", "card": card_name(hand.plays[before])}])
    if hand.phase == DONE and game.moon_pending:
        shooter = hand.shooter()
        game.match.finish_hand()  # as a computer shooter would choose
        return Made(moon_for=shooter)
    if not policy.deals or seeds is None:
        raise AssertionError("a table that deals no hand waits for a human")
    game.next_hand(seeds())
    return Made(dealt=True)


def _computers(game: Game, job: Job, level: str, decided: Decision | None, at: int | None) -> None:
    choices = decided.choices if decided is not None else decide_here(level, job, at)
    game.apply_computer(job, choices)


class Driver(Generic[R]):
    """Makes the tables' moves, one at a time per table."""

    def __init__(self) -> None:
        self._moving: dict[Hashable, asyncio.Future[R]] = {}

    def moving(self, key: Hashable) -> bool:
        """Whether the table ``key``'s move is under way."""
        return key in self._moving

    def move(
        self,
        key: Hashable,
        attempt: Callable[[Decision | None], Awaitable[R]],
        think: Callable[[Heavy], Awaitable[Choices]],
    ) -> tuple[asyncio.Future[R], bool]:
        """The move of the table ``key`` under way, or a new one: ``attempt(None)``,
        and where it raises :class:`Heavy`, ``attempt`` again with what ``think``
        (the bot workers; the mode may first wait for its turn there) decided.  (The
        future, whether this call started it.)  Await it shielded: a caller that
        goes away does not cancel it for the others."""
        under_way = self._moving.get(key)
        if under_way is not None:
            return under_way, False
        started = asyncio.ensure_future(self._make(attempt, think))
        self._moving[key] = started
        started.add_done_callback(lambda done: self._done(key, done))
        return started, True

    def _done(self, key: Hashable, done: asyncio.Future[R]) -> None:
        self._moving.pop(key, None)
        if not done.cancelled():
            done.exception()  # its callers were told; a caller gone is no error to log

    @staticmethod
    async def _make(
        attempt: Callable[[Decision | None], Awaitable[R]],
        think: Callable[[Heavy], Awaitable[Choices]],
    ) -> R:
        try:
            return await attempt(None)
        except Heavy as heavy:
            decided = Decision(await think(heavy), heavy.at)
        return await attempt(decided)


__all__ = ["AUTO_LEVEL", "SHARED", "SOLO", "Decision", "Driver", "Made", "Policy", "make"]
