"""Memory of a match: how the other seats played in its earlier hands.

Every card of a finished hand is public, so each seat's hand in it is known
exactly, and each of the others' plays can be set beside the card the playout
policy (:func:`hearts.bots.hard.reference.rollout`) would have played holding that hand.
Players of habit (Vừa) play the policy's kind of card almost always (median 5% of
their plays unlike it over a hand, at most 18% in 200 hands of 4 × Vừa); players
who search (Khó, the yardstick) far less (median 23–24%, at least 8–13%).  Khó's
``remember`` option opens, for a whole hand, the places of the playouts' queen
rule that pay only against players of habit (:class:`hearts.bots.hard.HardBot`),
once the match's earlier hands say the others are such players: before the pass,
where the evidence of the hand itself (``adapt``) cannot yet be had.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache

from hearts.bots.hard.position import Position
from hearts.bots.hard.reference import likeness
from hearts.rules import Rules
from hearts.view import PlayerView


@lru_cache(maxsize=4096)
def unlike_in_hand(
    plays: tuple[tuple[int, int], ...],
    me: int,
    n: int,
    qs_breaks: bool,
    lead_card: int,
    flags: int = 0,
) -> tuple[int, int]:
    """In one finished hand (``plays``: every (seat, card), in order), the other
    seats' plays (not ``me``'s) unlike the playout policy's kind of card
    (:func:`hearts.bots.hard.reference.kind`), and how many they made; ``flags``: the
    policy's switches (:data:`hearts.bots.hard.reference.QUEEN_RUNS`).

    >>> plays = ((0, 0), (1, 1), (2, 2), (3, 3))  # 2♣ 3♣ 4♣ 5♣, a hand cut short
    >>> unlike_in_hand(plays, 0, 4, False, 0)  # each follows low, as the policy
    (0, 3)
    """
    if not plays:
        return 0, 0
    pos = Position(
        me=me,
        trick=(),
        leader=plays[0][0],
        played=0,
        broken=False,
        pen=(0,) * n,
        jd=-1,
        qs_breaks=qs_breaks,
        lead_card=lead_card,
        voids=flags,
        history=plays,
        mismatch=0.5,
    )
    unlike = round(-math.log2(likeness([0] * n, pos)))
    return unlike, sum(1 for s, _ in plays if s != me)


def unlike_share(view: PlayerView, flags: int = 0) -> tuple[float, int]:
    """Over the match's earlier hands (``view.earlier``), the share of the other
    seats' plays unlike the playout policy's, and how many plays that counts
    (0: no memory yet)."""
    return unlike_share_in(view.earlier, view.seat, view.rules, flags)


def unlike_share_in(
    earlier: Iterable[tuple[tuple[int, int], ...]], seat: int, rules: Rules, flags: int = 0
) -> tuple[float, int]:
    """:func:`unlike_share` over the hands ``earlier``, as ``seat`` sees them."""
    unlike = made = 0
    for plays in earlier:
        u, m = unlike_in_hand(
            plays, seat, rules.players, rules.qs_breaks_hearts, rules.lead_card, flags
        )
        unlike += u
        made += m
    return (unlike / made if made else 0.0), made
