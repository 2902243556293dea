"""Khó's search: successive halving over candidates, stopped early once the
leader is clear (:func:`clear_lead`); and pure-Python playouts from a view (the
bench's face-up oracle searches with them)."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from hearts.bots.hard.position import any_void
from hearts.bots.hard.reference import rollout
from hearts.bots.hard.value import hand_utility
from hearts.cards import JD_BIT
from hearts.view import PlayerView


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


WorldPlayout = Callable[[list[int], int, random.Random | None, float], float]


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
    breakers = rules.breakers
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
            broken or bool(breakers >> card & 1),
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
