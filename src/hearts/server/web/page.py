"""The page: ``/`` and a room's invite link serve ``index.html``, and the static
files go under versioned URLs: an upgrade changes the version, so a browser never
runs a cached script of the release before; an unknown version is 404."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import Response

from hearts.server.web import pwa
from hearts.server.web.catalogue import FACTS
from hearts.server.web.compress import Page, gzip_static, with_rules
from hearts.server.web.errors import error_response
from hearts.server.web.security import (
    IMMUTABLE,
    CachedStaticFiles,
    static_version,
    versioned_page,
)


def install(app: FastAPI, static_dir: Path, first_deal: Callable[[], str] | None = None) -> None:
    """The page's routes on ``app``, its files from ``static_dir``; ``first_deal``
    fills the page's first-deal ticket in each answer (solo/first_deal.py)."""
    version = static_version(static_dir)
    page_file = static_dir / "index.html"
    page = None
    if page_file.is_file():
        html = with_rules(versioned_page(page_file.read_text(), version), FACTS)
        page = Page(html, first_deal)

    @app.get("/", include_in_schema=False)
    async def index(request: Request) -> Response:
        if page is None:
            return error_response("not_found", "Trang chưa sẵn sàng")
        return page.response(request, {"Cache-Control": "no-cache"})

    @app.get("/r/{code}", include_in_schema=False)
    async def room_page(code: str, request: Request) -> Response:
        """A room's invite link: the same page, which reads the code from its path."""
        return await index(request)

    @app.get("/t/{code}", include_in_schema=False)
    async def transfer_page(code: str, request: Request) -> Response:
        """A transfer's link (players/transfer.py): the page, which claims the code only
        when the player says so (a link preview fetching it changes nothing)."""
        return await index(request)

    pwa.install(app, static_dir, version)

    immutable = CachedStaticFiles(directory=static_dir, cache_control=IMMUTABLE)
    app.mount(f"/static/v/{version}", gzip_static(immutable), name="static-versioned")
    plain = CachedStaticFiles(directory=static_dir, cache_control="no-cache")
    app.mount("/static", gzip_static(plain), name="static")
