"""No bot can reach the full state: it is handed a PlayerView and nothing else."""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
from pathlib import Path

import pytest

import hearts.bots
from hearts.bots.arena import play_match
from hearts.bots.base import Bot, get_bot
from hearts.hand import HandState
from hearts.rules import Rules
from hearts.view import PlayerView

BOT_DIR = Path(hearts.bots.__file__).parent
LEVELS = ["easy", "medium"] + (["hard"] if importlib.util.find_spec("hearts.bots.hard") else [])


class Spy:
    """Wraps a bot; checks every argument it is given."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.calls = 0

    def _check(self, view: object) -> PlayerView:
        assert type(view) is PlayerView
        for f in dataclasses.fields(view):
            value = getattr(view, f.name)
            assert not isinstance(value, HandState), f.name
        assert "HandState" not in repr(view)
        self.calls += 1
        return view

    def choose_pass(self, view: PlayerView) -> int:
        return self.bot.choose_pass(self._check(view))

    def choose_play(self, view: PlayerView) -> int:
        return self.bot.choose_play(self._check(view))


@pytest.mark.parametrize("level", LEVELS)
def test_a_full_match_hands_the_bots_views_only(level: str) -> None:
    import random

    options = {"iterations": 8} if level == "hard" else {}
    spies = [Spy(get_bot(level, **options)) for _ in range(4)]
    rules = Rules(target=30 if level != "hard" else 1)
    rng = random.Random(2)
    out = play_match(spies, lambda k: HandState.deal(rules, k, rng), rules)
    assert out.hands >= 1
    # Every decision went through the spy: 13 cards a seat a hand, plus the passes.
    assert all(s.calls >= 13 * out.hands for s in spies)


def test_a_view_holds_only_the_seats_own_cards() -> None:
    import random

    state = HandState.deal(Rules(), 1, random.Random(6))
    view = state.view(1)
    assert view.hand == state.hands[1]
    for f in dataclasses.fields(view):
        value = getattr(view, f.name)
        if isinstance(value, int) and f.name not in ("hand", "legal"):
            for seat in (0, 2, 3):
                assert value != state.hands[seat]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


@pytest.mark.parametrize("module", ["easy.py", "medium.py", "tactics.py"])
def test_rule_based_bots_never_import_the_state(module: str) -> None:
    names = _imports(BOT_DIR / module)
    assert "hearts.hand" not in names
    assert not any(n.endswith("HandState") for n in names)
