"""Committed deals: a deal nobody chooses, that the player's browser can check
(docs/fairness.md is the contract, with test vectors).

The server draws a secret ``server_seed`` and shows its commitment
(``SHA-256(server_seed)``) before the player's browser sends its own
``client_seed``; the deal is a fixed function of both and the hand's number, and
the secret is revealed once the hand is over.  Every step below is exact, so that
anyone can write an independent checker (the page has one: static/js/fairness.js).

>>> seed = "00" * 32
>>> commitment(seed)[:16]
'66687aadf862bd77'
>>> from hearts.rules import Rules
>>> from hearts.cards import names
>>> hands = deal(Rules(), seed, ["0123abcd"], 1)
>>> len(hands), [len(names(m)) for m in hands]
(4, [13, 13, 13, 13])
>>> hands == deal(Rules(), seed, ["0123abcd"], 1) != deal(Rules(), seed, ["0123abcd"], 2)
True
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from hearts.cards import cards_of
from hearts.rules import Rules

#: A client seed: 1-64 lower-case hex digits (the page sends 32: 16 random bytes).
CLIENT_SEED = re.compile(r"[0-9a-f]{1,64}")
#: A server seed: 32 bytes as 64 lower-case hex digits.
SERVER_SEED = re.compile(r"[0-9a-f]{64}")
_SPAN = 1 << 32


def new_server_seed() -> str:
    """32 random bytes from :mod:`secrets`, in hex."""
    return secrets.token_hex(32)


def derived_seed(seed: int, label: str) -> str:
    """A server seed fixed by ``seed`` and ``label`` (``hearts serve --seed``: tests
    only; every such seed is known to anyone who knows ``seed``).

    >>> derived_seed(1, "player:1") == derived_seed(1, "player:1") != derived_seed(2, "player:1")
    True
    """
    return hashlib.sha256(f"hearts-test-seed:{seed}:{label}".encode()).hexdigest()


def is_client_seed(value: object) -> bool:
    return isinstance(value, str) and CLIENT_SEED.fullmatch(value) is not None


def is_server_seed(value: object) -> bool:
    return isinstance(value, str) and SERVER_SEED.fullmatch(value) is not None


def commitment(server_seed: str) -> str:
    """``SHA-256`` of the seed's 32 bytes, in hex."""
    return hashlib.sha256(bytes.fromhex(server_seed)).hexdigest()


def stream(server_seed: str, client_seeds: Sequence[str], hand_number: int) -> Iterator[int]:
    """The 4-byte big-endian unsigned integers of the blocks
    ``HMAC-SHA256(server_seed bytes, f"{','.join(client_seeds)}:{hand_number}:{i}")``,
    i = 0, 1, 2, ...

    >>> next(stream("00" * 32, [], 1)) < 2**32
    True
    """
    key = bytes.fromhex(server_seed)
    prefix = f"{','.join(client_seeds)}:{hand_number}:"
    i = 0
    while True:
        block = hmac.new(key, f"{prefix}{i}".encode(), hashlib.sha256).digest()
        for at in range(0, len(block), 4):
            yield int.from_bytes(block[at : at + 4], "big")
        i += 1


def shuffle(cards: Sequence[int], numbers: Iterator[int]) -> list[int]:
    """Fisher-Yates from the end, each index drawn without bias: for ``j`` from
    n - 1 down to 1, draw until ``u < 2^32 - 2^32 mod (j + 1)``, swap ``j`` and
    ``u mod (j + 1)``.

    >>> shuffle([1, 2, 3], iter([5, 0]))   # j=2: k = 5 % 3 = 2; j=1: k = 0
    [2, 1, 3]
    """
    deck = list(cards)
    for j in range(len(deck) - 1, 0, -1):
        size = j + 1
        limit = _SPAN - _SPAN % size
        u = next(numbers)
        while u >= limit:
            u = next(numbers)
        k = u % size
        deck[j], deck[k] = deck[k], deck[j]
    return deck


def shuffled_deck(
    rules: Rules, server_seed: str, client_seeds: Sequence[str], hand_number: int
) -> list[int]:
    """The cards in play, ascending (C2...CA, D2...DA, S2...SA, H2...HA without the
    cards the table removes), shuffled by the seeds' stream."""
    return shuffle(list(cards_of(rules.deck)), stream(server_seed, client_seeds, hand_number))


def deal(
    rules: Rules, server_seed: str, client_seeds: Sequence[str], hand_number: int
) -> list[int]:
    """Each seat's dealt cards (masks, in the record's seat order): seat ``s`` gets
    ``deck[s*h : (s+1)*h]`` of :func:`shuffled_deck`, ``h`` the hand size."""
    deck = shuffled_deck(rules, server_seed, client_seeds, hand_number)
    h = rules.hand_size
    return [sum(1 << c for c in deck[s * h : (s + 1) * h]) for s in range(rules.players)]


class SeedError(ValueError):
    """A record's ``fairness`` object that cannot be read."""


@dataclass(frozen=True, slots=True)
class HandSeeds:
    """The seeds of one hand: the server's secret and the clients' seeds, in the
    order they are joined.

    >>> s = HandSeeds("00" * 32, ("ab",))
    >>> s.to_json(reveal=False)["server_seed"] is None
    True
    >>> s.to_json(reveal=True)["server_seed"] == s.server_seed
    True
    >>> HandSeeds.from_json(s.to_json(True)) == s
    True
    """

    server_seed: str
    client_seeds: tuple[str, ...] = ()
    #: whose each client seed is: its seat in the deal's seat order (a room's humans);
    #: None where the hand says nothing of it (solo play: the player's, seat 0).  Not
    #: part of the record's ``fairness`` object.
    seats: tuple[int, ...] | None = field(default=None, compare=False)

    @property
    def commitment(self) -> str:
        return commitment(self.server_seed)

    def deal(self, rules: Rules, hand_number: int) -> list[int]:
        return deal(rules, self.server_seed, self.client_seeds, hand_number)

    @property
    def client_seats(self) -> list[int]:
        """The seat of each client seed (in solo play, the player's: seat 0)."""
        return list(self.seats) if self.seats is not None else [0] * len(self.client_seeds)

    def to_json(self, reveal: bool) -> dict[str, Any]:
        """The record's (and the State's) ``fairness`` object; the server seed only
        when ``reveal`` (the hand is over)."""
        return {
            "commitment": self.commitment,
            "client_seeds": list(self.client_seeds),
            "server_seed": self.server_seed if reveal else None,
        }

    @classmethod
    def from_json(cls, data: Any) -> HandSeeds | None:
        """The seeds of a ``fairness`` object (None when its server seed is not
        revealed); :class:`SeedError` for one that cannot be read.  Whether the
        seed matches the object's commitment is the caller's to check."""
        if not isinstance(data, dict) or set(data) != {"commitment", "client_seeds", "server_seed"}:
            raise SeedError("fairness must have commitment, client_seeds and server_seed")
        seeds, secret, promised = data["client_seeds"], data["server_seed"], data["commitment"]
        if not isinstance(seeds, list) or not all(is_client_seed(s) for s in seeds):
            raise SeedError("client_seeds must be a list of 1-64 lower-case hex digits each")
        if not isinstance(promised, str) or not SERVER_SEED.fullmatch(promised):
            raise SeedError("commitment must be 64 lower-case hex digits")
        if secret is None:
            return None
        if not is_server_seed(secret):
            raise SeedError("server_seed must be null or 64 lower-case hex digits")
        return cls(secret, tuple(seeds))


class ServerSeeds:
    """Where the server's seeds come from: :mod:`secrets`, or with a ``seed``
    (``hearts serve --seed``, for tests) a chain fixed by it: a table's first seed
    from its ``label``, each next one from the one before.

    >>> chain = ServerSeeds(1)
    >>> first = chain.first("player:1")
    >>> chain.after(first) == ServerSeeds(1).after(first) != first
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def first(self, label: str) -> str:
        return new_server_seed() if self.seed is None else derived_seed(self.seed, label)

    def after(self, previous: str) -> str:
        if self.seed is None:
            return new_server_seed()
        return derived_seed(self.seed, f"after:{previous}")
