"""A per-address limit on making new players (``POST /api/players``).

A token bucket per client address: ``burst`` tokens at once, then one more every
``interval`` seconds; beyond that 429 ``rate_limited`` with ``Retry-After``.  The
address is the TCP peer, unless the peer is a trusted proxy (``--trusted-proxy``):
then it is the right-most address of ``X-Forwarded-For`` that is not itself a
trusted proxy (what our own proxies saw; what a client wrote further left is not
believed).  An IPv6 client counts by its network (``--ipv6-prefix``, a /64 by
default): one home or phone is given a whole /64, and a client rotating through it
is still one client.  Memory stays bounded: a bucket that has filled up again is the same
as none and is dropped, and there are at most ``max_addresses`` buckets.

The buckets live in the process: with ``--workers N`` an address may make up to
N times as many.
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.requests import HTTPConnection

from hearts.server.config import Config, Network
from hearts.server.web.errors import error_response
from hearts.server.web.schema import ErrorBody

#: OpenAPI: the answer of a refused ``POST /api/players``.
RATE_LIMITED_RESPONSE: dict[int | str, dict[str, Any]] = {
    429: {"model": ErrorBody, "description": "too many new players from one address"},
}


class RateLimited(Exception):
    """429 ``code`` with ``Retry-After``: the seconds until the bucket has a token."""

    def __init__(self, retry_after: float, code: str = "rate_limited") -> None:
        super().__init__(code)
        self.retry_after = retry_after
        self.code = code


class TokenBuckets:
    """One token bucket per key."""

    def __init__(
        self,
        burst: int,
        interval: float,
        clock: Callable[[], float] = time.monotonic,
        max_addresses: int = 100_000,
    ) -> None:
        self.burst = burst
        self.interval = interval
        self.clock = clock
        self.max_addresses = max_addresses
        # key -> (tokens, when counted), oldest first: the front fills up first.
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._buckets)

    def _tokens(self, tokens: float, at: float, now: float) -> float:
        return min(float(self.burst), tokens + (now - at) / self.interval)

    def take(self, key: str) -> float:
        """Take a token for ``key``: 0 if there was one, else the seconds until there is."""
        if self.interval <= 0:
            return 0.0
        with self._lock:
            now = self.clock()
            tokens, at = self._buckets.pop(key, (float(self.burst), now))
            tokens = self._tokens(tokens, at, now)
            wait = 0.0
            if tokens >= 1:
                tokens -= 1
            else:
                wait = (1 - tokens) * self.interval
            self._buckets[key] = (tokens, now)
            self._forget(now)
            return wait

    def _forget(self, now: float) -> None:
        while self._buckets:
            key, (tokens, at) = next(iter(self._buckets.items()))
            full = self._tokens(tokens, at, now) >= self.burst
            if not full and len(self._buckets) <= self.max_addresses:
                break
            del self._buckets[key]


def _is_trusted(address: str, trusted: Iterable[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip().strip("[]"))
    except ValueError:
        return False
    return any(ip in net for net in trusted)


def client_address(peer: str | None, forwarded_for: list[str], trusted: tuple[Network, ...]) -> str:
    """Who made a request: the TCP ``peer``, or, when the peer is a trusted proxy,
    the right-most ``X-Forwarded-For`` entry that is not a trusted proxy."""
    peer = peer or "unknown"
    if not trusted or not _is_trusted(peer, trusted):
        return peer
    hops = [h.strip() for value in forwarded_for for h in value.split(",") if h.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop, trusted):
            return hop
    return hops[0] if hops else peer  # only proxies: the farthest one we know


def address_key(address: str, ipv6_prefix: int) -> str:
    """What the per-address limits count ``address`` as: an IPv6 address's network of
    ``ipv6_prefix`` bits (``2001:db8:1:2::/64``), an IPv4 address itself (also when
    written IPv4-mapped, ``::ffff:a.b.c.d``), anything else (no address) as it is."""
    try:
        ip = ipaddress.ip_address(address.strip().strip("[]").split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        if ipv6_prefix < 128:
            return str(ipaddress.ip_network(f"{ip}/{ipv6_prefix}", strict=False))
    return str(ip)


class NewPlayerLimit:
    """The limit on ``POST /api/players`` of one app."""

    def __init__(self, config: Config, clock: Callable[[], float] = time.monotonic) -> None:
        self.trusted = config.trusted_proxy
        self.ipv6_prefix = config.ipv6_prefix
        self.buckets = TokenBuckets(config.new_player_burst, config.new_player_interval, clock)

    def check(self, request: Request) -> None:
        wait = self.buckets.take(request_address(request))
        if wait > 0:
            raise RateLimited(wait)


def request_address(request: HTTPConnection) -> str:
    """Who made ``request`` (a call or a WebSocket), as the limits count it: the
    peer, or behind one of the app's trusted proxies its client; an IPv6 one by its
    network (:func:`address_key`)."""
    limit: NewPlayerLimit = request.app.state.new_player_limit
    peer = request.client.host if request.client else None
    found = client_address(peer, request.headers.getlist("x-forwarded-for"), limit.trusted)
    return address_key(found, limit.ipv6_prefix)


async def limit_new_players(request: Request) -> None:
    """FastAPI dependency of ``POST /api/players``."""
    limit: NewPlayerLimit = request.app.state.new_player_limit
    limit.check(request)


def install(app: FastAPI, config: Config) -> None:
    """The limit of ``config`` on ``app``, refused calls answered in the error shape."""
    app.state.new_player_limit = NewPlayerLimit(config)

    async def refused(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RateLimited)
        response = error_response(exc.code)
        response.headers["Retry-After"] = str(max(1, math.ceil(exc.retry_after)))
        return response

    app.add_exception_handler(RateLimited, refused)
