"""Players of habit: weighing a sampled deal by how well it explains their plays.

Khó's sampler deals the hidden cards uniformly among those its view allows.
Against players who play by fixed habits (as Vừa does) the plays already made
say much more: a seat that led a sure winner of a long suit is running for the
moon, one that ducked under the queen holds no lower card of the suit.  Here a
deal keeps the weight ``doubt ** k``, ``k`` the number of the other seats' plays
this hand that Vừa (:func:`hearts.bots.medium.play_card`), holding that deal's
cards, would have made differently; Khó plays its search over such weighed
deals (:class:`hearts.bots.kernel_ref.Pool`) once it has judged the other seats
to be players of habit (:meth:`hearts.bots.hard.HardBot._plays_like_the_policy`).
A model, not a peek: the deals are drawn from what the view allows, and every
play used is public.
"""

from __future__ import annotations

from dataclasses import dataclass

from hearts.bots.medium import play_card
from hearts.bots.tactics import Table, point_cards, trick_winner
from hearts.cards import HEARTS_MASK, QS_BIT
from hearts.hand import legal_cards
from hearts.view import PlayerView


@dataclass(frozen=True)
class _Moment:
    """A past play of another seat, with what was public when it was made."""

    seat: int
    card: int
    later: int  # the cards this seat played from here on (the card itself included)
    played: int  # every card played before it
    trick: tuple[tuple[int, int], ...]
    led: int  # the card led to its trick (-1: it led)
    voids: tuple[int, ...]
    taken: tuple[int, ...]
    first_trick: bool
    broken: bool


def moments(view: PlayerView) -> list[_Moment]:
    """The other seats' plays so far this hand, each with its public position."""
    n = view.n
    rules = view.rules
    breakers = HEARTS_MASK | (QS_BIT if rules.qs_breaks_hearts else 0)
    plays = view.plays
    later = [0] * n
    after: list[int] = [0] * len(plays)
    for i in range(len(plays) - 1, -1, -1):
        s, c = plays[i]
        later[s] |= 1 << c
        after[i] = later[s]
    out = []
    played = 0
    voids = [0] * n
    taken = [0] * n
    broken = False
    for i, (s, c) in enumerate(plays):
        start = i - i % n
        trick = tuple(plays[start:i])
        if s != view.seat:
            out.append(
                _Moment(
                    s,
                    c,
                    after[i],
                    played,
                    trick,
                    trick[0][1] if trick else -1,
                    tuple(voids),
                    tuple(taken),
                    i < n,
                    broken,
                )
            )
        if trick and c // 13 != trick[0][1] // 13:
            voids[s] |= 1 << (trick[0][1] // 13)
        played |= 1 << c
        if (1 << c) & breakers:
            broken = True
        if i % n == n - 1:
            whole = (*trick, (s, c))
            winner, _ = trick_winner(whole)
            for _, card in whole:
                taken[winner] |= point_cards(1 << card)
    return out


def mismatches(view: PlayerView, hands: list[int], past: list[_Moment]) -> int:
    """How many of the plays ``past`` Vừa would not have made holding ``hands``
    (every seat's cards now, the deal weighed)."""
    rules = view.rules
    n = view.n
    deck = rules.deck
    k = 0
    for m in past:
        hand = hands[m.seat] | m.later
        table = Table(
            seat=m.seat,
            n=n,
            hand=hand,
            legal=legal_cards(rules, hand, m.led, m.first_trick, m.broken),
            trick=m.trick,
            others=deck & ~hand & ~m.played,
            voids=m.voids,
            taken=m.taken,
            known=(0,) * n,
            first_trick=m.first_trick,
            tricks_left=hand.bit_count(),
            totals=view.totals,
            target=view.target,
            jd=rules.jd_bonus,
        )
        if play_card(table) != m.card:
            k += 1
    return k


def weights(view: PlayerView, deals: list[list[int]], doubt: float) -> list[float]:
    """Each deal's weight: ``doubt`` to the power of its :func:`mismatches`."""
    past = moments(view)
    return [doubt ** mismatches(view, hands, past) for hands in deals]
