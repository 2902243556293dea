"""Máy đã biết gì (what the computer knew): after a hand, each computer decision
with what that seat could see then (its cards, what it passed and was passed, the
trick on the table) and, when the computers were Khó, what it believed about the
cards it could not see (:mod:`hearts.bots.hard.belief`), beside where they were.

The hand's ``hearts-hand/1`` record is replayed to rebuild each computer seat's
:class:`~hearts.view.PlayerView` at each of its decisions (:func:`decisions`), the
view it had in play (the match's earlier hands aside: no belief reads them).
:func:`believe` runs in the bot workers, one decision at a time, from that view
alone; where the cards really were is read from the record separately
(:attr:`Decision.where`), after the hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hearts.bots.hard.belief import WATCHED, belief
from hearts.cards import card_name
from hearts.hand import HandState
from hearts.record import read_record
from hearts.server.table.game import display_order
from hearts.view import PlayerView

SOUTH = 0


@dataclass(frozen=True, slots=True)
class Decision:
    """A computer seat's decision: ``kind`` "pass" or "play", the play's ``index``
    in the hand (None for a pass), the seat's ``view`` then, what it chose (a
    card, or the passed cards as a mask), and ``where`` each watched card it could
    not see really was (card -> seat)."""

    kind: str
    index: int | None
    view: PlayerView
    chosen: int
    where: dict[int, int]


def _where(state: HandState, view: PlayerView) -> dict[int, int]:
    hidden = view.unseen()
    return {
        c: s for c in WATCHED if hidden >> c & 1 for s in range(state.n) if state.hands[s] >> c & 1
    }


def decisions(record: dict[str, Any], totals: tuple[int, ...]) -> list[Decision]:
    """The computer seats' decisions in a finished hand's record, in the hand's
    order, each with the seat's view at that moment (``totals``: the match totals
    before the hand)."""
    done, number = read_record(record)
    state = HandState(done.rules, done.deal_masks, done.direction)
    out: list[Decision] = []
    if state.offset:
        for seat in range(1, state.n):  # before anyone passed: the pass is chosen blind
            view = state.view(seat, hand_number=number, totals=totals)
            out.append(Decision("pass", None, view, done.passes[seat], _where(state, view)))
        for seat, mask in enumerate(done.passes):
            state.pass_cards(seat, mask)
    for i, card in enumerate(done.plays):
        seat = state.turn
        if seat != SOUTH:
            view = state.view(seat, hand_number=number, totals=totals)
            out.append(Decision("play", i, view, card, _where(state, view)))
        state.play(card)
    return out


def believe(view: PlayerView) -> dict[str, Any] | None:
    """Khó's belief from ``view`` as the API answers it (in a worker): the deals it
    imagined and, per other seat, the percentage of them in which it held each
    watched card it could not see; None when it had no choice to weigh."""
    found = belief(view)
    if found is None:
        return None
    seats = view.rules.seats
    return {
        "worlds": found.worlds,
        "seats": {
            seats[s]: {card_name(c): round(100 * x) for c, x in row.items()}
            for s, row in found.shares.items()
        },
    }


def _names(mask: int) -> list[str]:
    return [card_name(c) for c in display_order(mask)]


def seen(step: Decision) -> dict[str, Any]:
    """What the seat could see at ``step``, and what it chose, for the API."""
    view = step.view
    seats = view.rules.seats
    n = view.n
    trick = view.trick
    passing = view.rules.pass_offset(view.direction) != 0
    return {
        "seat": seats[view.seat],
        "kind": step.kind,
        "index": step.index,
        "trick": 0 if step.index is None else step.index // n + 1,
        "chose": _names(step.chosen) if step.kind == "pass" else card_name(step.chosen),
        "hand": _names(view.hand),
        "passed": _names(view.passed),
        "received": _names(view.received),
        "from": seats[view.pass_from] if passing and view.received else None,
        "table": [{"seat": seats[s], "card": card_name(c)} for s, c in trick],
        "played": len(view.plays),
        "where": {card_name(c): seats[s] for c, s in step.where.items()},
    }


def report(
    hand: int, level: str | None, steps: list[Decision], beliefs: list[dict[str, Any] | None]
) -> dict[str, Any]:
    """The answer of ``GET /api/knew/{hand}``: each decision with its belief (None
    unless the computers were Khó and it weighed a choice)."""
    return {
        "hand": hand,
        "level": level,
        "watched": [card_name(c) for c in WATCHED],
        "decisions": [seen(step) | {"belief": b} for step, b in zip(steps, beliefs, strict=True)],
    }
