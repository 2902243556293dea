"""HTTP as a browser and an operator rely on it (issue 7, items 7 and 9): security
headers on every response, versioned static URLs with their cache policy, the limit
on header size, HEAD, 405 with Allow, one error shape, and one rule for versions."""

from __future__ import annotations

import contextlib
import http.client
import json
import re
import socket
import sys
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from live_server import hearts_serve

from hearts.server.app import STATIC_DIR, create_app
from hearts.server.web.security import (
    CONTENT_SECURITY_POLICY,
    inline_script_hashes,
    static_version,
    versioned_page,
)

SECURITY = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}
VERSIONED = ("/api/pass", "/api/play", "/api/step", "/api/next-hand", "/api/new-match")
NOT_A_VERSION = ['"1"', "1.5", "1.0", "1e3", "true", "null", "-1", str(2**53 + 1), None]
PAGE = STATIC_DIR / "index.html"
needs_page = pytest.mark.skipif(not PAGE.is_file(), reason="the page is not there yet")


def assert_secure(response: Any) -> None:
    for name, value in SECURITY.items():
        assert response.headers.get(name) == value, (name, response.headers)
    csp = [p.strip() for p in response.headers["content-security-policy"].split(";")]
    assert "frame-ancestors 'none'" in csp
    # this server's scripts, and index.html's inline one by its hash (tests/browser/test_csp.py)
    assert next(d for d in csp if d.startswith("script-src ")).startswith("script-src 'self'")
    assert "default-src 'self'" in csp and "base-uri 'none'" in csp
    assert "unsafe-inline" not in response.headers["content-security-policy"]


def error_of(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, (response.status_code, response.text)
    assert response.json()["error"]["code"] == code
    assert response.json()["error"]["message"]


@pytest.fixture
def token(client: TestClient) -> str:
    return str(client.post("/api/players").json()["token"])


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def page_version(client: TestClient) -> str:
    found = re.search(r'"/static/v/([0-9a-f]+)/', client.get("/").text)
    assert found, "the page links no versioned file"
    return found.group(1)


# -- security headers ---------------------------------------------------------


@needs_page
def test_every_response_carries_the_security_headers(client: TestClient, token: str) -> None:
    version = page_version(client)
    answers = [
        client.get("/"),
        client.get(f"/static/v/{version}/js/main.js"),
        client.get("/static/style.css"),
        client.get("/api/state", headers=auth(token)),
        client.post("/api/players"),
        client.get("/openapi.json"),
        client.get("/api/state"),  # 403
        client.get("/api/nothing"),  # 404
        client.get("/static/nothing.js"),  # 404 of the static files
        client.get("/api/play", headers=auth(token)),  # 405
        client.post("/api/play", headers=auth(token), content=b"{"),  # 400
        client.post("/api/play", headers=auth(token), content=b"x" * 20_000),  # 413
        client.head("/"),
    ]
    for response in answers:
        assert_secure(response)


def test_a_crash_is_500_internal_with_the_security_headers(db_url: str) -> None:
    app = create_app(db_url, executor=ThreadPoolExecutor(max_workers=1))

    async def broken(_token: str) -> int:
        raise RuntimeError("a bug")

    app.state.players.player_id = broken
    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/api/state", headers=auth("x"))
    error_of(response, 500, "internal")
    assert_secure(response)


@needs_page
def test_the_page_runs_no_inline_script_or_style() -> None:
    """The CSP forbids them: the page must not need them (nor the rules' text, which
    the page puts into its dialog), but for index.html's one inline script, which the
    CSP allows by its hash."""
    help_text = "".join((STATIC_DIR / f"help.{lang}.html").read_text() for lang in ("vi", "en"))
    assert not re.search(r"<script\b", help_text, re.I)
    html = PAGE.read_text() + help_text
    inline = [t for t in re.findall(r"<script\b[^>]*>", html, re.I) if not re.search(r"\bsrc=", t)]
    assert inline == ["<script>"], inline
    (script_src,) = inline_script_hashes(PAGE.read_text())
    assert f"script-src 'self' {script_src};" in CONTENT_SECURITY_POLICY
    assert not re.search(r"<style\b", html, re.I)
    assert not re.search(r"\sstyle\s*=", html, re.I), "a style attribute"
    assert not re.search(r"\son[a-z]+\s*=", html, re.I), "an inline event handler"
    for script in (STATIC_DIR / "js").glob("*.js"):
        code = script.read_text()
        # CSSOM (element.style.x, style.setProperty) is allowed; style attributes are not.
        assert not re.search(r"setAttribute\(\s*['\"]style", code), script.name
        assert not re.search(r"innerHTML|insertAdjacentHTML|outerHTML", code), script.name
        assert not re.search(r"\beval\(|new Function\(", code), script.name


# -- versioned static files -----------------------------------------------------


@needs_page
def test_the_page_links_versioned_files_cached_for_good(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["cache-control"] == "no-cache"
    version = page_version(client)
    assert version == static_version(STATIC_DIR)
    links = re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text)
    assert links and all(link.startswith(f"/static/v/{version}/") for link in links)
    # every file the page loads, and the modules they import (relative: same prefix)
    todo, seen = list(links), set()
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
        if url.endswith(".js"):
            base = url.rsplit("/", 1)[0]
            for module in re.findall(r'from\s+"\./([^"]+)"', response.text):
                todo.append(f"{base}/{module}")
    assert f"/static/v/{version}/js/api.js" in seen


@needs_page
def test_an_unknown_version_is_404_and_the_plain_url_must_revalidate(
    client: TestClient,
) -> None:
    other = "0" * 12
    assert other != page_version(client)
    error_of(client.get(f"/static/v/{other}/js/main.js"), 404, "not_found")
    plain = client.get("/static/js/main.js")
    assert plain.status_code == 200 and plain.headers["cache-control"] == "no-cache"


def test_the_version_follows_the_files_contents(tmp_path: Path) -> None:
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "main.js").write_text("one")
    first = static_version(tmp_path)
    assert static_version(tmp_path) == first
    (tmp_path / "js" / "main.js").write_text("two")
    assert static_version(tmp_path) != first
    page = '<link rel="stylesheet" href="/static/style.css"><script src="/static/js/a.js">'
    assert versioned_page(page, "abc") == (
        '<link rel="stylesheet" href="/static/v/abc/style.css"><script src="/static/v/abc/js/a.js">'
    )


# -- HEAD, 405 and the error shape --------------------------------------------


@needs_page
@pytest.mark.parametrize("path", ["/", "static", "/api/state", "/api/stats", "/openapi.json"])
def test_head_answers_every_get_route_without_a_body(
    client: TestClient, token: str, path: str
) -> None:
    if path == "static":
        path = f"/static/v/{page_version(client)}/js/main.js"
    # the page is sent as it is: gzipped, its length varies with its first-deal ticket
    headers = {**auth(token), **({"Accept-Encoding": "identity"} if path == "/" else {})}
    got = client.get(path, headers=headers)
    head = client.head(path, headers=headers)
    assert got.status_code == head.status_code == 200
    assert head.content == b""
    assert head.headers["content-type"] == got.headers["content-type"]
    # as sent: the page's files go gzipped (httpx decodes got.content)
    assert head.headers["content-length"] == got.headers["content-length"]


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("GET", "/api/play", "POST"),
        ("DELETE", "/api/state", "GET, HEAD"),
        ("POST", "/api/stats", "GET, HEAD"),
        ("GET", "/api/settings", "PUT"),
        ("POST", "/", "GET, HEAD"),
        ("POST", "/static/js/main.js", "GET, HEAD"),
    ],
)
def test_405_names_the_allowed_methods_in_the_error_shape(
    client: TestClient, token: str, method: str, path: str, allow: str
) -> None:
    response = client.request(method, path, headers=auth(token))
    error_of(response, 405, "method_not_allowed")
    assert response.headers["allow"] == allow


@pytest.mark.parametrize("path", VERSIONED)
def test_a_version_that_is_not_an_integer_is_400_on_every_route(
    client: TestClient, token: str, path: str
) -> None:
    state = client.get("/api/state", headers=auth(token)).json()
    for raw in NOT_A_VERSION:
        body = {"cards": ["2C", "3C", "4C"]} if path == "/api/pass" else {}
        body |= {"card": "2C"} if path == "/api/play" else {}
        fields = [f'"{k}": {str(v).replace(chr(39), chr(34))}' for k, v in body.items()]
        if raw is not None:
            fields.append(f'"version": {raw}')
        content = ("{" + ", ".join(fields) + "}").encode()
        response = client.post(
            path, headers={**auth(token), "Content-Type": "application/json"}, content=content
        )
        assert response.status_code == 400, (path, content, response.text)
        assert response.json() == {
            "error": {"code": "bad_request", "message": "Yêu cầu không hợp lệ"}
        }, (path, content)
    assert client.get("/api/state", headers=auth(token)).json() == state


def test_openapi_says_exactly_which_versions_are_accepted(client: TestClient) -> None:
    text = client.get("/openapi.json").text
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    for name in ("VersionBody", "PassBody", "PlayBody"):
        version = schemas[name]["properties"]["version"]
        assert version["type"] == "integer"
        assert version["minimum"] == 0 and version["maximum"] == 2**53
        assert "version" in schemas[name]["required"]
        assert schemas[name]["additionalProperties"] is False
    assert '"maximum":9007199254740992,' in text  # an integer, not 9007199254740992.0


def test_openapi_is_revalidated_as_the_server_changes(client: TestClient) -> None:
    """The schema changes with the server's release: a cache must ask again each time
    (``no-cache``, like the page and ``/api/rules``), and HEAD says the same."""
    for response in (client.get("/openapi.json"), client.head("/openapi.json")):
        assert response.status_code == 200
        assert response.headers["cache-control"] == "no-cache"
        assert response.headers["content-type"] == "application/json"


def test_the_error_codes_are_documented() -> None:
    from hearts.server.i18n.messages import ERRORS

    api = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    for code, (status, _message) in ERRORS.items():
        assert f"`{code}`" in api, code
        assert str(status) in api, status


# -- a real server: the header size limit ------------------------------------------


@pytest.fixture(scope="module")
def address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    with hearts_serve(tmp_path_factory.mktemp("hearts-http")) as url:
        split = urlsplit(url)
        yield (split.hostname or "", split.port or 0)


@pytest.mark.parametrize("pieces", [1, 40])
def test_headers_over_16_kib_are_431_and_the_connection_closed(
    address: tuple[str, int], pieces: int
) -> None:
    """In one read or in pieces (h11 alone limits only the latter)."""
    big = b"GET /api/state HTTP/1.1\r\nHost: hearts\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n"
    answer = b""
    with socket.create_connection(address, timeout=10) as sock:
        step = -(-len(big) // pieces)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            for i in range(0, len(big), step):
                sock.sendall(big[i : i + step])
        with contextlib.suppress(ConnectionResetError):
            while chunk := sock.recv(65536):  # to the end: the server closes
                answer += chunk
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
    head, _, body = answer.partition(b"\r\n\r\n")
    assert json.loads(body)["error"]["code"] == "headers_too_large"
    assert b"x-content-type-options: nosniff" in head.lower()


def test_headers_under_the_limit_are_fine(address: tuple[str, int]) -> None:
    conn = http.client.HTTPConnection(*address, timeout=10)
    conn.request("POST", "/api/players", headers={"X-Padding": "a" * 8000})
    response = conn.getresponse()
    assert response.status == 200 and b"token" in response.read()
    assert_secure(response)
    conn.close()
