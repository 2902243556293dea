"""One hand of Hearts: the full state (every seat's cards), with play/undo for search.

This is the *state*: it knows every hidden card.  A seat learns about it only
through :meth:`HandState.view` (see :mod:`hearts.view`).

>>> import random
>>> from hearts.cards import lowest
>>> from hearts.rules import Rules
>>> state = HandState.deal(Rules(), 4, random.Random(1))   # hand 4: no pass
>>> state.phase, state.turn == state.holder(Rules().lead_card)
('play', True)
>>> while not state.is_terminal():
...     state.play(lowest(state.legal_mask()))
>>> sum(state.points())
26
"""

from __future__ import annotations

import random

from hearts.cards import JD_BIT, cards_of
from hearts.legal import IllegalAction, legal_cards, why_illegal, winning_card
from hearts.rules import Rules
from hearts.view import PlayerView

PASS, PLAY, DONE = "pass", "play", "done"
_BITS = tuple(1 << c for c in range(52))
_DECK_CARDS = {p: tuple(cards_of(Rules(players=p).deck)) for p in range(3, 8)}
# For each position i of a Fisher-Yates pass: (i, i + 1, bits drawn), as random.shuffle.
_SHUFFLE_STEPS = {
    size: tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
    for size in {len(cards) for cards in _DECK_CARDS.values()}
}


def _shuffle(cards: list[int], rng: random.Random) -> None:
    """``rng.shuffle(cards)``, inlined for a plain ``random.Random``: the same draws
    from the generator, so the same deal for the same seed, in half the time."""
    steps = _SHUFFLE_STEPS.get(len(cards))
    if type(rng) is not random.Random or steps is None:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:  # rejection sampling, exactly as Random._randbelow
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


class HandState:
    """Deal, passes, tricks, whose turn, legal cards and points of one hand.

    Seats are ints in play order (0 = South for four players).  ``play`` and
    ``undo`` are cheap, for search; ``copy`` is cheap too.
    """

    __slots__ = (
        "rules",
        "n",
        "deal_masks",
        "direction",
        "offset",
        "passes",
        "hands",
        "phase",
        "plays",
        "trick",
        "leader",
        "turn",
        "taken",
        "winners",
        "broken",
        "first_leader",
        "broken_at",
    )

    rules: Rules
    n: int
    deal_masks: tuple[int, ...]
    direction: str
    offset: int
    passes: list[int]
    hands: list[int]
    phase: str
    plays: list[int]
    trick: list[int]
    leader: int
    turn: int
    taken: list[int]
    winners: list[int]
    broken: bool
    first_leader: int  # who led the first trick (the lead card's holder after the pass)
    broken_at: int  # index in ``plays`` of the card that broke hearts (-1: not broken)

    def __init__(self, rules: Rules, deal: list[int] | tuple[int, ...], direction: str) -> None:
        n = rules.players
        if len(deal) != n:
            raise ValueError(f"a deal needs {n} hands, not {len(deal)}")
        size = rules.hand_size
        seen = 0
        for seat, mask in enumerate(deal):
            if mask.bit_count() != size:
                raise ValueError(f"hand {seat} holds {mask.bit_count()} cards, not {size}")
            if mask & seen or mask & ~rules.deck:
                raise ValueError("a card is dealt twice or is not in the deck")
            seen |= mask
        self._setup(rules, deal, direction)

    def _setup(self, rules: Rules, deal: list[int] | tuple[int, ...], direction: str) -> None:
        n = rules.players
        self.rules = rules
        self.n = n
        self.deal_masks = tuple(deal)
        self.direction = direction
        self.offset = rules.pass_offset(direction)
        self.passes = [0] * n
        self.hands = list(deal)
        self.plays = []
        self.trick = []
        self.taken = [0] * n
        self.winners = []
        self.broken = False
        self.broken_at = -1
        self.leader = self.turn = self.first_leader = 0
        if self.offset:
            self.phase = PASS
        else:
            self._start_play()

    @classmethod
    def deal(cls, rules: Rules, hand_number: int, rng: random.Random) -> HandState:
        """A random deal for hand ``hand_number`` (which fixes the pass direction)."""
        cards = list(_DECK_CARDS[rules.players])
        _shuffle(cards, rng)
        size = rules.hand_size
        bit = _BITS.__getitem__
        masks = [sum(map(bit, cards[i : i + size])) for i in range(0, len(cards), size)]
        state = cls.__new__(cls)  # a shuffled deck needs none of __init__'s checks
        state._setup(rules, masks, rules.pass_direction(hand_number))
        return state

    def copy(self) -> HandState:
        new = object.__new__(HandState)
        new.rules = self.rules
        new.n = self.n
        new.deal_masks = self.deal_masks
        new.direction = self.direction
        new.offset = self.offset
        new.passes = self.passes[:]
        new.hands = self.hands[:]
        new.phase = self.phase
        new.plays = self.plays[:]
        new.trick = self.trick[:]
        new.leader = self.leader
        new.turn = self.turn
        new.taken = self.taken[:]
        new.winners = self.winners[:]
        new.broken = self.broken
        new.first_leader = self.first_leader
        new.broken_at = self.broken_at
        return new

    # -- queries ------------------------------------------------------------------
    def holder(self, card: int) -> int:
        """The seat holding ``card`` now (-1 if it was played)."""
        bit = 1 << card
        for seat, mask in enumerate(self.hands):
            if mask & bit:
                return seat
        return -1

    def is_terminal(self) -> bool:
        return self.phase == DONE

    def receiver(self, seat: int) -> int:
        """Who receives ``seat``'s passed cards."""
        return (seat + self.offset) % self.n

    def passer(self, seat: int) -> int:
        """Who passes to ``seat``."""
        return (seat - self.offset) % self.n

    @property
    def first_trick(self) -> bool:
        return len(self.plays) < self.n

    def legal_mask(self) -> int:
        """The cards the seat to play may play now, as a mask (0 outside play):
        :func:`hearts.legal.legal_cards` of its hand and the trick."""
        if self.phase != PLAY:
            return 0
        trick = self.trick
        return legal_cards(
            self.rules,
            self.hands[self.turn],
            trick[0] if trick else -1,
            len(self.plays) < self.n,
            self.broken,
        )

    def legal_actions(self) -> list[int]:
        return list(cards_of(self.legal_mask()))

    def why_illegal(self, card: int) -> IllegalAction | None:
        """The rule ``card`` breaks if the seat to play played it now (None if legal)."""
        if self.phase != PLAY:
            return IllegalAction("wrong_phase", f"cards are not played in the {self.phase} phase")
        trick = self.trick
        return why_illegal(
            self.rules,
            self.hands[self.turn],
            trick[0] if trick else -1,
            len(self.plays) < self.n,
            self.broken,
            card,
        )

    # -- passing ------------------------------------------------------------------
    def pass_cards(self, seat: int, mask: int) -> None:
        """``seat`` chooses the cards it passes; the exchange happens when all have chosen."""
        if self.phase != PASS:
            raise IllegalAction("wrong_phase", f"no passing in the {self.phase} phase")
        if not 0 <= seat < self.n:
            raise IllegalAction("bad_pass", f"no seat {seat}")
        if self.passes[seat]:
            raise IllegalAction("wrong_phase", "this seat has already passed")
        want = self.rules.pass_count
        if mask.bit_count() != want:
            raise IllegalAction("bad_pass", f"pass exactly {want} distinct cards")
        if mask & ~self.hands[seat]:
            raise IllegalAction("bad_pass", "pass only cards from your own hand")
        self.passes[seat] = mask
        if all(self.passes):
            for s in range(self.n):
                self.hands[s] = (self.hands[s] & ~self.passes[s]) | self.passes[self.passer(s)]
            self._start_play()

    def received(self, seat: int) -> int:
        """The cards ``seat`` was passed (0 before the exchange or with no pass)."""
        if not self.offset or self.phase == PASS:
            return 0
        return self.passes[self.passer(seat)]

    def _start_play(self) -> None:
        self.phase = PLAY
        self.leader = self.turn = self.first_leader = self.holder(self.rules.lead_card)

    # -- playing ------------------------------------------------------------------
    def play(self, card: int, seat: int | None = None) -> None:
        """Play ``card`` for the seat whose turn it is (checked against ``seat`` if given)."""
        if self.phase != PLAY:
            raise IllegalAction("wrong_phase", f"cards are not played in the {self.phase} phase")
        if seat is not None and seat != self.turn:
            raise IllegalAction("not_your_turn", "it is not this seat's turn")
        if not (0 <= card < 52 and self.legal_mask() >> card & 1):
            err = self.why_illegal(card)
            assert err is not None
            raise err
        self.push(card)

    def push(self, card: int) -> None:
        """Play a card known to be legal (no checks: the search's fast path).

        Nothing is journaled: :meth:`undo` rebuilds the previous position from the
        plays, the trick winners and ``broken_at``.
        """
        turn = self.turn
        self.hands[turn] &= ~(1 << card)
        plays = self.plays
        plays.append(card)
        trick = self.trick
        trick.append(card)
        if self.rules.breakers >> card & 1 and not self.broken:
            self.broken = True
            self.broken_at = len(plays) - 1
        n = self.n
        if len(trick) < n:
            turn += 1
            self.turn = turn if turn < n else 0
            return
        mask = 0
        for c in trick:
            mask |= 1 << c
        winner = (self.leader + trick.index(winning_card(trick[0], mask))) % n
        self.taken[winner] |= mask
        self.winners.append(winner)
        self.trick = []
        self.leader = self.turn = winner
        if not self.hands[winner]:
            self.phase = DONE

    def undo(self) -> int:
        """Take back the last card played and return it."""
        plays = self.plays
        card = plays.pop()
        trick = self.trick
        if trick:
            trick.pop()
            seat = (self.leader + len(trick)) % self.n
        else:  # the card ended a trick: reopen it
            n = self.n
            trick = self.trick = plays[len(plays) - (n - 1) :]
            mask = 1 << card
            for c in trick:
                mask |= 1 << c
            winners = self.winners
            self.taken[winners.pop()] &= ~mask
            leader = self.leader = winners[-1] if winners else self.first_leader
            seat = (leader + n - 1) % n
            self.phase = PLAY
        if self.broken_at == len(plays):  # the card broke hearts
            self.broken = False
            self.broken_at = -1
        self.hands[seat] |= 1 << card
        self.turn = seat
        return card

    def seat_of_play(self, index: int) -> int:
        """The seat that made play number ``index`` of this hand."""
        trick_no, pos = divmod(index, self.n)
        leader = self.leader_of_trick(trick_no)
        return (leader + pos) % self.n

    def seat_plays(self) -> tuple[tuple[int, int], ...]:
        """Every play so far as (seat, card), in order: the form of
        :attr:`PlayerView.plays` and of a match's memory of its hands."""
        return tuple((self.seat_of_play(i), c) for i, c in enumerate(self.plays))

    def leader_of_trick(self, trick_no: int) -> int:
        if trick_no == 0:
            return self.holder_at_start(self.rules.lead_card)
        return self.winners[trick_no - 1]

    def holder_at_start(self, card: int) -> int:
        """Who held ``card`` after the pass."""
        bit = 1 << card
        for seat in range(self.n):
            after = (self.deal_masks[seat] & ~self.passes[seat]) | (
                self.passes[self.passer(seat)] if self.offset else 0
            )
            if after & bit:
                return seat
        return -1

    # -- scoring ------------------------------------------------------------------
    def raw_points(self) -> list[int]:
        """Points taken so far, before moon scoring."""
        return [self.rules.card_points(mask) for mask in self.taken]

    def penalties(self) -> list[int]:
        """Hearts and 13 for Q♠ taken per seat (see :meth:`Rules.penalty`)."""
        return [self.rules.penalty(mask) for mask in self.taken]

    def jd_taker(self) -> int:
        """The seat that took the J♦ (-1 if nobody yet)."""
        for seat, mask in enumerate(self.taken):
            if mask & JD_BIT:
                return seat
        return -1

    def shooter(self) -> int:
        """The seat that took every heart and Q♠ (-1 if none, or the hand is not over)."""
        if self.phase != DONE:
            return -1
        points = self.rules.point_cards
        for seat, mask in enumerate(self.taken):
            if mask & points == points:
                return seat
        return -1

    def points(self, moon: str | None = None) -> list[int]:
        """The hand's points after moon scoring (:meth:`Rules.score`).

        ``moon`` picks the scoring of a moon when the rules let the shooter choose
        (:data:`~hearts.rules.ADD_TO_OTHERS` unless told otherwise).
        """
        if self.phase != DONE:
            return self.raw_points()
        return self.rules.score(self.penalties(), self.jd_taker(), moon)

    def view(
        self,
        seat: int,
        hand_number: int = 1,
        totals: tuple[int, ...] | None = None,
        earlier: tuple[tuple[tuple[int, int], ...], ...] = (),
    ) -> PlayerView:
        """What ``seat`` may know of this hand, and nothing more: ``hand_number``,
        ``totals`` (before this hand) and ``earlier`` (the match's earlier hands'
        plays) are the match's, which the hand does not hold."""
        if self.phase == PASS:
            legal = 0 if self.passes[seat] else self.hands[seat]
        elif self.phase == PLAY and self.turn == seat:
            legal = self.legal_mask()
        else:
            legal = 0
        return PlayerView(
            rules=self.rules,
            seat=seat,
            hand_number=hand_number,
            phase=self.phase,
            direction=self.direction,
            hand=self.hands[seat],
            passed=self.passes[seat],
            received=self.received(seat),
            plays=self.seat_plays(),
            turn=self.turn if self.phase == PLAY else -1,
            legal=legal,
            broken=self.broken,
            counts=tuple(h.bit_count() for h in self.hands),
            totals=tuple(totals) if totals is not None else (0,) * self.n,
            target=self.rules.target,
            earlier=tuple(earlier),
            broken_at=self.broken_at,
        )

    def __repr__(self) -> str:
        return f"<HandState {self.phase} turn={self.turn} plays={len(self.plays)}>"
