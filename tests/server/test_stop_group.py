"""A stop sent to the server's whole process group (systemd's default
``KillMode=control-group``, Ctrl+C in a terminal): the bot workers ignore it and
leave with their server, which stops without taking their end for a death and
starting new ones (issue 57, item 12)."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_first_start import ANSWERS_WITHIN, READY, READY_WITHIN, STOPS_WITHIN, Player, Server
from test_first_start import servers as servers  # the fixture: its servers are stopped

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_sent_to_the_whole_group_renews_no_worker(
    tmp_path: Path,
    servers,
    stop: int,
) -> None:
    server = Server(tmp_path / "data", os.environ.copy())
    servers.append(server)
    south = Player(server.url(ANSWERS_WITHIN))
    server.wait_until_said(READY, READY_WITHIN)
    south.call("PUT", "/api/settings", {"level": "hard"})
    state = south.pass_three()
    done = threading.Event()

    def keep_khó_thinking() -> None:
        s = state
        while not done.is_set():
            try:
                s = south.step(s) if s["hand"]["turn"] != "S" else south.call("GET", "/api/state")
                if s["hand"]["turn"] == "S" and s["hand"]["phase"] == "play":
                    s = south.call(
                        "POST",
                        "/api/play",
                        {"version": s["version"], "card": s["hand"]["legal"][0]},
                    )
            except (AssertionError, httpx.HTTPError):
                return  # the server is stopping

    thinking = threading.Thread(target=keep_khó_thinking, daemon=True)
    thinking.start()
    time.sleep(1.0)  # Khó's decisions in the worker when the signal comes
    os.killpg(server.proc.pid, stop)  # the server and its workers alike
    rc = server.proc.wait(timeout=STOPS_WITHIN)
    done.set()
    assert rc in (0, -stop, 128 + stop), server.err
    assert not server.said("the bot workers died"), server.err
    assert not any("Traceback" in line for line in server.err), server.err
