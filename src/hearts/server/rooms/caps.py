"""How many room sockets one server process keeps open: per token, per address and
per room (docs/api.md, Rooms). Every push goes to each socket of a room, so without
a cap one address could open thousands on one room. A socket over a cap is refused
with ``too_many_sockets`` and closed with :data:`CLOSE_CODE`."""

from __future__ import annotations

from collections import Counter

from hearts.server.web.errors import ApiError

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
