"""The page's files go gzipped (issue 10, item 12: a light page on a slow link), and
the API's answers do not (no secret may ride with compressed, reflected input)."""

from __future__ import annotations

import gzip
import re

from fastapi.testclient import TestClient

from hearts.server.web.compress import MINIMUM_SIZE

GZIP = {"Accept-Encoding": "gzip"}
IDENTITY = {"Accept-Encoding": "identity"}


def raw(client: TestClient, url: str, headers: dict[str, str]) -> tuple[dict[str, str], bytes]:
    """The answer's headers and its body as sent (not decoded)."""
    with client.stream("GET", url, headers=headers) as r:
        assert r.status_code == 200, url
        return dict(r.headers), b"".join(r.iter_raw())


def test_the_page_and_its_files_go_gzipped(client: TestClient) -> None:
    head, body = raw(client, "/", GZIP)
    assert head["content-encoding"] == "gzip" and "accept-encoding" in head["vary"].lower()
    html = gzip.decompress(body).decode()
    # the same page but for its first-deal ticket, made for each answer
    ticket = re.compile(r'(<meta name="hearts-first-deal" content=")[^"]+')
    assert ticket.search(html)
    assert ticket.sub(r"\1", html) == ticket.sub(r"\1", client.get("/", headers=IDENTITY).text)
    assert head["cache-control"] == "no-cache"
    links = re.findall(r'(?:src|href)="(/static/v/[^"]+)"', html)
    assert links
    sent = whole = 0
    for url in links:
        head, body = raw(client, url, GZIP)
        assert head["cache-control"] == "public, max-age=31536000, immutable"
        plain_head, plain = raw(client, url, IDENTITY)
        assert "content-encoding" not in plain_head
        # a tiny file, an image (compressed already) goes as it is
        if len(plain) < MINIMUM_SIZE or head["content-type"].startswith("image/"):
            assert "content-encoding" not in head and body == plain, url
            continue
        assert head["content-encoding"] == "gzip", url
        assert gzip.decompress(body) == plain
        assert len(body) < len(plain), url
        sent, whole = sent + len(body), whole + len(plain)
    assert sent < whole / 2  # the page's files together: a small file gains less


def test_the_api_answers_are_not_compressed(client: TestClient) -> None:
    token = client.post("/api/players").json()["token"]
    for url in ("/api/state", "/openapi.json"):
        head, body = raw(client, url, {**GZIP, "Authorization": f"Bearer {token}"})
        assert "content-encoding" not in head, url
    assert len(body) > 1024  # large enough that gzip would have taken it
