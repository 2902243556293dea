"""The shuffle itself: deal many hands through the server's deal path and test, by
chi-square, that every card goes to every seat equally often, that 2♣ (who leads
the first trick) does, and that each seat's suit lengths follow their exact
probabilities.

    PYTHONPATH=$PWD/src python3 bench/shuffle.py [--hands 1000000] [--seed S] [--out F]

The deals come from :func:`deal` below: the one function to point at the server's
deal when that changes (issue 41's committed deals).  Without ``--seed`` it is the
production path exactly (the OS's randomness, as ``hearts serve`` deals with no
``--seed``); with it, the reproducible path of the test servers.

Each test prints its statistic, degrees of freedom and p-value.  Under a fair
shuffle a p-value is uniform on [0, 1]: one run shows nothing below 0.001 but by a
1-in-1000 chance per test (the per-card minimum is corrected for its 52 tests).
"""

from __future__ import annotations

import argparse
import math
import secrets
import sys
import time
from collections.abc import Callable, Iterator
from itertools import permutations

import numpy as np

from hearts import fairness
from hearts.cards import SUIT_MASKS, parse_card
from hearts.rules import Rules

SEATS = Rules().seats
CLUB_2 = parse_card("2C")


def deal(seed: int | None, key: int, number: int) -> list[int]:
    """A hand as the server deals hand ``number`` of match ``key``: a mask per seat
    (the server's path, docs/fairness.md: a server seed from
    :class:`hearts.fairness.ServerSeeds`, a 16-byte client seed as the page sends, and
    :func:`hearts.fairness.deal`)."""
    server_seed = fairness.ServerSeeds(seed).first(f"match:{key}:{number}")
    client = secrets.token_hex(16) if seed is None else f"{key:x}{number:x}"
    return fairness.deal(Rules(), server_seed, (client,), number)


def deals(count: int, seed: int | None, source: Callable[..., list[int]] = deal) -> np.ndarray:
    """``count`` deals, as an array of (count, 4) hand masks: hands 1-4 of matches
    1, 2, … (every pass direction's hand, as a match deals them)."""
    out = np.zeros((count, 4), dtype=np.int64)
    for i in range(count):
        out[i] = source(seed, 1 + i // 4, 1 + i % 4)
    return out


# -- chi-square ----------------------------------------------------------------------
def chi2_sf(x: float, dof: int) -> float:
    """P(X >= x) for X chi-square with ``dof`` degrees of freedom: the regularized
    upper incomplete gamma Q(dof/2, x/2), by its series or continued fraction.

    >>> round(chi2_sf(3.841, 1), 3), round(chi2_sf(7.815, 3), 3), round(chi2_sf(156, 156), 2)
    (0.05, 0.05, 0.48)
    """
    a, z = dof / 2.0, x / 2.0
    if z <= 0:
        return 1.0
    log_front = a * math.log(z) - z - math.lgamma(a)
    if z < a + 1:  # the series of the lower function P
        term = total = 1.0 / a
        k = a
        while abs(term) > abs(total) * 1e-15:
            k += 1
            term *= z / k
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    # Lentz's continued fraction of Q
    tiny = 1e-300
    b = z + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def chi_square(observed: list[float], expected: list[float]) -> tuple[float, int, float]:
    """(statistic, degrees of freedom, p-value) of ``observed`` against
    ``expected`` counts (the cells with an expected count under 5 pooled into one)."""
    obs, exp = [], []
    rare_o = rare_e = 0.0
    for o, e in zip(observed, expected, strict=True):
        if e < 5:
            rare_o, rare_e = rare_o + o, rare_e + e
        else:
            obs.append(o)
            exp.append(e)
    if rare_e > 0:
        obs.append(rare_o)
        exp.append(rare_e)
    stat = sum((o - e) ** 2 / e for o, e in zip(obs, exp, strict=True))
    dof = len(obs) - 1
    return stat, dof, chi2_sf(stat, dof)


# -- the exact probabilities -----------------------------------------------------------
def length_probabilities(hand: int = 13, suit: int = 13, deck: int = 52) -> list[float]:
    """P(a hand of ``hand`` cards holds k cards of a suit), k = 0..13: hypergeometric."""
    total = math.comb(deck, hand)
    return [math.comb(suit, k) * math.comb(deck - suit, hand - k) / total for k in range(14)]


def pattern_probabilities() -> dict[tuple[int, ...], float]:
    """P(a 13-card hand's suit lengths, longest first, are the pattern): every
    assignment of the lengths to the four suits, each C(13, l) ways."""
    total = math.comb(52, 13)
    out: dict[tuple[int, ...], float] = {}
    for pattern in _patterns():
        ways = math.prod(math.comb(13, k) for k in pattern)
        out[pattern] = len(set(permutations(pattern))) * ways / total
    return out


def _patterns() -> Iterator[tuple[int, ...]]:
    for a in range(13, -1, -1):
        for b in range(min(a, 13 - a), -1, -1):
            for c in range(min(b, 13 - a - b), -1, -1):
                d = 13 - a - b - c
                if d <= c:
                    yield (a, b, c, d)


# -- the tests ---------------------------------------------------------------------------
def _bits(masks: np.ndarray, card: int) -> np.ndarray:
    return (masks >> card) & 1


def suit_lengths(masks: np.ndarray) -> np.ndarray:
    """(deals, seats, suits): how many cards of each suit each seat holds."""
    out = np.zeros((*masks.shape, 4), dtype=np.int64)
    for s, suit in enumerate(SUIT_MASKS):
        out[..., s] = np.bitwise_count(masks & np.int64(suit))
    return out


def report(masks: np.ndarray) -> list[tuple[str, float, int, float]]:
    """Every test on ``masks``: (name, statistic, degrees of freedom, p-value)."""
    n = len(masks)
    rows: list[tuple[str, float, int, float]] = []
    per_seat = np.stack([_bits(masks, c).sum(axis=0) for c in range(52)])  # (52, 4)
    stats = [chi_square(list(map(float, row)), [n / 4] * 4) for row in per_seat]
    total = sum(s for s, _, _ in stats)
    rows.append(("each card's seat, all 52 cards (52 × 3 dof)", total, 156, chi2_sf(total, 156)))
    worst = min(range(52), key=lambda c: stats[c][2])
    rows.append(
        (
            f"the card furthest from even ({_name(worst)}), p × 52",
            stats[worst][0],
            3,
            min(1.0, stats[worst][2] * 52),
        )
    )
    rows.append(("who holds 2♣", *chi_square(list(map(float, per_seat[CLUB_2])), [n / 4] * 4)))
    lengths = suit_lengths(masks)
    exact = length_probabilities()
    for seat in range(4):
        counts = np.bincount(lengths[:, seat, 3], minlength=14)  # hearts: one suit a seat
        rows.append(
            (
                f"{SEATS[seat]}'s hearts count",
                *chi_square(list(map(float, counts)), [p * n for p in exact]),
            )
        )
    shapes = pattern_probabilities()
    for seat in range(4):
        sorted_lengths = -np.sort(-lengths[:, seat, :], axis=1)
        seen: dict[tuple[int, ...], int] = {}
        for row in map(tuple, sorted_lengths.tolist()):
            seen[row] = seen.get(row, 0) + 1
        keys = sorted(shapes, key=lambda k: -shapes[k])
        rows.append(
            (
                f"{SEATS[seat]}'s suit-length pattern (4-4-3-2, 5-3-3-2, …)",
                *chi_square([float(seen.get(k, 0)) for k in keys], [shapes[k] * n for k in keys]),
            )
        )
    return rows


def _name(card: int) -> str:
    return "23456789TJQKA"[card % 13] + "♣♦♠♥"[card // 13]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=None, help="the test servers' seeded deal")
    parser.add_argument("--out", help="also write the report (Markdown) to this file")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    masks = deals(args.hands, args.seed)
    dealt = time.perf_counter() - started
    rows = report(masks)
    path = "ServerSeeds(None) (the OS's randomness)" if args.seed is None else f"--seed {args.seed}"
    lines = [
        f"{args.hands:,} hands dealt through `bench/shuffle.py:deal` "
        f"(hearts.fairness.deal with {path}) in {dealt:.0f} s",
        "",
        "| Test | χ² | dof | p-value |",
        "|---|---|---|---|",
    ]
    lines += [f"| {name} | {stat:.1f} | {dof} | {p:.3f} |" for name, stat, dof, p in rows]
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
