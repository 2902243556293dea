"""``GET /api/qr.svg`` (issue 39, item 13): the QR code of this page's own invite or
transfer link, drawn by segno; anything else is refused."""

from __future__ import annotations

import io
import re

import pytest
import segno
from fastapi.testclient import TestClient

LINK = "http://testserver/r/ABCDEFGH23456777"


def modules(svg: bytes) -> str:
    """The dark modules of a segno SVG (its last path's ``d``; a white background may
    come before it)."""
    found = re.findall(rb' d="([^"]+)"', svg)
    assert found
    return found[-1].decode()


def test_the_qr_code_carries_the_invite_link(client: TestClient) -> None:
    response = client.get("/api/qr.svg", params={"link": LINK})
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/svg+xml"
    assert response.headers["cache-control"] == "no-store"
    expected = io.BytesIO()
    segno.make(LINK, error="m").save(expected, kind="svg", scale=4, border=4)
    assert modules(response.content) == modules(expected.getvalue())
    # another link is another code
    other = client.get("/api/qr.svg", params={"link": LINK.replace("ABCD", "ABCE")})
    assert modules(other.content) != modules(response.content)


def test_a_transfer_link_is_drawn_too(client: TestClient) -> None:
    link = "http://testserver/t/ABCDE-FGHJK-MNPQR"
    assert client.get("/api/qr.svg", params={"link": link}).status_code == 200


@pytest.mark.parametrize(
    "link",
    [
        "http://evil.example/r/ABCDEFGH23456777",  # another host
        "http://testserver/api/state",  # not an invite or transfer link
        "http://testserver/r/ABCDEFGH23456777?x=1",
        "http://testserver/r/ABCDEFGH23456777#x",
        "javascript:alert(1)",
        "http://testserver/r/" + "A" * 400,
        "",
    ],
)
def test_only_this_pages_links_are_drawn(client: TestClient, link: str) -> None:
    response = client.get("/api/qr.svg", params={"link": link})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_request"


def test_a_missing_link_is_refused(client: TestClient) -> None:
    assert client.get("/api/qr.svg").status_code == 400
