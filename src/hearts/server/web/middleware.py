"""ASGI middleware of the web game."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hearts.server.web.errors import error_response

#: The largest request body, and a room socket's largest message (uvicorn's
#: ws_max_size, web/connections.py): 16 KiB.
BODY_LIMIT = 16 * 1024


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, before the app reads them."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None:
            try:
                too_large = int(length) > self.limit
            except ValueError:
                await error_response("bad_request")(scope, receive, send)
                return
            if too_large:
                await error_response("too_large")(scope, receive, send)
                return
            await self.app(scope, receive, send)
            return
        # No length given (chunked): read at most ``limit`` bytes, then replay them.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await error_response("too_large")(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class HeadAsGet:
    """HEAD is GET without the body, on every route that answers GET (the routes
    themselves are declared for GET only)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_headers_only)
