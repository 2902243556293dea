"""Each player's one slot for costly work: Khó's decision at a solo table, a hint,
one decision of an analysis or of Máy đã biết gì.  The table and the coach share
one :class:`CostlySlots`, so a player's costly jobs go one at a time, whoever
asked for them (the player's own Khó goes between an analysis's decisions)."""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncIterator, Callable

import anyio.to_thread


class CostlySlots:
    """The players' slots; ``still_at(player_id, match_id, version)`` (run in a
    thread) tells whether the player's game is still at that version."""

    def __init__(self, still_at: Callable[[int, int | None, int], bool]) -> None:
        self.still_at = still_at
        self._held: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    @contextlib.asynccontextmanager
    async def slot(self, player_id: int) -> AsyncIterator[bool]:
        """The player's one slot for costly work; yields whether it had to wait."""
        held = self._held.get(player_id)
        if held is None:
            held = self._held[player_id] = asyncio.Lock()
        waited = held.locked()
        async with held:
            yield waited

    @contextlib.asynccontextmanager
    async def turn(self, player_id: int, match_id: int | None, version: int) -> AsyncIterator[bool]:
        """Hold the player's slot (for Khó's decision, a hint); yields whether the game
        is still at ``version`` when the turn comes (False: it moved on while this
        waited, so the work would be thrown away)."""
        async with self.slot(player_id) as waited:
            yield not waited or await anyio.to_thread.run_sync(
                self.still_at, player_id, match_id, version
            )
