"""The reference twin's look ahead: each legal card of a seat played out by the
policy, the best for the seat kept, with the others' cards hidden or mixed; and a
playout that looks ahead (:mod:`hearts.bots.hard.kernel.looks`, bit for bit)."""

from __future__ import annotations

from collections.abc import Iterator

from hearts.bots.hard.masks import NO_POINTS as _NO_POINTS
from hearts.bots.hard.masks import NOT_HEARTS as _NOT_HEARTS
from hearts.bots.hard.masks import STAKES as _STAKES
from hearts.bots.hard.position import Judge
from hearts.bots.hard.reference.policy import rollout
from hearts.bots.hard.reference.value import value
from hearts.bots.hard.splitmix import next_u64
from hearts.cards import JACK_DIAMONDS, JD_BIT, QS_BIT, QUEEN_SPADES, SUIT_MASKS, cards_of


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
    :func:`~hearts.bots.hard.reference.rollout`: the first card of a plain playout from
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


def _look_deals(
    hands: list[int], seat: int, rs: list[int], how: int, sv: list[int] | None
) -> list[list[int]]:
    """The deals a hiding look plays its cards out in: ``how // 10 + 1`` of them,
    the others' cards dealt again (:func:`hide`) or mixed (:func:`mix`, ``how`` 4)."""
    seens = []
    for _ in range(how // 10 + 1):
        seen = hands[:]
        if how % 10 == 4:
            rs[0] = mix(seen, seat, sv or [0] * len(hands), rs[0])
        else:
            rs[0] = hide(seen, seat, rs[0])
        seens.append(seen)
    return seens


_ALONE = (QUEEN_SPADES, JACK_DIAMONDS)


def _legal(h: int, trick: list[int], played: int, broken: bool, n: int) -> int:
    """The cards of ``h`` legal to play to ``trick`` (not the hand's first lead)."""
    if not trick:
        return h & _NOT_HEARTS if not broken and h & _NOT_HEARTS else h
    legal = h & SUIT_MASKS[trick[0] // 13]
    if not legal:
        legal = h & _NO_POINTS if played < n and h & _NO_POINTS else h
    return legal


def _weighed(policy: int, legal: int, split: int, stop: int) -> Iterator[int]:
    """The cards a look weighs, ``policy``'s first: one of each run of ``legal``
    cards that no card of ``split`` lies between (the policy's card stands for its
    run; Q♠ and J♦ always count alone), ``stop`` the cards that end a run."""
    yield policy
    prev = -2
    rest = legal
    while rest:
        c = (rest & -rest).bit_length() - 1
        rest &= rest - 1
        if (
            prev >= 0
            and c // 13 == prev // 13
            and c not in _ALONE
            and prev not in _ALONE
            and not split & ((1 << c) - (2 << prev))
        ):
            prev = c
            continue
        prev = c
        lo = hi = c
        while lo % 13 and not (stop >> (lo - 1)) & 1:
            lo -= 1
        while hi % 13 < 12 and not (stop >> (hi + 1)) & 1:
            hi += 1
        if policy not in _ALONE and c not in _ALONE and lo <= policy <= hi:
            continue
        yield c


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
    if pos == 0 and played == 0:
        return policy
    legal = _legal(h, trick, played, broken, n)
    if legal & (legal - 1) == 0:
        return policy
    seens = _look_deals(hands, seat, rs, how, sv) if rs is not None and how else [hands]
    alive = 0
    for x in hands:
        alive |= x
    # Cards that tell two of the seat's cards apart: the others' and the trick's.
    split = alive & ~h
    for c in trick:
        split |= 1 << c
    leader = (seat - pos) % n
    best = 0.0
    pick = policy
    first = True
    for c in _weighed(policy, legal, split, split | ~h | QS_BIT | JD_BIT):
        v = 0.0
        v2 = voids | (1 << led) if pos and c // 13 != led else voids
        now_broken = broken or c >= 39 or (qs_breaks and c == QUEEN_SPADES)
        for seen in seens:
            after = seen[:]
            after[seat] = h & ~(1 << c)
            p2 = pen[:]
            jd2 = rollout(after, [*trick, c], leader, played + 1, now_broken, p2, jd, qs_breaks,
                          lead_card, None, None, 0.0, v2)  # fmt: skip
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
    """:func:`~hearts.bots.hard.reference.rollout` where a seat with ``looks[seat]`` left
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
