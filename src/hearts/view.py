"""What one seat knows: the information state of a player (OpenSpiel's term).

A :class:`PlayerView` holds the seat's own hand, the cards it passed and received
(and to/from whom), every card played with its seat, scores, whose turn it is and
its legal cards — nothing else.  Bots and the server learn about a seat only
through it: the same view, whatever the hidden cards, is the same object.  The full
state makes it (:meth:`hearts.hand.HandState.view`); this module never sees that state.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from hearts.cards import FULL_DECK, HEARTS_MASK, QS_BIT, SUIT_MASKS
from hearts.legal import IllegalAction, why_illegal, winning_card
from hearts.rules import Rules


@dataclass(frozen=True, slots=True)
class PlayerView:
    rules: Rules
    seat: int
    hand_number: int
    phase: str  # "pass" | "play" | "done"
    direction: str  # "left" | "right" | "across" | "none"
    hand: int  # the seat's cards now (mask)
    passed: int  # what this seat passed (0 before it chose, or with no pass)
    received: int  # what it was passed (0 until the exchange)
    plays: tuple[tuple[int, int], ...]  # (seat, card) for every card played, in order
    turn: int  # seat to play (-1 outside the play phase)
    legal: int  # what this seat may play or pass now (mask; 0 when not its turn)
    broken: bool  # hearts broken (may hearts be led)
    counts: tuple[int, ...]  # cards in each seat's hand
    totals: tuple[int, ...]  # match totals before this hand
    target: int
    #: Every (seat, card) played in each of the match's earlier hands, oldest first:
    #: public at the table, the memory a player keeps of how the others play.  Not
    #: in :meth:`key`: a bot's randomness is the same with or without it, so what a
    #: memory changes is only what the bot makes of it.
    earlier: tuple[tuple[tuple[int, int], ...], ...] = ()
    #: The index in :attr:`plays` of the card that broke hearts (-1: not broken): a
    #: public fact, so a page showing the cards one by one need not know the rule.
    #: Not in :meth:`key` (:attr:`broken` is).
    broken_at: int = -1

    # -- derived knowledge --------------------------------------------------------
    @property
    def n(self) -> int:
        return self.rules.players

    @property
    def pass_to(self) -> int:
        """The seat this seat passes to (-1 with no pass)."""
        off = self.rules.pass_offset(self.direction)
        return (self.seat + off) % self.n if off else -1

    @property
    def pass_from(self) -> int:
        off = self.rules.pass_offset(self.direction)
        return (self.seat - off) % self.n if off else -1

    @property
    def trick(self) -> tuple[tuple[int, int], ...]:
        """The trick in progress, leader first."""
        k = len(self.plays) % self.n
        return self.plays[len(self.plays) - k :] if k else ()

    @property
    def tricks(self) -> list[tuple[tuple[int, int], ...]]:
        """The finished tricks, each leader first."""
        n = self.n
        return [self.plays[i : i + n] for i in range(0, len(self.plays) - n + 1, n)]

    @property
    def leader(self) -> int:
        """Who leads (or led) the trick in progress."""
        trick = self.trick
        if trick:
            return trick[0][0]
        return self.turn

    @property
    def played(self) -> int:
        mask = 0
        for _, c in self.plays:
            mask |= 1 << c
        return mask

    def unseen(self) -> int:
        """Cards this seat cannot see: in some other hand, wherever that is."""
        return self.rules.deck & ~self.hand & ~self.played

    def voids(self) -> list[int]:
        """Per seat, a 4-bit mask of the suits it has shown it no longer holds."""
        out = [0] * self.n
        for trick in self._all_tricks():
            led = trick[0][1] // 13
            for s, c in trick[1:]:
                if c // 13 != led:
                    out[s] |= 1 << led
        return out

    def excluded(self) -> list[int]:
        """Per seat, the cards it cannot hold now, by what every seat can deduce
        from the rules: a suit it did not follow; every card but hearts once it
        led a heart before hearts were broken (only a hand of hearts may); every
        card but hearts and Q♠ once it threw a point card on the first trick
        (only a hand of nothing else may).

        >>> from hearts.rules import Rules
        >>> from hearts.cards import parse_card as c
        >>> view = PlayerView(Rules(), 0, 1, "play", "none", 0, 0, 0,
        ...     ((0, c("2C")), (1, c("3C")), (2, c("KH")), (3, c("4C"))),
        ...     -1, 0, True, (12, 12, 12, 12), (0, 0, 0, 0), 100)
        >>> view.excluded()[2] == ~(HEARTS_MASK | QS_BIT) & FULL_DECK
        True
        """
        out = [0] * self.n
        for s, mask in enumerate(self.voids()):
            for k in range(4):
                if mask >> k & 1:
                    out[s] |= SUIT_MASKS[k]
        n = self.n
        broken = False
        breakers = self.rules.breakers
        for i, (s, c) in enumerate(self.plays):
            bit = 1 << c
            if i % n == 0:
                if i and not broken and bit & HEARTS_MASK:
                    out[s] |= FULL_DECK & ~HEARTS_MASK
            elif i < n and bit & (HEARTS_MASK | QS_BIT):
                out[s] |= FULL_DECK & ~(HEARTS_MASK | QS_BIT)
            if bit & breakers:
                broken = True
        return out

    def known(self) -> list[int]:
        """Per seat, cards this seat knows are in that seat's hand now.

        The cards it passed sit in the receiver's hand until played.
        """
        out = [0] * self.n
        if self.passed and self.received and self.pass_to >= 0:
            out[self.pass_to] = self.passed & ~self.played
        out[self.seat] = self.hand
        return out

    def winners(self) -> list[int]:
        """The winner of each finished trick (:func:`hearts.legal.winning_card`)."""
        out = []
        for trick in self.tricks:
            cards = 0
            for _, c in trick:
                cards |= 1 << c
            best = winning_card(trick[0][1], cards)
            out.append(next(s for s, c in trick if c == best))
        return out

    def taken(self) -> list[int]:
        """Per seat, the cards it has won in tricks (public knowledge)."""
        out = [0] * self.n
        for trick, w in zip(self.tricks, self.winners(), strict=True):
            for _, c in trick:
                out[w] |= 1 << c
        return out

    def points_taken(self) -> list[int]:
        """Points taken so far this hand, before moon scoring."""
        return [self.rules.card_points(mask) for mask in self.taken()]

    def why_illegal(self, card: int) -> IllegalAction | None:
        """The rule ``card`` breaks if this seat played it now (None if legal)."""
        if self.phase != "play":
            return IllegalAction("wrong_phase", f"cards are not played in the {self.phase} phase")
        if self.turn != self.seat:
            return IllegalAction("not_your_turn", "it is not this seat's turn")
        trick = self.trick
        led = trick[0][1] if trick else -1
        return why_illegal(self.rules, self.hand, led, len(self.plays) < self.n, self.broken, card)

    def _all_tricks(self) -> list[tuple[tuple[int, int], ...]]:
        trick = self.trick
        return self.tricks + ([trick] if len(trick) > 1 else [])

    def key(self) -> bytes:
        """A stable digest of everything in the view: seeds a bot's randomness.

        It depends only on what the seat knows, so a bot seeded from it cannot
        choose differently when the hidden cards lie differently.  The match's
        earlier hands (:attr:`earlier`) are left out.
        """
        text = repr(
            (
                self.rules,
                self.seat,
                self.hand_number,
                self.phase,
                self.direction,
                self.hand,
                self.passed,
                self.received,
                self.plays,
                self.turn,
                self.legal,
                self.broken,
                self.counts,
                self.totals,
            )
        )
        return hashlib.blake2b(text.encode(), digest_size=16).digest()

    def seed(self, salt: int = 0) -> int:
        return int.from_bytes(self.key(), "big") ^ salt
