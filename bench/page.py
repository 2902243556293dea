"""The page's weight and time to the first playable card, as a phone on a slow link.

    python3 bench/page.py [--rounds 5] [--url http://127.0.0.1:8000/] [--https]
    python3 bench/page.py --commits BEFORE AFTER [--rounds 7] [--https] [--exports DIR]

Chromium (``/usr/bin/chromium``) with DevTools' "Slow 4G" network and the CPU slowed
4× (CDP), a fresh cache each load, a 390×844 phone. Each round loads, in turn: the
game throttled, a static page of the same weight throttled (the reference: the
network's share alone), and the game unthrottled. Prints the medians. Without
``--url`` it starts ``hearts serve`` (this checkout, a temporary data directory).
``--https``: the game through deploy/nginx.conf (TLS and HTTP/2, a self-signed
certificate), as docs/deploy.md serves it: over plain HTTP/1.1 Chromium takes six
files at a time from one server, over HTTP/2 all of them at once.
``--commits A B [C ...]``: two commits of this repository (or more), each served from a clean export
(``git archive``, under ``--exports``: a temporary directory, or one kept so that a
later run reuses its exports and their compiled Khó), the rounds alternating them
(A's three loads, then B's, ...), so a busy moment of the machine falls on both; each
commit's medians beside its own same-weight page. The browser helpers and the nginx
configuration are this checkout's for both. The machine's load average is printed at
the start and the end. Figures of one run only; the machine may be shared.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

# the helpers of tests/browser (page_load) and tests/deploy (nginx), and theirs
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "deploy"))
from nginx_site import main_config, nginx, site_for_test
from page_load import load_game, load_reference, reference_server
from playwright.sync_api import Browser, sync_playwright

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


ROOT = Path(__file__).resolve().parents[1]
#: the server's line once Khó's kernel is compiled (or loaded): its CPU is free then
READY = "Khó is ready"


def serve(
    data_dir: str, src: Path | None = None
) -> tuple[subprocess.Popen[str], str, threading.Event]:
    """``hearts serve`` on a free port (``src``'s code if given, else this process's
    path): the process, its address, and an event set once its Khó is ready (a fresh
    export compiles it: minutes of CPU that would weigh on the loads)."""
    cmd = [sys.executable, "-c", "import sys; from hearts.cli import main; sys.exit(main())"]
    cmd += ["serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", data_dir]
    env = {**os.environ, "PYTHONPATH": str(src)} if src is not None else None
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    ready = threading.Event()

    def read(stream: object) -> None:
        for line in stream:  # type: ignore[attr-defined]
            if READY in line:
                ready.set()

    threading.Thread(target=read, args=(proc.stderr,), daemon=True).start()
    return proc, proc.stdout.readline().strip(), ready


def export(commit: str, into: Path) -> tuple[str, Path]:
    """``commit``'s tree exported with ``git archive`` under ``into`` (kept there by
    its hash, reused if present): its short hash and its ``src``."""
    full = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", commit + "^{commit}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    tree = into / full
    if not (tree / "src").is_dir():
        part = into / (full + ".part")
        part.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", full], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(part)], input=archive, check=True)
        part.rename(tree)
    return full[:7], tree / "src"


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


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


def measure(browser: Browser, url: str, phone: dict[str, Any]) -> dict[str, dict[str, float]]:
    """One round's three loads of ``url``: the game throttled, the same-weight page
    throttled, the game unthrottled."""
    game = load_game(browser, url, throttle=True, **phone)
    with reference_server(int(game["bytes"])) as ref_url:
        reference = load_reference(browser, ref_url, True)
    fast = load_game(browser, url, throttle=False, **phone)
    return {"game": game, "reference": reference, "fast": fast}


def report(label: str, rounds: list[dict[str, dict[str, float]]]) -> None:
    med = {
        k: {f: statistics.median(r[k][f] for r in rounds) for f in rounds[0][k]} for k in rounds[0]
    }
    game = med["game"]
    print(f"{label}  rounds={len(rounds)}  (medians)")
    print(f"  transferred: {game['bytes'] / 1024:.1f} KiB in {game['requests']:.0f} requests")
    print(f"  first playable card, Slow 4G + CPU 4x: {game['ms']:.0f} ms")
    print(f"  same-weight static page, same throttling: {med['reference']['ms']:.0f} ms")
    print(f"  ratio: {game['ms'] / med['reference']['ms']:.2f}")
    ratios = sorted(r["game"]["ms"] / r["reference"]["ms"] for r in rounds)
    print(f"  ratio of each round: {' '.join(f'{x:.2f}' for x in ratios)}")
    print(f"  first playable card, unthrottled: {med['fast']['ms']:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--url", default="")
    parser.add_argument("--https", action="store_true", help="through deploy/nginx.conf")
    parser.add_argument("--commits", nargs="+", metavar="C", help="alternate two commits or more")
    parser.add_argument("--exports", default="", help="where --commits' exports are kept")
    args = parser.parse_args()
    if args.commits and len(args.commits) < 2:
        parser.error("--commits: two commits or more")
    phone = {**PHONE, "ignore_https_errors": True} if args.https else PHONE
    print(f"load average at the start: {load_average()}")
    with tempfile.TemporaryDirectory() as temp, contextlib.ExitStack() as stack:
        sites: dict[str, str] = {}
        if args.commits:
            into = Path(args.exports) if args.exports else Path(temp) / "exports"
            trees = [export(commit, into) for commit in args.commits]
        else:
            trees = [("this checkout", None)] if not args.url else []
        started = []
        for n, (label, src) in enumerate(trees):
            data = Path(temp) / f"data-{n}"
            data.mkdir()
            proc, url, ready = serve(str(data), src)
            stack.callback(stop, proc)
            started.append((label, url, ready, data))
        for label, url, ready, data in started:  # all of them warming at once
            if not ready.wait(900):
                print(f"  ({label}: Khó not ready after 900 s, measured anyway)")
            if args.https:
                url = stack.enter_context(deployed(url, data))
            sites[f"{label} {url}"] = url
        if args.url:
            sites[args.url] = args.url
        rows: dict[str, list[dict[str, dict[str, float]]]] = {label: [] for label in sites}
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
            )
            for _ in range(args.rounds):
                for label, url in sites.items():
                    rows[label].append(measure(browser, url, phone))
            browser.close()
    print(f"load average at the end: {load_average()}")
    for label, rounds in rows.items():
        report(label, rounds)


def stop(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    proc.wait()


if __name__ == "__main__":
    main()
