"""The fewest moons any player could concede to three rule-based shooters (issue 38).

    python3 bench/moon_floor.py [--hands N] [--first K] [--jobs J] [--nodes M] [--out F]

bench/moons.py's ``--against shooter`` row counts the moons three copies of
bench/shooter.py's rule shoot past a hero.  The shooter is a rule: given its view
it always plays the same card.  So a hero that saw every card and knew the rule
could try every pass and every line of play, and this script does: for each deal
of strength.py's sequence and each seat of the hero (four rotations, as moons.py),
it searches the hero's passes and plays, depth first, for a line in which no
opponent takes every point.  A hand is **unstoppable** when no pass and no line
of the hero's stops the moon; it is **undecided** when the search gave up
(``--nodes`` hero decisions per hand) before it found a stop or tried every line.

The floor counts only the unstoppable hands, so an undecided hand counts as
stopped and the floor stays a floor: no player, whatever it sees, concedes fewer
moons per 100 hands to these opponents on these deals (the hero's own moon counts
as stopped, as in moons.py).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from shooter import ShooterBot
from strength import RULES, bootstrap, deal_for, fmt, span

from hearts.cards import HEARTS_MASK, QS_BIT, SUIT_MASKS, cards_of
from hearts.hand import HandState

STOPPED, UNSTOPPABLE, UNDECIDED = "stopped", "unstoppable", "undecided"


class OutOfNodes(Exception):
    """The search's budget of hero decisions is spent."""


class Floor:
    """The hero's search for a line with no opponent's moon, one hand."""

    def __init__(self, hero: int, hand_number: int, nodes: int) -> None:
        self.hero = hero
        self.hand_number = hand_number
        self.left = nodes
        self.bot = ShooterBot()
        self.line: list[int] = []  # the hero's cards of the stop found, last first

    def stops(self, state: HandState) -> bool:
        """Whether some line of the hero's, from here, ends with no opponent's moon
        (the others play the shooter's rule)."""
        takers = [s for s, p in enumerate(state.penalties()) if p]
        if self.hero in takers or len(takers) > 1:
            return True  # the hero or a second seat has a point: no opponent's moon
        if state.is_terminal() or _runs_out(state, takers, self.hero):
            return False
        seat = state.turn
        if seat != self.hero:
            view = state.view(seat, hand_number=self.hand_number)
            state.push(self.bot.choose_play(view))
            try:
                return self.stops(state)
            finally:
                state.undo()
        self.left -= 1
        if self.left < 0:
            raise OutOfNodes
        for card in _stoppers_first(state.legal_mask()):
            state.push(card)
            try:
                if self.stops(state):
                    self.line.append(card)
                    return True
            finally:
                state.undo()
        return False


def _runs_out(state: HandState, takers: list[int], hero: int) -> bool:
    """Whether the seat on lead, an opponent of the hero's and the only one with
    points if any, wins every trick left whatever the others play: each card it
    holds is above every card of its suit still in another hand, so it keeps the
    lead and takes every point."""
    if state.trick:
        return False
    seat = state.leader
    if seat == hero:  # the hero's own moon is no moon conceded
        return False
    if takers and takers != [seat]:
        return False
    hand = state.hands[seat]
    rest = 0
    for other, cards in enumerate(state.hands):
        if other != seat:
            rest |= cards
    for suit in range(4):
        mine = hand & SUIT_MASKS[suit]
        if (
            mine
            and rest & SUIT_MASKS[suit]
            and (rest & SUIT_MASKS[suit]).bit_length() > (mine & -mine).bit_length()
        ):
            return False
    return True


def _stoppers_first(legal: int) -> list[int]:
    """The hero's cards in the order most likely to stop a run: point cards, then
    high cards (to win a trick with a point in it)."""
    points = legal & (HEARTS_MASK | QS_BIT)
    return sorted(cards_of(legal), key=lambda c: (not points >> c & 1, -(c % 13), c))


def _passes(hand: int, count: int) -> list[int]:
    """Every pass of ``count`` cards, those that keep the high cards first."""
    sets = sorted(combinations(cards_of(hand), count), key=lambda cs: sum(c % 13 for c in cs))
    out = []
    for cs in sets:
        mask = 0
        for c in cs:
            mask |= 1 << c
        out.append(mask)
    return out


def hand_floor(deal: list[int], hand_number: int, hero: int, nodes: int) -> str:
    """Whether the hero, seeing every card, can stop every opponent's moon."""
    return stop_line(deal, hand_number, hero, nodes)[0]


def stop_line(
    deal: list[int], hand_number: int, hero: int, nodes: int
) -> tuple[str, int, list[int]]:
    """:func:`hand_floor`'s verdict, and when stopped the hero's pass (a mask, 0
    when the hand holds) and cards up to the point the moon is stopped."""
    search = Floor(hero, hand_number, nodes)
    state = HandState(RULES, deal, RULES.pass_direction(hand_number))
    try:
        if not state.offset:
            if search.stops(state):
                return STOPPED, 0, search.line[::-1]
            return UNSTOPPABLE, 0, []
        theirs = {
            seat: search.bot.choose_pass(state.view(seat, hand_number=hand_number))
            for seat in range(state.n)
            if seat != hero
        }
        for mine in _passes(deal[hero], RULES.pass_count):
            passed = state.copy()
            for seat in range(state.n):
                passed.pass_cards(seat, mine if seat == hero else theirs[seat])
            if search.stops(passed):
                return STOPPED, mine, search.line[::-1]
        return UNSTOPPABLE, 0, []
    except OutOfNodes:
        return UNDECIDED, 0, []


def _run(task: tuple[int, int]) -> tuple[int, list[str]]:
    index, nodes = task
    deal, number = deal_for(index)
    return index, [hand_floor(deal, number, hero, nodes) for hero in range(RULES.players)]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=40, help="deals (x4 rotations)")
    p.add_argument("--first", type=int, default=0, help="the first deal's index")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--nodes", type=int, default=200_000, help="hero decisions a hand at most")
    p.add_argument("--out", default=None, help="write each deal's verdicts as JSON")
    p.add_argument("--load", nargs="+", default=None, help="report saved JSONs (none run)")
    args = p.parse_args(argv)
    rows: dict[int, list[str]] = {}
    if args.load:
        for name in args.load:
            saved = json.loads(Path(name).read_text())
            rows.update({int(k): v for k, v in saved["deals"].items()})
    else:
        tasks = [(i, args.nodes) for i in range(args.first, args.first + args.hands)]
        start = time.time()
        with multiprocessing.Pool(args.jobs) as pool:
            for done, (index, verdicts) in enumerate(pool.imap_unordered(_run, tasks), 1):
                rows[index] = verdicts
                if args.out:
                    saved = {"nodes": args.nodes, "deals": rows}
                    Path(args.out).write_text(json.dumps(saved))
                print(f"\r{done}/{len(tasks)} in {time.time() - start:.0f} s", end="",
                      file=sys.stderr)  # fmt: skip
        print(file=sys.stderr)
    report(rows)
    return 0


def per_100(rows: dict[int, list[str]], kind: str = UNSTOPPABLE) -> float:
    """Hands of ``kind`` per 100 hands (the floor for ``UNSTOPPABLE``)."""
    verdicts = [v for row in rows.values() for v in row]
    return 100.0 * verdicts.count(kind) / len(verdicts)


def report(rows: dict[int, list[str]]) -> None:
    deals = sorted(rows)
    data = [rows[i] for i in deals]

    def share(kind: str) -> Any:
        return lambda d: per_100(dict(enumerate(d)), kind)

    print(f"{len(deals)} deals ({span(deals)}), {RULES.players} rotations a deal; "
          "opponents: 3 x shooter")  # fmt: skip
    print(f"   unstoppable / 100 hands (the floor): {fmt(bootstrap(data, share(UNSTOPPABLE)))}")
    print(
        f"   undecided / 100 hands (counted as stopped): {fmt(bootstrap(data, share(UNDECIDED)))}"
    )


if __name__ == "__main__":
    sys.exit(main())
