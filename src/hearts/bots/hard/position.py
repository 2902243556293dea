"""How a position is put to Khó's kernels: the start of a playout
(:class:`Position`), the valuation of a finished hand (:class:`Judge`), the pass
searched (:class:`Passing`), as numbers both engines read; and these values made
from a :class:`~hearts.view.PlayerView`."""

from __future__ import annotations

from typing import NamedTuple

from hearts.bots.hard.value import near_the_end
from hearts.cards import JD_BIT
from hearts.rules import ADD_TO_OTHERS, SHOOTER_CHOOSES, SUBTRACT_FROM_SELF
from hearts.view import PlayerView

#: Codes of the moon rules in the kernels.
MOON_CODES = {ADD_TO_OTHERS: 0, SUBTRACT_FROM_SELF: 1, SHOOTER_CHOOSES: 2}


class Position(NamedTuple):
    """Where the search starts: the trick in progress (leader first, without the
    card being weighed), its leader, cards played, hearts broken, points and J♦
    taken so far, the table's rules as numbers, suits some seat is void in;
    ``history`` every (seat, card) played in the hand so far, and ``mismatch``
    the weight a deal keeps per play of another seat the playout policy would not
    have made holding that deal (1.0: every deal weighs the same); ``seat_voids``
    per seat the suits it has shown it lacks (for looks that mix the others'
    cards, :func:`mix`; empty: none shown)."""

    me: int
    trick: tuple[int, ...]
    leader: int
    played: int
    broken: bool
    pen: tuple[int, ...]
    jd: int
    qs_breaks: bool
    lead_card: int
    voids: int
    history: tuple[tuple[int, int], ...] = ()
    mismatch: float = 1.0
    seat_voids: tuple[int, ...] = ()


class Judge(NamedTuple):
    """How a finished hand is valued (:func:`hearts.bots.hard.hand_utility`):
    ``near`` the end of the match, the match ``totals`` and ``target``, the moon
    rule's code and the J♦ rule; ``shoot`` is added to the value of a moon of its
    own (0 for Khó; the bench's moon-hungry opponent sets it)."""

    me: int
    near: bool
    totals: tuple[int, ...]
    target: int
    moon: int
    jd_bonus: bool
    shoot: float = 0.0


class Passing(NamedTuple):
    """The pass being searched: the seat, where its cards go (``offset`` seats on),
    how many ``cards`` each seat passes, whether J♦ counts (the others keep it), the
    table's rules as numbers."""

    me: int
    offset: int
    cards: int
    jd_bonus: bool
    qs_breaks: bool
    lead_card: int
    #: Switches of the playout policy (:data:`hearts.bots.hard.reference.QUEEN_RUNS`).
    voids: int = 0


def search_position(view: PlayerView, mismatch: float = 1.0) -> Position:
    """Where the kernels start a playout from ``view`` (before the card weighed);
    ``mismatch``: how deals are weighed by the plays so far (:class:`Position`)."""
    rules = view.rules
    pen = [0] * view.n
    jd = -1
    for s, mask in enumerate(view.taken()):
        pen[s] = rules.penalty(mask)
        if mask & JD_BIT:
            jd = s
    return Position(
        me=view.seat,
        trick=tuple(c for _, c in view.trick),
        leader=view.leader,
        played=len(view.plays),
        broken=view.broken,
        pen=tuple(pen),
        jd=jd,
        qs_breaks=rules.qs_breaks_hearts,
        lead_card=rules.lead_card,
        voids=any_void(view),
        history=tuple(view.plays) if mismatch != 1.0 else (),
        mismatch=mismatch,
        seat_voids=tuple(view.voids()),
    )


def search_judge(view: PlayerView, shoot: float = 0.0) -> Judge:
    """How the kernels value a finished hand for ``view``'s seat (:func:`hand_utility`)."""
    rules = view.rules
    return Judge(
        me=view.seat,
        near=near_the_end(rules, view.totals),
        totals=tuple(view.totals),
        target=rules.target,
        moon=MOON_CODES[rules.moon],
        jd_bonus=rules.jd_bonus,
        shoot=shoot,
    )


def any_void(view: PlayerView) -> int:
    """Bit k set when some other seat has shown a void in suit k."""
    out = 0
    for seat, mask in enumerate(view.voids()):
        if seat != view.seat:
            out |= mask
    return out
