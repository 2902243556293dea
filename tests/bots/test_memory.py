"""Khó's memory of a match: how the others played in its earlier hands
(PlayerView.earlier, hearts.bots.hard.memory), and what it opens (HardBot(remember=))."""

from __future__ import annotations

import random

from hearts.bots.arena import play_hand
from hearts.bots.base import get_bot
from hearts.bots.hard import HardBot
from hearts.bots.hard.memory import unlike_share
from hearts.hand import HandState
from hearts.rules import Rules
from hearts.view import PlayerView

RULES = Rules()


def _hand(level: str, number: int) -> tuple[tuple[int, int], ...]:
    """The plays of one hand of four ``level`` bots on a seeded deal."""
    state = HandState.deal(RULES, number, random.Random(number))
    play_hand([get_bot(level) for _ in range(4)], state, number)
    return state.seat_plays()


def _next_view(earlier: tuple[tuple[tuple[int, int], ...], ...]) -> PlayerView:
    """South's view before its pass in hand 5, remembering ``earlier``."""
    state = HandState.deal(RULES, 5, random.Random(99))
    return state.view(0, hand_number=5, earlier=earlier)


def test_players_of_habit_play_like_the_policy_and_careless_ones_do_not() -> None:
    habit = tuple(_hand("medium", k) for k in range(1, 5))
    careless = tuple(_hand("easy", k) for k in range(1, 5))
    share, made = unlike_share(_next_view(habit))
    assert made == 4 * 39  # the other three seats' plays in four hands
    assert share < 0.12
    careless_share, _ = unlike_share(_next_view(careless))
    assert careless_share > 0.2
    assert unlike_share(_next_view(())) == (0.0, 0)  # no memory: no evidence


def test_a_memory_leaves_the_view_seed_alone() -> None:
    # What a memory changes is only what a bot makes of it: Khó's choices without
    # the places it opens are those of the same view without a memory.
    state = HandState.deal(RULES, 5, random.Random(99))
    plain = state.view(0, hand_number=5)
    habit = _next_view((_hand("medium", 1),))
    assert habit.earlier and habit.key() == plain.key()
    off = HardBot(iterations=200, remember="")
    assert off.weigh_pass(habit) == off.weigh_pass(plain)


def test_remember_opens_the_pass_rule_only_after_players_of_habit() -> None:
    def values(view: PlayerView, **options: str) -> dict[int, float]:
        options.setdefault("remember", "")
        return HardBot(iterations=200, pass_iterations=600, **options).weigh_pass(view).value

    habit = _next_view(tuple(_hand("medium", k) for k in range(1, 4)))
    assert values(habit, remember="pass") != values(habit)
    # The same as queen_runs="pass" there: the memory opened exactly that place.
    assert values(habit, remember="pass") == values(habit, queen_runs="pass")
    careless = _next_view(tuple(_hand("easy", k) for k in range(1, 4)))
    assert values(careless, remember="pass") == values(careless)
    first = _next_view(())  # the match's first hand: nothing remembered yet
    assert values(first, remember="pass") == values(first)


def test_khó_remembers_by_default_and_opens_the_rule_everywhere() -> None:
    def weigh(view: PlayerView, **options: str) -> dict[int, float]:
        return HardBot(iterations=200, pass_iterations=600, **options).weigh_pass(view).value

    habit = _next_view(tuple(_hand("medium", k) for k in range(1, 4)))
    assert weigh(habit) == weigh(habit, remember="", queen_runs="everywhere")
    assert weigh(habit) != weigh(habit, remember="")
    careless = _next_view(tuple(_hand("easy", k) for k in range(1, 4)))
    assert weigh(careless) == weigh(careless, remember="")
