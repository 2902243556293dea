"""The Rooms routes of docs/api.md: REST calls, the long-poll and the WebSocket."""

import asyncio
import contextlib
import json
from enum import Enum
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from hearts.server.config import Config
from hearts.server.errors import ApiError, bearer_token
from hearts.server.game import rules_from_api
from hearts.server.live import Live, Watcher
from hearts.server.messages import error_message, error_status
from hearts.server.ratelimit import RateLimited, TokenBuckets, client_address
from hearts.server.rooms import RoomError, Rooms
from hearts.server.schema import ERROR_RESPONSES, MoonBody, PassBody, PlayBody, Version
from hearts.server.security import HEADERS
from hearts.server.tables import Tables

#: How long the long-poll holds a call with no change.
POLL_SECONDS = 25.0
#: How long a new socket may take to send its token.
HELLO_SECONDS = 10.0
NO_STORE = {"Cache-Control": "no-store"}
#: A Room is sent as rooms.py made its JSON text (no response model to check it again).
ROOM_RESPONSES: dict[int | str, dict[str, Any]] = {
    **ERROR_RESPONSES,
    200: {"description": "the Room as this token sees it (docs/api.md, Rooms)"},
}


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewRoomBody(_Body):
    rules: Any = Field(None, description="as POST /api/new-match")
    level: StrictStr = "medium"
    turn_seconds: int | None = Field(30, description="10-600, or null: không giới hạn")
    name: Any = Field(None, description="the creator's display name (1-20 characters)")


class JoinBody(_Body):
    name: Any = Field(None, description="a display name (1-20 characters)")


class RoomVersionBody(_Body):
    version: Version


class RemoveBody(RoomVersionBody):
    seat: StrictStr = Field(description="the guest's seat as the creator sees it")


def install(app: FastAPI, tables: Tables, rooms: Rooms, live: Live, config: Config) -> None:
    """The rooms' routes on ``app``."""
    joins = TokenBuckets(config.new_player_burst, config.new_player_interval)

    async def player(request: Request) -> int:
        return await tables.player_id(bearer_token(request))

    def limit(request: Request) -> None:
        """Joining (and making rooms) is limited per address, like new tokens."""
        peer = request.client.host if request.client else None
        forwarded = request.headers.getlist("x-forwarded-for")
        address = client_address(peer, forwarded, config.trusted_proxy)
        wait = joins.take(address)
        if wait > 0:
            raise RateLimited(wait, "join_limited")

    Player = Annotated[int, Depends(player)]

    @app.exception_handler(RoomError)
    async def _stale(_request: Request, exc: RoomError) -> JSONResponse:
        body = {"error": {"code": exc.code, "message": exc.message}, "room": exc.room}
        headers = {"Cache-Control": "no-store", **HEADERS}
        return JSONResponse(body, status_code=error_status(exc.code), headers=headers)

    def answer(room: str) -> Response:
        """A Room, as rooms.py made its JSON (shared with the pushes of its version)."""
        return Response(room, media_type="application/json", headers=NO_STORE)

    tags: list[str | Enum] = ["rooms"]

    @app.post("/api/rooms", responses=ROOM_RESPONSES, tags=tags, dependencies=[Depends(limit)])
    async def new_room(body: NewRoomBody, pid: Player) -> Response:
        """A room at these rules; the creator sits at seat 0."""
        rules = rules_from_api(body.rules, tables.rules)
        room = await rooms.create(pid, rules, body.level, body.turn_seconds, body.name)
        return answer(room)

    @app.get("/api/rooms/{code}", responses=ROOM_RESPONSES, tags=tags)
    async def get_room(code: str, pid: Player) -> Response:
        """The Room as this token sees it."""
        return answer(await rooms.look(code, pid))

    limited = [Depends(limit)]

    @app.post("/api/rooms/{code}/join", responses=ROOM_RESPONSES, tags=tags, dependencies=limited)
    async def join(code: str, body: JoinBody, pid: Player) -> Response:
        """Sit at the next free seat of the room's lobby."""
        return answer(await rooms.join(code, pid, body.name))

    @app.post("/api/rooms/{code}/start", responses=ROOM_RESPONSES, tags=tags)
    async def start(code: str, body: RoomVersionBody, pid: Player) -> Response:
        """The creator starts the match; computers take the empty seats."""
        return answer(await rooms.start(code, pid, body.version))

    @app.post("/api/rooms/{code}/remove", responses=ROOM_RESPONSES, tags=tags)
    async def remove(code: str, body: RemoveBody, pid: Player) -> Response:
        """The creator removes a guest from the lobby."""
        return answer(await rooms.remove(code, pid, body.version, body.seat))

    @app.post("/api/rooms/{code}/leave", responses=ROOM_RESPONSES, tags=tags)
    async def leave(code: str, body: RoomVersionBody, pid: Player) -> Response:
        """Leave for good: a computer takes the seat (in the lobby it is freed)."""
        return answer(await rooms.leave(code, pid, body.version))

    @app.post("/api/rooms/{code}/pass", responses=ROOM_RESPONSES, tags=tags)
    async def pass_cards(code: str, body: PassBody, pid: Player) -> Response:
        return answer(await rooms.pass_cards(code, pid, body.version, body.cards))

    @app.post("/api/rooms/{code}/play", responses=ROOM_RESPONSES, tags=tags)
    async def play(code: str, body: PlayBody, pid: Player) -> Response:
        return answer(await rooms.play(code, pid, body.version, body.card))

    @app.post("/api/rooms/{code}/moon", responses=ROOM_RESPONSES, tags=tags)
    async def moon(code: str, body: MoonBody, pid: Player) -> Response:
        return answer(await rooms.moon(code, pid, body.version, body.choice))

    @app.post("/api/rooms/{code}/next-hand", responses=ROOM_RESPONSES, tags=tags)
    async def next_hand(code: str, body: RoomVersionBody, pid: Player) -> Response:
        return answer(await rooms.next_hand(code, pid, body.version))

    @app.get("/api/rooms/{code}/events", responses=ROOM_RESPONSES, tags=tags)
    async def events(code: str, pid: Player, after: Annotated[int, Query(ge=-1)] = -1) -> Response:
        """Long-poll: the Room once its version is past ``after`` (or after ~25 s)."""
        return answer(await live.wait(code, pid, after, POLL_SECONDS))

    @app.websocket("/api/rooms/{code}/ws")
    async def socket(websocket: WebSocket, code: str) -> None:
        await websocket.accept()
        try:
            hello = json.loads(await asyncio.wait_for(websocket.receive_text(), HELLO_SECONDS))
            token = hello.get("token") if isinstance(hello, dict) else None
            if not isinstance(token, str) or not token or len(token) > 256:
                raise ApiError("bad_token")
            pid = await tables.player_id(token)
            await rooms.look(code, pid)  # room_not_found before anything is kept
        except ApiError as refused:
            await _refuse(websocket, refused.code, refused.message)
            return
        except (TimeoutError, ValueError, WebSocketDisconnect):
            await _refuse(websocket, "bad_request", None)
            return
        watcher = Watcher(websocket, pid)
        await live.connect(code, watcher)
        try:
            while True:
                text = await websocket.receive_text()
                with contextlib.suppress(ValueError):
                    if json.loads(text) == {"type": "ping"}:
                        await websocket.send_text('{"type": "pong"}')
        except WebSocketDisconnect:
            pass
        finally:
            await live.disconnect(code, watcher)


async def _refuse(websocket: WebSocket, code: str, message: str | None) -> None:
    body = {"error": {"code": code, "message": message or error_message(code)}}
    close = {"bad_token": 4403, "room_not_found": 4404}.get(code, 4400)
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps({"type": "error", **body}, ensure_ascii=False))
        await websocket.close(close)
