"""Re-deal the cards a seat cannot see, in any way consistent with what it knows.

:func:`redeal` builds a new full :class:`HandState` from what ``seat`` knows and
nothing else: its view.  The seat's own cards, what it passed and received, every
card played (by the same seats, in the same order) and the hand counts stay; the
other seats' hidden cards are drawn from the constraints the view implies (shown
voids, the rules' deductions, the passed cards the seat knows they hold) by the
deal sampler, the passes between the other seats are invented, and the plays are
replayed with the checked ``play``.  Nothing is drawn again: a re-deal whose
replay is illegal is an error (a constraint the view implies was missed), and
whether the new state's view equals the old one is for the caller to check, as
its own assertion: a hidden card leaking into the view must fail, not be retried.

:func:`positions` walks random hands and yields positions of every phase.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from hearts.bots.base import Bot
from hearts.bots.hard.sampling import DealSampler
from hearts.cards import cards_of
from hearts.hand import HandState
from hearts.rules import Rules
from hearts.view import PlayerView


def _random_cards(mask: int, k: int, rng: random.Random) -> int:
    out = 0
    for c in rng.sample(list(cards_of(mask)), k):
        out |= 1 << c
    return out


def redeal(state: HandState, seat: int, rng: random.Random) -> HandState:
    """A state with other hidden cards, made from ``state.view(seat)`` alone."""
    view = state.view(seat)
    if view.phase == "pass":
        return _pass_phase(view, rng)
    return _play_phase(view, rng)


def _pass_phase(view: PlayerView, rng: random.Random) -> HandState:
    rules, n, seat = view.rules, view.n, view.seat
    cards = list(cards_of(rules.deck & ~view.hand))
    rng.shuffle(cards)
    size = rules.hand_size
    deal = [0] * n
    deal[seat] = view.hand  # passed cards stay in the hand until the exchange
    others = [s for s in range(n) if s != seat]
    for i, c in enumerate(cards):
        deal[others[i // size]] |= 1 << c
    new = HandState(rules, deal, view.direction)
    if view.passed:
        new.pass_cards(seat, view.passed)
    # Which other seats have chosen their pass is hidden too: invent some (all but
    # one at most, or the exchange would happen).
    for s in others:
        if not view.passed and rng.random() < 0.5:
            new.pass_cards(s, _random_cards(new.hands[s], rules.pass_count, rng))
    return new


def _play_phase(view: PlayerView, rng: random.Random) -> HandState:
    rules, n, seat = view.rules, view.n, view.seat
    current = DealSampler(view).draw(rng)
    played = [0] * n
    for s, c in view.plays:
        played[s] |= 1 << c
    post = [current[s] | played[s] for s in range(n)]  # hands just after the pass
    offset = rules.pass_offset(view.direction)
    passes: list[int] = []
    deal = post
    if offset:
        passes = [0] * n
        passes[seat] = view.passed
        passes[(seat - offset) % n] = view.received
        for t in range(n):
            if t not in (seat, (seat - offset) % n):
                passes[t] = _random_cards(post[(t + offset) % n], rules.pass_count, rng)
        deal = [(post[s] & ~passes[(s - offset) % n]) | passes[s] for s in range(n)]
    new = HandState(rules, deal, view.direction)
    for s, mask in enumerate(passes):
        new.pass_cards(s, mask)
    for s, c in view.plays:
        new.play(c, s)  # IllegalAction here: the sampler missed a constraint
    return new


def positions(
    count: int, seed: int, players: list[Bot] | None = None, rules: Rules | None = None
) -> Iterator[tuple[HandState, int, int]]:
    """``count`` positions ``(state, seat to decide, hand_number)``, spread over the
    phases: passing, the first trick, mid-hand and the last tricks."""
    rules = rules or Rules()
    rng = random.Random(seed)
    phases = ("pass", "first", "mid", "last")
    made = 0
    while made < count:
        phase = phases[made % len(phases)]
        hand_number = rng.randint(1, 4) if phase != "pass" else rng.randint(1, 3)
        state = HandState.deal(rules, hand_number, rng)
        if phase == "pass":
            order = list(range(rules.players))
            rng.shuffle(order)
            for s in order[: rng.randint(0, rules.players - 1)]:
                state.pass_cards(s, _random_cards(state.hands[s], rules.pass_count, rng))
            seat = next(s for s in order if not state.passes[s])
            yield state, seat, hand_number
            made += 1
            continue
        if state.phase == "pass":
            for s in range(rules.players):
                state.pass_cards(s, _choose_pass(state, s, hand_number, players, rng))
        total = rules.hand_size * rules.players
        stop = {
            "first": rng.randint(0, rules.players - 1),
            "mid": rng.randint(rules.players, total - 4 * rules.players - 1),
            "last": rng.randint(total - 3 * rules.players, total - 1),
        }[phase]
        while len(state.plays) < stop:
            seat = state.turn
            if players:
                card = players[seat].choose_play(state.view(seat, hand_number=hand_number))
            else:
                card = rng.choice(state.legal_actions())
            state.play(card, seat)
        yield state, state.turn, hand_number
        made += 1


def _choose_pass(
    state: HandState, seat: int, hand_number: int, players: list[Bot] | None, rng: random.Random
) -> int:
    if players:
        return players[seat].choose_pass(state.view(seat, hand_number=hand_number))
    return _random_cards(state.hands[seat], state.rules.pass_count, rng)


def hidden_differs(a: HandState, b: HandState, seat: int) -> bool:
    """Whether two states differ in some card the seat cannot see."""
    return any(a.hands[s] != b.hands[s] for s in range(a.n) if s != seat) or any(
        a.deal_masks[s] != b.deal_masks[s] for s in range(a.n) if s != seat
    )
