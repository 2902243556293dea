"""deploy/nginx.conf, as docs/deploy.md tells an operator to use it: nginx with a
(self-signed) certificate in front of a real ``hearts serve``, reached over HTTPS.
Skipped where nginx is not installed (scripts/test.sh installs it)."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from live_server import hearts_serve

ROOT = Path(__file__).resolve().parents[2]

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
SITE = ROOT / "deploy" / "nginx.conf"

pytestmark = [
    pytest.mark.skipif(not os.access(NGINX, os.X_OK), reason="nginx is not installed"),
    pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed"),
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def site_for_test(upstream: int, https: int, plain: int, cert: Path, key: Path) -> str:
    """deploy/nginx.conf with this test's ports and certificate (each line the test
    changes must be there, so the test follows the file)."""
    text = SITE.read_text()
    changes = {
        "server 127.0.0.1:8000;": f"server 127.0.0.1:{upstream};",
        "listen 443 ssl http2;": f"listen 127.0.0.1:{https} ssl http2;",
        "listen 80;": f"listen 127.0.0.1:{plain};",
        "listen [::]:443 ssl http2;": "",
        "listen [::]:80;": "",
        "/etc/letsencrypt/live/hearts.example.org/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/hearts.example.org/privkey.pem": str(key),
    }
    for old, new in changes.items():
        assert old in text, f"deploy/nginx.conf no longer has {old!r}"
        text = text.replace(old, new)
    return text


def main_config(prefix: Path, site: Path) -> str:
    """The rest of an nginx.conf, everything in ``prefix``."""
    temps = "\n".join(
        f"    {kind}_temp_path {prefix / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers may write the temp dirs
    return f"""{user}worker_processes 1;
pid {prefix / "nginx.pid"};
error_log {prefix / "error.log"} warn;
events {{ worker_connections 128; }}
http {{
    access_log off;
{temps}
    include {site};
}}
"""


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


@contextlib.contextmanager
def nginx(prefix: Path, config: Path, port: int) -> Iterator[None]:
    check = subprocess.run(
        [NGINX, "-t", "-p", str(prefix), "-c", str(config)], capture_output=True, text=True
    )
    assert check.returncode == 0, check.stderr
    proc = subprocess.Popen(
        [NGINX, "-p", str(prefix), "-c", str(config), "-g", "daemon off;"],
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "nginx did not listen"
            time.sleep(0.1)
        yield
    finally:
        os.killpg(proc.pid, signal.SIGQUIT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


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
            conn2.close()
