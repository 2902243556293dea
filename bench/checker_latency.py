"""Does Cảnh báo nước đi hold up a card that is fine? Tap → card on the table, with
the switch off and on, in the same run.

    python3 bench/checker_latency.py [--hands 3] [--url http://127.0.0.1:8000/]

Chromium (``/usr/bin/chromium``, desktop size, the tests' pace hook at 0.05 so the
computers' waits are short). Two browsers take turns, hand by hand: one with the
switch off, one with it on (``localStorage['hearts-checker']``). On each of South's
turns the one with it on waits until the page has the check of the position (as a
player who looks at the table for a moment), then both tap a card that is fine (the
lowest legal card the check did not flag; the lowest legal card with it off). The
time is from the tap's click to the card on the table (``#trick .table-card``),
read in the page (``performance.now()``, a MutationObserver). Without ``--url`` it
starts ``hearts serve`` (this checkout, a temporary data directory, ``--seed 1``).
Figures of one run only; the machine may be shared.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from typing import Any

from playwright.sync_api import Page, sync_playwright

READY = 'body[data-busy="false"]:not([data-phase="loading"])'
TURN = 'body[data-busy="false"][data-phase="play"][data-turn="S"]'
LEGAL = '#hand button.hand-card[aria-disabled="false"]'
RANKS = "23456789TJQKA"
WAIT_MS = 90_000
TAP_JS = """(name) => new Promise((resolve) => {
  const onTable = () => document.querySelector(`#trick .table-card[data-card="${name}"]`);
  const seen = new MutationObserver(() => {
    if (onTable()) { seen.disconnect(); resolve(performance.now() - t0); }
  });
  seen.observe(document.body, { subtree: true, childList: true, attributes: true });
  const t0 = performance.now();
  document.querySelector(`#hand button.hand-card[data-card="${name}"]`).click();
})"""


def serve(data_dir: str) -> tuple[subprocess.Popen[str], str]:
    cmd = [sys.executable, "-c", "import sys; from hearts.cli import main; sys.exit(main())"]
    cmd += ["serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", data_dir, "--seed", "1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    return proc, proc.stdout.readline().strip()


def _state(page: Page) -> Any:
    return page.evaluate(
        """async () => (await fetch('/api/state', {headers: {Authorization: 'Bearer ' +
            localStorage.getItem('hearts-token')}})).json()"""
    )


def play_hand(page: Page, on: bool, checks: dict[int, Any], times: list[float]) -> None:
    """Pass the highest three, then play a fine card on each of South's turns."""
    page.wait_for_selector(READY, timeout=WAIT_MS)
    if page.locator("#pass-button").is_visible():
        cards = page.locator("#hand button.hand-card").evaluate_all(
            "bs => bs.map(b => b.dataset.card)"
        )
        for name in sorted(cards, key=lambda c: RANKS.index(c[0]))[-3:]:
            page.locator(f'#hand button.hand-card[data-card="{name}"]').click()
        page.locator("#pass-button").click()
    while True:
        page.wait_for_selector(f"{TURN}, {READY}[data-phase='done']", timeout=WAIT_MS)
        if page.evaluate("document.body.dataset.phase") == "done":
            return
        legal = page.locator(LEGAL).evaluate_all("bs => bs.map(b => b.dataset.card)")
        flagged: dict[str, Any] = {}
        if on:
            version = _state(page)["version"]
            page.wait_for_selector(
                f'#hand[data-checked="{version}"]', state="attached", timeout=WAIT_MS
            )
            flagged = checks[version]["flagged"]
        fine = [c for c in legal if c not in flagged] or legal
        name = min(fine, key=lambda c: RANKS.index(c[0]))
        times.append(float(page.evaluate(TAP_JS, name)))
        page.wait_for_selector(READY, timeout=WAIT_MS)


def p95(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=20, method="inclusive")[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--url")
    args = ap.parse_args()
    proc = None
    with tempfile.TemporaryDirectory() as data:
        url = args.url
        if url is None:
            proc, url = serve(data)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
                pages, checks, times = {}, {}, {}
                for on in (False, True):
                    context = browser.new_context(viewport={"width": 1440, "height": 900})
                    switch = "on" if on else "off"
                    context.add_init_script(
                        f"window.__heartsTestPace = 0.05; localStorage.setItem("
                        f"'hearts-checker', '{switch}');"
                    )
                    page = context.new_page()
                    seen: dict[int, Any] = {}
                    page.on(
                        "response",
                        lambda r, seen=seen: (
                            seen.update({r.json()["version"]: r.json()})
                            if r.url.endswith("/api/check") and r.ok
                            else None
                        ),
                    )
                    page.goto(url)
                    pages[on], checks[on], times[on] = page, seen, []
                for hand in range(args.hands):
                    for on in (False, True):  # in turn: the same machine load for both
                        page = pages[on]
                        play_hand(page, on, checks[on], times[on])
                        if hand + 1 < args.hands:
                            page.locator("#next-hand").click()
                browser.close()
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait()
    print("| Cảnh báo nước đi | taps | median ms | p95 ms | max ms |")
    print("|---|---|---|---|---|")
    for on in (False, True):
        xs = times[on]
        print(
            f"| {'on' if on else 'off'} | {len(xs)} | {statistics.median(xs):.1f} | "
            f"{p95(xs):.1f} | {max(xs):.1f} |"
        )


if __name__ == "__main__":
    main()
