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
from collections.abc import Sequence
from functools import cache
from itertools import accumulate
from math import factorial
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from hearts.cards import cards_of
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


def _pairs(place: tuple[int, int] | Sequence[tuple[int, int]] | None) -> list[tuple[int, int]]:
    if place is None:
        return []
    if len(place) == 2 and isinstance(place[0], int) and isinstance(place[1], int):
        return [(place[0], place[1])]
    return [(int(s), int(c)) for s, c in place]  # type: ignore[misc]


class NoConsistentDeal(ValueError):
    """The view admits no deal (it contradicts itself)."""


class DealSampler:
    """Uniform draws of full deals consistent with ``view`` (see the module doc).

    ``total`` is the exact number of consistent deals.  ``draw`` returns a hand
    mask per seat; the viewing seat's hand is always ``view.hand``.  With
    ``place=(seat, card)`` only the deals with ``card`` in ``seat``'s hand count
    (a list of such pairs: every one of them).
    """

    def __init__(
        self,
        view: PlayerView,
        place: tuple[int, int] | Sequence[tuple[int, int]] | None = None,
    ) -> None:
        n = view.n
        me = view.seat
        self.n = n
        self.me = me
        self.hand = view.hand
        unseen = view.unseen()
        known = view.known()
        excluded = view.excluded()
        fixed = [0] * n
        fixed[me] = view.hand
        placed = 0
        for s in range(n):
            if s != me:
                fixed[s] = known[s] & unseen
                placed |= fixed[s]
        for seat, card in _pairs(place):
            # A card assumed to lie in a given hand (for weighted sampling).
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


class MixtureSampler:
    """Deals drawn from several samplers, each picked with probability
    proportional to its weight: e.g. uniform deals, and deals in which a seat
    running for the moon holds the hearts it would need (:mod:`hearts.bots.hard.moon`)."""

    def __init__(self, parts: list[tuple[float, DealSampler]]) -> None:
        self.parts = parts

    def draw(self, rng: random.Random) -> list[int]:
        pick = rng.random() * sum(w for w, _ in self.parts)
        for weight, part in self.parts:
            pick -= weight
            if pick < 0:
                return part.draw(rng)
        return self.parts[-1][1].draw(rng)


def sampler_parts(
    sampler: DealSampler | WeightedSampler | MixtureSampler,
) -> list[tuple[float, DealSampler]]:
    """The exact samplers a sampler draws from, with their weights."""
    if isinstance(sampler, MixtureSampler):
        return sampler.parts
    if isinstance(sampler, WeightedSampler):
        return sampler.parts or [(1.0, sampler.base)]
    return [(1.0, sampler)]


Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


class DealTables(NamedTuple):
    """A sampler's counting flattened into arrays, for the compiled draw
    (:mod:`hearts.bots.hard.kernel`) and its pure-Python twin
    (:mod:`hearts.bots.hard.reference`).

    A draw picks a part (a sampler of a :class:`WeightedSampler`, by ``part_cum``:
    cumulative weights), starts from its fixed cards and its root state, and
    walks the states: a state deals one class of cards; its splits (how many of
    the class each other seat gets, ``sp_take``) are picked by ``sp_cum``
    (cumulative numbers of deals, as floats), the class's cards shuffled into them,
    and ``sp_next`` is the next state (class -1: the deal is complete).
    """

    others: Ints  # the other seats, in the order of sp_take's columns
    part_cum: Floats
    part_fixed: Ints  # (parts, n): cards known per seat
    part_root: Ints
    st_class: Ints
    st_first: Ints
    st_count: Ints
    sp_take: Ints  # (splits, n - 1)
    sp_cum: Floats
    sp_next: Ints
    cl_first: Ints
    cl_len: Ints
    cl_cards: Ints


def deal_tables(sampler: DealSampler | WeightedSampler | MixtureSampler) -> DealTables:
    """The :class:`DealTables` of ``sampler``: the same deals with the same
    probabilities (up to the rounding of the counts to floats)."""
    parts = sampler_parts(sampler)
    first = parts[0][1]
    part_cum: list[float] = []
    part_fixed: list[list[int]] = []
    part_root: list[int] = []
    st_class: list[int] = []
    st_first: list[int] = []
    st_count: list[int] = []
    sp_take: list[tuple[int, ...]] = []
    sp_cum: list[float] = []
    sp_next: list[int] = []
    cl_first: list[int] = []
    cl_len: list[int] = []
    cl_cards: list[int] = []
    acc = 0.0
    for weight, part in parts:
        acc += float(weight)
        part_cum.append(acc)
        part_fixed.append(part.fixed[:])
        classes = len(cl_first)
        for cards in part.suit_cards:
            cl_first.append(len(cl_cards))
            cl_len.append(len(cards))
            cl_cards.extend(cards)
        # The states of this part, numbered as first reached (depth first).
        ids: dict[tuple[int, tuple[int, ...]], int] = {}

        def state(k: int, needs: tuple[int, ...], part: DealSampler = part, base: int = classes,
                  ids: dict[tuple[int, tuple[int, ...]], int] = ids) -> int:  # fmt: skip
            key = (k, needs)
            if key in ids:
                return ids[key]
            sid = len(st_class)
            ids[key] = sid
            if k == part.classes:
                st_class.append(-1)
                st_first.append(0)
                st_count.append(0)
                return sid
            st_class.append(base + k)
            splits, cumulative = part._options(k, needs)
            st_first.append(0)
            st_count.append(len(splits))
            nexts = [
                state(k + 1, tuple(a - b for a, b in zip(needs, sp, strict=True))) for sp in splits
            ]
            st_first[sid] = len(sp_cum)
            prev = 0
            run = 0.0
            for sp, cum, nxt in zip(splits, cumulative, nexts, strict=True):
                run += float(cum - prev)
                prev = cum
                sp_take.append(sp)
                sp_cum.append(run)
                sp_next.append(nxt)
            return sid

        part_root.append(state(0, part.needs))
    m = len(first.others)
    return DealTables(
        others=np.array(first.others, dtype=np.int64),
        part_cum=np.array(part_cum, dtype=np.float64),
        part_fixed=np.array(part_fixed, dtype=np.int64).reshape(len(parts), first.n),
        part_root=np.array(part_root, dtype=np.int64),
        st_class=np.array(st_class, dtype=np.int64),
        st_first=np.array(st_first, dtype=np.int64),
        st_count=np.array(st_count, dtype=np.int64),
        sp_take=np.array(sp_take, dtype=np.int64).reshape(len(sp_take), m),
        sp_cum=np.array(sp_cum, dtype=np.float64),
        sp_next=np.array(sp_next, dtype=np.int64),
        cl_first=np.array(cl_first, dtype=np.int64),
        cl_len=np.array(cl_len, dtype=np.int64),
        cl_cards=np.array(cl_cards, dtype=np.int64),
    )
