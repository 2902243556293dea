"""The page's files go gzipped to a browser that takes gzip (issue 10, item 12: the
page stays light on a slow phone link): the page itself and everything under
``/static``. Only these: no secret is ever in them, so compression cannot leak any
part of an API answer (BREACH); the API answers are never compressed."""

from __future__ import annotations

import gzip
import hashlib

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp

MINIMUM_SIZE = 1024  # bytes: smaller files gain less than gzip's header costs


def gzip_static(app: ASGIApp) -> ASGIApp:
    """A static files app whose answers are gzipped when the browser accepts it."""
    return GZipMiddleware(app, minimum_size=MINIMUM_SIZE)


class Page:
    """The page's HTML, gzipped once, sent as the browser accepts."""

    def __init__(self, html: str) -> None:
        self.html = html
        self.gzipped = gzip.compress(html.encode(), mtime=0)
        # a revalidation (the service worker's first fill, a reload) costs a 304
        self.etag = '"' + hashlib.sha256(html.encode()).hexdigest()[:16] + '"'

    def response(self, request: Request, headers: dict[str, str]) -> Response:
        vary = {**headers, "Vary": "Accept-Encoding", "ETag": self.etag}
        if self.etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=vary)
        if "gzip" in request.headers.get("accept-encoding", "").lower():
            return Response(
                self.gzipped,
                media_type="text/html; charset=utf-8",
                headers={**vary, "Content-Encoding": "gzip"},
            )
        return HTMLResponse(self.html, headers=vary)
