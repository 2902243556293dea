"""The pure-Python reference of Khó's compiled search kernel (:mod:`hearts.bots.kernel`).

Same algorithm, same random stream (:mod:`hearts.bots.splitmix`), same order of
floating-point additions: for the same seed both give the same deals, the same
playouts and the same sums, bit for bit (tests/bots/test_kernel.py).  The
playout policy is :func:`hearts.bots.playout.rollout` itself; this module adds
the deal draw from :class:`~hearts.bots.sampling.DealTables`, the value of a
finished hand, and the batches of playouts the play search and the pass search
ask for (with the other seats' quick pass, :func:`quick_pass`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from hearts.bots.playout import QUEEN_RUNS, rollout
from hearts.bots.sampling import DealTables
from hearts.bots.splitmix import HIDE_SALT, next_u64, to_unit, world_state
from hearts.cards import JACK_DIAMONDS, JD_BIT, QS_BIT, QUEEN_SPADES, SUIT_MASKS, cards_of

MOON = 26
_HEARTS = SUIT_MASKS[3]
_NOT_HEARTS = ~_HEARTS
_NO_POINTS = ~(_HEARTS | QS_BIT)
_STAKES = _HEARTS | QS_BIT | JD_BIT  # cards that still change the score
JD_POINTS = -10
#: Codes of the moon rules in the kernels.
MOON_CODES = {"add_to_others": 0, "subtract_from_self": 1, "shooter_chooses": 2}


class Position(NamedTuple):
    """Where the search starts: the trick in progress (leader first, without the
    card being weighed), its leader, cards played, hearts broken, points and J♦
    taken so far, the table's rules as numbers, suits some seat is void in;
    ``history`` every (seat, card) played in the hand so far, and ``mismatch``
    the weight a deal keeps per play of another seat the playout policy would not
    have made holding that deal (1.0: every deal weighs the same); ``seat_voids``
    per seat the suits it has shown it lacks (for looks that mix the others'
    cards, :func:`mix`; empty: none shown)."""

    me: int
    trick: tuple[int, ...]
    leader: int
    played: int
    broken: bool
    pen: tuple[int, ...]
    jd: int
    qs_breaks: bool
    lead_card: int
    voids: int
    history: tuple[tuple[int, int], ...] = ()
    mismatch: float = 1.0
    seat_voids: tuple[int, ...] = ()


class Judge(NamedTuple):
    """How a finished hand is valued (:func:`hearts.bots.hard.hand_utility`):
    ``near`` the end of the match, the match ``totals`` and ``target``, the moon
    rule's code and the J♦ rule; ``shoot`` is added to the value of a moon of its
    own (0 for Khó; the bench's moon-hungry opponent sets it)."""

    me: int
    near: bool
    totals: tuple[int, ...]
    target: int
    moon: int
    jd_bonus: bool
    shoot: float = 0.0


class Passing(NamedTuple):
    """The pass being searched: the seat, where its cards go (``offset`` seats on),
    how many ``cards`` each seat passes, whether J♦ counts (the others keep it), the
    table's rules as numbers."""

    me: int
    offset: int
    cards: int
    jd_bonus: bool
    qs_breaks: bool
    lead_card: int
    #: Switches of the playout policy (:data:`hearts.bots.playout.QUEEN_RUNS`).
    voids: int = 0


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
        return 100 + (1 if card > top else 0) + (10 if card == 36 else 0)
    return 200 + 2 * (card // 13) + (1 if card in (36, 37, 38) or card >= 48 else 0)


def likeness(world: list[int], pos: Position) -> float:
    """How well deal ``world`` (every seat's hand now) explains the others' plays
    so far: ``pos.mismatch`` to the power of the plays by other seats not of the
    :func:`kind` the playout policy (:func:`~hearts.bots.playout.rollout`), holding
    the hands the deal gives them at that moment, would have played."""
    n = len(world)
    hands = world[:]
    for s, c in pos.history:
        hands[s] |= 1 << c
    pen = [0] * n
    trick: list[int] = []
    leader = pos.history[0][0] if pos.history else 0
    broken = False
    voids = pos.voids & QUEEN_RUNS  # the policy's switches, not the voids seen
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
        if c >= 39 or (pos.qs_breaks and c == 36):
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


def score(pen: list[int], jd: int, judge: Judge) -> list[int]:
    """The hand's points per seat (:meth:`hearts.rules.Rules.score`, the shooter
    choosing as :meth:`~hearts.rules.Rules.moon_choice` does)."""
    n = len(pen)
    out = list(pen)
    for shooter in range(n):
        if pen[shooter] == MOON:
            how = judge.moon
            if how == 2:
                how = 0
                added = [0 if s == shooter else MOON for s in range(n)]
                if judge.jd_bonus and jd >= 0:
                    added[jd] += JD_POINTS
                after = [a + b for a, b in zip(judge.totals, added, strict=True)]
                if max(after) >= judge.target:
                    low = min(after)
                    if after[shooter] != low or after.count(low) > 1:
                        how = 1
            if how == 0:
                out = [0 if s == shooter else MOON for s in range(n)]
            else:
                out[shooter] = -MOON
            break
    if judge.jd_bonus and jd >= 0:
        out[jd] += JD_POINTS
    return out


def value(pen: list[int], jd: int, judge: Judge) -> tuple[float, int]:
    """(Khó's value of the finished hand, the points its seat scores)."""
    v, mine = _value(pen, jd, judge)
    if pen[judge.me] == MOON:
        v += judge.shoot
    return v, mine


def _value(pen: list[int], jd: int, judge: Judge) -> tuple[float, int]:
    pts = score(pen, jd, judge)
    n = len(pts)
    me = judge.me
    mine = pts[me]
    if not judge.near:
        return (sum(pts) - mine) * (1.0 / (n - 1)) - mine, mine
    after = [a + b for a, b in zip(judge.totals, pts, strict=True)]
    high = max(after)
    low = min(after)
    if high >= judge.target:
        if after[me] != low:
            return 0.0, mine
        return 100.0 * (1.0 / after.count(low)), mine
    temp = 4.5 * math.sqrt(1.0 + (judge.target - high) / 9.0)
    total = 0.0
    for a in after:
        total += math.exp((low - a) / temp)
    return 100.0 * (math.exp((low - after[me]) / temp) / total), mine


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


def policy_card(
    hands: list[int],
    trick: list[int],
    leader: int,
    played: int,
    broken: bool,
    pen: list[int],
    jd: int,
    qs_breaks: bool,
    lead_card: int,
    voids: int,
) -> int:
    """The playout policy's card for the seat to play (the policy is inlined in
    :func:`~hearts.bots.playout.rollout`: the first card of a plain playout from
    here, on copies)."""
    record: list[int] = []
    rollout(
        hands[:], trick[:], leader, played, broken, pen[:], jd, qs_breaks, lead_card, record,
        None, 0.0, voids,
    )  # fmt: skip
    return record[0]


def _standing(trick: list[int], leader: int, n: int) -> tuple[int, int]:
    """Who wins the trick (led by ``leader``) and the points in it."""
    led = trick[0] // 13
    top = trick[0]
    win = leader
    tp = 0
    for i, c in enumerate(trick):
        if c // 13 == led and c > top:
            top = c
            win = (leader + i) % n
        if c >= 39:
            tp += 1
        elif c == QUEEN_SPADES:
            tp += 13
    return win, tp


#: Swaps per card in :func:`mix`.
MIX_SWAPS = 2


#: Deals a look that hides may play its cards out in (``hide``'s tens, plus one).
MAX_DEALS = 4


def hides(hide: int, mine: bool) -> int:
    """How a look hides the others' cards: 1, by :func:`hide`; 4, by :func:`mix`;
    0, not; plus ten for each more deal the look plays its cards out in.
    ``hide`` 1: every seat's look by :func:`hide`; 2: the other seats' looks only;
    3: Khó's own only; 4: the other seats' looks by :func:`mix`.  ``hide``'s tens:
    more deals per look (``14``: two mixed deals, each card's values summed)."""
    more, hide = divmod(hide, 10)
    if hide == 4:
        how = 0 if mine else 4
    else:
        how = 1 if hide == 1 or (hide == 2 and not mine) or (hide == 3 and mine) else 0
    return how + 10 * more if how else 0


def mix(hands: list[int], seat: int, sv: list[int], state: int) -> int:
    """Mix the cards of the seats other than ``seat`` across suits (``hands``
    changes in place), each seat keeping its number of cards and never getting a
    suit it has shown it lacks (``sv``, per seat): :data:`MIX_SWAPS` times their
    number of cards, two of their cards drawn at random (ascending by seat, then
    card) change hands when they lie with two seats that may hold them.  The
    generator's new state.  A look then knows neither who holds which card nor
    how many of a suit, beyond the voids shown."""
    cards: list[int] = []
    owner: list[int] = []
    for s, h in enumerate(hands):
        if s != seat:
            for c in cards_of(h):
                cards.append(c)
                owner.append(s)
    m = len(cards)
    if m < 2:
        return state
    for _ in range(MIX_SWAPS * m):
        state, x = next_u64(state)
        i = ((x >> 32) * m) >> 32
        j = ((x & 0xFFFFFFFF) * m) >> 32
        a, b = owner[i], owner[j]
        if a != b and not sv[b] >> (cards[i] // 13) & 1 and not sv[a] >> (cards[j] // 13) & 1:
            owner[i], owner[j] = b, a
    for s in range(len(hands)):
        if s != seat:
            hands[s] = 0
    for c, s in zip(cards, owner, strict=True):
        hands[s] |= 1 << c
    return state


def hide(hands: list[int], seat: int, state: int) -> int:
    """Deal the cards of each suit that the seats other than ``seat`` hold again
    among them, each keeping its number of cards of the suit (``hands`` changes in
    place): a uniform shuffle per suit of its cards in ascending order, dealt to the
    seats in order; the generator's new state.  A look ahead then plays its cards
    out without knowing which of the others holds which card of a suit (it still
    knows how many each holds)."""
    n = len(hands)
    for k in range(4):
        suit = SUIT_MASKS[k]
        pool = 0
        for s in range(n):
            if s != seat:
                pool |= hands[s] & suit
        buf = list(cards_of(pool))
        size = len(buf)
        if size < 2:
            continue
        for i in range(size - 1, 0, -1):
            state, x = next_u64(state)
            r = ((x >> 11) * (i + 1)) >> 53
            buf[i], buf[r] = buf[r], buf[i]
        at = 0
        for s in range(n):
            if s == seat:
                continue
            m = (hands[s] & suit).bit_count()
            h = hands[s] & ~suit
            for c in buf[at : at + m]:
                h |= 1 << c
            at += m
            hands[s] = h
    return state


def look(
    hands: list[int],
    trick: list[int],
    seat: int,
    played: int,
    broken: bool,
    pen: list[int],
    jd: int,
    qs_breaks: bool,
    lead_card: int,
    voids: int,
    policy: int,
    judge: Judge,
    rs: list[int] | None = None,
    how: int = 1,
    sv: list[int] | None = None,
) -> int:
    """The card ``seat`` plays (``trick`` in progress) in a playout with a look
    ahead: each of its legal cards played out by the plain policy from here (the
    playout's deal, face up) and the best for the seat by :func:`value` (``judge``
    judging for ``seat``); ``policy``'s card is weighed first and keeps ties, and a
    run of cards no other card lies between counts once (by its lowest card, or by
    ``policy`` when it is in the run; Q♠ and J♦ always count alone).  With ``rs``
    (the generator's state in ``rs[0]``), the cards are played out in a deal where
    the others' cards are dealt again by :func:`hide` (``how`` 1) or mixed by
    :func:`mix` (``how`` 4, with the voids shown ``sv``); ``how``'s tens: that many
    more such deals, each card judged by its values summed over them."""
    n = len(hands)
    pos = len(trick)
    h = hands[seat]
    led = trick[0] // 13 if pos else 0
    if pos == 0:
        if played == 0:
            return policy
        legal = h & _NOT_HEARTS if not broken and h & _NOT_HEARTS else h
    else:
        legal = h & SUIT_MASKS[led]
        if not legal:
            legal = h & _NO_POINTS if played < n and h & _NO_POINTS else h
    if legal & (legal - 1) == 0:
        return policy
    seens = [hands]
    if rs is not None and how:
        seens = []
        for _ in range(how // 10 + 1):
            seen = hands[:]
            if how % 10 == 4:
                rs[0] = mix(seen, seat, sv or [0] * n, rs[0])
            else:
                rs[0] = hide(seen, seat, rs[0])
            seens.append(seen)
    alive = 0
    for x in hands:
        alive |= x
    # Cards that tell two of the seat's cards apart: the others' and the trick's.
    split = alive & ~h
    for c in trick:
        split |= 1 << c
    stop = split | ~h | QS_BIT | JD_BIT
    alone = (QUEEN_SPADES, JACK_DIAMONDS)
    leader = (seat - pos) % n
    best = 0.0
    pick = policy
    prev = -2
    first = True
    rest = legal
    while True:
        if first:
            c = policy
        else:
            if not rest:
                break
            c = (rest & -rest).bit_length() - 1
            rest &= rest - 1
            if (
                prev >= 0
                and c // 13 == prev // 13
                and c not in alone
                and prev not in alone
                and not split & ((1 << c) - (2 << prev))
            ):
                prev = c
                continue
            prev = c
            # the policy's card stands for its run of equal cards
            lo = hi = c
            while lo % 13 and not (stop >> (lo - 1)) & 1:
                lo -= 1
            while hi % 13 < 12 and not (stop >> (hi + 1)) & 1:
                hi += 1
            if policy not in alone and c not in alone and lo <= policy <= hi:
                continue
        v = 0.0
        for seen in seens:
            after = seen[:]
            after[seat] = h & ~(1 << c)
            p2 = pen[:]
            v2 = voids | (1 << led) if pos and c // 13 != led else voids
            jd2 = rollout(
                after, [*trick, c], leader, played + 1,
                broken or c >= 39 or (qs_breaks and c == QUEEN_SPADES), p2, jd, qs_breaks,
                lead_card, None, None, 0.0, v2,
            )  # fmt: skip
            v += value(p2, jd2, judge)[0]
        if first or v > best:
            best = v
            pick = c
        first = False
    return pick


def rollout_look(
    hands: list[int],
    trick: list[int],
    leader: int,
    played: int,
    broken: bool,
    pen: list[int],
    jd: int,
    qs_breaks: bool,
    lead_card: int,
    voids: int,
    looks: list[int],
    judge: Judge,
    rs: list[int] | None = None,
    hide: int = 1,
    sv: list[int] | None = None,
) -> int:
    """:func:`~hearts.bots.playout.rollout` where a seat with ``looks[seat]`` left
    plays :func:`look`'s card instead of the policy's (one look fewer each time),
    judged for that seat (with ``judge.shoot`` for Khó's own seat only).  ``hands``,
    ``pen`` and ``looks`` change in place; the J♦ taker is returned.  ``rs``: the
    looks :func:`hide` the others' cards, drawing from the generator in ``rs[0]``
    (which looks and how: :func:`hides`; ``sv``, the suits each seat has shown it
    lacks, changes in place).

    The policy's card is the first card a plain playout from here plays, so this
    is the policy card for card where nobody looks (the compiled kernel has the
    policy as a function; here it is inlined in the playout)."""
    n = len(hands)
    trick = list(trick)
    judges = [judge._replace(me=s, shoot=judge.shoot if s == judge.me else 0.0) for s in range(n)]
    if sv is None:
        sv = [0] * n
    while True:
        if len(trick) == n:
            win, tp = _standing(trick, leader, n)
            pen[win] += tp
            if JACK_DIAMONDS in trick:
                jd = win
            alive = 0
            for x in hands:
                alive |= x
            if not alive & _STAKES:
                return jd
            leader = win
            trick = []
        seat = (leader + len(trick)) % n
        if not hands[seat]:
            return jd
        if not any(looks):
            return rollout(
                hands, trick, leader, played, broken, pen, jd, qs_breaks, lead_card, None, None,
                0.0, voids,
            )  # fmt: skip
        c = policy_card(hands, trick, leader, played, broken, pen, jd, qs_breaks, lead_card, voids)
        if looks[seat] > 0:
            looks[seat] -= 1
            c = look(
                hands, trick, seat, played, broken, pen, jd, qs_breaks, lead_card, voids, c,
                judges[seat], rs, hides(hide, seat == judge.me), sv,
            )  # fmt: skip
        hands[seat] &= ~(1 << c)
        played += 1
        if trick and c // 13 != trick[0] // 13:
            voids |= 1 << (trick[0] // 13)
            sv[seat] |= 1 << (trick[0] // 13)
        if c >= 39 or (qs_breaks and c == QUEEN_SPADES):
            broken = True
        trick.append(c)


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
    lookahead: int = 0,
    lookahead_others: int = 0,
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
            if lookahead or lookahead_others:
                looks = [lookahead if s == me else lookahead_others for s in range(n)]
                jd = rollout_look(
                    hands, [], leader, 0, False, pen, -1, passing.qs_breaks, passing.lead_card,
                    passing.voids, looks, judge,
                )  # fmt: skip
            else:
                jd = rollout(
                    hands, [], leader, 0, False, pen, -1, passing.qs_breaks, passing.lead_card,
                    voids=passing.voids,
                )  # fmt: skip
            v, mine = _value(pen, jd, judge)
            sums[i] += v
            points[i] += mine
