"""Exact, uniform sampling of the hidden cards consistent with what a seat knows.

A seat knows its own hand, every card played, which seat has shown a void in
which suit (or, by the rules, that it holds only hearts, or only hearts and Q♠:
:meth:`PlayerView.excluded`), and where the cards it passed went (they sit in the
receiver's hand until played).  Every other placement of the unseen cards is equally likely.

The cards not known to be in a given hand fall into classes (cards that the
same seats may hold pool into one class: usually whole suits), and an exclusion
only forbids a whole class to a seat, so the number of deals is a sum over *how many* cards of each
class each seat gets, of products of multinomials.  :class:`DealSampler` counts
those deals class by class (a small dynamic program over the seats' remaining
hand sizes), then draws a count vector per class with probability proportional
to the number of deals it leads to, and shuffles the class's cards into those
slots: an exact uniform draw, no rejection, no greedy fill.

>>> from hearts.hand import HandState
>>> from hearts.rules import Rules
>>> import random
>>> state = HandState.deal(Rules(), 4, random.Random(5))
>>> view = state.view(state.turn)
>>> s = DealSampler(view)
>>> s.total == _multinomial(39, (13, 13, 13))   # no pass, nothing played yet
True
>>> hands = s.draw(random.Random(1))
>>> hands[view.seat] == view.hand and sum(h.bit_count() for h in hands) == 52
True
"""

from __future__ import annotations

import random
from bisect import bisect_right
from functools import cache
from itertools import accumulate
from math import factorial

from hearts.cards import FULL_DECK, HEARTS_MASK, QS_BIT, SUIT_MASKS, cards_of
from hearts.view import PlayerView


@cache
def _fact(k: int) -> int:
    return factorial(k)


def _multinomial(total: int, parts: tuple[int, ...]) -> int:
    out = _fact(total)
    for p in parts:
        out //= _fact(p)
    return out


@cache
def _compositions(total: int, caps: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every way to split ``total`` into ``len(caps)`` parts with part i <= caps[i]."""
    if not caps:
        return [()] if total == 0 else []
    head, rest = caps[0], caps[1:]
    room = sum(rest)
    out = []
    for first in range(max(0, total - room), min(head, total) + 1):
        for tail in _compositions(total - first, rest):
            out.append((first, *tail))
    return out


def _excluded(view: PlayerView) -> list[int]:
    """PlayerView.excluded() as it was on 2026-11-30 (frozen with the yardstick)."""
    out = [0] * view.n
    for s, mask in enumerate(view.voids()):
        for k in range(4):
            if mask >> k & 1:
                out[s] |= SUIT_MASKS[k]
    n = view.n
    broken = False
    breakers = HEARTS_MASK | (QS_BIT if view.rules.qs_breaks_hearts else 0)
    for i, (s, c) in enumerate(view.plays):
        bit = 1 << c
        if i % n == 0:
            if i and not broken and bit & HEARTS_MASK:
                out[s] |= FULL_DECK & ~HEARTS_MASK
        elif i < n and bit & (HEARTS_MASK | QS_BIT):
            out[s] |= FULL_DECK & ~(HEARTS_MASK | QS_BIT)
        if bit & breakers:
            broken = True
    return out


class NoConsistentDeal(ValueError):
    """The view admits no deal (it contradicts itself)."""


class DealSampler:
    """Uniform draws of full deals consistent with ``view`` (see the module doc).

    ``total`` is the exact number of consistent deals.  ``draw`` returns a hand
    mask per seat; the viewing seat's hand is always ``view.hand``.  With
    ``place=(seat, card)`` only the deals with ``card`` in ``seat``'s hand count.
    """

    def __init__(self, view: PlayerView, place: tuple[int, int] | None = None) -> None:
        n = view.n
        me = view.seat
        self.n = n
        self.me = me
        self.hand = view.hand
        unseen = view.unseen()
        known = view.known()
        excluded = _excluded(view)
        fixed = [0] * n
        fixed[me] = view.hand
        placed = 0
        for s in range(n):
            if s != me:
                fixed[s] = known[s] & unseen
                placed |= fixed[s]
        if place is not None:
            # A card assumed to lie in a given hand (for weighted sampling).
            seat, card = place
            bit = 1 << card
            if seat == me or not unseen & bit or excluded[seat] & bit:
                raise NoConsistentDeal("the card cannot lie in that hand")
            if not fixed[seat] & bit:
                if placed & bit:
                    raise NoConsistentDeal("the card is known to lie elsewhere")
                fixed[seat] |= bit
                placed |= bit
        self.fixed = fixed
        free = unseen & ~placed
        self.others = tuple(s for s in range(n) if s != me)
        needs = []
        for s in self.others:
            need = view.counts[s] - fixed[s].bit_count()
            if need < 0:
                raise NoConsistentDeal(f"seat {s} holds more known cards than cards")
            needs.append(need)
        self.needs = tuple(needs)
        # Card classes: free cards that the same seats may hold are interchangeable,
        # so cards with the same exclusions pool (usually few classes, often one).
        pools: dict[tuple[bool, ...], int] = {}
        for card in cards_of(free):
            allowed = tuple(not excluded[s] >> card & 1 for s in self.others)
            pools[allowed] = pools.get(allowed, 0) | 1 << card
        self.classes = len(pools)
        self.suit_cards = [list(cards_of(mask)) for mask in pools.values()]
        self.allowed = list(pools)
        if sum(needs) != free.bit_count():
            raise NoConsistentDeal("hand sizes do not add up to the unseen cards")
        self._choices: dict[
            tuple[int, tuple[int, ...]], tuple[list[tuple[int, ...]], list[int]]
        ] = {}
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}
        self.total = self._count(0, self.needs)
        if self.total == 0:
            raise NoConsistentDeal("no deal fits the shown voids and hand sizes")

    def _options(self, k: int, needs: tuple[int, ...]) -> tuple[list[tuple[int, ...]], list[int]]:
        """Count vectors for suit ``k`` and the (cumulative) deals each leads to."""
        key = (k, needs)
        hit = self._choices.get(key)
        if hit is not None:
            return hit
        size = len(self.suit_cards[k])
        caps = tuple(need if ok else 0 for need, ok in zip(needs, self.allowed[k], strict=True))
        splits = []
        weights = []
        # The last suit must fill every hand exactly: one split at most.
        last = k == self.classes - 1
        choices = ([needs] if caps == needs else []) if last else None
        for split in _compositions(size, caps) if choices is None else choices:
            rest = tuple(a - b for a, b in zip(needs, split, strict=True))
            ways = self._count(k + 1, rest)
            if ways:
                splits.append(split)
                weights.append(_multinomial(size, split) * ways)
        out = (splits, list(accumulate(weights)))
        self._choices[key] = out
        return out

    def _count(self, k: int, needs: tuple[int, ...]) -> int:
        if k == self.classes:
            return 0 if any(needs) else 1
        key = (k, needs)
        hit = self._ways.get(key)
        if hit is None:
            _, cumulative = self._options(k, needs)
            hit = cumulative[-1] if cumulative else 0
            self._ways[key] = hit
        return hit

    def draw(self, rng: random.Random) -> list[int]:
        """One deal, uniformly among all consistent deals: a hand mask per seat."""
        hands = self.fixed[:]
        needs = self.needs
        others = self.others
        for k in range(self.classes):
            cards = self.suit_cards[k]
            splits, cumulative = self._options(k, needs)
            pick = bisect_right(cumulative, rng.randrange(cumulative[-1]))
            split = splits[pick]
            order = rng.sample(cards, len(cards))
            at = 0
            for i, take in enumerate(split):
                for c in order[at : at + take]:
                    hands[others[i]] |= 1 << c
                at += take
            needs = tuple(a - b for a, b in zip(needs, split, strict=True))
        return hands


class WeightedSampler:
    """Deals drawn with the location of one card weighted by soft evidence.

    ``doubt`` maps a seat to a factor (0..1) on the deals that put ``card`` in its
    hand, e.g. a seat that threw another card when it could have dumped Q♠.
    Within each placement the draw stays exactly uniform: the seat is picked with
    probability proportional to its number of deals times its factor.
    """

    def __init__(self, view: PlayerView, card: int, doubt: dict[int, float]) -> None:
        self.base = DealSampler(view)
        self.parts: list[tuple[float, DealSampler]] = []
        if not doubt or not view.unseen() >> card & 1:
            return
        for s in self.base.others:
            try:
                part = DealSampler(view, place=(s, card))
            except NoConsistentDeal:
                continue
            self.parts.append((part.total * doubt.get(s, 1.0), part))
        if len(self.parts) < 2 or sum(w for w, _ in self.parts) <= 0:
            self.parts = []

    def draw(self, rng: random.Random) -> list[int]:
        if not self.parts:
            return self.base.draw(rng)
        pick = rng.random() * sum(w for w, _ in self.parts)
        for weight, part in self.parts:
            pick -= weight
            if pick < 0:
                return part.draw(rng)
        return self.parts[-1][1].draw(rng)
