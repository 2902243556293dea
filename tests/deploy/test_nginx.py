"""deploy/nginx.conf, as docs/deploy.md tells an operator to use it: nginx with a
(self-signed) certificate in front of a real ``hearts serve``, reached over HTTPS.
Skipped where nginx is not installed (scripts/test.sh installs it)."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from live_server import hearts_serve
from nginx_site import NGINX, free_port, main_config, nginx, site_for_test

from hearts.server.i18n.messages import ERRORS

pytestmark = [
    pytest.mark.skipif(not os.access(NGINX, os.X_OK), reason="nginx is not installed"),
    pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed"),
]


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path]:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-nodes", "-days", "2", "-subj", "/CN=localhost"),
            *("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"),
            *("-keyout", str(key), "-out", str(cert)),
            *("-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def test_the_game_is_served_over_https_through_nginx(
    tmp_path: Path, certificate: tuple[Path, Path]
) -> None:
    cert, key = certificate
    https, plain = free_port(), free_port()
    with hearts_serve(tmp_path, "--seed", "1") as url:
        upstream = urlsplit(url).port or 0
        site = tmp_path / "hearts.conf"
        site.write_text(site_for_test(upstream, https, plain, cert, key))
        config = tmp_path / "nginx.conf"
        config.write_text(main_config(tmp_path, site))
        with nginx(tmp_path, config, https):
            tls = ssl.create_default_context(cafile=str(cert))

            def call(
                method: str, path: str, body: bytes | None = None, token: str = ""
            ) -> http.client.HTTPResponse:
                conn = http.client.HTTPSConnection("127.0.0.1", https, context=tls, timeout=30)
                headers = {"Authorization": f"Bearer {token}"} if token else {}
                if body is not None:
                    headers["Content-Type"] = "application/json"
                conn.request(method, path, body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                conn.close()
                return response

            conn = http.client.HTTPSConnection("127.0.0.1", https, context=tls, timeout=30)
            conn.request("GET", "/")
            page = conn.getresponse()
            text = page.read().decode()
            assert page.status == 200 and "/static/v/" in text
            # hearts' headers come through; nginx adds HSTS
            assert "script-src 'self'" in page.headers["Content-Security-Policy"]
            assert page.headers["Strict-Transport-Security"].startswith("max-age=")

            conn.request("POST", "/api/players")
            token = json.loads(conn.getresponse().read())["token"]
            conn.request("GET", "/api/state", headers={"Authorization": f"Bearer {token}"})
            state = conn.getresponse()
            assert state.status == 200
            assert json.loads(state.read())["hand"]["phase"] == "pass"
            conn.close()

            # nginx's own refusal is in the API's error shape
            conn = http.client.HTTPSConnection("127.0.0.1", https, context=tls, timeout=30)
            conn.request(
                "POST", "/api/play", body=b"x" * 20_000, headers={"Authorization": "Bearer x"}
            )
            big = conn.getresponse()
            assert big.status == 413
            assert json.loads(big.read())["error"]["code"] == "too_large"
            conn.close()

            # plain HTTP only redirects to HTTPS
            conn2 = http.client.HTTPConnection("127.0.0.1", plain, timeout=30)
            conn2.request("GET", "/api/state")
            moved = conn2.getresponse()
            assert moved.status == 301 and moved.headers["Location"].startswith("https://")
            conn2.request("GET", "/t/SECRETCODE1")
            moved.read(), conn2.getresponse().read()
            conn2.close()

            # a transfer link's code is never written in the access log (issue 57, 12)
            call("GET", "/t/SECRETCODE2")
            call("GET", "/api/qr.svg?link=https%3A%2F%2Flocalhost%2Ft%2FSECRETCODE3")
            log = tmp_path / "access.log"
            for _ in range(100):  # nginx writes a request's line once it has answered
                logged = log.read_text()
                if "/api/qr.svg" in logged:
                    break
                time.sleep(0.05)
            assert '"GET /api/state HTTP/1.1" 301' in logged and "/api/players" in logged
            assert logged.count('"GET /t/- HTTP/1.1"') == 2 and "/api/qr.svg?-" in logged
            assert "SECRETCODE" not in logged, logged


def test_one_client_s_requests_at_once_are_capped_at_the_edge(
    tmp_path: Path, certificate: tuple[Path, Path]
) -> None:
    """deploy/nginx.conf's limit_conn (issue 57 item 1): one client's requests in
    progress beyond the cap (here 2, not 160) are 429 too_many_connections in the
    API's error shape with Retry-After; once its long polls end, it is served again."""
    cert, key = certificate
    https, plain = free_port(), free_port()
    with hearts_serve(tmp_path, "--seed", "1") as url:
        site_text = site_for_test(urlsplit(url).port or 0, https, plain, cert, key)
        assert "limit_conn hearts_clients 160;" in site_text
        site = tmp_path / "hearts.conf"
        site.write_text(
            site_text.replace("limit_conn hearts_clients 160;", "limit_conn hearts_clients 2;")
        )
        config = tmp_path / "nginx.conf"
        config.write_text(main_config(tmp_path, site))
        with nginx(tmp_path, config, https):
            tls = ssl.create_default_context(cafile=str(cert))

            def call(method: str, path: str, token: str = "", body: Any = None) -> Any:
                conn = http.client.HTTPSConnection("127.0.0.1", https, context=tls, timeout=30)
                headers = {"Authorization": f"Bearer {token}"} if token else {}
                data = json.dumps(body).encode() if body is not None else None
                if data is not None:
                    headers["Content-Type"] = "application/json"
                conn.request(method, path, body=data, headers=headers)
                response = conn.getresponse()
                answer = response.status, dict(response.headers), json.loads(response.read())
                conn.close()
                return answer

            token = call("POST", "/api/players")[2]["token"]
            room = call("POST", "/api/rooms", token, {"level": "easy", "turn_seconds": None})[2]
            poll = (
                f"GET /api/rooms/{room['code']}/events?after={room['version']} HTTP/1.1\r\n"
                f"Host: localhost\r\nAuthorization: Bearer {token}\r\n\r\n"
            ).encode()
            held = []
            for _ in range(2):
                raw = socket.create_connection(("127.0.0.1", https), timeout=30)
                held.append(tls.wrap_socket(raw, server_hostname="localhost"))
                held[-1].sendall(poll)

            def until(status: int) -> Any:
                deadline = time.monotonic() + 10
                while True:
                    answer = call("GET", f"/api/rooms/{room['code']}", token)
                    if answer[0] == status or time.monotonic() > deadline:
                        return answer
                    time.sleep(0.1)

            status, headers, body = until(429)  # the two polls held: a third is refused
            assert status == 429 and headers["Retry-After"] == "5"
            assert body == {
                "error": {
                    "code": "too_many_connections",
                    "message": ERRORS["too_many_connections"][1],
                }
            }
            for s in held:
                s.close()
            assert until(200)[0] == 200  # the polls gone: served again
