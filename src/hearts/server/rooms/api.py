"""The Rooms routes of docs/api.md: REST calls, the long-poll and the WebSocket."""

import asyncio
import contextlib
import json
import logging
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationError

from hearts.rules import Rules
from hearts.server.config import Config
from hearts.server.i18n.messages import error_message, error_status
from hearts.server.players.identity import PlayerId, Players
from hearts.server.rooms.caps import CLOSE_CODE, Held, PollCaps, SocketCaps
from hearts.server.rooms.live import Live, Watcher
from hearts.server.rooms.service import RoomError, Rooms
from hearts.server.store import outage
from hearts.server.table import actions
from hearts.server.table.game import GameError, client_seed_from_api, rules_from_api
from hearts.server.web.errors import ApiError
from hearts.server.web.middleware import BODY_LIMIT
from hearts.server.web.ratelimit import RateLimited, TokenBuckets, request_address
from hearts.server.web.schema import (
    ERROR_RESPONSES,
    MAX_VERSION,
    PLAY_RESPONSES,
    ClientSeed,
    ErrorBody,
    MoonBody,
    PassBody,
    PlayBody,
    Version,
)
from hearts.server.web.security import HEADERS, NO_STORE

log = logging.getLogger("hearts.server")

#: How long the long-poll holds a call with no change.
POLL_SECONDS = 25.0
#: How long a new socket may take to send its token.
HELLO_SECONDS = 10.0
#: A Room is sent as service.py made its JSON text (no response model to check it again).
ROOM_RESPONSES: dict[int | str, dict[str, Any]] = {
    **ERROR_RESPONSES,
    200: {"description": "the Room as this token sees it (docs/api.md, Rooms)"},
}
POLL_RESPONSES: dict[int | str, dict[str, Any]] = {
    **ROOM_RESPONSES,
    429: {"model": ErrorBody, "description": "too many long polls from one address"},
}


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _name(description: str) -> Any:
    """A display name: any JSON here, so that the rooms answer ``bad_name`` (not
    ``bad_request``) for one that is not a string; the schema says what is valid."""
    return Field(None, description=description, json_schema_extra={"type": ["string", "null"]})


class NewRoomBody(_Body):
    rules: Any = Field(None, description="as POST /api/new-match")
    level: StrictStr = "medium"
    turn_seconds: int | None = Field(30, description="10-600, or null: không giới hạn")
    name: Any = _name("the creator's display name (1-20 characters)")


class JoinBody(_Body):
    name: Any = _name("a display name (1-20 characters)")
    client_seed: ClientSeed = None


class RoomVersionBody(_Body):
    version: Version


class RoomDealBody(RoomVersionBody):
    client_seed: ClientSeed = None


class SeedBody(_Body):
    client_seed: ClientSeed = None
    commitment: StrictStr | None = Field(
        None, description="the next_commitment read before the seed was drawn (optional)"
    )


def _seed(rooms: Rooms, code: str, pid: int, body: SeedBody) -> Awaitable[str]:
    """A seat's seed for the room's next deal (required here: it is the whole call)."""
    seed = client_seed_from_api(body.client_seed)
    if seed is None:
        raise GameError("bad_client_seed")
    return rooms.seed(code, pid, seed, body.commitment)


class RemoveBody(RoomVersionBody):
    seat: StrictStr = Field(description="the guest's seat as the creator sees it")


@dataclass(frozen=True)
class SeatAction:
    """A seat's action, the same over REST (``POST /api/rooms/{code}/<name>``) and over
    the room's WebSocket (``{"type": <name>, ...}``): its body and its call of service.py."""

    body: type[BaseModel]
    run: Callable[[Rooms, str, int, Any], Awaitable[str]]


@dataclass(frozen=True)
class SocketAction:
    """A message of a room's socket beyond the seat's game actions, added by another
    part of the server (public/: a reaction): its body, and its call with the
    socket's address (its limits count per address too)."""

    body: type[BaseModel]
    run: Callable[[str, int, Any, str], Awaitable[str]]


SEAT_ACTIONS: dict[str, SeatAction] = {
    "pass": SeatAction(
        PassBody,
        lambda rooms, code, pid, b: rooms.human(code, pid, b.version, actions.Pass(b.cards)),
    ),
    "play": SeatAction(
        PlayBody,
        lambda rooms, code, pid, b: rooms.human(code, pid, b.version, actions.Play(b.card)),
    ),
    "moon": SeatAction(
        MoonBody,
        lambda rooms, code, pid, b: rooms.human(code, pid, b.version, actions.Moon(b.choice)),
    ),
    "next-hand": SeatAction(
        RoomDealBody,
        lambda rooms, code, pid, b: rooms.human(
            code, pid, b.version, actions.NextHand(client_seed_from_api(b.client_seed))
        ),
    ),
    "seed": SeatAction(SeedBody, _seed),
}
#: The longest message a room's socket takes (as a REST body; uvicorn's ws_max_size).
MESSAGE_LIMIT = BODY_LIMIT


def install(
    app: FastAPI, players: Players, table: Rules, rooms: Rooms, live: Live, config: Config
) -> None:
    """The rooms' routes on ``app``; a room that names no rules plays at ``table``, the
    server's."""
    joins = TokenBuckets(config.new_player_burst, config.new_player_interval)

    def limit(request: Request) -> None:
        """Joining (and making rooms) is limited per address, like new tokens."""
        wait = joins.take(request_address(request))
        if wait > 0:
            raise RateLimited(wait, "join_limited")

    app.exception_handler(RoomError)(_stale)
    tags: list[str | Enum] = ["rooms"]

    @app.post("/api/rooms", responses=ROOM_RESPONSES, tags=tags, dependencies=[Depends(limit)])
    async def new_room(body: NewRoomBody, pid: PlayerId) -> Response:
        """A room at these rules; the creator sits at seat 0."""
        rules = rules_from_api(body.rules, table)
        room = await rooms.create(pid, rules, body.level, body.turn_seconds, body.name)
        return answer(room)

    @app.get("/api/rooms/{code}", responses=ROOM_RESPONSES, tags=tags)
    async def get_room(code: str, pid: PlayerId) -> Response:
        """The Room as this token sees it."""
        return answer(await rooms.look(code, pid))

    limited = [Depends(limit)]

    @app.post("/api/rooms/{code}/join", responses=ROOM_RESPONSES, tags=tags, dependencies=limited)
    async def join(code: str, body: JoinBody, pid: PlayerId) -> Response:
        """Sit at the next free seat of the room's lobby."""
        seed = client_seed_from_api(body.client_seed)
        return answer(await rooms.join(code, pid, body.name, seed))

    @app.post("/api/rooms/{code}/start", responses=ROOM_RESPONSES, tags=tags)
    async def start(code: str, body: RoomDealBody, pid: PlayerId) -> Response:
        """The creator starts the match; computers take the empty seats."""
        seed = client_seed_from_api(body.client_seed)
        return answer(await rooms.start(code, pid, body.version, seed))

    @app.post("/api/rooms/{code}/remove", responses=ROOM_RESPONSES, tags=tags)
    async def remove(code: str, body: RemoveBody, pid: PlayerId) -> Response:
        """The creator removes a guest from the lobby."""
        return answer(await rooms.remove(code, pid, body.version, body.seat))

    @app.post("/api/rooms/{code}/leave", responses=ROOM_RESPONSES, tags=tags)
    async def leave(code: str, body: RoomVersionBody, pid: PlayerId) -> Response:
        """Leave for good: a computer takes the seat (in the lobby it is freed)."""
        return answer(await rooms.leave(code, pid, body.version))

    _install_seat_actions(app, rooms, tags)

    polls = app.state.poll_caps = PollCaps()

    @app.get("/api/rooms/{code}/events", responses=POLL_RESPONSES, tags=tags)
    async def events(
        code: str,
        pid: PlayerId,
        request: Request,
        after: Annotated[int, Query(ge=-1, le=MAX_VERSION)] = -1,
    ) -> Response:
        """Long-poll: the Room once its version is past ``after`` (or after ~25 s);
        a member's only (403 ``not_in_room``), capped per token and per address."""
        await rooms.follows(code, pid)
        poll = polls.take(pid, request_address(request))
        gone = asyncio.ensure_future(_hung_up(request))
        gone.add_done_callback(lambda _gone: poll.answer_now())
        try:
            return answer(await live.wait(code, pid, after, POLL_SECONDS, poll.now))
        finally:
            gone.cancel()
            polls.give_back(poll)

    _install_socket(app, players, rooms, live)


def _install_seat_actions(app: FastAPI, rooms: Rooms, tags: list[str | Enum]) -> None:
    """The seat's actions over REST (SEAT_ACTIONS: also the socket's messages)."""

    @app.post("/api/rooms/{code}/pass", responses=ROOM_RESPONSES, tags=tags)
    async def pass_cards(code: str, body: PassBody, pid: PlayerId) -> Response:
        return answer(await SEAT_ACTIONS["pass"].run(rooms, code, pid, body))

    @app.post("/api/rooms/{code}/play", responses=ROOM_RESPONSES | PLAY_RESPONSES, tags=tags)
    async def play(code: str, body: PlayBody, pid: PlayerId) -> Response:
        return answer(await SEAT_ACTIONS["play"].run(rooms, code, pid, body))

    @app.post("/api/rooms/{code}/moon", responses=ROOM_RESPONSES, tags=tags)
    async def moon(code: str, body: MoonBody, pid: PlayerId) -> Response:
        return answer(await SEAT_ACTIONS["moon"].run(rooms, code, pid, body))

    @app.post("/api/rooms/{code}/next-hand", responses=ROOM_RESPONSES, tags=tags)
    async def next_hand(code: str, body: RoomDealBody, pid: PlayerId) -> Response:
        return answer(await SEAT_ACTIONS["next-hand"].run(rooms, code, pid, body))

    @app.post("/api/rooms/{code}/seed", responses=ROOM_RESPONSES, tags=tags)
    async def seed(code: str, body: SeedBody, pid: PlayerId) -> Response:
        """This seat's seed for the room's next deal (docs/fairness.md)."""
        return answer(await SEAT_ACTIONS["seed"].run(rooms, code, pid, body))


async def _hung_up(request: Request) -> None:
    """Return once the client has closed the connection (a page that gave up its poll:
    nothing would hold it until its timeout, nor a stop of the server)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def _install_socket(app: FastAPI, players: Players, rooms: Rooms, live: Live) -> None:
    """A room's WebSocket: the seat's actions in, the Room pushed out after each change."""
    caps = app.state.socket_caps = SocketCaps()
    #: more messages the socket takes (public/api.py adds "react")
    more: dict[str, SocketAction] = {}
    app.state.socket_actions = more

    @app.websocket("/api/rooms/{code}/ws")
    async def socket(websocket: WebSocket, code: str) -> None:
        await websocket.accept()
        held: list[Held] = []
        try:
            pid = await _hello(websocket, players, rooms, code, caps, held)
            if pid is None:
                return
            watcher = Watcher(websocket, pid)
            address = request_address(websocket)
            try:
                await live.connect(code, watcher)
                while True:
                    text = await _receive(websocket)
                    reply, shown = await _on_message(rooms, code, pid, text, (address, more))
                    await live.reply(watcher, reply, shown)
            except WebSocketDisconnect:
                pass
            finally:
                await live.disconnect(code, watcher)
        except sa.exc.SQLAlchemyError as exc:
            if not outage.unavailable(exc):
                raise
            outage.warn(log, f"room {code}: a socket", exc)  # its hello, its presence
            await _refuse(websocket, "unavailable", None)
        finally:
            caps.give_back(held)


async def _hello(
    websocket: WebSocket,
    players: Players,
    rooms: Rooms,
    code: str,
    caps: SocketCaps,
    held: list[Held],
) -> int | None:
    """The player of a new socket, counted in ``caps`` (its address from the start,
    its token and room once known); None when the socket was refused and closed."""
    try:
        caps.take("address", request_address(websocket), held)
        first = await asyncio.wait_for(_receive(websocket), HELLO_SECONDS)
        if first is None:
            raise ValueError("a binary frame")  # not JSON: 4400, as bad JSON
        hello = json.loads(first)
        token = hello.get("token") if isinstance(hello, dict) else None
        if not isinstance(token, str) or not token or len(token) > 256:
            raise ApiError("bad_token")
        pid = await players.player_id(token)
        await rooms.follows(code, pid)  # room_not_found, not_in_room before anything is kept
        caps.take("token", pid, held)
        caps.take("room", code, held)
    except ApiError as refused:
        await _refuse(websocket, refused.code, refused.message)
        return None
    except (TimeoutError, ValueError, RecursionError, WebSocketDisconnect):
        # RecursionError: JSON nested deeper than the parser goes, bad JSON too
        await _refuse(websocket, "bad_request", None)
        return None
    return pid


async def _receive(websocket: WebSocket) -> str | None:
    """The next message's text; None for a binary frame (no JSON object either:
    Starlette's receive_text would fail on it and drop the socket)."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if isinstance(text, str) else None


async def _on_message(
    rooms: Rooms,
    code: str,
    pid: int,
    text: str | None,
    extra: tuple[str, dict[str, SocketAction]] = ("", {}),
) -> tuple[str, str | None]:
    """The answer to one message of a seat's socket (and the Room text it carries:
    that version's push need not send it again); ``extra``: the socket's address and
    the messages other parts of the server added."""
    size = len(text) if text is not None else 0
    try:
        message = json.loads(text) if text is not None and size <= MESSAGE_LIMIT else None
    except (ValueError, RecursionError):  # not JSON, or nested deeper than the parser goes
        message = None
    if not isinstance(message, dict):
        what = "too_large" if size > MESSAGE_LIMIT else "bad_request"
        return _dumps({"type": "error", "error": _error(what)}), None
    kind = message.get("type")
    if kind == "ping":
        return '{"type": "pong"}', None
    ask = message.get("id")
    known = ask is None or isinstance(ask, int) or (isinstance(ask, str) and len(ask) <= 64)
    if not known:
        ask = None  # not echoed back
    address, more = extra
    action = SEAT_ACTIONS.get(kind) if isinstance(kind, str) else None
    added = more.get(kind) if isinstance(kind, str) else None
    refused: dict[str, Any]
    try:
        shape = action.body if action is not None else added.body if added is not None else None
        if shape is None or not known:
            raise ApiError("bad_request")
        fields = {k: v for k, v in message.items() if k not in ("type", "id")}
        try:
            body = shape.model_validate(fields)
        except ValidationError:
            raise ApiError("bad_request") from None
        if action is not None:
            room = await action.run(rooms, code, pid, body)
        else:
            assert added is not None
            room = await added.run(code, pid, body, address)
    except RoomError as exc:
        refused = {"error": {"code": exc.code, "message": exc.message}, "room": exc.room}
    except (ApiError, GameError) as exc:
        refused = {"error": {"code": exc.code, "message": exc.message}}
    except RateLimited as exc:
        refused = {"error": _error(exc.code), "retry_after": max(1, math.ceil(exc.retry_after))}
    except Exception as exc:
        if not outage.unavailable(exc):
            log.exception("room %s: a socket's action failed", code)
            refused = {"error": _error("internal")}
        else:
            outage.warn(log, f"room {code}: a socket's action", exc)
            refused = {"error": _error("unavailable")}
    else:
        head = _dumps({"type": "answer", "id": ask, "status": 200})
        return f"{head[:-1]}, {_ROOM_KEY}{room}}}", room
    status = error_status(refused["error"]["code"])
    return _dumps({"type": "answer", "id": ask, "status": status, **refused}), None


async def _stale(_request: Request, exc: RoomError) -> JSONResponse:
    body = {"error": {"code": exc.code, "message": exc.message}, "room": exc.room}
    headers = {**NO_STORE, **HEADERS}
    return JSONResponse(body, status_code=error_status(exc.code), headers=headers)


def answer(room: str) -> Response:
    """A Room, as service.py made its JSON (shared with the pushes of its version)."""
    return Response(room, media_type="application/json", headers=NO_STORE)


_ROOM_KEY = '"room": '


def _dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False)


def _error(code: str) -> dict[str, str]:
    return {"code": code, "message": error_message(code)}


async def _refuse(websocket: WebSocket, code: str, message: str | None) -> None:
    body = {"error": {"code": code, "message": message or error_message(code)}}
    close = {
        "bad_token": 4403,
        "not_in_room": 4403,
        "room_not_found": 4404,
        "too_many_sockets": CLOSE_CODE,
        "unavailable": 1013,  # try again later
    }
    close_code = close.get(code, 4400)
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps({"type": "error", **body}, ensure_ascii=False))
        await websocket.close(close_code)
