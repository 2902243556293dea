"""The one driver of the computers' turns (table/driver.py): a table's move is made
once however many callers ask for it, Khó's decision is thought outside and applied by
a second attempt at the version it saw, and a refusal reaches every caller."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from hearts.fairness import HandSeeds, derived_seed
from hearts.rules import Rules
from hearts.server.table import driver
from hearts.server.table.computers import Heavy
from hearts.server.table.game import Game, GameError, Job


def _game() -> Game:
    return Game.new(Rules(), 1, HandSeeds(derived_seed(1, "driver")), 1)


def test_callers_of_one_table_share_its_move_and_khó_thinks_once() -> None:
    attempts: list[Any] = []
    thoughts: list[Heavy] = []

    async def attempt(decided: driver.Decision | None) -> str:
        attempts.append(decided)
        await asyncio.sleep(0.01)
        if decided is None:
            raise Heavy(Job("play", ()), "hard", 7)
        return f"applied {decided.choices} at {decided.at}"

    async def think(heavy: Heavy) -> list[int]:
        thoughts.append(heavy)
        await asyncio.sleep(0.01)
        return [12]

    async def main() -> tuple[list[str], list[bool]]:
        moves = driver.Driver[str]()
        asked = [moves.move("table", attempt, think) for _ in range(3)]
        assert moves.moving("table")
        got = [await asyncio.shield(future) for future, _ in asked]
        assert not moves.moving("table")
        return got, [first for _, first in asked]

    got, first = asyncio.run(main())
    assert got == ["applied [12] at 7"] * 3
    assert first == [True, False, False]
    assert len(thoughts) == 1 and [a is None for a in attempts] == [True, False]


def test_a_refused_move_reaches_every_caller_and_the_next_starts_afresh() -> None:
    calls = 0

    async def attempt(_decided: driver.Decision | None) -> str:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0.01)
        if calls == 1:
            raise GameError("stale")
        return "moved"

    async def think(_heavy: Heavy) -> None:
        raise AssertionError("no Khó here")

    async def main() -> str:
        moves = driver.Driver[str]()
        one, _ = moves.move("t", attempt, think)
        two, joined = moves.move("t", attempt, think)
        assert one is two and not joined
        for future in (one, two):
            with pytest.raises(GameError):
                await asyncio.shield(future)
        again, started = moves.move("t", attempt, think)
        assert started
        return await again

    assert asyncio.run(main()) == "moved"


def test_a_solo_table_moves_only_its_computers_a_shared_one_the_away_human_too() -> None:
    game = _game()
    with pytest.raises(GameError, match="not_computer_turn"):
        driver.make(game, frozenset({0}), "easy", None, driver.SOLO)  # South passes first
    made = driver.make(game, frozenset({0}), "easy", None, driver.SHARED)
    assert made == driver.Made() and all(game.hand.passes[1:])
    made = driver.make(game, frozenset({0}), "easy", None, driver.SHARED)
    assert made.auto == [{"seat": 0, "step": "pass", "card": None}]  # the away South
    with pytest.raises(Heavy):  # Khó is not decided in the move's transaction
        while True:
            driver.make(game, frozenset({0}), "hard", None, driver.SHARED, at=3)
