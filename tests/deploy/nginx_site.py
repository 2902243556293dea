"""nginx in front of a test's server, configured from deploy/nginx.conf as
docs/deploy.md tells an operator to use it (shared by tests/deploy and bench/page.py)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
SITE = ROOT / "deploy" / "nginx.conf"


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
        # beside the certificate, in the test's own folder
        "/var/log/nginx/hearts.access.log": str(cert.parent / "access.log"),
    }
    for old, new in changes.items():
        assert old in text, f"deploy/nginx.conf no longer has {old!r}"
        text = text.replace(old, new)  # every place it is written
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
