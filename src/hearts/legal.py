"""The play rules: which cards a seat may play, the rule a forbidden card breaks,
and who wins a trick.

Their one home: :class:`hearts.hand.HandState` (the full state) and
:class:`hearts.view.PlayerView` (one seat's knowledge) both ask here, and Khó's
kernel and its pure-Python twin are held to these functions by property tests
(tests/bots/test_kernel_rules.py).

>>> from hearts.cards import mask_of, parse_card, parse_cards
>>> from hearts.rules import Rules
>>> hand = mask_of(parse_cards(["2C", "KH", "5S"]))
>>> legal = legal_cards(Rules(), hand, parse_card("9S"), first_trick=False, broken=False)
>>> legal == mask_of([parse_card("5S")])
True
>>> why_illegal(Rules(), hand, parse_card("9S"), False, False, parse_card("KH")).code
'must_follow_suit'
>>> card_name(winning_card(parse_card("9S"), mask_of(parse_cards(["9S", "KH", "JS", "AC"]))))
'JS'
"""

from __future__ import annotations

from hearts.cards import HEARTS_MASK, QS_BIT, SUIT_MASKS, card_name
from hearts.rules import Rules

#: What a seat may still throw on the first trick while it holds anything else.
CLEAN_ON_FIRST_TRICK = ~(HEARTS_MASK | QS_BIT)
NOT_HEARTS = ~HEARTS_MASK


class IllegalAction(Exception):
    """An action the rules forbid.  The state is left exactly as it was.

    ``code`` is machine-readable (``not_in_hand``, ``not_your_turn``,
    ``must_follow_suit``, ``hearts_not_broken``, ``first_trick_points``,
    ``must_lead_lead_card``, ``bad_pass``, ``wrong_phase``); the message names the rule.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def legal_cards(rules: Rules, hand: int, led: int, first_trick: bool, broken: bool) -> int:
    """The cards of ``hand`` the rules allow now: ``led`` is the card led to the trick
    in progress (-1 when this seat leads), ``first_trick`` whether no trick is
    finished yet, ``broken`` whether hearts are broken.  The one home of the rule:
    :meth:`HandState.legal_mask` (the search's hot path) and so every view's
    ``legal`` come from here.

    Follow suit if you can; on the first trick, no heart and no Q♠ while you hold
    anything else; the first lead is the lead card; no heart led before hearts
    are broken, unless the hand holds nothing else.

    >>> from hearts.cards import parse_card as c, parse_cards, mask_of, names
    >>> hand = mask_of(parse_cards(["3D", "QS", "KH", "AH"]))
    >>> names(legal_cards(Rules(), hand, c("2C"), first_trick=True, broken=False))
    ['3D']
    >>> names(legal_cards(Rules(), hand, -1, first_trick=False, broken=False))
    ['3D', 'QS']
    >>> names(legal_cards(Rules(), mask_of(parse_cards(["KH", "AH"])), -1, False, False))
    ['KH', 'AH']
    """
    if led >= 0:
        follow = hand & SUIT_MASKS[led // 13]
        if follow:
            return follow
        if first_trick:
            clean = hand & CLEAN_ON_FIRST_TRICK
            if clean:
                return clean
        return hand
    if first_trick:
        return 1 << rules.lead_card
    if not broken:
        clean = hand & NOT_HEARTS
        if clean:
            return clean
    return hand


def why_illegal(
    rules: Rules, hand: int, led: int, first_trick: bool, broken: bool, card: int
) -> IllegalAction | None:
    """The rule ``card`` breaks if a seat holding ``hand`` played it now (None if
    legal); the arguments as for :func:`legal_cards`.  The one home of the rules'
    explanations: :meth:`HandState.why_illegal` and :meth:`PlayerView.why_illegal`
    both ask here."""
    if not 0 <= card < 52:
        return IllegalAction("not_in_hand", f"{card!r} is not a card")
    bit = 1 << card
    if not hand & bit:
        return IllegalAction("not_in_hand", f"{card_name(card)} is not in the hand")
    if legal_cards(rules, hand, led, first_trick, broken) & bit:
        return None
    if led >= 0:
        if hand & SUIT_MASKS[led // 13]:
            return IllegalAction("must_follow_suit", f"must follow suit: {card_name(led)} was led")
        return IllegalAction(
            "first_trick_points",
            "no heart and no Q♠ on the first trick while other cards remain",
        )
    if first_trick:
        lead = card_name(rules.lead_card)
        return IllegalAction("must_lead_lead_card", f"the first trick is led with {lead}")
    return IllegalAction("hearts_not_broken", "hearts may not be led before hearts are broken")


def winning_card(led: int, cards: int) -> int:
    """The card that wins a trick (finished or not) led with ``led`` whose cards are
    ``cards`` (a mask, ``led`` among them): the highest card of the suit led.  The
    one home of the rule: :meth:`HandState.push`, :meth:`PlayerView.winners` and
    the bots' tactics ask here.

    >>> from hearts.cards import card_name, mask_of, parse_card, parse_cards
    >>> card_name(winning_card(parse_card("5C"), mask_of(parse_cards(["5C", "AH", "KC", "TC"]))))
    'KC'
    >>> card_name(winning_card(parse_card("5C"), mask_of(parse_cards(["5C", "AH"]))))
    '5C'
    """
    return (cards & SUIT_MASKS[led // 13]).bit_length() - 1
