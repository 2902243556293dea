"""A new player's first deal, promised with the page itself (docs/fairness.md).

The page (``index.html``, filled in as it is served: web/page.py) carries a ticket and
the commitment of the server seed that ticket stands for, so a new player's page
draws its seed as it arrives and sends one call, ``POST /api/players`` with
``first_deal``, that makes the player and deals (one round trip fewer on a slow link,
bench/page_results.md).  Nothing is kept per ticket until it is used:

- the ticket is ``ISSUED.NONCE.TAG``: its issue time (Unix seconds), 16 random bytes
  and an HMAC of both under the server's secret (the tokens' key, kept in the
  database: every process of one database shares it), so a forged or altered ticket
  fails the check;
- its server seed is an HMAC of ``ISSUED.NONCE`` under the same secret (with
  ``hearts serve --seed N``, ``SHA-256("hearts-test-seed:N:ticket:ISSUED.NONCE")``):
  nobody without the secret knows it, and the server can make it again at the deal;
- it is good for :data:`LIFETIME` seconds and for one deal: ``ISSUED.NONCE`` is kept
  in the new player's row (``players.first_ticket``, unique), written in the deal's
  transaction, so a second use is refused.

>>> from hearts.fairness import ServerSeeds, commitment
>>> deals = FirstDeals(bytes(32), ServerSeeds(), clock=lambda: 1000.0)
>>> ticket, promised = deals.issue()
>>> seed, key = deals.open(ticket)
>>> commitment(seed) == promised and key == ticket.rsplit(".", 1)[0]
True
>>> FirstDeals(bytes([1] * 32), ServerSeeds(), clock=lambda: 1000.0).open(ticket)
Traceback (most recent call last):
...
hearts.server.web.errors.ApiError: bad_ticket
>>> FirstDeals(bytes(32), ServerSeeds(), clock=lambda: 1000.0 + LIFETIME + 1).open(ticket)
Traceback (most recent call last):
...
hearts.server.web.errors.ApiError: ticket_expired
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Callable

from hearts.fairness import ServerSeeds, commitment, derived_seed
from hearts.server.web.errors import ApiError

#: Seconds a ticket is good for after the page was served.
LIFETIME = 3600
#: Bytes of the HMAC kept in the ticket (128 bits: not worth guessing).
TAG_BYTES = 16
TICKET = re.compile(r"([0-9]{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})")


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class FirstDeals:
    """Tickets for a first deal under ``secret``; their seeds from ``seeds``' mode."""

    def __init__(
        self, secret: bytes, seeds: ServerSeeds, clock: Callable[[], float] = time.time
    ) -> None:
        self._secret = secret
        self._seeds = seeds
        self._clock = clock

    def issue(self) -> tuple[str, str]:
        """A fresh ticket and the commitment of its server seed."""
        key = f"{int(self._clock())}.{_b64(secrets.token_bytes(16))}"
        return f"{key}.{self._tag(key)}", commitment(self._seed(key))

    def meta(self) -> str:
        """The page's ``<meta name="hearts-first-deal">`` content: ``TICKET COMMITMENT``."""
        return " ".join(self.issue())

    def open(self, ticket: str) -> tuple[str, str]:
        """The server seed of ``ticket`` and its key (what its use is recorded by):
        400 ``bad_ticket`` if this server did not issue it, 409 ``ticket_expired``
        after :data:`LIFETIME` (its one use is the store's to check)."""
        found = TICKET.fullmatch(ticket)
        if found is None:
            raise ApiError("bad_ticket")
        key = f"{found.group(1)}.{found.group(2)}"
        if not hmac.compare_digest(found.group(3), self._tag(key)):
            raise ApiError("bad_ticket")
        age = self._clock() - int(found.group(1))
        if not -60 <= age <= LIFETIME:  # a minute's grace for another process's clock
            raise ApiError("ticket_expired")
        return self._seed(key), key

    def _tag(self, key: str) -> str:
        mac = hmac.new(self._secret, b"first-deal-ticket:" + key.encode(), hashlib.sha256)
        return _b64(mac.digest()[:TAG_BYTES])

    def _seed(self, key: str) -> str:
        if self._seeds.seed is not None:
            return derived_seed(self._seeds.seed, f"ticket:{key}")
        mac = hmac.new(self._secret, b"first-deal-seed:" + key.encode(), hashlib.sha256)
        return mac.hexdigest()
