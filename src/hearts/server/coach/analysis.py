"""Phân tích (analysis): after a hand, Khó looks again at each of South's decisions
with only what South knew then, on a larger budget, and says where it would have
chosen otherwise and what South's choice cost in expected points.  A hand South
shot the moon in is measured by its result: none of its decisions cost anything.

The hand's ``hearts-hand/1`` record is replayed to rebuild South's
:class:`~hearts.view.PlayerView` at each decision (:func:`decisions`): the same
view South had, so the hidden cards, which the record now shows, play no part.
:func:`weigh` runs in the bot workers, one decision at a time (the game service
queues it with the player's other costly work); it is deterministic for a view.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from hearts.bots.hard import HardBot, candidates
from hearts.cards import card_name, cards_of
from hearts.hand import HandState
from hearts.record import read_record
from hearts.server.config import Config
from hearts.view import PlayerView

#: Playouts per play at 40 cards (a pass gets half): the server's default,
#: :attr:`hearts.server.config.Config.analysis_iterations` (why that many: there).
ITERATIONS = Config.analysis_iterations
#: How many of the costliest decisions the review highlights.
COSTLIEST = 3
SOUTH = 0


@dataclass(frozen=True, slots=True)
class Decision:
    """One of South's decisions: ``kind`` "pass" or "play", the play's ``index`` in
    the hand (None for the pass), South's ``view`` then and what South chose (a
    card, or the passed cards as a mask).  ``moon``: South shot the moon in this hand,
    the best result there is, so the decision cost nothing (:func:`costs`)."""

    kind: str
    index: int | None
    view: PlayerView
    chosen: int
    moon: bool = False


def decisions(record: dict[str, Any], totals: tuple[int, ...]) -> list[Decision]:
    """South's decisions in a finished hand's record, each with South's view at
    that moment (``totals``: the match totals before the hand)."""
    done, number = read_record(record)
    state = HandState(done.rules, done.deal_masks, done.direction)
    out: list[Decision] = []
    if state.offset:
        view = state.view(SOUTH, hand_number=number, totals=totals)  # before anyone passed
        out.append(Decision("pass", None, view, done.passes[SOUTH]))
        for seat, mask in enumerate(done.passes):
            state.pass_cards(seat, mask)
    for i, card in enumerate(done.plays):
        if state.turn == SOUTH:
            view = state.view(SOUTH, hand_number=number, totals=totals)
            out.append(Decision("play", i, view, card))
        state.play(card)
    if state.is_terminal() and state.penalties()[SOUTH] == 26:
        out = [dataclasses.replace(d, moon=True) for d in out]
    return out


def costs(step: Decision) -> bool:
    """Whether ``step`` is weighed for what it cost.  Not in a hand South shot the
    moon in: the hand is measured by its result, and no play beats a moon; the
    search, whose playouts seldom carry a moon through, would charge the moon's
    cards the points they take when it fails (issue 59)."""
    return not step.moon


def _equivalent(view: PlayerView, a: int, b: int) -> bool:
    """Two legal cards Khó tells apart no more than the rules do (nothing still out
    lies between them): one choice."""
    return a == b or len(candidates(dataclasses.replace(view, legal=(1 << a) | (1 << b)))) == 1


def weigh(view: PlayerView, chosen: int, iterations: int = ITERATIONS) -> dict[str, Any] | None:
    """Khó on ``view`` with ``iterations``: None when it chooses as South did (or
    South had no choice); else its choice, South's, and the cost: South's mean
    points minus Khó's choice's, both played out on the same deals."""
    # The whole budget on every decision (no early stop): the costs it reports
    # are estimates a player reads, worth their precision.
    bot = HardBot(iterations=iterations, clear=0)
    n = view.n
    if view.phase == "pass":
        w = bot.weigh_pass(view)
        best = w.choice
        if best == chosen:
            return None
        tally = [0.0, 0.0]
        offset = view.rules.pass_offset(view.direction)
        # Both passes on the same deals: Khó's pass search over exactly these two.
        _, _, counts = bot.rank_pass(view, [best, chosen], offset, tally)
        mine, its = tally[1] / counts[1], tally[0] / counts[0]
        return {
            "kind": "pass",
            "index": None,
            "trick": 0,
            "played": [card_name(c) for c in cards_of(chosen)],
            "best": [card_name(c) for c in cards_of(best)],
            "cost": round(mine - its, 2),
            "points": {"played": round(mine, 2), "best": round(its, 2)},
        }
    if view.legal.bit_count() < 2 or len(candidates(view)) < 2:
        return None
    best = bot.weigh_play(view).choice
    if _equivalent(view, best, chosen):
        return None
    # The two cards alone, on the same deals.
    judge = HardBot(iterations=iterations, clear=0)
    pair = judge.weigh_play(dataclasses.replace(view, legal=(1 << best) | (1 << chosen)))
    mine, its = pair.points[chosen], pair.points[best]
    index = len(view.plays)
    return {
        "kind": "play",
        "index": index,
        "trick": index // n + 1,
        "played": card_name(chosen),
        "best": card_name(best),
        "cost": round(mine - its, 2),
        "points": {"played": round(mine, 2), "best": round(its, 2)},
    }


@dataclass
class Analysis:
    """A player's analysis of hand ``hand`` of match ``match_id``, started while
    hand ``on_table`` was on the table (it stops when that changes)."""

    hand: int
    match_id: int
    on_table: int
    total: int
    done: int = 0
    status: str = "running"  # "running" | "done" | "cancelled" | "failed"
    found: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The analysis as the API answers it: the decisions where Khó differs, in
        the hand's order, the ``COSTLIEST`` with a positive cost marked."""
        ranked = sorted(
            (d for d in self.found if d["cost"] > 0), key=lambda d: (-d["cost"], d["trick"])
        )
        costly = {id(d) for d in ranked[:COSTLIEST]}
        found = sorted(self.found, key=lambda d: -1 if d["index"] is None else d["index"])
        return {
            "hand": self.hand,
            "status": self.status,
            "done": self.done,
            "total": self.total,
            "decisions": [d | {"costly": id(d) in costly} for d in found],
        }
