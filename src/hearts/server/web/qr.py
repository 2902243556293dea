"""``GET /api/qr.svg?link=…``: a QR code of one of this page's own links (a room's
invite ``/r/<code>``, a transfer ``/t/<code>``), drawn as SVG by ``segno`` on the
server, so a friend at the same table opens it with a phone's camera.

Only links to this server's page are drawn (the host the request was sent to, a
path of one of those two shapes, no query): the route is not a QR code service for
any text.  The answer is ``no-store``: a transfer link is a secret.
"""

from __future__ import annotations

import io
import re
from typing import Annotated
from urllib.parse import urlsplit

import segno
from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from hearts.server.web.errors import ApiError
from hearts.server.web.security import NO_STORE

#: The page's paths a QR code may carry: a room's invite link and a transfer link.
LINK_PATH = re.compile(r"/(?:r|t)/[A-Za-z0-9-]{4,64}")
MAX_LINK = 300

router = APIRouter()


def own_link(link: str, host: str) -> bool:
    """Whether ``link`` is an invite or transfer link of the page at ``host``.

    >>> own_link("https://hearts.example/r/ABCD2345ABCD2345", "hearts.example")
    True
    >>> own_link("https://evil.example/r/ABCD2345ABCD2345", "hearts.example")
    False
    >>> own_link("https://hearts.example/r/ABCD?next=x", "hearts.example")
    False
    """
    if len(link) > MAX_LINK:
        return False
    try:
        parts = urlsplit(link)
    except ValueError:
        return False
    return (
        parts.scheme in ("http", "https")
        and parts.netloc.lower() == host.lower()
        and not parts.query
        and not parts.fragment
        and LINK_PATH.fullmatch(parts.path) is not None
    )


def qr_svg(link: str) -> bytes:
    """``link`` as a QR code (medium error correction), black on white with the quiet
    zone, as an SVG document."""
    out = io.BytesIO()
    segno.make(link, error="m").save(
        out, kind="svg", scale=4, border=4, xmldecl=False, dark="#000", light="#fff"
    )
    return out.getvalue()


@router.get(
    "/api/qr.svg",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}, "description": "the QR code"}},
)
async def qr_code(request: Request, link: Annotated[str, Query(max_length=MAX_LINK)]) -> Response:
    """A QR code of ``link``, one of this page's invite or transfer links."""
    if not own_link(link, request.headers.get("host", "")):
        raise ApiError("bad_request")
    return Response(qr_svg(link), media_type="image/svg+xml", headers=NO_STORE)
