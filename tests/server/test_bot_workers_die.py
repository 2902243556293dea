"""``hearts serve`` killed with SIGKILL takes its bot worker processes with it (issue 37:
they were left running, parent PID 1, holding their memory)."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from processes import hearts_command

START_TIMEOUT = 120.0
GONE_WITHIN = 5.0  # seconds


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_bot_workers_die_with_their_server(tmp_path: Path) -> None:
    cmd = hearts_command("serve", "--port", "0", "--data-dir", str(tmp_path))
    env = {k: v for k, v in os.environ.items() if k != "HEARTS_DATABASE_URL"}
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=log, text=True, env=env, start_new_session=True
    )
    try:
        assert server.stdout is not None
        ready, _, _ = select.select([server.stdout], [], [], START_TIMEOUT)
        assert ready, "hearts serve printed no address"
        assert server.stdout.readline().startswith("http://")  # its bot pool is warm
        workers = _children(server.pid)
        assert workers, "hearts serve started no bot worker"
        server.send_signal(signal.SIGKILL)
        server.wait()
        deadline = time.monotonic() + GONE_WITHIN
        while _group_alive(server.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _group_alive(server.pid), "a process of the killed server is still running"
    finally:
        if _group_alive(server.pid):
            os.killpg(server.pid, signal.SIGKILL)
        log.close()
