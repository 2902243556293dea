"""Cards as small ints, hands as bit masks.

A card is ``suit * 13 + rank``: suits in the order of SPEC §4 (C, D, S, H), ranks
0..12 for 2..A.  A set of cards (a hand, the cards played, a legal set) is an int
with bit ``card`` set, so set operations are single machine operations.

>>> parse_card("QS")
36
>>> card_name(36)
'QS'
>>> names(mask_of([parse_card("2C"), parse_card("AH")]))
['2C', 'AH']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

CLUBS, DIAMONDS, SPADES, HEARTS = 0, 1, 2, 3
SUITS = "CDSH"
RANKS = "23456789TJQKA"

FULL_DECK = (1 << 52) - 1
SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))
HEARTS_MASK = SUIT_MASKS[HEARTS]

TWO_CLUBS = 0
QUEEN_SPADES = SPADES * 13 + 10
JACK_DIAMONDS = DIAMONDS * 13 + 9
QS_BIT = 1 << QUEEN_SPADES
JD_BIT = 1 << JACK_DIAMONDS
#: Cards that carry points in the default table.
POINT_CARDS = HEARTS_MASK | QS_BIT


def parse_card(text: str) -> int:
    """Read a card in SPEC §4 notation (``"TH"``); raise ``ValueError`` otherwise
    (``"th"`` too: the notation is upper case, and a record or an API call is read
    exactly as it will be written back).

    >>> parse_card("qs")
    Traceback (most recent call last):
    ValueError: unknown card 'qs'
    """
    if not isinstance(text, str) or len(text) != 2:
        raise ValueError(f"unknown card {text!r}")
    rank = RANKS.find(text[0])
    suit = SUITS.find(text[1])
    if rank < 0 or suit < 0:
        raise ValueError(f"unknown card {text!r}")
    return suit * 13 + rank


def card_name(card: int) -> str:
    return RANKS[card % 13] + SUITS[card // 13]


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> Iterator[int]:
    """The cards of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def lowest(mask: int) -> int:
    """The lowest card of a non-empty mask (by suit, then rank)."""
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    """The highest card of a non-empty mask (by suit, then rank)."""
    return mask.bit_length() - 1


def names(mask: int) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]


def parse_cards(texts: Iterable[str]) -> list[int]:
    return [parse_card(t) for t in texts]
