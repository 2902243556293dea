"""How many room sockets and long polls one server process keeps open (docs/api.md,
Rooms). Every push goes to each socket of a room, and each socket or poll holds a
connection, which the server has a cap of: without these caps one token or one
address could take them all.

* Sockets, per token, per address and per room: one over a cap is refused with
  ``too_many_sockets`` and closed with :data:`CLOSE_CODE`.
* Long polls, per token and per address: a token's poll over its cap answers its
  oldest poll at once (as at its timeout: that page polls again), so a reload, or a
  phone whose old connection is not yet known dead, is never locked out; a poll over
  its address's cap is 429 ``too_many_polls`` with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field

from hearts.server.web.errors import ApiError
from hearts.server.web.ratelimit import RateLimited

#: the close code of a socket over a cap (4000 + HTTP's 429)
CLOSE_CODE = 4429
#: one player's sockets, on every room (its tabs and devices)
PER_TOKEN = 8
#: one address's sockets, counted from the connection (before the hello): a household
#: or a classroom behind one NAT
PER_ADDRESS = 64
#: one room's sockets: seven seats, each with a few tabs
PER_ROOM = 32

Held = tuple[str, object]


class SocketCaps:
    """The open sockets of one process, counted by token, address and room."""

    def __init__(
        self, per_token: int = PER_TOKEN, per_address: int = PER_ADDRESS, per_room: int = PER_ROOM
    ) -> None:
        self.limits = {"token": per_token, "address": per_address, "room": per_room}
        self.open: Counter[Held] = Counter()

    def take(self, kind: str, key: object, held: list[Held]) -> None:
        """Count one more socket of ``key`` (a ``kind``: token, address or room) in
        ``held``; 429 ``too_many_sockets`` if ``key`` is at its cap."""
        one = (kind, key)
        if self.open[one] >= self.limits[kind]:
            raise ApiError("too_many_sockets")
        self.open[one] += 1
        held.append(one)

    def give_back(self, held: list[Held]) -> None:
        """A socket closed: what it held is free again."""
        for one in held:
            self.open[one] -= 1
            if self.open[one] <= 0:
                del self.open[one]
        held.clear()


#: one player's long polls at once (a page polls only while its socket cannot open)
POLLS_PER_TOKEN = 8
#: one address's long polls at once, as its sockets
POLLS_PER_ADDRESS = 64
#: the Retry-After of a poll over its address's cap: about when others have answered
POLL_RETRY = 5.0


@dataclass(eq=False)
class Poll:
    """One long poll being held: whose, from where, and done once it is to answer now
    (its place was taken by a newer poll of its token, or its client hung up)."""

    player_id: int
    address: str
    now: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )

    def answer_now(self) -> None:
        if not self.now.done():
            self.now.set_result(None)


class PollCaps:
    """The long polls of one process, by token (oldest first) and by address."""

    def __init__(
        self, per_token: int = POLLS_PER_TOKEN, per_address: int = POLLS_PER_ADDRESS
    ) -> None:
        self.limits = {"token": per_token, "address": per_address}
        self.by_token: dict[int, dict[Poll, None]] = {}
        self.by_address: Counter[str] = Counter()

    def take(self, player_id: int, address: str) -> Poll:
        """A new poll of ``player_id`` from ``address``: 429 ``too_many_polls`` if the
        address is at its cap; the token's oldest answered now if the token is."""
        if self.by_address[address] >= self.limits["address"]:
            raise RateLimited(POLL_RETRY, "too_many_polls")
        polls = self.by_token.setdefault(player_id, {})
        while len(polls) >= self.limits["token"]:
            oldest = next(iter(polls))
            del polls[oldest]  # the newcomer's place now; its address's until it answers
            oldest.answer_now()
        poll = Poll(player_id, address)
        polls[poll] = None
        self.by_address[address] += 1
        return poll

    def give_back(self, poll: Poll) -> None:
        """The poll answered (or failed): its places are free again."""
        polls = self.by_token.get(poll.player_id)
        if polls is not None:
            polls.pop(poll, None)
            if not polls:
                del self.by_token[poll.player_id]
        self.by_address[poll.address] -= 1
        if self.by_address[poll.address] <= 0:
            del self.by_address[poll.address]

    @property
    def held(self) -> int:
        return sum(self.by_address.values())
