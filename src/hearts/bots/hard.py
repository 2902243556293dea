"""Khó (hard): determinized playouts over exactly sampled deals.

For a play, the bot draws deals of the hidden cards uniformly among those
consistent with its view (:mod:`hearts.bots.sampling`), plays each candidate card
in each deal and lets the fast heuristic policy (:mod:`hearts.bots.playout`)
finish the hand, then plays the card with the best mean result.  The budget is
spent by successive halving: every candidate is tried on the same deals (so
luck cancels between them), the worse half is dropped, the rest get more deals.

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

from hearts.bots.medium import pass_cards as medium_pass
from hearts.bots.playout import rollout
from hearts.bots.sampling import DealSampler
from hearts.cards import HEARTS_MASK, JD_BIT, QS_BIT, QUEEN_SPADES, SUIT_MASKS, cards_of
from hearts.match import moon_choice
from hearts.rules import Rules
from hearts.view import PlayerView

#: Playouts per play decision by default: about 0.3 s on the reference machine.
DEFAULT_ITERATIONS = 4000

Utility = Callable[[list[int], int], float]


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
    jd_bonus = rules.jd_bonus
    moon: str = rules.moon
    near = max(totals) + 26 >= target - 20

    def points(pen: list[int], jd: int) -> list[int]:
        pts = pen[:]
        for s in range(n):
            if pen[s] == 26:
                how = moon
                if how == "shooter_chooses":
                    how = moon_choice(rules, list(totals), s)
                if how == "add_to_others":
                    pts = [0 if t == s else 26 for t in range(n)]
                else:
                    pts[s] = -26
                break
        if jd_bonus and jd >= 0:
            pts[jd] -= 10
        return pts

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


class HardBot:
    """Khó.  Options: ``iterations`` (playouts per play, deterministic) or
    ``budget_ms`` (wall-clock per play, machine-dependent), ``seed`` (salt)."""

    name = "hard"

    def __init__(
        self,
        iterations: int | None = None,
        budget_ms: float | None = None,
        seed: int = 0,
        passing: str = "medium",
        eps: float = 0.0,
    ) -> None:
        self.passing = passing
        self.eps = float(eps)
        self.iterations = int(iterations) if iterations is not None else DEFAULT_ITERATIONS
        self.budget_ms = float(budget_ms) if budget_ms is not None else None
        self.seed = int(seed)

    # -- passing ------------------------------------------------------------------
    def choose_pass(self, view: PlayerView) -> int:
        """The three cards hardest to get rid of (see :func:`pass_scores`)."""
        if self.passing == "medium":
            return medium_pass(view.hand, view.rules.pass_count, view.pass_to - view.seat, view.n)
        scores = pass_scores(view.hand)
        ranked = sorted(cards_of(view.hand), key=lambda c: (-scores[c], -c))
        out = 0
        for c in ranked[: view.rules.pass_count]:
            out |= 1 << c
        return out

    # -- playing ------------------------------------------------------------------
    def choose_play(self, view: PlayerView) -> int:
        legal = view.legal
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        cands = candidates(view)
        if len(cands) == 1:
            return cands[0]
        return self._search(view, cands)

    def _search(self, view: PlayerView, cands: list[int]) -> int:
        rng = random.Random(view.seed(self.seed))
        sampler = DealSampler(view)
        me = view.seat
        n = view.n
        rules = view.rules
        utility = hand_utility(rules, view.totals, me)
        trick = [c for _, c in view.trick]
        leader = view.leader
        played = len(view.plays)
        broken = view.broken
        pen0 = [0] * n
        jd0 = -1
        for s, mask in enumerate(view.taken()):
            pen0[s] = (mask & HEARTS_MASK).bit_count() + (13 if mask & QS_BIT else 0)
            if mask & JD_BIT:
                jd0 = s
        qs_breaks = rules.qs_breaks_hearts
        lead_card = rules.lead_card
        worlds: list[list[int]] = []
        seeds: list[int] = []
        eps = self.eps

        def playout(card: int, w: int) -> float:
            while len(worlds) <= w:
                worlds.append(sampler.draw(rng))
                seeds.append(rng.getrandbits(32))
            hands = worlds[w][:]
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
                random.Random(seeds[w]) if eps else None,
                eps,
            )
            return utility(pen, jd)

        total = self.iterations
        if self.budget_ms is not None:
            # Calibrate: time a first batch, then size the halving to the budget.
            start = time.perf_counter()
            probe = max(8, 64 // len(cands))
            for c in cands:
                for w in range(probe):
                    playout(c, w)
            spent = time.perf_counter() - start
            per = spent / (probe * len(cands))
            total = max(probe * len(cands), int(self.budget_ms / 1000.0 / per))
        return successive_halving(cands, playout, total)


def successive_halving(cands: list[int], playout: Callable[[int, int], float], total: int) -> int:
    """Spend ``total`` playouts over ``cands`` by successive halving; the best card.

    Round after round every surviving card is tried on the same new deals and
    the worse half is dropped; ties keep the lower card (deterministic).
    """
    alive = list(cands)
    sums = dict.fromkeys(cands, 0.0)
    counts = dict.fromkeys(cands, 0)
    rounds = max(1, math.ceil(math.log2(len(cands))))
    used = 0
    w = 0
    for r in range(rounds):
        left = total - used
        share = left // (rounds - r)
        per = max(1, share // len(alive))
        for k in range(w, w + per):
            for c in alive:
                sums[c] += playout(c, k)
        used += per * len(alive)
        w += per
        for c in alive:
            counts[c] += per
        alive.sort(key=lambda c: (-sums[c] / counts[c], c))
        if len(alive) > 1 and r < rounds - 1:
            alive = alive[: max(1, (len(alive) + 1) // 2)]
    return alive[0]


def pass_scores(hand: int) -> dict[int, float]:
    """How much each card wants to leave the hand: Q♠ and its guards with few low
    spades, high hearts, and the high cards of a short side suit."""
    spades = hand & SUIT_MASKS[2]
    low_spades = (spades & ((1 << QUEEN_SPADES) - 1)).bit_count()
    has_qs = bool(hand & QS_BIT)
    out: dict[int, float] = {}
    for c in cards_of(hand):
        suit, rank = divmod(c, 13)
        length = (hand & SUIT_MASKS[suit]).bit_count()
        if suit == 2:
            if c == QUEEN_SPADES:
                v = 100.0 if low_spades < 4 else 20.0
            elif rank > 10:
                v = (90.0 if not has_qs else 85.0) if low_spades < 4 else 25.0
            else:
                v = -5.0 + rank
        elif suit == 3:
            v = 40.0 + 3 * rank if rank >= 8 else 2.0 * rank
        else:
            v = 3.0 * rank + (18.0 if length <= 3 else 0.0) - 2.0 * length
        out[c] = v
    return out
