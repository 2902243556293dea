"""Re-deal the cards a seat cannot see, in any way consistent with what it knows.

:func:`redeal` builds a new full :class:`HandState` from a position and a seat: the
seat's own cards, what it passed and received, every card played (by the same
seats, in the same order) and the hand counts stay; the other seats' hidden cards
are shuffled among them, respecting their shown voids and the passed cards the
seat knows they hold.  The passes between the other seats are invented too.  The
plays are replayed with the checked ``play``, so a re-deal in which some past play
would have been illegal (e.g. a heart discarded on the first trick by a hand that
held other cards) is rejected and drawn again.

:func:`positions` walks random hands and yields positions of every phase.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from hearts.bots.base import Bot
from hearts.cards import cards_of
from hearts.hand import HandState, IllegalAction
from hearts.rules import Rules


def _random_cards(mask: int, k: int, rng: random.Random) -> int:
    out = 0
    for c in rng.sample(list(cards_of(mask)), k):
        out |= 1 << c
    return out


def redeal(
    state: HandState,
    seat: int,
    rng: random.Random,
    hand_number: int = 1,
    totals: tuple[int, ...] | None = None,
    tries: int = 300,
) -> HandState | None:
    """A state with other hidden cards whose view for ``seat`` equals ``state``'s
    (None if no consistent re-deal was found in ``tries`` draws)."""
    view = state.view(seat, hand_number=hand_number, totals=totals)
    for _ in range(tries):
        new = (
            _pass_phase(state, seat, rng) if view.phase == "pass" else _play_phase(state, seat, rng)
        )
        if new is not None and new.view(seat, hand_number=hand_number, totals=totals) == view:
            return new
    return None


def _pass_phase(state: HandState, seat: int, rng: random.Random) -> HandState | None:
    rules, n = state.rules, state.n
    cards = list(cards_of(rules.deck & ~state.hands[seat]))
    rng.shuffle(cards)
    size = rules.hand_size
    deal = [0] * n
    deal[seat] = state.hands[seat]
    others = [s for s in range(n) if s != seat]
    for i, c in enumerate(cards):
        deal[others[i // size]] |= 1 << c
    new = HandState(rules, deal, state.direction)
    for s in range(n):
        if state.passes[s]:
            mask = state.passes[s] if s == seat else _random_cards(new.hands[s], 3, rng)
            new.pass_cards(s, mask)
    return new


def _play_phase(state: HandState, seat: int, rng: random.Random) -> HandState | None:
    view = state.view(seat)
    rules, n = state.rules, state.n
    known = view.known()
    voids = view.voids()
    played = [0] * n
    for s, c in view.plays:
        played[s] |= 1 << c
    hidden = view.unseen()
    for s in range(n):
        if s != seat:
            hidden &= ~known[s]
    need = [0 if s == seat else view.counts[s] - known[s].bit_count() for s in range(n)]
    current = list(known)
    current[seat] = view.hand
    cards = list(cards_of(hidden))
    rng.shuffle(cards)
    # The most constrained cards first, so shown voids rarely leave a card homeless.
    cards.sort(key=lambda c: sum(1 for s in range(n) if s != seat and voids[s] >> (c // 13) & 1))
    cards.reverse()
    for c in cards:
        room = [s for s in range(n) if need[s] and not voids[s] >> (c // 13) & 1]
        if not room:
            return None
        s = rng.choices(room, [need[x] for x in room])[0]
        current[s] |= 1 << c
        need[s] -= 1
    post = [current[s] | played[s] for s in range(n)]  # hands just after the pass
    if state.offset:
        passes = [0] * n
        passes[seat] = view.passed
        passes[state.passer(seat)] = view.received
        for t in range(n):
            if t not in (seat, state.passer(seat)):
                passes[t] = _random_cards(post[state.receiver(t)], rules.pass_count, rng)
        deal = [(post[s] & ~passes[state.passer(s)]) | passes[s] for s in range(n)]
    else:
        passes = []
        deal = post
    if any(d & ~rules.deck for d in deal):
        return None
    new = HandState(rules, deal, state.direction)
    for s, mask in enumerate(passes):
        new.pass_cards(s, mask)
    try:
        for s, c in view.plays:
            new.play(c, s)
    except IllegalAction:
        return None
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
