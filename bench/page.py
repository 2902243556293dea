"""The page's weight and time to the first playable card, as a phone on a slow link.

    python3 bench/page.py [--rounds 5] [--url http://127.0.0.1:8000/] [--https]

Chromium (``/usr/bin/chromium``) with DevTools' "Slow 4G" network and the CPU slowed
4× (CDP), a fresh cache each load, a 390×844 phone. Each round loads, in turn: the
game throttled, a static page of the same weight throttled (the reference: the
network's share alone), and the game unthrottled. Prints the medians. Without
``--url`` it starts ``hearts serve`` (this checkout, a temporary data directory).
``--https``: the game through deploy/nginx.conf (TLS and HTTP/2, a self-signed
certificate), as docs/deploy.md serves it: over plain HTTP/1.1 Chromium takes six
files at a time from one server, over HTTP/2 all of them at once.
Figures of one run only; the machine may be shared.
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

# the helpers of tests/browser (page_load) and tests/deploy (nginx), and theirs
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "deploy"))
from nginx_site import main_config, nginx, site_for_test
from page_load import load_game, load_reference, reference_server
from playwright.sync_api import sync_playwright

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def serve(data_dir: str) -> tuple[subprocess.Popen[str], str]:
    cmd = [sys.executable, "-c", "import sys; from hearts.cli import main; sys.exit(main())"]
    cmd += ["serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", data_dir]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    return proc, proc.stdout.readline().strip()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def deployed(url: str, prefix: Path) -> Iterator[str]:
    """``url`` behind deploy/nginx.conf (tests/deploy/test_nginx.py's way): its
    https:// address."""
    cert, key = prefix / "cert.pem", prefix / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-nodes", "-days", "2", "-subj", "/CN=localhost"),
            *("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"),
            *("-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
    )
    https, plain = free_port(), free_port()
    site, config = prefix / "hearts.conf", prefix / "nginx.conf"
    site.write_text(site_for_test(urlsplit(url).port or 0, https, plain, cert, key))
    config.write_text(main_config(prefix, site))
    with nginx(prefix, config, https):
        yield f"https://127.0.0.1:{https}/"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--url", default="")
    parser.add_argument("--https", action="store_true", help="through deploy/nginx.conf")
    args = parser.parse_args()
    proc = None
    phone = {**PHONE, "ignore_https_errors": True} if args.https else PHONE
    with tempfile.TemporaryDirectory() as data, contextlib.ExitStack() as stack:
        url = args.url
        if not url:
            proc, url = serve(data)
        try:
            if args.https:
                url = stack.enter_context(deployed(url, Path(data)))
            rows: dict[str, list[dict[str, float]]] = {"game": [], "reference": [], "fast": []}
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
                )
                for _ in range(args.rounds):
                    game = load_game(browser, url, throttle=True, **phone)
                    rows["game"].append(game)
                    with reference_server(int(game["bytes"])) as ref_url:
                        rows["reference"].append(load_reference(browser, ref_url, True))
                    rows["fast"].append(load_game(browser, url, throttle=False, **phone))
                browser.close()
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait()
    med = {k: {f: statistics.median(r[f] for r in v) for f in v[0]} for k, v in rows.items()}
    print(f"{url}  rounds={args.rounds}  (medians)")
    game = med["game"]
    print(f"  transferred: {game['bytes'] / 1024:.1f} KiB in {game['requests']:.0f} requests")
    print(f"  first playable card, Slow 4G + CPU 4x: {med['game']['ms']:.0f} ms")
    print(f"  same-weight static page, same throttling: {med['reference']['ms']:.0f} ms")
    print(f"  ratio: {med['game']['ms'] / med['reference']['ms']:.2f}")
    print(f"  first playable card, unthrottled: {med['fast']['ms']:.0f} ms")


if __name__ == "__main__":
    main()
