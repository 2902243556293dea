"""Khó (hard), one package.

- :mod:`.bot`: the bot, :class:`HardBot` (choose and weigh a pass or a play);
- :mod:`.options`: its options, one frozen :class:`Options`, and the defaults;
- :mod:`.value`: how a finished hand is valued for the match;
- :mod:`.search`: successive halving, stopped once the leader is clear;
- :mod:`.position`: a position put as numbers for the kernels;
- :mod:`.sampling`, :mod:`.moon`, :mod:`.memory`: the deals drawn from a view,
  moon defence, the match's memory of how the others play;
- :mod:`.belief`: what it believed about the hidden cards at a decision, from
  its search's own deals (the review's "Máy đã biết gì");
- :mod:`.kernel`: the compiled kernel (sampler, policy, looks, batches);
- :mod:`.reference`: its pure-Python twin, the same results bit for bit;
- :mod:`.masks`, :mod:`.splitmix`: card masks and the random stream both share.
"""

from __future__ import annotations

import dataclasses

from hearts.bots.hard.bot import HardBot, Weighing, candidates, pass_candidates, queen_doubts
from hearts.bots.hard.options import (
    DEFAULT_ADAPT_HIDE,
    DEFAULT_BLOCK_HIDE,
    DEFAULT_REMEMBER_FROM,
    DEFAULT_REMEMBER_SHARE,
    Options,
)
from hearts.bots.hard.position import any_void, search_judge, search_position
from hearts.bots.hard.search import card_playout, halving_batches, successive_halving
from hearts.rules import Rules
from hearts.view import PlayerView

__all__ = [
    "DEFAULT_ADAPT_HIDE",
    "DEFAULT_BLOCK_HIDE",
    "DEFAULT_REMEMBER_FROM",
    "DEFAULT_REMEMBER_SHARE",
    "HardBot",
    "Options",
    "Weighing",
    "any_void",
    "candidates",
    "card_playout",
    "halving_batches",
    "pass_candidates",
    "queen_doubts",
    "search_judge",
    "search_position",
    "successive_halving",
    "warm_up",
]


def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel now: a short search of a
    play and of a pass, so that a worker's first decision is not slow."""
    rules = Rules()
    hand = sum(1 << c for c in range(0, 52, 4))  # 2♣ 6♣ ... a hand of every suit
    view = PlayerView(rules, 0, 4, "play", "none", hand, 0, 0, (), 0, 1, False,
                      (13, 13, 13, 13), (0, 0, 0, 0), rules.target)  # fmt: skip
    bot = HardBot(iterations=8)
    bot.weigh_play(view)
    bot.weigh_pass(dataclasses.replace(view, phase="pass", direction="left", turn=-1, legal=hand))
