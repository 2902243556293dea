"""Card-play helpers shared by the computer players: pure functions on masks.

Cards are ints (``suit * 13 + rank``) and sets of cards are int bit masks (see
:mod:`hearts.cards`).  Nothing here touches a state or a view, so a search can call
these helpers inside its own simulated deals.

>>> from hearts.cards import parse_card as c, mask_of
>>> hand = mask_of([c("3H"), c("9H"), c("KH"), c("2C")])
>>> card_name(highest_below(hand, c("TH")))
'9H'
>>> card_name(lowest_above(hand, c("TH")))
'KH'
>>> highest_below(hand, c("3H"))
-1
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hearts.cards import HEARTS, HEARTS_MASK, QS_BIT, QUEEN_SPADES, SPADES, SUIT_MASKS, card_name
from hearts.legal import winning_card
from hearts.view import PlayerView

__all__ = [
    "ACE_SPADES",
    "KING_SPADES",
    "Table",
    "above",
    "below",
    "card_name",
    "danger",
    "highest_below",
    "highest_in",
    "lowest_above",
    "lowest_in",
    "point_cards",
    "sure_loser",
    "sure_winner",
    "trick_winner",
    "winners_and_losers",
]

#: Extra danger of a heart over a side card of the same standing (it carries a point).
HEART_DANGER = 4

KING_SPADES = QUEEN_SPADES + 1
ACE_SPADES = QUEEN_SPADES + 2
#: K♠ and A♠: the cards that catch Q♠.
HIGH_SPADES = (1 << KING_SPADES) | (1 << ACE_SPADES)
#: Spades below Q♠: the cards that flush it out.
LOW_SPADES = SUIT_MASKS[SPADES] & ((1 << QUEEN_SPADES) - 1)


def below(card: int) -> int:
    """The cards of ``card``'s suit that rank below it."""
    return ((1 << card) - 1) & SUIT_MASKS[card // 13]


def above(card: int) -> int:
    """The cards of ``card``'s suit that rank above it."""
    return SUIT_MASKS[card // 13] & ~((2 << card) - 1)


def highest_in(mask: int) -> int:
    """The highest card of a mask (-1 if empty)."""
    return mask.bit_length() - 1


def lowest_in(mask: int) -> int:
    """The lowest card of a mask (-1 if empty)."""
    return (mask & -mask).bit_length() - 1


def highest_below(mask: int, card: int) -> int:
    """The highest card of ``mask`` in ``card``'s suit that still loses to it (-1 if none)."""
    return (mask & below(card)).bit_length() - 1


def lowest_above(mask: int, card: int) -> int:
    """The lowest card of ``mask`` in ``card``'s suit that beats it (-1 if none)."""
    m = mask & above(card)
    return (m & -m).bit_length() - 1


def point_cards(mask: int) -> int:
    """Hearts and Q♠ among ``mask``."""
    return mask & (HEARTS_MASK | QS_BIT)


def trick_winner(trick: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """``(seat, card)`` winning a (possibly unfinished) trick, leader first, by the
    engine's rule (:func:`hearts.legal.winning_card`).

    >>> from hearts.cards import parse_card as c
    >>> trick_winner([(2, c("5C")), (3, c("AH")), (0, c("KC"))]) == (0, c("KC"))
    True
    """
    cards = 0
    for _, card in trick:
        cards |= 1 << card
    best = winning_card(trick[0][1], cards)
    return next(play for play in trick if play[1] == best)


def sure_loser(card: int, others: int) -> bool:
    """Led now, ``card`` cannot win: some card of its suit held by others beats it,
    and none of the others' cards of the suit is lower (so whoever follows must
    play over it).  ``others`` is the cards in the other hands."""
    suit = others & SUIT_MASKS[card // 13]
    return bool(suit) and not suit & below(card)


def sure_winner(card: int, others: int) -> bool:
    """No card in the other hands beats ``card``."""
    return not others & above(card)


def danger(card: int, hand: int, others: int) -> int:
    """How much ``card`` threatens to win a trick later (higher: get rid of it first).

    A card is dangerous when the others hold many cards below it and few above,
    and when few of our own cards of its suit can duck instead of it.  Hearts carry
    points themselves, so they count a little more.
    """
    lower = (others & below(card)).bit_count()
    higher = (others & above(card)).bit_count()
    score = 2 * lower - 3 * higher + card % 13
    if not others & SUIT_MASKS[card // 13]:
        score -= 8  # nobody can follow: it wins only if we lead it
    if higher == 0 and lower:
        score += 8  # a sure winner whenever the suit is led
    if card // 13 == HEARTS:
        score += HEART_DANGER
    if card == QUEEN_SPADES:
        score += 40
    elif card in (KING_SPADES, ACE_SPADES) and others & QS_BIT:
        score += 20
    # Short suits cannot duck: their high cards must win.
    mine = (hand & below(card)).bit_count()
    score -= 2 * mine
    return score


def winners_and_losers(mine: int, others: int, n: int = 4) -> tuple[int, int]:
    """Estimated tricks won and lost if we led ``mine`` from the top, suit by suit.

    The others are assumed to throw their highest cards under ours (as a careful
    player does), ``n - 1`` at a time; once our card is not the highest left it loses.
    A crude count for moon plans, not a proof.
    """
    won = lost = 0
    for suit in range(4):
        ours = [c for c in _desc(mine & SUIT_MASKS[suit])]
        theirs = [c for c in _desc(others & SUIT_MASKS[suit])]
        for card in ours:
            if not theirs or card > theirs[0]:
                won += 1
                # They follow with their highest cards below ours (one per other seat).
                theirs = theirs[n - 1 :]
            else:
                lost += 1
    return won, lost


def _desc(mask: int) -> list[int]:
    out = []
    while mask:
        top = mask.bit_length() - 1
        out.append(top)
        mask ^= 1 << top
    return out


@dataclass(slots=True, eq=False)
class Table:
    """What a seat knows at a decision, reduced to masks (built once per decision).

    ``others`` holds the cards in the other hands (unseen, plus cards this seat
    passed that are still unplayed); ``taken`` the point cards each seat has won.
    A search may build one directly from its own simulated deal.
    """

    seat: int
    n: int
    hand: int
    legal: int
    trick: tuple[tuple[int, int], ...]
    others: int
    voids: Sequence[int]
    taken: Sequence[int]
    known: Sequence[int]
    first_trick: bool
    tricks_left: int
    totals: Sequence[int]
    target: int
    jd: bool = False  # the J♦ counts −10 to its taker

    @classmethod
    def of(cls, view: PlayerView) -> Table:
        n = view.n
        trick = view.trick
        taken = [point_cards(m) for m in view.taken()]
        return cls(
            seat=view.seat,
            n=n,
            hand=view.hand,
            legal=view.legal,
            trick=trick,
            others=view.unseen(),
            voids=view.voids(),
            taken=taken,
            known=view.known(),
            first_trick=len(view.plays) < n,
            tricks_left=view.hand.bit_count(),
            totals=view.totals,
            target=view.target,
            jd=view.rules.jd_bonus,
        )

    def after(self) -> list[int]:
        """The seats still to play to the trick after this seat."""
        k = len(self.trick)
        return [(self.seat + i) % self.n for i in range(1, self.n - k)]

    def can_hold(self, seat: int, suit: int) -> bool:
        """``seat`` may still hold a card of ``suit`` (it has not shown a void)."""
        return not self.voids[seat] >> suit & 1 and bool(self.others & SUIT_MASKS[suit])

    def moon_threat(self, with_queen: int = 2, hearts_only: int = 4) -> int:
        """Another seat that has taken every point card so far, enough of them to be
        running for the moon (-1 if none): Q♠ and ``with_queen`` hearts, or
        ``hearts_only`` hearts."""
        takers = [s for s in range(self.n) if self.taken[s]]
        if len(takers) != 1 or takers[0] == self.seat:
            return -1
        s = takers[0]
        got = self.taken[s]
        hearts = (got & HEARTS_MASK).bit_count()
        if got & QS_BIT:
            return s if hearts >= with_queen else -1
        return s if hearts >= hearts_only else -1
