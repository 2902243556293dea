"""Khó's last tricks searched exactly (issue 12, lever 3b).

With few cards left, a sampled deal can be played to its end by every choice of
every seat.  In each deal drawn from the seat's view, each candidate card is
followed by a max^n search with the cards face up: every other seat plays what
leaves it the fewest points of the hand as scored (a moon counted as a moon); the
deciding seat's card now is judged by Khó's value of a finished hand
(:func:`hearts.bots.hard.hand_utility`), its later cards by the fewest points (for
speed).  The card with the best mean value over the deals is played.

Face-up seats block a moon perfectly, which real ones do not: the deciding seat
then judges its own moon hopeless, and leaves another seat's moon for a third
seat to stop.  With ``blocks="policy"``, while every point taken so far is one
seat's, the seats other than that one and the deciding seat play the playout
policy's card (:func:`hearts.bots.playout.rollout`) instead of their best: a moon
is judged against seats that block it only as the playouts do, and the deciding
seat must block another's itself.  The search
stops drawing deals once it has visited a budget of positions (the time a decision
may take), counted, not timed: deterministic for a view, the deals coming from a
generator seeded by the view.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hearts.bots.playout import rollout
from hearts.bots.sampling import DealSampler
from hearts.cards import JD_BIT, QUEEN_SPADES, SUIT_MASKS
from hearts.rules import Rules
from hearts.view import PlayerView

Utility = Callable[[list[int], int], float]


class Solver:
    """Max^n over one deal's hands to the end of the hand."""

    def __init__(self, rules: Rules, me: int, utility: Utility, blocks: str = "exact") -> None:
        if blocks not in ("exact", "policy"):
            raise ValueError(f"unknown blocks {blocks!r}")
        self.policy_blocks = blocks == "policy"
        self.rules = rules
        self.n = rules.players
        self.me = me
        self.utility = utility
        self.qs_breaks = rules.qs_breaks_hearts
        self.nodes = 0

    def solve(
        self,
        hands: list[int],
        trick: list[int],
        leader: int,
        pen: list[int],
        jd: int,
        broken: bool,
    ) -> tuple[list[int], int]:
        """The end of the hand, (points taken per seat, J♦ taker), when every seat
        plays its best from here; ``trick`` is the trick in progress, leader first."""
        n = self.n
        self.nodes += 1
        seat = (leader + len(trick)) % n
        h = hands[seat]
        if not h and not trick:
            return pen, jd
        if trick:
            legal = h & SUIT_MASKS[trick[0] // 13] or h
        else:
            legal = h
            if not broken and h & ~SUIT_MASKS[3]:
                legal = h & ~SUIT_MASKS[3]
        if self.policy_blocks and seat != self.me and self._runner(pen) not in (-1, seat):
            # The policy's card (it plays on what its seat could know, not the faces).
            record: list[int] = []
            rollout(
                hands[:], trick[:], leader, n, broken, pen[:], jd, self.qs_breaks,
                self.rules.lead_card, record,
            )  # fmt: skip
            if record:
                legal = 1 << record[0]
        best: tuple[list[int], int] | None = None
        best_value = 0.0
        m = legal
        while m:
            c = (m & -m).bit_length() - 1
            m &= m - 1
            hands[seat] &= ~(1 << c)
            out = self.after(hands, [*trick, c], leader, pen, jd, broken)
            hands[seat] |= 1 << c
            value = -float(_own(out[0], seat))
            if best is None or value > best_value:
                best, best_value = out, value
        assert best is not None
        return best

    @staticmethod
    def _runner(pen: list[int]) -> int:
        """The seat that took every point so far (at least one), else -1."""
        holders = [s for s, p in enumerate(pen) if p]
        return holders[0] if len(holders) == 1 else -1

    def after(
        self, hands: list[int], trick: list[int], leader: int, pen: list[int], jd: int, broken: bool
    ) -> tuple[list[int], int]:
        """:meth:`solve` once ``trick``'s last card is down."""
        c = trick[-1]
        broken = broken or c >= 39 or (self.qs_breaks and c == QUEEN_SPADES)
        if len(trick) < self.n:
            return self.solve(hands, trick, leader, pen, jd, broken)
        led = trick[0] // 13
        best = max(range(self.n), key=lambda i: trick[i] if trick[i] // 13 == led else -1)
        winner = (leader + best) % self.n
        mask = 0
        for x in trick:
            mask |= 1 << x
        after = pen[:]
        after[winner] += self.rules.penalty(mask & ~JD_BIT)
        if mask & JD_BIT:
            jd = winner
        return self.solve(hands, [], winner, after, jd, broken)


def _own(pen: list[int], seat: int) -> int:
    """The points ``seat`` scores from ``pen`` (a moon adds 26 to the others;
    the J♦ apart): what each seat, this one too, plays to keep low in the search."""
    for s, p in enumerate(pen):
        if p == 26:
            return 0 if s == seat else 26
    return pen[seat]


def exact_choice(
    view: PlayerView,
    cands: list[int],
    utility: Utility,
    mine: Callable[[list[int], int], int],
    draws: int,
    seed: int,
    nodes: int = 60_000,
    blocks: str = "exact",
) -> tuple[int, dict[int, float], dict[int, float], int]:
    """The candidate with the best mean value over up to ``draws`` deals, each
    solved to the end of the hand (no new deal once ``nodes`` positions were
    visited); every candidate's mean value, the mean points the seat scores
    (``mine``), and the deals solved; ``blocks``: how the others stop a moon of
    the seat's own (:class:`Solver`)."""
    rules = view.rules
    rng = random.Random(seed)
    sampler = DealSampler(view)
    pen0 = [0] * view.n
    jd0 = -1
    for s, mask in enumerate(view.taken()):
        pen0[s] = rules.penalty(mask & ~JD_BIT)
        if mask & JD_BIT:
            jd0 = s
    solver = Solver(rules, view.seat, utility, blocks)
    trick = [c for _, c in view.trick]
    sums = dict.fromkeys(cands, 0.0)
    points = dict.fromkeys(cands, 0.0)
    done = 0
    while done < draws and (solver.nodes < nodes or done < 4):
        done += 1
        world = sampler.draw(rng)
        for card in cands:
            hands = world[:]
            hands[view.seat] &= ~(1 << card)
            out = solver.after(hands, [*trick, card], view.leader, pen0, jd0, view.broken)
            sums[card] += utility(*out)
            points[card] += mine(*out)
    best = max(cands, key=lambda c: (sums[c], -c))
    return (
        best,
        {c: sums[c] / done for c in cands},
        {c: points[c] / done for c in cands},
        done,
    )
