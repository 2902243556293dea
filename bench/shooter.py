"""A second moon shooter for bench/moons.py (issue 38): a rule, not a search.

The moon-hungry players of ``moons.py`` are Khó with a bonus on its own moon: a
search, so a defence tuned against them may be tuned to one opponent.  This one
is built otherwise.  It passes for the moon (Vừa's moon pass: the lowest side
cards, hearts and Q♠ kept) with a hand its rule calls a moon hand, and in play it
runs whenever nobody else has a point and either its hand after the pass met the
rule or Vừa would run from here.  Running, it takes every trick it can: sure
winners first, else its best chance; it follows over the trick or as low as it
can when it cannot win, and throws its lowest side card when void.  Once a point
goes elsewhere (or is about to, on a trick it cannot win) it plays as Vừa.

Like every bot it sees only its seat's view, and it keeps no state: one object
plays every seat it is given.
"""

from __future__ import annotations

from hearts.bots.medium import _moon_pass, moon_hand, pass_cards, play_card
from hearts.bots.tactics import (
    Table,
    above,
    highest_in,
    lowest_in,
    point_cards,
    sure_winner,
    trick_winner,
)
from hearts.cards import HEARTS, HEARTS_MASK, QS_BIT, SUIT_MASKS, cards_of
from hearts.view import PlayerView

#: The rule's moon hand: high-card weight (J 1, Q 2, K 3, A 4) at least this much,
#: with at least this many hearts and a heart at least this high (rank 10: Q♥).
MOON_WEIGHT = 16
MOON_HEARTS = 3
MOON_TOP_HEART = 10


def weight(hand: int) -> int:
    """High-card weight: J 1, Q 2, K 3, A 4 (an average hand has 10)."""
    return sum(max(0, c % 13 - 8) for c in cards_of(hand))


def shooter_hand(hand: int) -> bool:
    """The hand the shooter goes for the moon with: Vừa's moon hand, or enough high
    cards with hearts length and a high heart."""
    if moon_hand(hand):
        return True
    hearts = hand & HEARTS_MASK
    return (
        weight(hand) >= MOON_WEIGHT
        and hearts.bit_count() >= MOON_HEARTS
        and highest_in(hearts) % 13 >= MOON_TOP_HEART
    )


class ShooterBot:
    """The rule-based shooter: goes for the moon whenever its hand allows."""

    name = "shooter"

    def choose_pass(self, view: PlayerView) -> int:
        rules = view.rules
        if shooter_hand(view.hand):
            return _moon_pass(view.hand, rules.pass_count, rules.jd_bonus)
        return pass_cards(
            view.hand,
            rules.pass_count,
            rules.pass_offset(view.direction),
            view.n,
            True,
            rules.jd_bonus,
            rules.deck,
        )

    def choose_play(self, view: PlayerView) -> int:
        t = Table.of(view)
        legal = t.legal
        if not legal & (legal - 1):
            return lowest_in(legal)
        mine = 0
        for seat, card in view.plays:
            if seat == view.seat:
                mine |= 1 << card
        if _running(t, view.hand | mine):
            card = _run(t)
            if card >= 0:
                return card
        return play_card(t)


def _running(t: Table, start: int) -> bool:
    """The run is on: no other seat has a point, and the hand after the pass met
    the rule (or Vừa would run from here, which :func:`play_card` then does)."""
    if any(t.taken[s] for s in range(t.n) if s != t.seat):
        return False
    return shooter_hand(start)


def _run(t: Table) -> int:
    """The card that keeps the run alive; -1 when this trick's points go elsewhere
    whatever it plays (the run is over: Vừa plays)."""
    legal = t.legal
    if not t.trick:
        return _lead(t)
    led = t.trick[0][1] // 13
    follow = legal & SUIT_MASKS[led]
    _, best = trick_winner(t.trick)
    trick = 0
    for _, c in t.trick:
        trick |= 1 << c
    if follow:
        over = follow & above(best)
        if over:
            # Last to play: the lowest that wins; else the highest, surest to hold.
            return lowest_in(over) if not t.after() else highest_in(over)
        if point_cards(trick):
            return -1
        return lowest_in(follow)  # cannot win a pointless trick: keep the high cards
    if point_cards(trick):
        return -1
    # Void on a pointless trick: throw the lowest side card, never a point card.
    safe = legal & ~HEARTS_MASK & ~QS_BIT
    return min(cards_of(safe or legal), key=lambda c: (c % 13, c))


def _lead(t: Table) -> int:
    """Sure winners first (side suits before hearts, longest suit first); else the
    top card with the fewest higher cards out."""
    legal = t.legal
    winners = [c for c in cards_of(legal) if sure_winner(c, t.others)]
    if winners:
        side = [c for c in winners if c // 13 != HEARTS]
        return max(side or winners, key=lambda c: ((t.hand & SUIT_MASKS[c // 13]).bit_count(), c))
    tops = [highest_in(legal & SUIT_MASKS[s]) for s in range(4) if legal & SUIT_MASKS[s]]
    return min(tops, key=lambda c: ((t.others & above(c)).bit_count(), -c))
