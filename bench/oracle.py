"""The face-up oracle: Khó's search given every hand (bench only).

It measures the ceiling of the search: the same playouts and the same budget,
but every playout is played on the true deal instead of a sampled one.  It
cheats by construction, so it lives only in ``bench/`` and nothing under
``src/hearts`` may import it.  Since the rollout policy is deterministic, the
first playout of each card is the pure policy on the true deal and later ones
add noise (each card of the playout, every seat's, is a random legal one with
probability 0.1) so that repeated playouts explore; the budget is the same
number of playouts as Khó's.  The pass is Khó's own (chosen before any card
is seen, from sampled deals): the oracle differs only in play.
"""

from __future__ import annotations

import random

from hearts.bots.hard import (
    HardBot,
    any_void,
    candidates,
    hand_utility,
    playouts_for,
    successive_halving,
)
from hearts.bots.playout import rollout
from hearts.cards import HEARTS_MASK, JD_BIT, QS_BIT, QUEEN_SPADES
from hearts.view import PlayerView


class OracleBot(HardBot):
    """Khó with the true deal in place of sampled deals.  ``choose_play`` takes
    the hands of every seat (``hands``) besides the view."""

    name = "oracle"
    needs_hands = True

    def choose_play_face_up(self, view: PlayerView, hands: list[int]) -> int:
        legal = view.legal
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        cands = candidates(view)
        if len(cands) == 1:
            return cands[0]
        base = view.seed(self.seed)
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
        cache: dict[tuple[int, int], float] = {}

        def playout(card: int, w: int) -> float:
            # World 0 is the deterministic policy; later ones perturb it.
            key = (card, w)
            if key in cache:
                return cache[key]
            h = hands[:]
            h[me] &= ~(1 << card)
            t = [*trick, card]
            pen = pen0[:]
            jd = rollout(
                h,
                t,
                leader,
                played + 1,
                broken or card >= 39 or (qs_breaks and card == QUEEN_SPADES),
                pen,
                jd0,
                qs_breaks,
                rules.lead_card,
                None,
                random.Random(base + w) if w else None,
                0.1,
                any_void(view),
            )
            cache[key] = value = utility(pen, jd)
            return value

        total = self.iterations
        if self.spread:
            total = playouts_for(total, sum(view.counts))
        return successive_halving(cands, playout, total)
