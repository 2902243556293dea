"""Moon defence: seeing a live moon, and imagining the hands that make it.

A moon is *live* when one other seat has taken every point so far (enough of
them to be running: Q♠ and two hearts, or four hearts, the playouts' rule; or
Q♠ and a seat that leads hearts) and hearts are still out that the deciding
seat does not hold.  Uniformly sampled
deals misjudge such a seat: a player running for the moon holds the high hearts
it needs, while a random hand rarely does, so the playouts let the moon fail on
its own and the search sees no reason to spend a point stopping it.  While a
moon is live, Khó's sampler (:func:`moon_sampler`) gives part of its deals to
those in which the runner holds the highest hearts still out; there the
playouts (whose defenders block a runner) show what letting it through costs.
"""

from __future__ import annotations

from hearts.bots.hard.reference import runs_for_the_moon
from hearts.bots.hard.sampling import (
    DealSampler,
    MixtureSampler,
    NoConsistentDeal,
    WeightedSampler,
    sampler_parts,
)
from hearts.cards import HEARTS_MASK
from hearts.view import PlayerView

#: The share of the deals in which a live runner holds the high hearts.
RUNNER_SHARE = 0.5
#: How many of the highest hearts still out the runner is given there.
RUNNER_HEARTS = 2


def penalties(view: PlayerView) -> list[int]:
    """Per seat, the hearts and Q♠ it has taken so far in this hand (what a moon
    counts: :meth:`Rules.penalty`)."""
    return [view.rules.penalty(mask) for mask in view.taken()]


def scorers(taken: list[int]) -> list[int]:
    """The seats with points in ``taken`` (:func:`penalties`), in seat order."""
    return [s for s, p in enumerate(taken) if p]


def live_moon(view: PlayerView) -> int:
    """The other seat running for the moon (-1: none): it alone took points,
    enough to be running, and hearts it still needs are out of ``view``'s hand."""
    taken = penalties(view)
    seats = scorers(taken)
    if len(seats) != 1:
        return -1
    runner = seats[0]
    if runner == view.seat:
        return -1
    if not runs_for_the_moon(taken[runner]) and not (
        taken[runner] >= 13 and _led_a_heart(view, runner)
    ):
        return -1
    if not view.unseen() & HEARTS_MASK:
        return -1
    return runner


def suspect(view: PlayerView, tricks: int) -> int:
    """The other seat suspected of running for the moon before its run shows (-1:
    none): it won each of the last ``tricks`` finished tricks (at least one) and no
    other seat has taken a point, so it holds the control a moon needs.

    A rule-based shooter runs from its first trick, cashing its winners, while the
    playouts' runner starts at four points (:func:`runs_for_the_moon`): the
    suspect is chased from the start (:data:`hearts.bots.hard.reference.SUSPECT`).
    """
    winners = view.winners()
    if tricks < 1 or len(winners) < tricks:
        return -1
    seat = winners[-1]
    if seat == view.seat or any(w != seat for w in winners[-tricks:]):
        return -1
    if any(p for s, p in enumerate(penalties(view)) if s != seat):
        return -1
    return seat


def lone_scorer(view: PlayerView, least: int) -> int:
    """The other seat that alone has taken points, at least ``least`` (-1: none)."""
    taken = penalties(view)
    seats = scorers(taken)
    if len(seats) != 1 or seats[0] == view.seat or taken[seats[0]] < least:
        return -1
    return seats[0]


def _led_a_heart(view: PlayerView, seat: int) -> bool:
    """Whether ``seat`` led a heart in this hand (the trick in progress included):
    with Q♠ already taken, the mark of a seat running for the moon."""
    n = view.n
    return any(s == seat and c >= 39 for i, (s, c) in enumerate(view.plays) if i % n == 0)


def moon_sampler(
    view: PlayerView, base: DealSampler | WeightedSampler
) -> DealSampler | WeightedSampler | MixtureSampler:
    """``base``, or while a moon is live (:func:`live_moon`)
    a mixture: ``base`` on (1 - RUNNER_SHARE) of the deals, and deals in which
    the runner holds the highest hearts still out (as many of the RUNNER_HEARTS
    as fit what the view allows) on the rest."""
    runner = live_moon(view)
    if runner < 0:
        return base
    known = view.known()
    out = view.unseen() & HEARTS_MASK
    for s in range(view.n):
        if s != view.seat:
            out &= ~known[s]  # placed already (the runner's) or known to lie elsewhere
    tops: list[int] = []
    while out and len(tops) < RUNNER_HEARTS:
        card = out.bit_length() - 1
        tops.append(card)
        out &= ~(1 << card)
    part = None
    while tops:
        try:
            part = DealSampler(view, place=[(runner, c) for c in tops])
            break
        except NoConsistentDeal:
            tops.pop()
    if part is None:
        return base
    parts = sampler_parts(base)
    total = sum(w for w, _ in parts)
    mixed = [((1.0 - RUNNER_SHARE) * w / total, p) for w, p in parts]
    mixed.append((RUNNER_SHARE, part))
    return MixtureSampler(mixed)
