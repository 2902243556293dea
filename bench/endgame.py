"""Would an exact search of the last tricks change Khó's cards?  (issue 12, lever 3b)

Hands are played by Khó (at ``--iterations``); at every decision of the last
``--cards`` cards in hand with two or more candidates, deals of the hidden cards
are drawn from the seat's view, and in each deal every candidate is followed by a
max^n search of the rest of the hand with every card face up: each seat plays the
card that leaves it the fewest points at the end (moons not counted, the lower
card on ties).  The candidate with the fewest points on average is the exact
search's card; the script counts how often it is Khó's.  If they nearly always
agree, solving the last tricks at the root cannot make Khó much stronger.

Where they disagree, both cards are played in the real position (the true hands,
read only here) and the rest of the hand is played out by Khó in every seat, the
same way after either card: the seat's points after the exact search's card
minus after Khó's (negative: the exact search was right), with a 95% bootstrap
interval over the disagreements.

    python3 bench/endgame.py [--hands 12] [--cards 3] [--draws 100]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from strength import RULES, deal_for

from hearts.bots.hard import HardBot, candidates
from hearts.bots.sampling import DealSampler
from hearts.hand import HandState

N = RULES.players


def _close(trick: list[int], leader: int, pen: list[int]) -> tuple[int, list[int]]:
    """The winner of a full trick and the points after it."""
    led = trick[0] // 13
    best = max(range(N), key=lambda i: trick[i] if trick[i] // 13 == led else -1)
    winner = (leader + best) % N
    after = pen[:]
    after[winner] += sum(1 for c in trick if c >= 39) + (13 if 36 in trick else 0)
    return winner, after


def solve(hands: list[int], trick: list[int], leader: int, pen: list[int]) -> list[int]:
    """Max^n with everything face up: the points per seat at the end of the hand."""
    seat = (leader + len(trick)) % N
    h = hands[seat]
    if not h and not trick:
        return pen
    legal = h
    if trick:
        legal = h & (0x1FFF << (13 * (trick[0] // 13))) or h
    best: list[int] | None = None
    m = legal
    while m:
        c = (m & -m).bit_length() - 1
        m &= m - 1
        hands[seat] &= ~(1 << c)
        t = [*trick, c]
        if len(t) == N:
            winner, after = _close(t, leader, pen)
            out = solve(hands, [], winner, after)
        else:
            out = solve(hands, t, leader, pen)
        hands[seat] |= 1 << c
        if best is None or out[seat] < best[seat]:
            best = out
    assert best is not None
    return best


def finish(state: HandState, bot: HardBot, number: int) -> list[int]:
    """The hand's points per seat when Khó plays every seat to the end."""
    while not state.is_terminal():
        state.play(bot.choose_play(state.view(state.turn, hand_number=number)))
    return state.points()


def interval(xs: list[float], reps: int = 2000) -> tuple[float, float]:
    rng = random.Random(7)
    k = len(xs)
    means = sorted(statistics.fmean(xs[rng.randrange(k)] for _ in range(k)) for _ in range(reps))
    return means[int(0.025 * reps)], means[int(0.975 * reps) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--cards", type=int, default=3)
    parser.add_argument("--draws", type=int, default=100)
    parser.add_argument("--iterations", type=int, default=20000)
    args = parser.parse_args()
    bot = HardBot(iterations=args.iterations)
    agree = total = 0
    gains: list[float] = []
    for i in range(args.hands):
        deal, number = deal_for(100 + i)
        state = HandState(RULES, deal, RULES.pass_direction(number))
        if state.phase == "pass":
            for s in range(N):
                state.pass_cards(s, bot.choose_pass(state.view(s, hand_number=number)))
        while not state.is_terminal():
            view = state.view(state.turn, hand_number=number)
            card = bot.choose_play(view)
            cands = candidates(view)
            if view.hand.bit_count() <= args.cards and len(cands) > 1:
                rng = random.Random(0)
                sampler = DealSampler(view)
                pen0 = [RULES.penalty(m) for m in view.taken()]
                score = dict.fromkeys(cands, 0.0)
                trick = [c for _, c in view.trick]
                for _ in range(args.draws):
                    world = sampler.draw(rng)
                    for k in cands:
                        hands = world[:]
                        hands[view.seat] &= ~(1 << k)
                        t = [*trick, k]
                        if len(t) == N:
                            winner, after = _close(t, view.leader, pen0)
                            out = solve(hands, [], winner, after)
                        else:
                            out = solve(hands, t, view.leader, pen0[:])
                        score[k] += out[view.seat]
                exact = min(cands, key=lambda k: (score[k], k))
                total += 1
                agree += exact == card
                if exact != card:
                    theirs = state.copy()
                    theirs.play(exact)
                    ours = state.copy()
                    ours.play(card)
                    seat = view.seat
                    gains.append(
                        finish(theirs, bot, number)[seat] - finish(ours, bot, number)[seat]
                    )
            state.play(card)
        print(f"hand {i + 1}/{args.hands}: {agree}/{total}", file=sys.stderr, flush=True)
    print(
        f"{args.hands} hands: the exact search of the last {args.cards} cards agrees with Khó "
        f"({args.iterations}/play) on {agree} of {total} decisions with 2+ candidates"
    )
    if len(gains) > 1:
        low, high = interval(gains)
        print(
            f"where they disagree ({len(gains)}), the seat's points after the exact card minus "
            f"after Khó's: {statistics.fmean(gains):+.2f} [{low:+.2f}, {high:+.2f}] a decision"
        )


if __name__ == "__main__":
    main()
