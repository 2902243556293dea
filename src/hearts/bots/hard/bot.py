"""Khó (hard): determinized playouts over exactly sampled deals.

For a play, the bot draws deals of the hidden cards uniformly among those
consistent with its view (:mod:`hearts.bots.hard.sampling`), plays each candidate card
in each deal and lets the fast heuristic policy (:mod:`hearts.bots.hard.reference`)
finish the hand, then plays the card with the best mean result.  The budget is
spent by successive halving: every candidate is tried on the same deals (so
luck cancels between them), the worse half is dropped, the rest get more deals.
The pass is searched the same way over a few likely passes (:func:`pass_candidates`):
deals of the cards it cannot see, the other seats passing their quick pass, the
hand played out by the policy from the first lead.  Both searches run on the
compiled kernel (:mod:`hearts.bots.hard.kernel`) or its pure-Python twin.

Results are judged for the match, not just the hand (:func:`hand_utility`): a
moon counts as a moon, and near the target the totals after the hand matter.

Everything random is seeded from ``view.seed()``, and the default budget is a
fixed number of playouts, so the same view gives the same card on any machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from hearts.bots.hard import kernel, reference
from hearts.bots.hard.memory import unlike_share
from hearts.bots.hard.moon import lone_scorer, moon_sampler, suspect
from hearts.bots.hard.options import ADAPT_DRAWS, Options, parse_places
from hearts.bots.hard.position import Passing, search_judge, search_position
from hearts.bots.hard.reference import QUEEN_RUNS, pass_scores, suspect_bits
from hearts.bots.hard.sampling import (
    DealSampler,
    DealTables,
    MixtureSampler,
    WeightedSampler,
    deal_tables,
)
from hearts.bots.hard.search import halving_batches, playouts_for
from hearts.bots.hard.value import near_the_end
from hearts.bots.medium import pass_cards as medium_pass
from hearts.cards import JD_BIT, QS_BIT, QUEEN_SPADES, cards_of
from hearts.view import PlayerView


@dataclass(frozen=True, slots=True)
class Weighing:
    """Khó's search of one decision, as a coach reads it: ``choice`` (a card, or a
    pass as a mask) is what Khó plays; ``options`` every candidate, best first in
    Khó's judgement; per option the mean ``points`` the seat scores over the deals
    it was tried on (``deals``), and Khó's own mean ``value`` (higher is better).
    ``near``: the match may end this hand, so values are chances to win the match."""

    choice: int
    options: tuple[int, ...]
    points: dict[int, float]
    value: dict[int, float]
    deals: dict[int, int]
    near: bool


def candidates(view: PlayerView, legal: int | None = None) -> list[int]:
    """The legal cards worth telling apart: of cards of one suit with nothing
    between them but cards gone in finished tricks (or in this hand), one is kept.
    Q♠ (and J♦ with the bonus) differ in points and are always kept.  ``legal``:
    the cards to choose from, if not all the legal ones."""
    n = view.n
    done = len(view.plays) - len(view.plays) % n
    gone = view.hand
    for _, c in view.plays[:done]:
        gone |= 1 << c
    special = QS_BIT | (JD_BIT if view.rules.jd_bonus else 0)
    out = []
    prev = -2
    for c in cards_of(view.legal if legal is None else legal):
        bit = 1 << c
        if prev >= 0 and c // 13 == prev // 13 and not bit & special and not (1 << prev) & special:
            between = ((1 << c) - 1) & ~((1 << (prev + 1)) - 1)
            if between & ~gone == 0:
                prev = c
                continue
        out.append(c)
        prev = c
    return out


class HardBot:
    """Khó: ``HardBot(options)``, or ``HardBot(**keywords)`` (:meth:`Options.of`)."""

    name = "hard"

    def __init__(self, options: Options | None = None, /, **keywords: Any) -> None:
        if options is not None and keywords:
            raise TypeError("HardBot takes an Options or keywords, not both")
        o = options if options is not None else Options.of(**keywords)
        self.options = o
        self._queen_runs = parse_places(o.queen_runs, "queen_runs")
        self._remember = parse_places(o.remember, "remember") if o.remember else frozenset()

    # -- passing ------------------------------------------------------------------
    def choose_pass(self, view: PlayerView) -> int:
        """Vừa's pass (``passing="medium"``), or the best of a few likely passes
        judged by playouts (``passing="search"``)."""
        rules = view.rules
        offset = rules.pass_offset(view.direction)
        base = medium_pass(
            view.hand, rules.pass_count, offset, view.n, True, rules.jd_bonus, rules.deck
        )
        if self.options.passing != "search":
            return base
        cands = pass_candidates(view.hand, rules.pass_count, base, jd=rules.jd_bonus)
        return cands[self._search_pass(view, cands, offset)]

    def _search_pass(self, view: PlayerView, cands: list[int], offset: int) -> int:
        return self.rank_pass(view, cands, offset, None)[0][0]

    def weigh_pass(self, view: PlayerView) -> Weighing:
        """:meth:`choose_pass` with the search's findings (the passes searched, as
        masks, with South's mean points): the pass chosen is the same."""
        rules = view.rules
        offset = rules.pass_offset(view.direction)
        base = medium_pass(
            view.hand, rules.pass_count, offset, view.n, True, rules.jd_bonus, rules.deck
        )
        cands = pass_candidates(view.hand, rules.pass_count, base, jd=rules.jd_bonus)
        tally = [0.0] * len(cands)
        order, sums, counts = self.rank_pass(view, cands, offset, tally)
        choice = cands[order[0]] if self.options.passing == "search" else base
        return Weighing(
            choice=choice,
            options=tuple(cands[i] for i in order),
            points={cands[i]: tally[i] / counts[i] for i in order},
            value={cands[i]: sums[i] / counts[i] for i in order},
            deals={cands[i]: counts[i] for i in order},
            near=near_the_end(rules, view.totals),
        )

    def rank_pass(
        self, view: PlayerView, cands: list[int], offset: int, tally: list[float] | None
    ) -> tuple[list[int], dict[int, float], dict[int, int]]:
        """Khó's pass search over ``cands`` (passes as masks, sent ``offset`` seats on:
        :meth:`Rules.pass_offset`), by successive halving (:func:`halving_batches`):
        the indices of ``cands`` best first, and per index the sum of Khó's values
        and the number of deals it was played out on (its mean: sum / deals).  Each
        playout adds the seat's points to ``tally[index]`` if given.  The candidates
        alive in a round share its deals, so two passes given alone are weighed on
        the same deals (the analysis compares a player's pass with Khó's so)."""
        rules = view.rules
        tables = deal_tables(DealSampler(view))
        seed = view.seed(self.options.seed)
        places = self.queen_places(view)
        passing = Passing(
            me=view.seat,
            offset=offset,
            cards=rules.pass_count,
            jd_bonus=rules.jd_bonus,
            qs_breaks=rules.qs_breaks_hearts,
            lead_card=rules.lead_card,
            voids=QUEEN_RUNS if "pass" in places else 0,
        )
        judge = search_judge(view)
        compiled = self.options.engine == "compiled"
        k = len(cands)
        sums: Any = np.zeros(k) if compiled else [0.0] * k
        points: Any = np.zeros(k) if compiled else [0.0] * k
        pass_batch = kernel.pass_batch if compiled else reference.pass_batch

        mix = "pass-mix" in places
        # Both models whatever else queen_runs names (with "pass" too, one stays plain).
        both = (passing._replace(voids=QUEEN_RUNS), passing._replace(voids=0))
        models = both if mix else (passing,)

        def batch(w0: int, w1: int, alive: list[int]) -> None:
            if mix:
                # Each deal played out under both models of the others (a seat alone
                # with Q♠ let run, or not), each counting half: the pass that does
                # well whichever the others are.
                for model in models:
                    s2: Any = np.zeros(k) if compiled else [0.0] * k
                    p2: Any = np.zeros(k) if compiled else [0.0] * k
                    pass_batch(tables, seed, w0, w1, cands, alive, model, judge, s2, p2)
                    for i in alive:
                        sums[i] += 0.5 * float(s2[i])
                        points[i] += 0.5 * float(p2[i])
            else:
                pass_batch(tables, seed, w0, w1, cands, alive, passing, judge, sums, points)

        # Under two models a deal costs two playouts: half the deals, the same work.
        budget = self.options.pass_iterations // len(models)
        order, counts = halving_batches(k, batch, sums, list(range(k)), budget)
        if tally is not None:
            for i in range(k):
                tally[i] += float(points[i])
        return order, {i: float(sums[i]) for i in range(k)}, dict(enumerate(counts))

    # -- playing ------------------------------------------------------------------
    def choose_play(self, view: PlayerView) -> int:
        return self._play(view, self._search)

    def _play(self, view: PlayerView, search: Callable[[PlayerView, list[int]], int]) -> int:
        """The only legal card, the only candidate, else ``search(view, candidates)``."""
        legal = view.legal
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        cands = self.play_candidates(view)
        if len(cands) == 1:
            return cands[0]
        return search(view, cands)

    def play_candidates(self, view: PlayerView) -> list[int]:
        """The cards the play search weighs: :func:`candidates`."""
        return candidates(view)

    def _search(self, view: PlayerView, cands: list[int]) -> int:
        return self._rank_play(view, cands, None)[0][0]

    def weigh_play(self, view: PlayerView) -> Weighing:
        """:meth:`choose_play` with the search's findings: every candidate (one
        card of each run of equal cards) with the seat's mean points.  The card
        chosen is the same; an only candidate is searched too, for its points."""
        cands = self.play_candidates(view)
        tally = dict.fromkeys(cands, 0.0)
        # An only candidate needs no comparing: a quarter of the budget for its points.
        total = self.play_playouts(view) // (4 if len(cands) == 1 else 1)
        order, sums, counts = self._rank_play(view, cands, tally, max(1, total))
        return Weighing(
            choice=order[0],
            options=tuple(order),
            points={c: tally[c] / counts[c] for c in order},
            value={c: sums[c] / counts[c] for c in order},
            deals={c: counts[c] for c in order},
            near=near_the_end(view.rules, view.totals),
        )

    def _rank_play(
        self,
        view: PlayerView,
        cands: list[int],
        tally: dict[int, float] | None,
        total: int | None = None,
    ) -> tuple[list[int], dict[int, float], dict[int, int]]:
        """The play search (:func:`halving_ranks`) over ``total`` playouts (Khó's
        budget if None); each playout adds the seat's points to ``tally`` if given."""
        started = time.perf_counter()
        o = self.options
        sampler = play_sampler(view, o)
        budget = self.play_playouts(view) if total is None else total
        deadline = None
        if o.budget_ms is not None:
            # Wall-clock budget, counted from the start of the decision.
            deadline = started + o.budget_ms / 1000.0
            budget = 1_000_000
        tables = deal_tables(sampler)
        seed = view.seed(o.seed)
        pos = search_position(view, o.mismatch)
        judge = search_judge(view, o.shoot)
        compiled = o.engine == "compiled"
        sums_a: Any = np.zeros(len(cands)) if compiled else [0.0] * len(cands)
        points_a: Any = np.zeros(len(cands)) if compiled else [0.0] * len(cands)
        mass_a: Any = np.zeros(len(cands)) if compiled else [0.0] * len(cands)
        look, look_others = o.lookahead, o.lookahead_others
        hide = o.hide
        habit = bool(o.adapt) and self._plays_like_the_policy(view, tables, seed)
        if habit:
            hide = o.adapt_hide
        elif o.block_hide is not None and _other_moon_open(view):
            hide = o.block_hide
        places = self.queen_places(view)
        if "play" in places or ("habit" in places and habit):
            pos = pos._replace(voids=pos.voids | QUEEN_RUNS)
        if o.suspect is not None:
            pos = pos._replace(voids=pos.voids | suspect_bits(suspect(view, o.suspect)))

        def batch(w0: int, w1: int, alive: list[int]) -> None:
            if compiled:
                kernel.play_batch(
                    tables, seed, w0, w1, cands, alive, pos, judge, sums_a, points_a, mass_a,
                    look, look_others, hide,
                )  # fmt: skip
            else:
                reference.play_batch(
                    tables, seed, w0, w1, cands, alive, pos, judge, sums_a, points_a, mass_a,
                    look, look_others, hide,
                )  # fmt: skip

        order, counts_i = halving_batches(
            len(cands), batch, sums_a, cands, budget, deadline, clear=o.clear
        )
        if o.mismatch != 1.0:
            # Weighted deals: rescale so that sum / count is the weighted mean (the
            # survivors of each round share their deals, so the order is the same).
            for i in range(len(cands)):
                scale = counts_i[i] / float(mass_a[i]) if mass_a[i] > 0 else 0.0
                sums_a[i] *= scale
                points_a[i] *= scale
        if tally is not None:
            for i, c in enumerate(cands):
                tally[c] += float(points_a[i])
        return (
            [cands[i] for i in order],
            {c: float(sums_a[i]) for i, c in enumerate(cands)},
            {c: counts_i[i] for i, c in enumerate(cands)},
        )

    def queen_places(self, view: PlayerView) -> frozenset[str]:
        """Where the queen rule holds for a decision from ``view`` (the places
        :func:`parse_places` reads): ``queen_runs``, and ``remember`` when the
        match's earlier hands show players of habit."""
        if self._remember and self._habit_remembered(view):
            return self._queen_runs | self._remember
        return self._queen_runs

    def _habit_remembered(self, view: PlayerView) -> bool:
        """Whether the match's earlier hands show the others as players of habit:
        fewer than ``remember_share`` of their plays unlike the playout policy's,
        over at least ``remember_from`` (:func:`unlike_share`)."""
        share, made = unlike_share(view)
        o = self.options
        return made >= o.remember_from and share < o.remember_share

    def _plays_like_the_policy(self, view: PlayerView, tables: DealTables, seed: int) -> bool:
        """Whether the other seats, over at least ``adapt_from`` plays so far, play
        unlike the playout policy on fewer than ``adapt`` of them (averaged over
        :data:`ADAPT_DRAWS` sampled deals, :func:`reference.unlike`): players of
        habit, as Vừa, rather than players who search."""
        o = self.options
        others = sum(1 for s, _ in view.plays if s != view.seat)
        if others < o.adapt_from:
            return False
        unlike = kernel.unlike if o.engine == "compiled" else reference.unlike
        pos = search_position(view, 0.5)
        if "adapt" in self.queen_places(view):
            pos = pos._replace(voids=pos.voids | QUEEN_RUNS)
        seen = unlike(tables, seed, 0, ADAPT_DRAWS, pos)
        return seen / others < o.adapt

    def play_playouts(self, view: PlayerView) -> int:
        """The fixed playout budget for a play from ``view``."""
        total = self.options.iterations
        if self.options.spread:
            total = playouts_for(total, sum(view.counts))
        return total


def play_sampler(view: PlayerView, o: Options) -> DealSampler | WeightedSampler | MixtureSampler:
    """The deals Khó's play search imagines from ``view``: uniform among those
    consistent with it, Q♠ weighed by the others' plays (``infer``), and the
    high hearts given to a live moon runner on part of them (``moon``)."""
    base: DealSampler | WeightedSampler
    if o.infer:
        base = WeightedSampler(view, QUEEN_SPADES, queen_doubts(view, o.infer))
    else:
        base = DealSampler(view)
    return moon_sampler(view, base) if o.moon else base


def _other_moon_open(view: PlayerView) -> bool:
    """Whether one other seat alone has taken points so far (its moon still open)."""
    return lone_scorer(view, 1) >= 0


def pass_candidates(
    hand: int, count: int, base: int, keep: int = 10, jd: bool = False
) -> list[int]:
    """Passes worth a search: ``base`` first, then the best-scored sets of
    ``count`` cards among the seven most passable cards."""
    scores = pass_scores(hand, jd)
    top = sorted(scores, key=lambda c: (-scores[c], -c))[:7]
    sets = sorted(
        combinations(top, count), key=lambda cs: (-sum(scores[c] for c in cs), sorted(cs))
    )
    out = [base]
    for cs in sets:
        mask = 0
        for c in cs:
            mask |= 1 << c
        if mask not in out:
            out.append(mask)
        if len(out) >= keep:
            break
    return out


def queen_doubts(view: PlayerView, factor: float) -> dict[int, float]:
    """Seats whose play says they probably do not hold Q♠, each with ``factor``.

    A careful player holding Q♠ dumps it when void in the suit led (after the
    first trick), and drops it under K♠ or A♠; a seat that threw or played
    something else instead most likely has no Q♠.
    """
    n = view.n
    plays = view.plays
    out: dict[int, float] = {}
    for start in range(0, len(plays), n):
        trick = plays[start : start + n]
        led = trick[0][1] // 13
        top = trick[0][1]
        for i, (seat, card) in enumerate(trick):
            if card == QUEEN_SPADES:
                return out
            if i and seat != view.seat:
                if card // 13 != led:
                    if start:
                        out[seat] = factor
                elif led == 2 and top > QUEEN_SPADES:
                    out[seat] = factor
            if card // 13 == led and card > top:
                top = card
    return out
