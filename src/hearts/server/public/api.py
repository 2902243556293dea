"""The public tables' routes of docs/api.md ("Public tables"): "Tìm bàn", where the
player sits, reactions, hiding a player, leaving, and the leaderboard."""

import json
from enum import Enum
from typing import Any

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr

from hearts.bots.base import LEVELS
from hearts.rules import Rules
from hearts.server.config import Config
from hearts.server.players.identity import PlayerId
from hearts.server.public import rating
from hearts.server.public.names import public_name
from hearts.server.public.reactions import hide, react
from hearts.server.public.seating import Seating
from hearts.server.rooms.api import ROOM_RESPONSES, SocketAction, answer
from hearts.server.rooms.service import Rooms
from hearts.server.rooms.store import Room
from hearts.server.rooms.view import room_text
from hearts.server.table.game import rules_from_api
from hearts.server.web.errors import ApiError
from hearts.server.web.ratelimit import RateLimited, TokenBuckets, request_address
from hearts.server.web.schema import ERROR_RESPONSES
from hearts.server.web.security import NO_STORE


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeekBody(_Body):
    rules: Any = Field(None, description="as POST /api/new-match (null: the standard table)")
    level: StrictStr = Field("medium", description="the computers' level in the empty seats")
    name: Any = Field(None, description="the name strangers see (null: a generated one)")


class ReactBody(_Body):
    reaction: StrictStr = Field(description="like, wow, laugh, sad, nice, sorry or thanks")


class HideBody(_Body):
    seat: StrictStr = Field(description="the player's seat as the caller sees it")
    hidden: StrictBool = True


class BoardBody(_Body):
    hidden: StrictBool = Field(description="true: keep me off the leaderboard")


class Limits:
    """Seeking and reacting, per player and per address (each process its own), and
    the reactions' interval: the ``public_*`` settings (docs/config.md)."""

    def __init__(self, config: Config) -> None:
        c = config
        self.seek_player = TokenBuckets(c.public_seek_burst, c.public_seek_interval)
        self.seek_address = TokenBuckets(
            c.public_seek_address_burst, c.public_seek_address_interval
        )
        self.react_player = TokenBuckets(c.public_react_burst, c.public_react_interval)
        self.react_address = TokenBuckets(
            c.public_react_address_burst, c.public_react_address_interval
        )
        self.reaction_seconds = c.public_reaction_seconds

    @staticmethod
    def take(code: str, *pairs: tuple[TokenBuckets, str]) -> None:
        """A token from each bucket, or RateLimited (and no token taken from the
        later buckets)."""
        for buckets, key in pairs:
            wait = buckets.take(key)
            if wait > 0:
                raise RateLimited(wait, code)


def _seek_answer(room: Room, player_id: int, text: str) -> Response:
    head = json.dumps({"code": room.code, "seated": room.seat_of(player_id) is not None})
    return Response(
        f'{head[:-1]}, "room": {text}}}', media_type="application/json", headers=NO_STORE
    )


def install(app: FastAPI, table: Rules, rooms: Rooms, seating: Seating, config: Config) -> None:
    """The public tables' routes on ``app``; a seeker who names no rules plays at
    ``table``, the server's."""
    limits = app.state.public_limits = Limits(config)
    tags: list[str | Enum] = ["public"]

    @app.post("/api/public/seek", responses=ROOM_RESPONSES, tags=tags)
    async def seek(body: SeekBody, pid: PlayerId, request: Request) -> Response:
        """ "Tìm bàn": seated at a waiting public table of these rules, or a new one;
        while a match runs, queued for a computer's seat at the next hand."""
        rules = rules_from_api(body.rules, table)
        if body.level not in LEVELS:
            raise ApiError("bad_request")
        name = public_name(body.name)
        address = request_address(request)
        limits.take(
            "seek_limited",
            (limits.seek_player, str(pid)),
            (limits.seek_address, address),
        )
        room, text = await seating.find(pid, rules, body.level, name, address)
        return _seek_answer(room, pid, text)

    # what the page tells a seeker (docs/config.md's public_* settings)
    settings = {
        "start_seconds": config.public_start_seconds,
        "turn_seconds": config.public_turn_seconds,
        "reaction_seconds": config.public_reaction_seconds,
    }

    @app.get("/api/public/table", responses=ERROR_RESPONSES, tags=tags)
    async def where(pid: PlayerId) -> Response:
        """The public table the player is at (seated or queued), or null; and the
        public tables' settings the page words ("bắt đầu sau 20 giây")."""
        room = await anyio.to_thread.run_sync(seating.where, pid)
        body: dict[str, Any] = {"code": None, "seated": False, "settings": settings}
        if room is not None:
            body |= {"code": room.code, "seated": room.seat_of(pid) is not None}
        return Response(json.dumps(body), media_type="application/json", headers=NO_STORE)

    async def reacting(code: str, pid: int, body: ReactBody, address: str) -> str:
        """A reaction over the player's seat (one per --public-reaction-seconds), by
        REST or the socket."""
        action = react(body.reaction, limits.reaction_seconds)
        limits.take(
            "react_limited",
            (limits.react_player, str(pid)),
            (limits.react_address, address),
        )
        return await rooms.act(code, pid, action)

    app.state.socket_actions["react"] = SocketAction(ReactBody, reacting)

    @app.post("/api/public/{code}/react", responses=ROOM_RESPONSES, tags=tags)
    async def send_reaction(
        code: str, body: ReactBody, pid: PlayerId, request: Request
    ) -> Response:
        """A reaction over the player's seat (one per --public-reaction-seconds); also
        the room socket's ``{"type": "react", "reaction": ...}``."""
        return answer(await reacting(code, pid, body, request_address(request)))

    @app.post("/api/public/{code}/hide", responses=ROOM_RESPONSES, tags=tags)
    async def hide_player(code: str, body: HideBody, pid: PlayerId) -> Response:
        """Hide a player's name and reactions for the rest of the match (or show them)."""
        return answer(await rooms.act(code, pid, hide(body.seat, body.hidden)))

    @app.post("/api/public/{code}/leave", responses=ROOM_RESPONSES, tags=tags)
    async def leave(code: str, pid: PlayerId) -> Response:
        """Leave for good: a computer takes the seat and the match counts as last
        place (a queued newcomer just leaves the queue)."""
        return answer(await _leave(rooms, code, pid))

    _leaderboard_routes(app, rooms, tags)


def _leaderboard_routes(app: FastAPI, rooms: Rooms, tags: list[str | Enum]) -> None:
    """The leaderboard: read it, keep oneself off it (docs/api.md "Public tables")."""

    @app.get("/api/leaderboard", responses=ERROR_RESPONSES, tags=tags)
    async def leaderboard(pid: PlayerId) -> Response:
        """This week's and all-time top 50 by mu - 3 sigma, and the player's own place."""

        def read() -> dict[str, Any]:
            with rooms.store.read() as conn:
                return rating.leaderboard(conn, pid)

        board = await anyio.to_thread.run_sync(read)
        # ``me`` is this player's own place: never kept by a cache on the way
        return Response(
            json.dumps(board, ensure_ascii=False), media_type="application/json", headers=NO_STORE
        )

    @app.put("/api/leaderboard/me", responses=ERROR_RESPONSES, tags=tags)
    async def keep_off(body: BoardBody, pid: PlayerId) -> Response:
        """Keep myself off the leaderboard (or back on it); the board after it."""

        def write() -> dict[str, Any]:
            with rooms.store.write() as conn:
                rating.keep_off(conn, pid, body.hidden)
            with rooms.store.read() as conn:
                return rating.leaderboard(conn, pid)

        board = await anyio.to_thread.run_sync(write)
        return Response(
            json.dumps(board, ensure_ascii=False), media_type="application/json", headers=NO_STORE
        )


class _NotThere(Exception):
    """The player is not at the table (any more): a leave has nothing to change."""


async def _leave(rooms: Rooms, code: str, pid: int) -> str:
    """Leave the public table ``code`` (seated or queued), at its latest version under
    its row's lock: others changing the table never make it fail.  A player no longer
    there (their queue emptied by the table's end, a leave sent twice) has left
    already: the Room as a non-member, nothing changed (issue 57 item 5)."""

    def leave(room: Room, seat: int | None) -> None:
        public = room.public
        if public is None:
            raise ApiError("bad_request")
        if seat is not None:
            rooms.leave_seat(room, seat)
            return
        queue = public.get("queue", [])
        if not any(q["player_id"] == pid for q in queue):
            raise _NotThere()
        public["queue"] = [q for q in queue if q["player_id"] != pid]

    try:
        return await rooms.act(code, pid, leave)
    except _NotThere:
        room = await anyio.to_thread.run_sync(rooms.current, code)
        if room.public is None:
            raise ApiError("bad_request") from None
        return room_text(room, None)
