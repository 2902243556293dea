"""The page's files go gzipped to a browser that takes gzip (issue 10, item 12: the
page stays light on a slow phone link): the page itself and everything under
``/static``. Only these: no secret is ever in them, so compression cannot leak any
part of an API answer (BREACH); the API answers are never compressed."""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Callable
from html import escape
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp

MINIMUM_SIZE = 1024  # bytes: smaller files gain less than gzip's header costs
#: index.html's place for a first deal's ticket, filled in as the page is served
FIRST_DEAL = '<meta name="hearts-first-deal" content="">'


#: index.html's place for the rule facts (GET /api/rules), filled in once at start
RULES = '<meta name="hearts-rules" content="">'


def with_rules(html: str, facts: dict[str, Any]) -> str:
    """``html`` with the rule facts (JSON) in its ``<meta name="hearts-rules">`` (the
    same in every answer, so the page's ETag stays one a release). i18n.js reads them
    there rather than asking GET /api/rules: one request fewer before the first card
    (bench/page_results.md)."""
    data = escape(json.dumps(facts, ensure_ascii=False, separators=(",", ":")))
    return html.replace(RULES, RULES[:-2] + data + '">', 1)


def gzip_static(app: ASGIApp) -> ASGIApp:
    """A static files app whose answers are gzipped when the browser accepts it."""
    return GZipMiddleware(app, minimum_size=MINIMUM_SIZE)


class Page:
    """The page's HTML, sent gzipped as the browser accepts; with ``fill``, the
    contents of its ``<meta name="hearts-first-deal">`` made fresh for each answer
    (a first deal's ticket and commitment, solo/first_deal.py: no secret)."""

    def __init__(self, html: str, fill: Callable[[], str] | None = None) -> None:
        self.html = html
        self.fill = fill if FIRST_DEAL in html else None
        self.gzipped = gzip.compress(html.encode(), mtime=0)
        # A revalidation (the service worker's first fill, a reload) costs a 304; weak:
        # the first-deal ticket differs. A page kept so has a stale ticket, which the
        # page notices by its refusal (it then asks for a commitment: docs/fairness.md).
        self.etag = 'W/"' + hashlib.sha256(html.encode()).hexdigest()[:16] + '"'

    def response(self, request: Request, headers: dict[str, str]) -> Response:
        vary = {**headers, "Vary": "Accept-Encoding", "ETag": self.etag}
        if self.etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=vary)
        html = self.html
        if self.fill is not None:
            html = html.replace(FIRST_DEAL, FIRST_DEAL[:-2] + escape(self.fill()) + '">', 1)
        if "gzip" in request.headers.get("accept-encoding", "").lower():
            fresh = self.fill is not None  # this answer's own page: compressed now
            return Response(
                gzip.compress(html.encode(), compresslevel=6, mtime=0) if fresh else self.gzipped,
                media_type="text/html; charset=utf-8",
                headers={**vary, "Content-Encoding": "gzip"},
            )
        return HTMLResponse(html, headers=vary)
