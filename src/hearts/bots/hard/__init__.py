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
from hearts.hand import HandState
from hearts.rules import Rules

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
    pass, and the plays of two tricks (by then the others have played enough for
    the adapt measure's kernel to run), so that a worker's first decision is not slow."""
    rules = Rules()
    deal = [sum(1 << c for c in range(s, 52, 4)) for s in range(4)]  # a hand of every suit
    state = HandState(rules, deal, "none")
    bot = HardBot(iterations=8)
    bot.weigh_pass(dataclasses.replace(state.view(0), phase="pass", direction="left",
                                       turn=-1, legal=deal[0]))  # fmt: skip
    for _ in range(2 * rules.players):
        state.play(bot.choose_play(state.view(state.turn)))
