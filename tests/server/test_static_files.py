"""The static files go from memory, so that an answer its client is slow to read holds
no open file (issue 57 item 10), with the file's own headers; a server out of open
files answers 503 ``unavailable``, never 500."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hearts.server.web.security import CachedStaticFiles


def test_a_static_file_is_read_once_and_sent_with_its_headers(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[Path] = []
    read_bytes = Path.read_bytes

    def counted(path: Path) -> bytes:
        reads.append(path)
        return read_bytes(path)

    monkeypatch.setattr(Path, "read_bytes", counted)
    first = client.get("/static/layout.css", headers={"Accept-Encoding": "identity"})
    assert first.status_code == 200
    assert first.headers["content-type"].startswith("text/css")
    assert int(first.headers["content-length"]) == len(first.content) > 0
    assert "accept-ranges" not in first.headers  # no ranges from memory
    assert first.headers["cache-control"] == "no-cache"
    again = client.get("/static/layout.css", headers={"Accept-Encoding": "identity"})
    assert again.content == first.content
    assert [p.name for p in reads] == ["layout.css"]  # the second from memory
    # A revalidation is still a 304, a HEAD the headers alone.
    etag = first.headers["etag"]
    assert client.get("/static/layout.css", headers={"If-None-Match": etag}).status_code == 304
    head = client.head("/static/layout.css", headers={"Accept-Encoding": "identity"})
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == first.headers["content-length"]


def test_out_of_open_files_is_503_unavailable(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_files(*_args: object) -> bytes:
        raise OSError(errno.EMFILE, "Too many open files")

    monkeypatch.setattr(CachedStaticFiles, "_body", no_files)
    r = client.get("/static/js/api.js")
    assert r.status_code == 503, r.text
    assert r.json()["error"]["code"] == "unavailable"
    assert r.headers["retry-after"]
