"""The pure-Python reference of Khó's compiled search kernel (:mod:`hearts.bots.hard.kernel`).

Same algorithm, same random stream (:mod:`hearts.bots.hard.splitmix`), same order of
floating-point additions: for the same seed both give the same deals, the same
playouts and the same sums, bit for bit (tests/bots/test_kernel.py).  The
playout policy is :func:`hearts.bots.hard.reference.rollout` itself; this module adds
the deal draw from :class:`~hearts.bots.hard.sampling.DealTables`, the value of a
finished hand, and the batches of playouts the play search and the pass search
ask for (with the other seats' quick pass, :func:`quick_pass`).
"""

from __future__ import annotations

import math

from hearts.bots.hard.position import Judge, Passing, Position
from hearts.bots.hard.reference.looks import _standing, policy_card, rollout_look
from hearts.bots.hard.reference.policy import SWITCHES, rollout
from hearts.bots.hard.reference.value import _value, value
from hearts.bots.hard.sampling import DealTables
from hearts.bots.hard.splitmix import HIDE_SALT, next_u64, to_unit, world_state
from hearts.cards import JACK_DIAMONDS, JD_BIT, QS_BIT, QUEEN_SPADES, SUIT_MASKS, cards_of


def draw(t: DealTables, state: int) -> tuple[list[int], int]:
    """One deal (a hand mask per seat) and the generator's new state."""
    part_cum = t.part_cum.tolist()
    p = 0
    if len(part_cum) > 1:
        state, x = next_u64(state)
        u = to_unit(x) * part_cum[-1]
        while p < len(part_cum) - 1 and part_cum[p] <= u:
            p += 1
    hands = t.part_fixed[p].tolist()
    others = t.others.tolist()
    st = int(t.part_root[p])
    while t.st_class[st] >= 0:
        k = int(t.st_class[st])
        first = int(t.st_first[st])
        count = int(t.st_count[st])
        j = 0
        if count > 1:
            state, x = next_u64(state)
            u = to_unit(x) * float(t.sp_cum[first + count - 1])
            while j < count - 1 and float(t.sp_cum[first + j]) <= u:
                j += 1
        start = int(t.cl_first[k])
        size = int(t.cl_len[k])
        buf = t.cl_cards[start : start + size].tolist()
        for i in range(size - 1, 0, -1):
            state, x = next_u64(state)
            r = ((x >> 11) * (i + 1)) >> 53
            buf[i], buf[r] = buf[r], buf[i]
        at = 0
        take = t.sp_take[first + j].tolist()
        for o, seat in enumerate(others):
            for c in buf[at : at + take[o]]:
                hands[seat] |= 1 << c
            at += take[o]
        st = int(t.sp_next[first + j])
    return hands, state


def kind(card: int, pos: int, led: int, top: int) -> int:
    """What sort of play ``card`` is, the ``pos``-th card of a trick (the suit
    ``led``, its ``top`` card so far): a lead, by suit; a card of the suit led,
    under or over the top (Q♠ apart); a discard, by suit and whether it is
    dangerous to hold (Q♠, K♠, A♠, J♥ and above).  Which card of a kind a player
    picks says little about its hand; the kind says much (a seat that ducks could;
    a seat void that throws a low club has no Q♠ to dump)."""
    if pos == 0:
        return card // 13
    if card // 13 == led:
        return 100 + (1 if card > top else 0) + (10 if card == QUEEN_SPADES else 0)
    return 200 + 2 * (card // 13) + (1 if card in (36, 37, 38) or card >= 48 else 0)


def likeness(world: list[int], pos: Position) -> float:
    """How well deal ``world`` (every seat's hand now) explains the others' plays
    so far: ``pos.mismatch`` to the power of the plays by other seats not of the
    :func:`kind` the playout policy (:func:`~hearts.bots.hard.reference.rollout`), holding
    the hands the deal gives them at that moment, would have played."""
    n = len(world)
    hands = world[:]
    for s, c in pos.history:
        hands[s] |= 1 << c
    pen = [0] * n
    trick: list[int] = []
    leader = pos.history[0][0] if pos.history else 0
    broken = False
    voids = pos.voids & SWITCHES  # the policy's switches, not the voids seen
    wt = 1.0
    for t, (seat, c) in enumerate(pos.history):
        if seat != pos.me:
            policy = policy_card(
                hands, trick, leader, t, broken, pen, -1, pos.qs_breaks, pos.lead_card, voids
            )
            if trick:
                led = trick[0] // 13
                top = max(x for x in trick if x // 13 == led)
            else:
                led = top = 0
            if kind(policy, len(trick), led, top) != kind(c, len(trick), led, top):
                wt *= pos.mismatch
        hands[seat] &= ~(1 << c)
        if trick and c // 13 != trick[0] // 13:
            voids |= 1 << (trick[0] // 13)
        if c >= 39 or (pos.qs_breaks and c == QUEEN_SPADES):
            broken = True
        trick.append(c)
        if len(trick) == n:
            leader, points = _standing(trick, leader, n)
            pen[leader] += points
            trick = []
    return wt


def unlike(t: DealTables, seed: int, w0: int, w1: int, pos: Position) -> float:
    """The mean, over deals ``w0`` to ``w1`` of a search seeded ``seed``, of the
    others' plays so far (``pos.history``) not of the kind the playout policy
    would have played holding that deal (:func:`likeness`): how far the others
    play unlike the policy, whose habits are a heuristic player's."""
    counting = pos._replace(mismatch=0.5)
    total = 0
    for w in range(w0, w1):
        world, _ = draw(t, world_state(seed, w))
        total += round(-math.log2(likeness(world, counting)))
    return total / (w1 - w0)


def play_batch(
    t: DealTables,
    seed: int,
    w0: int,
    w1: int,
    cands: list[int],
    alive: list[int],
    pos: Position,
    judge: Judge,
    sums: list[float],
    points: list[float],
    mass: list[float],
    lookahead: int = 0,
    lookahead_others: int = 0,
    hide_cards: int = 0,
) -> None:
    """Deals ``w0``..``w1 - 1``; in each, every candidate ``cands[i]`` for ``i`` in
    ``alive`` played now and the hand played out: its value times the deal's
    weight (:func:`likeness`) added to ``sums[i]``, its points times the weight to
    ``points[i]``, the weight to ``mass[i]``, deal after deal, candidate after
    candidate.  With ``lookahead`` (Khó's seat) or ``lookahead_others`` (the other
    seats), the hand is played out by :func:`rollout_look`: that many of the seat's
    next turns are chosen by :func:`look` (which with ``hide_cards`` plays its cards
    out where the others' cards are dealt again, :func:`hide`: the generator seeded
    per deal, the same for every candidate)."""
    me = pos.me
    looking = lookahead or lookahead_others
    for w in range(w0, w1):
        world, _ = draw(t, world_state(seed, w))
        wt = likeness(world, pos) if pos.mismatch != 1.0 else 1.0
        for i in alive:
            card = cands[i]
            hands = world[:]
            hands[me] &= ~(1 << card)
            pen = list(pos.pen)
            broken = pos.broken or card >= 39 or (pos.qs_breaks and card == QUEEN_SPADES)
            if looking:
                looks = [lookahead if s == me else lookahead_others for s in range(len(hands))]
                rs = [world_state(seed ^ HIDE_SALT, w)] if hide_cards else None
                sv = None
                if hide_cards:
                    sv = list(pos.seat_voids or [0] * len(hands))
                    if pos.trick and card // 13 != pos.trick[0] // 13:
                        sv[me] |= 1 << (pos.trick[0] // 13)
                jd = rollout_look(
                    hands, [*pos.trick, card], pos.leader, pos.played + 1, broken, pen, pos.jd,
                    pos.qs_breaks, pos.lead_card, pos.voids, looks, judge, rs, hide_cards, sv,
                )  # fmt: skip
            else:
                jd = rollout(
                    hands, [*pos.trick, card], pos.leader, pos.played + 1, broken, pen, pos.jd,
                    pos.qs_breaks, pos.lead_card, None, None, 0.0, pos.voids,
                )  # fmt: skip
            v, mine = value(pen, jd, judge)
            sums[i] += wt * v
            points[i] += wt * mine
            mass[i] += wt


def pass_scores(hand: int, jd: bool = False) -> dict[int, float]:
    """How much each card wants to leave the hand: Q♠ and its guards with few low
    spades, high hearts, and the high cards of a short side suit (never the J♦
    when it counts −10: ``jd``)."""
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
    if jd and hand & JD_BIT:
        out[JACK_DIAMONDS] = -100.0
    return out


def quick_pass(hand: int, count: int, jd: bool = False) -> int:
    """A cheap careful pass for the simulated other seats: the top of
    :func:`pass_scores`."""
    scores = pass_scores(hand, jd)
    ranked = sorted(scores, key=lambda c: (-scores[c], -c))
    out = 0
    for c in ranked[:count]:
        out |= 1 << c
    return out


def pass_batch(
    t: DealTables,
    seed: int,
    w0: int,
    w1: int,
    cands: list[int],
    alive: list[int],
    passing: Passing,
    judge: Judge,
    sums: list[float],
    points: list[float],
) -> None:
    """Deals ``w0``..``w1 - 1`` before the pass; in each, the other seats pass
    their :func:`quick_pass` (chosen before seeing ours: once per deal), and for
    every pass ``cands[i]`` (a mask) with ``i`` in ``alive`` the hand is played out
    from the first lead: its value added to ``sums[i]`` and its points to
    ``points[i]``, deal after deal, pass after pass."""
    me = passing.me
    lead_bit = 1 << passing.lead_card
    for w in range(w0, w1):
        world, _ = draw(t, world_state(seed, w))
        n = len(world)
        passes = [
            0 if s == me else quick_pass(world[s], passing.cards, passing.jd_bonus)
            for s in range(n)
        ]
        for i in alive:
            passes[me] = cands[i]
            hands = [(world[s] & ~passes[s]) | passes[(s - passing.offset) % n] for s in range(n)]
            leader = next(s for s in range(n) if hands[s] & lead_bit)
            pen = [0] * n
            jd = rollout(
                hands, [], leader, 0, False, pen, -1, passing.qs_breaks, passing.lead_card,
                voids=passing.voids,
            )  # fmt: skip
            v, mine = _value(pen, jd, judge)
            sums[i] += v
            points[i] += mine
