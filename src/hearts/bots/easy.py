"""Dễ (easy): a relaxed player for learning the rules.

It plays legal cards, mostly low ones, with plenty of randomness, and ducks under
the trick only some of the time.  It is never absurd: it does not lead Q♠ while
A♠ or K♠ is still out, and it does not take Q♠ with its own card when it could
play under.  Its randomness is seeded from the view only (``view.seed()``).
"""

from __future__ import annotations

import random

from hearts.bots.tactics import HIGH_SPADES, highest_below, trick_winner
from hearts.cards import HEARTS_MASK, JACK_DIAMONDS, QS_BIT, QUEEN_SPADES, SUIT_MASKS, cards_of
from hearts.view import PlayerView


class EasyBot:
    """Dễ: legal, mostly low, often careless."""

    name = "easy"

    def __init__(self, care: float = 0.5, salt: int = 0) -> None:
        #: How often it ducks under the trick on purpose (0..1).
        self.care = care
        #: Mixed into the view's seed, so two Easy bots may differ on the same view.
        self.salt = salt

    def choose_pass(self, view: PlayerView) -> int:
        rng = random.Random(view.seed(self.salt))
        cards = list(cards_of(view.hand))
        # Rather the high cards and Q♠, but by chance.
        weights = [1.0 + (c % 13) ** 1.5 + (30.0 if c == QUEEN_SPADES else 0.0) for c in cards]
        if view.rules.jd_bonus and JACK_DIAMONDS in cards:
            weights[cards.index(JACK_DIAMONDS)] = 0.1  # worth −10 to keep: rarely passed
        chosen = 0
        for _ in range(view.rules.pass_count):
            i = rng.choices(range(len(cards)), weights)[0]
            chosen |= 1 << cards.pop(i)
            weights.pop(i)
        return chosen

    def choose_play(self, view: PlayerView) -> int:
        legal = view.legal
        cards = list(cards_of(legal))
        if len(cards) == 1:
            return cards[0]
        rng = random.Random(view.seed(self.salt))
        trick = view.trick
        if not trick:
            # Never lead the queen into a sure loss while A♠ or K♠ is still out.
            if legal & QS_BIT and view.unseen() & HIGH_SPADES and len(cards) > 1:
                cards.remove(QUEEN_SPADES)
            weights = [13.0 - (c % 13) for c in cards]
            return rng.choices(cards, weights)[0]
        led = trick[0][1] // 13
        follow = legal & SUIT_MASKS[led]
        _, best = trick_winner(trick)
        if follow:
            under = highest_below(follow, best)
            if under >= 0 and rng.random() < self.care:
                return under
            if follow & QS_BIT and best < QUEEN_SPADES:
                # Playing the queen over the trick would take it ourselves: never on purpose.
                if under >= 0:
                    return under
                rest = [c for c in cards if c != QUEEN_SPADES]
                if rest:
                    cards = rest
            weights = [13.0 - (c % 13) for c in cards]
            return rng.choices(cards, weights)[0]
        # Void: throw something, rather a high or a point card.
        weights = [
            1.0 + (c % 13) + (6.0 if (1 << c) & (HEARTS_MASK | QS_BIT) else 0.0) for c in cards
        ]
        if view.rules.jd_bonus and JACK_DIAMONDS in cards:
            weights[cards.index(JACK_DIAMONDS)] = 0.1  # rarely gives the J♦'s −10 away
        return rng.choices(cards, weights)[0]
