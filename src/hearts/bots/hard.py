"""Khó (hard): determinized playouts over exactly sampled deals.

For a play, the bot draws deals of the hidden cards uniformly among those
consistent with its view (:mod:`hearts.bots.sampling`), plays each candidate card
in each deal and lets the fast heuristic policy (:mod:`hearts.bots.playout`)
finish the hand, then plays the card with the best mean result.  The budget is
spent by successive halving: every candidate is tried on the same deals (so
luck cancels between them), the worse half is dropped, the rest get more deals.
The pass is searched the same way over a few likely passes (:func:`pass_candidates`):
deals of the cards it cannot see, the other seats passing their quick pass, the
hand played out by the policy from the first lead.  Both searches run on the
compiled kernel (:mod:`hearts.bots.kernel`) or its pure-Python twin.

Results are judged for the match, not just the hand (:func:`hand_utility`): a
moon counts as a moon, and near the target the totals after the hand matter.

Everything random is seeded from ``view.seed()``, and the default budget is a
fixed number of playouts, so the same view gives the same card on any machine.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from hearts.bots import kernel, kernel_ref
from hearts.bots.kernel_ref import MOON_CODES, Judge, Passing, Position, pass_scores
from hearts.bots.medium import pass_cards as medium_pass
from hearts.bots.memory import unlike_share
from hearts.bots.moon import moon_sampler, penalties, scorers
from hearts.bots.playout import QUEEN_RUNS, rollout
from hearts.bots.sampling import (
    DealSampler,
    DealTables,
    WeightedSampler,
    deal_tables,
)
from hearts.cards import JD_BIT, QS_BIT, QUEEN_SPADES, cards_of
from hearts.rules import Rules
from hearts.view import PlayerView

#: Playouts per play decision at 40 cards in hands (:func:`playouts_for`): a fixed
#: number, so the same view gives the same card on any machine (docs/kho.md).
DEFAULT_ITERATIONS = 500

#: Turns of each seat that a playout plays by a look ahead (:func:`kernel._look`)
#: instead of the policy: every turn; the others' looks are what pays.
DEFAULT_LOOKAHEAD = 52

#: The play search stops once its leader leads the runner-up by this many
#: standard errors (:func:`clear_lead`): an obvious card does not take the whole budget.
DEFAULT_CLEAR = 3.0

#: How the look ahead in Khó's playouts sees the deal (:func:`kernel_ref.hides`):
#: 0, face up (hiding pays against Vừa only, so :data:`DEFAULT_ADAPT` decides).
DEFAULT_HIDE = 0

#: Khó adapts its model of the other seats to how they play
#: (:meth:`HardBot._plays_like_the_policy`): players of habit, as Vừa, are modelled
#: by looks that hide the cards (``adapt_hide``), players who search by face-up looks.
DEFAULT_ADAPT = 0.22
DEFAULT_ADAPT_FROM = 3
DEFAULT_ADAPT_HIDE = 4

#: Sampled deals over which the others' plays are compared with the policy's.
ADAPT_DRAWS = 32

#: Where a seat alone with Q♠ runs for the moon in Khó's playouts
#: (:data:`hearts.bots.playout.QUEEN_RUNS`): ``never`` by itself; the match's memory
#: opens it against players of habit (:data:`DEFAULT_REMEMBER`).
DEFAULT_QUEEN_RUNS = "never"
QUEEN_RUNS_PLACES = ("never", "habit", "play", "pass", "pass-mix", "adapt", "everywhere")

#: Khó's memory of the match (``remember``): the places of the queen rule opened for
#: a hand when the match's earlier hands show players of habit
#: (:func:`hearts.bots.memory.unlike_share`).
DEFAULT_REMEMBER = "everywhere"
DEFAULT_REMEMBER_SHARE = 0.12
DEFAULT_REMEMBER_FROM = 20

#: Playouts per pass decision when the pass is searched (more did not pay).
DEFAULT_PASS_ITERATIONS = 1500

#: The ``hide`` of the play search's looks while one other seat alone has taken
#: points (its moon open) and the others are not judged players of habit: Khó then
#: spends its own point to stop the runner sooner.  None: ``hide`` throughout.
DEFAULT_BLOCK_HIDE: int | None = 4

Utility = Callable[[list[int], int], float]


def near_the_end(rules: Rules, totals: tuple[int, ...]) -> bool:
    """Whether this hand may end the match: then Khó plays for the match's win."""
    return max(totals) + 26 >= rules.target - 20


def hand_utility(rules: Rules, totals: tuple[int, ...], me: int) -> Utility:
    """How good a finished hand is for ``me``: ``f(pen, jd_taker) -> float``.

    ``pen`` is hearts + 13 for Q♠ taken per seat.  Far from the target the value
    is the points the others took minus mine (on average), which counts a moon
    at its real worth (+26 to each other seat).  When the hand may end the match
    it is a win probability: 1 for a win, else a soft-min of the totals whose
    temperature shrinks as the target nears.
    """
    n = rules.players
    target = rules.target
    near = near_the_end(rules, totals)
    score = rules.score
    chooses = rules.moon == "shooter_chooses"

    def points(pen: list[int], jd: int) -> list[int]:
        # The shooter, if any, scores the moon as the rules (or its own choice) say.
        return score(pen, jd, rules.moon_choice(totals, pen, jd) if chooses else None)

    if not near:
        scale = 1.0 / (n - 1)

        def linear(pen: list[int], jd: int) -> float:
            pts = points(pen, jd)
            mine = pts[me]
            return (sum(pts) - mine) * scale - mine

        return linear

    def win_chance(pen: list[int], jd: int) -> float:
        pts = points(pen, jd)
        after = [t + p for t, p in zip(totals, pts, strict=True)]
        if max(after) >= target:
            low = min(after)
            if after[me] != low:
                return 0.0
            ties = after.count(low)
            return 1.0 / ties
        hands_left = 1.0 + (target - max(after)) / 9.0
        temp = 4.5 * math.sqrt(hands_left)
        low = min(after)
        weights = [math.exp((low - a) / temp) for a in after]
        return weights[me] / sum(weights)

    # On the same footing as the linear value (points), so budgets compare.
    return lambda pen, jd: 100.0 * win_chance(pen, jd)


def seat_points(rules: Rules, totals: tuple[int, ...], me: int) -> Callable[[list[int], int], int]:
    """``f(pen, jd_taker)``: the points ``me`` scores for a finished hand (a moon
    scored as the shooter would choose), what a coach calls expected points."""
    chooses = rules.moon == "shooter_chooses"

    def points(pen: list[int], jd: int) -> int:
        return rules.score(pen, jd, rules.moon_choice(totals, pen, jd) if chooses else None)[me]

    return points


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


def candidates(view: PlayerView) -> list[int]:
    """The legal cards worth telling apart: of cards of one suit with nothing
    between them but cards gone in finished tricks (or in this hand), one is kept.
    Q♠ (and J♦ with the bonus) differ in points and are always kept."""
    n = view.n
    done = len(view.plays) - len(view.plays) % n
    gone = view.hand
    for _, c in view.plays[:done]:
        gone |= 1 << c
    special = QS_BIT | (JD_BIT if view.rules.jd_bonus else 0)
    out = []
    prev = -2
    for c in cards_of(view.legal):
        bit = 1 << c
        if prev >= 0 and c // 13 == prev // 13 and not bit & special and not (1 << prev) & special:
            between = ((1 << c) - 1) & ~((1 << (prev + 1)) - 1)
            if between & ~gone == 0:
                prev = c
                continue
        out.append(c)
        prev = c
    return out


def _queen_places(text: str, option: str) -> frozenset[str]:
    """The places of the queen rule ``text`` names (:data:`QUEEN_RUNS_PLACES`)."""
    places = set(text.split("+"))
    if not places <= set(QUEEN_RUNS_PLACES):
        raise ValueError(
            f"{option} must join some of {', '.join(QUEEN_RUNS_PLACES)} with +, not {text!r}"
        )
    if "everywhere" in places:
        places |= {"play", "pass", "adapt"}
    return frozenset(places)


@dataclass(frozen=True, slots=True)
class Options:
    """Khó's options (only those that change its play; every default is Khó's).

    ``iterations``: playouts per play at 40 cards (deterministic; the default
    keeps a decision well under a second), or ``budget_ms``: wall-clock per play
    (machine-dependent); ``pass_iterations``: playouts for the pass;
    ``passing``: ``search``, or ``medium`` (Vừa's pass); ``infer``: the weight of
    deals that put Q♠ where the play says it is not (0 or 1: no inference);
    ``spread``: more playouts when they are short; ``seed``: salt; ``engine``:
    ``compiled`` (the numba kernel) or ``reference`` (its pure-Python twin, the
    same results more slowly); ``shoot``: a bonus on the value of a moon of its
    own (the bench's moon-hungry opponent); ``moon``: moon defence (while a moon
    is live, part of the deals give the runner the high hearts,
    :mod:`hearts.bots.moon`); ``mismatch``: the weight a sampled deal keeps per
    play of another seat that the playout policy would not have made with that
    deal's hands (1.0: every deal the same, :func:`kernel_ref.likeness`);
    ``lookahead``: in each playout Khó's next this many turns after the card
    weighed are played by trying each of its cards with a plain playout and
    keeping the best (:func:`kernel._look`; 0: the plain policy),
    ``lookahead_others``: the same for the other seats, ``pass_lookahead``: the
    same for every seat in the pass search's playouts; ``clear``: the play search
    stops once its leader leads the runner-up by this many standard errors
    (:func:`clear_lead`; 0: the whole budget); ``hide``: a look ahead plays its
    cards out where the others' cards of each suit are dealt again among them
    (:func:`kernel_ref.hide`: 1, every seat's look; 2, the other seats' only; 3,
    Khó's own only; 4, the other seats' looks with the others' cards mixed across
    suits too, the voids shown kept, :func:`kernel_ref.mix`; 0, face up; plus ten
    for each more such deal); ``adapt``: once the other seats have made
    ``adapt_from`` plays, a play searches with ``hide`` = ``adapt_hide`` when fewer
    than this share of their plays are unlike the playout policy's
    (:func:`kernel_ref.unlike`: players of habit; 0: never); ``queen_runs``: where,
    in the playouts, a seat alone with Q♠ runs for the moon unchased (``play``,
    ``pass``, ``pass-mix``, ``adapt``, ``habit`` joined with ``+``, ``everywhere``
    or ``never``); ``remember``: those places opened for a hand when the match's
    earlier hands (:attr:`PlayerView.earlier`) show the others playing like the
    playout policy: fewer than ``remember_share`` of their plays unlike it, over
    at least ``remember_from`` (:func:`hearts.bots.memory.unlike_share`);
    ``block_hide``: the ``hide`` of a play while one other seat alone has taken
    points and the others are not judged players of habit (None: ``hide``).
    """

    iterations: int = DEFAULT_ITERATIONS
    budget_ms: float | None = None
    seed: int = 0
    passing: str = "search"
    pass_iterations: int = DEFAULT_PASS_ITERATIONS
    infer: float = 0.1
    spread: bool = True
    engine: str = "compiled"
    shoot: float = 0.0
    moon: bool = True
    mismatch: float = 1.0
    lookahead: int = DEFAULT_LOOKAHEAD
    lookahead_others: int = DEFAULT_LOOKAHEAD
    pass_lookahead: int = 0
    clear: float = DEFAULT_CLEAR
    hide: int = DEFAULT_HIDE
    adapt: float = DEFAULT_ADAPT
    adapt_hide: int = DEFAULT_ADAPT_HIDE
    adapt_from: int = DEFAULT_ADAPT_FROM
    queen_runs: str = DEFAULT_QUEEN_RUNS
    remember: str = DEFAULT_REMEMBER
    remember_share: float = DEFAULT_REMEMBER_SHARE
    remember_from: int = DEFAULT_REMEMBER_FROM
    block_hide: int | None = DEFAULT_BLOCK_HIDE

    def __post_init__(self) -> None:
        if self.engine not in ("compiled", "reference"):
            raise ValueError(f"unknown engine {self.engine!r}")
        for hide in (self.hide, self.adapt_hide, self.block_hide):
            if hide is not None:
                _checked_hide(hide)
        _queen_places(self.queen_runs, "queen_runs")
        if self.remember:
            _queen_places(self.remember, "remember")

    @classmethod
    def of(
        cls, iterations: int | None = None, pass_iterations: int | None = None, **options: Any
    ) -> Options:
        """The options from keywords; without ``pass_iterations``, a smaller play
        budget means a smaller pass budget too (never more than its default: more
        was not shown to pay)."""
        if pass_iterations is None:
            pass_iterations = (
                DEFAULT_PASS_ITERATIONS
                if iterations is None
                else max(1, min(DEFAULT_PASS_ITERATIONS, int(iterations) // 2))
            )
        return cls(
            iterations=DEFAULT_ITERATIONS if iterations is None else int(iterations),
            pass_iterations=int(pass_iterations),
            **options,
        )


class HardBot:
    """Khó: ``HardBot(options)``, or ``HardBot(**keywords)`` (:meth:`Options.of`)."""

    name = "hard"

    def __init__(self, options: Options | None = None, /, **keywords: Any) -> None:
        if options is not None and keywords:
            raise TypeError("HardBot takes an Options or keywords, not both")
        o = options if options is not None else Options.of(**keywords)
        self.options = o
        self._queen_runs = _queen_places(o.queen_runs, "queen_runs")
        self._remember = _queen_places(o.remember, "remember") if o.remember else frozenset()

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
        return self._rank_pass(view, cands, offset, None)[0][0]

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
        order, sums, counts = self._rank_pass(view, cands, offset, tally)
        choice = cands[order[0]] if self.options.passing == "search" else base
        return Weighing(
            choice=choice,
            options=tuple(cands[i] for i in order),
            points={cands[i]: tally[i] / counts[i] for i in order},
            value={cands[i]: sums[i] / counts[i] for i in order},
            deals={cands[i]: counts[i] for i in order},
            near=near_the_end(rules, view.totals),
        )

    def _rank_pass(
        self, view: PlayerView, cands: list[int], offset: int, tally: list[float] | None
    ) -> tuple[list[int], dict[int, float], dict[int, int]]:
        """The pass search over the indices of ``cands`` (:func:`halving_ranks`);
        each playout adds the seat's points to ``tally`` if given."""
        rules = view.rules
        tables = deal_tables(DealSampler(view))
        seed = view.seed(self.options.seed)
        places = self._places(view)
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
        pass_batch = kernel.pass_batch if compiled else kernel_ref.pass_batch
        look = self.options.pass_lookahead

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
                    pass_batch(tables, seed, w0, w1, cands, alive, model, judge, s2, p2, look, look)
                    for i in alive:
                        sums[i] += 0.5 * float(s2[i])
                        points[i] += 0.5 * float(p2[i])
            else:
                pass_batch(
                    tables, seed, w0, w1, cands, alive, passing, judge, sums, points, look, look
                )  # fmt: skip

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
        cands = candidates(view)
        if len(cands) == 1:
            return cands[0]
        return search(view, cands)

    def _search(self, view: PlayerView, cands: list[int]) -> int:
        return self._rank_play(view, cands, None)[0][0]

    def weigh_play(self, view: PlayerView) -> Weighing:
        """:meth:`choose_play` with the search's findings: every candidate (one
        card of each run of equal cards) with the seat's mean points.  The card
        chosen is the same; an only candidate is searched too, for its points."""
        cands = candidates(view)
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
        base: DealSampler | WeightedSampler
        if o.infer:
            base = WeightedSampler(view, QUEEN_SPADES, queen_doubts(view, o.infer))
        else:
            base = DealSampler(view)
        sampler = moon_sampler(view, base) if o.moon else base
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
        places = self._places(view)
        if "play" in places or ("habit" in places and habit):
            pos = pos._replace(voids=pos.voids | QUEEN_RUNS)

        def batch(w0: int, w1: int, alive: list[int]) -> None:
            if compiled:
                kernel.play_batch(
                    tables, seed, w0, w1, cands, alive, pos, judge, sums_a, points_a, mass_a,
                    look, look_others, hide,
                )  # fmt: skip
            else:
                kernel_ref.play_batch(
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

    def _places(self, view: PlayerView) -> frozenset[str]:
        """Where the queen rule holds for this decision: ``queen_runs``, and
        ``remember`` when the match's earlier hands show players of habit."""
        if self._remember:
            share, made = unlike_share(view)
            o = self.options
            if made >= o.remember_from and share < o.remember_share:
                return self._queen_runs | self._remember
        return self._queen_runs

    def _plays_like_the_policy(self, view: PlayerView, tables: DealTables, seed: int) -> bool:
        """Whether the other seats, over at least ``adapt_from`` plays so far, play
        unlike the playout policy on fewer than ``adapt`` of them (averaged over
        :data:`ADAPT_DRAWS` sampled deals, :func:`kernel_ref.unlike`): players of
        habit, as Vừa, rather than players who search."""
        o = self.options
        others = sum(1 for s, _ in view.plays if s != view.seat)
        if others < o.adapt_from:
            return False
        unlike = kernel.unlike if o.engine == "compiled" else kernel_ref.unlike
        pos = search_position(view, 0.5)
        if "adapt" in self._places(view):
            pos = pos._replace(voids=pos.voids | QUEEN_RUNS)
        seen = unlike(tables, seed, 0, ADAPT_DRAWS, pos)
        return seen / others < o.adapt

    def play_playouts(self, view: PlayerView) -> int:
        """The fixed playout budget for a play from ``view``."""
        total = self.options.iterations
        if self.options.spread:
            total = playouts_for(total, sum(view.counts))
        return total


WorldPlayout = Callable[[list[int], int, random.Random | None, float], float]


def _other_moon_open(view: PlayerView) -> bool:
    """Whether one other seat alone has taken points so far (its moon still open)."""
    seats = scorers(penalties(view))
    return len(seats) == 1 and seats[0] != view.seat


def _checked_hide(hide: int) -> int:
    """``hide`` as an int, or ValueError when the kernel has no such look."""
    value = int(hide)
    if value < 0 or value % 10 > 4 or value // 10 >= kernel_ref.MAX_DEALS:
        # The compiled look keeps room for MAX_DEALS deals and no more.
        raise ValueError(
            f"unknown hide {hide!r}: 0 to 4, plus ten a deal more "
            f"(at most {kernel_ref.MAX_DEALS} deals)"
        )
    return value


def card_playout(view: PlayerView) -> WorldPlayout:
    """``f(hands, card, noise, eps)``: the value for ``view``'s seat of playing
    ``card`` now when the seats hold ``hands`` (not changed), the rest of the hand
    played by the rollout policy (random legal moves with probability ``eps``
    drawn from ``noise``, when given)."""
    roll = card_rollout(view)
    utility = hand_utility(view.rules, view.totals, view.seat)

    def play_out(world: list[int], card: int, noise: random.Random | None, eps: float) -> float:
        return utility(*roll(world, card, noise, eps))

    return play_out


WorldRollout = Callable[[list[int], int, random.Random | None, float], tuple[list[int], int]]


def card_rollout(view: PlayerView) -> WorldRollout:
    """Like :func:`card_playout`, the finished hand itself: ``(pen, jd_taker)``."""
    me = view.seat
    n = view.n
    rules = view.rules
    trick = [c for _, c in view.trick]
    leader = view.leader
    played = len(view.plays)
    broken = view.broken
    pen0 = [0] * n
    jd0 = -1
    for s, mask in enumerate(view.taken()):
        pen0[s] = rules.penalty(mask)
        if mask & JD_BIT:
            jd0 = s
    qs_breaks = rules.qs_breaks_hearts
    lead_card = rules.lead_card
    voids = any_void(view)

    def roll(
        world: list[int], card: int, noise: random.Random | None, eps: float
    ) -> tuple[list[int], int]:
        hands = world[:]
        hands[me] &= ~(1 << card)
        t = [*trick, card]
        pen = pen0[:]
        jd = rollout(
            hands,
            t,
            leader,
            played + 1,
            broken or card >= 39 or (qs_breaks and card == QUEEN_SPADES),
            pen,
            jd0,
            qs_breaks,
            lead_card,
            None,
            noise,
            eps,
            voids,
        )
        return pen, jd

    return roll


def search_position(view: PlayerView, mismatch: float = 1.0) -> Position:
    """Where the kernels start a playout from ``view`` (before the card weighed);
    ``mismatch``: how deals are weighed by the plays so far (:class:`Position`)."""
    rules = view.rules
    pen = [0] * view.n
    jd = -1
    for s, mask in enumerate(view.taken()):
        pen[s] = rules.penalty(mask)
        if mask & JD_BIT:
            jd = s
    return Position(
        me=view.seat,
        trick=tuple(c for _, c in view.trick),
        leader=view.leader,
        played=len(view.plays),
        broken=view.broken,
        pen=tuple(pen),
        jd=jd,
        qs_breaks=rules.qs_breaks_hearts,
        lead_card=rules.lead_card,
        voids=any_void(view),
        history=tuple(view.plays) if mismatch != 1.0 else (),
        mismatch=mismatch,
        seat_voids=tuple(view.voids()),
    )


def search_judge(view: PlayerView, shoot: float = 0.0) -> Judge:
    """How the kernels value a finished hand for ``view``'s seat (:func:`hand_utility`)."""
    rules = view.rules
    return Judge(
        me=view.seat,
        near=near_the_end(rules, view.totals),
        totals=tuple(view.totals),
        target=rules.target,
        moon=MOON_CODES[rules.moon],
        jd_bonus=rules.jd_bonus,
        shoot=shoot,
    )


def halving_batches(
    k: int,
    batch: Callable[[int, int, list[int]], None],
    sums: Any,
    keys: list[int],
    total: int,
    deadline: float | None = None,
    step: int = 16,
    clear: float = 0.0,
) -> tuple[list[int], list[int]]:
    """:func:`halving_ranks` over candidates ``0..k-1`` whose playouts run in
    batches: ``batch(w0, w1, alive)`` plays deals ``w0..w1-1`` for each index in
    ``alive`` and adds the results to ``sums`` (ties: the lower ``keys[i]`` first).
    The indices best first, and the playouts each got.  With a ``deadline`` the
    clock is read after every ``step`` deals.  With ``clear`` > 0 the search
    also stops, after any ``step`` deals, once the leader's lead over the
    runner-up on the deals both played is ``clear`` standard errors or more
    (:func:`clear_lead`): an obvious card does not take the whole budget."""
    alive = list(range(k))
    dropped: list[int] = []
    counts = [0] * k
    rounds = max(1, math.ceil(math.log2(k)))
    used = 0
    w = 0
    chunks: list[list[float]] = [[] for _ in range(k)]  # per candidate, per batch
    sizes: list[int] = []
    stop = False
    for r in range(rounds):
        left = total - used
        share = left // (rounds - r)
        per = max(1, share // len(alive))
        if deadline is None and not clear:
            batch(w, w + per, alive)
            done = per
        else:
            now = time.perf_counter()
            round_end = None if deadline is None else now + (deadline - now) / (rounds - r)
            done = 0
            while done < per:
                n = min(per - done, step)
                before = [float(sums[i]) for i in alive] if clear else []
                batch(w + done, w + done + n, alive)
                done += n
                if clear:
                    for i, b in zip(alive, before, strict=True):
                        chunks[i].append(float(sums[i]) - b)
                    sizes.append(n)
                    if len(alive) > 1 and clear_lead(chunks, sizes, alive, sums) >= clear:
                        stop = True
                        break
                if round_end is not None and time.perf_counter() > round_end:
                    break
        used += done * len(alive)
        w += done
        for i in alive:
            counts[i] += done
        alive.sort(key=lambda i: (-float(sums[i]) / counts[i], keys[i]))
        if stop:
            break
        if len(alive) > 1 and r < rounds - 1:
            keep = max(1, (len(alive) + 1) // 2)
            dropped = alive[keep:] + dropped
            alive = alive[:keep]
    return alive + dropped, counts


def clear_lead(chunks: list[list[float]], sizes: list[int], alive: list[int], sums: Any) -> float:
    """How many standard errors the best of ``alive`` leads the second best by,
    from the per-batch sums ``chunks`` (every alive candidate played the same
    deals, batch by batch, of ``sizes`` deals); 0 with fewer than 4 batches."""
    m = len(sizes)
    if m < 4:
        return 0.0
    top = sorted(alive, key=lambda i: -float(sums[i]))[:2]
    a, b = chunks[top[0]], chunks[top[1]]
    deals = sum(sizes)
    mean = (sum(a) - sum(b)) / deals
    # per-deal variance of the paired difference, from the batch means
    var = sum(z * ((x - y) / z - mean) ** 2 for x, y, z in zip(a, b, sizes, strict=True)) / (m - 1)
    if var <= 0.0:
        return math.inf if mean > 0 else 0.0
    return mean / math.sqrt(var / deals)


def playouts_for(iterations: int, cards_left: int) -> int:
    """Playouts for a decision with ``cards_left`` cards in hands: ``iterations``
    at 40 cards, more when playouts are shorter (a playout costs about one step
    per card), up to 4 times as many, so every decision takes about as long."""
    return min(4 * iterations, iterations * 40 // max(cards_left, 10))


def successive_halving(
    cands: list[int],
    playout: Callable[[int, int], float],
    total: int,
    deadline: float | None = None,
) -> int:
    """Spend ``total`` playouts over ``cands`` by successive halving; the best card.

    Round after round every surviving card is tried on the same new deals and
    the worse half is dropped; ties keep the lower card (deterministic).  With a
    ``deadline`` (``time.perf_counter()`` value) the rounds share the time left
    instead, and ``total`` only caps the playouts.
    """
    return halving_ranks(cands, playout, total, deadline)[0][0]


def halving_ranks(
    cands: list[int],
    playout: Callable[[int, int], float],
    total: int,
    deadline: float | None = None,
) -> tuple[list[int], dict[int, float], dict[int, int]]:
    """:func:`successive_halving`'s search with what it found: the candidates best
    first (the survivors of the last round, then those dropped later before those
    dropped earlier), and each one's sum of results and number of playouts."""
    sums = [0.0] * len(cands)

    def batch(w0: int, w1: int, alive: list[int]) -> None:
        for k in range(w0, w1):
            for i in alive:
                sums[i] += playout(cands[i], k)

    # one deal at a time: the clock is read after each (a playout here is slow)
    order, counts = halving_batches(len(cands), batch, sums, cands, total, deadline, step=1)
    ranked = [cands[i] for i in order]
    return ranked, dict(zip(cands, sums, strict=True)), dict(zip(cands, counts, strict=True))


def pass_candidates(
    hand: int, count: int, base: int, keep: int = 10, jd: bool = False
) -> list[int]:
    """Passes worth a search: ``base`` first, then the best-scored sets of
    ``count`` cards among the seven most passable cards."""
    from itertools import combinations

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


def any_void(view: PlayerView) -> int:
    """Bit k set when some other seat has shown a void in suit k."""
    out = 0
    for seat, mask in enumerate(view.voids()):
        if seat != view.seat:
            out |= mask
    return out
