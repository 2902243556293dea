"""The page as an app (issue 39, item 16), as the server serves it: ``/sw.js`` with
this release's version and the files it keeps, the manifests in both languages and
their icons at the sizes they claim."""

from __future__ import annotations

import json
import re
import struct

from fastapi.testclient import TestClient

# the browser asks for these when it installs the page; pwa.js has the English kept
NOT_AHEAD = (
    "icons/apple-touch-icon.png",
    "manifest.vi.webmanifest",
    "manifest.en.webmanifest",
    "js/i18n-en.js",
    "help.en.html",
)


def page_version(client: TestClient) -> str:
    found = re.search(r'"/static/v/([0-9a-f]+)/', client.get("/").text)
    assert found
    return found.group(1)


def kept(script: str) -> list[str]:
    found = re.search(r"^const FILES = (.*);$", script, re.M)
    assert found
    return list(json.loads(found.group(1)))


def test_the_worker_is_this_releases_and_keeps_what_the_page_loads(client: TestClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["cache-control"] == "no-cache"  # a release reaches the next visit
    version = page_version(client)
    assert f'const VERSION = "{version}";' in response.text
    files = kept(response.text)
    assert files[0] == "/"
    page = client.get("/").text
    linked = re.findall(r'(?:src|href)="(/static/v/[^"]+)"', page)
    not_ahead = {f"/static/v/{version}/{name}" for name in NOT_AHEAD}
    assert linked and set(linked) - not_ahead <= set(files)
    assert not not_ahead & set(files)
    for url in files:
        assert client.get(url).status_code == 200, url
    assert not any(url.startswith("/api/") for url in files)


def test_the_page_revalidates_for_a_304(client: TestClient) -> None:
    first = client.get("/")
    again = client.get("/", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert client.get("/", headers={"If-None-Match": '"other"'}).status_code == 200


def test_the_manifests_name_the_app_in_both_languages(client: TestClient) -> None:
    version = page_version(client)
    page = client.get("/").text
    assert f'<link rel="manifest" href="/static/v/{version}/manifest.vi.webmanifest">' in page
    names = {}
    for lang in ("vi", "en"):
        response = client.get(f"/static/v/{version}/manifest.{lang}.webmanifest")
        assert response.status_code == 200
        manifest = response.json()
        assert manifest["lang"] == lang
        assert manifest["display"] == "standalone"
        assert manifest["start_url"] == manifest["scope"] == manifest["id"] == "/"
        assert manifest["theme_color"] == "#0d4a2c"
        names[lang] = manifest["name"]
        for icon in manifest["icons"]:
            got = client.get(f"/static/v/{version}/{icon['src']}")
            assert got.status_code == 200, icon
            assert got.headers["content-type"] == icon["type"]
            if icon["type"] == "image/png":
                width, height = struct.unpack(">II", got.content[16:24])  # IHDR
                assert icon["sizes"] == f"{width}x{height}"
    assert names["vi"] != names["en"]
