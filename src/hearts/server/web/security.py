"""What the browser is told to forbid, on every response, and the static files under
versioned URLs so that an upgrade never runs a stale script."""

from __future__ import annotations

import base64
import hashlib
import os
import re
from pathlib import Path

import anyio.to_thread
from starlette.datastructures import MutableHeaders
from starlette.responses import FileResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

PAGE = Path(__file__).resolve().parents[1] / "static" / "index.html"
INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


def inline_script_hashes(page: str) -> list[str]:
    """The CSP sources (``'sha256-…'``) of ``page``'s inline scripts: these run,
    any other inline script (an injected one) does not."""
    return [
        "'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"
        for body in INLINE_SCRIPT.findall(page)
    ]


# The page loads its script, styles and data from this server alone, runs no inline
# script but index.html's own (by its hash: it asks for the first State before any
# file arrives, bench/page_results.md) and no inline style, and may not be framed
# (clickjacking).
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        " ".join(
            ["script-src 'self'", *inline_script_hashes(PAGE.read_text() if PAGE.is_file() else "")]
        ),
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'self'",
    ]
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",  # for browsers without frame-ancestors
}
#: The header of an answer no cache may keep (States, Rooms, records, tokens, errors).
NO_STORE = {"Cache-Control": "no-store"}
IMMUTABLE = "public, max-age=31536000, immutable"
#: bytes of a static file sent from memory (the page's are all far smaller): an answer
#: its client is slow to read then holds no open file, which the file reserve does not
#: count (connections.py)
IN_MEMORY = 1024 * 1024


class SecurityHeaders:
    """Put :data:`HEADERS` on every HTTP response (API, page, static files, errors)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


def static_version(directory: Path) -> str:
    """A short hash of every static file's path and contents."""
    digest = hashlib.sha256()
    if directory.is_dir():
        for path in sorted(p for p in directory.rglob("*") if p.is_file()):
            digest.update(path.relative_to(directory).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def versioned_page(page: str, version: str) -> str:
    """``index.html`` with its ``/static/...`` links under ``/static/v/<version>/``; the
    scripts' relative imports then stay under the same prefix."""
    return re.sub(r'(\b(?:src|href)=")/static/', rf"\1/static/v/{version}/", page)


class CachedStaticFiles(StaticFiles):
    """Static files with one ``Cache-Control`` for all: ``immutable`` under a
    versioned URL, ``no-cache`` (revalidate) under the plain one."""

    def __init__(self, *, directory: Path, cache_control: str) -> None:
        super().__init__(directory=directory, check_dir=False)
        self.cache_control = cache_control
        #: each file's contents, by path, with the size and time they were read at
        self.bodies: dict[str, tuple[tuple[int, int], bytes]] = {}

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if not isinstance(response, FileResponse) or response.stat_result is None:
            return response
        stat = response.stat_result
        if stat.st_size > IN_MEMORY:
            return response
        body = await anyio.to_thread.run_sync(self._body, str(response.path), stat)
        # The file's own headers (type, ETag, Last-Modified); no ranges from memory.
        dropped = ("accept-ranges", "content-length")
        headers = {k: v for k, v in response.headers.items() if k not in dropped}
        return Response(body, status_code=response.status_code, headers=headers)

    def _body(self, path: str, stat: os.stat_result) -> bytes:
        key = (stat.st_size, stat.st_mtime_ns)
        kept = self.bodies.get(path)
        if kept is None or kept[0] != key:
            kept = self.bodies[path] = (key, Path(path).read_bytes())
        return kept[1]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_cached(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in (200, 304):
                MutableHeaders(scope=message)["Cache-Control"] = self.cache_control
            await send(message)

        await super().__call__(scope, receive, send_cached)
