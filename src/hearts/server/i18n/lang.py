"""The language of the words the server writes for a player (docs/api.md, Language).

Vietnamese for every caller that says nothing; English when the request carries
``X-Hearts-Lang: en`` (the page sends it when its player chose English), or, for a
WebSocket, which a browser cannot give headers, ``?lang=en`` on its address. The
choice lives in a context variable for the request: the texts' makers (messages,
seat names, hints, achievements, rooms) read :func:`current`, and
``anyio.to_thread.run_sync`` carries it into the database threads.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Literal
from urllib.parse import parse_qs

from starlette.types import ASGIApp, Receive, Scope, Send

Lang = Literal["vi", "en"]
HEADER = b"x-hearts-lang"

_current: ContextVar[Lang] = ContextVar("hearts_lang", default="vi")


def choose(value: str | None) -> Lang:
    """``en`` for a value that names English (``en``, ``en-GB``), else ``vi``."""
    return "en" if value and value.strip().lower()[:2] == "en" else "vi"


def current() -> Lang:
    return _current.get()


def english() -> bool:
    return _current.get() == "en"


@contextmanager
def using(lang: Lang) -> Iterator[None]:
    """Write in ``lang`` inside the block (a worker process, a test)."""
    token = _current.set(lang)
    try:
        yield
    finally:
        _current.reset(token)


def of_scope(scope: Scope) -> Lang:
    """The language an HTTP request or a WebSocket asks for."""
    value = dict(scope.get("headers") or []).get(HEADER)
    if value is not None:
        return choose(value.decode("latin-1"))
    query = parse_qs((scope.get("query_string") or b"").decode("latin-1"))
    return choose((query.get("lang") or [None])[0])


class Language:
    """ASGI middleware: the request's language for everything under it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        with using(of_scope(scope)):
            await self.app(scope, receive, send)
