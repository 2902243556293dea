"""Stopping (or killing, as a crash would) a ``hearts serve`` subprocess started in its
own process group, for every test that starts one (browser, HTTP, workers, deploy)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys


def hearts_command(*args: str) -> list[str]:
    """The ``hearts`` command line with ``args``, run by this interpreter (so the
    package under test, installed or not)."""
    return [
        sys.executable,
        "-c",
        "import sys; from hearts.cli import main; sys.exit(main())",
        *args,
    ]


def stop_group(proc: subprocess.Popen[str], timeout: float = 15) -> None:
    """SIGTERM the server's process group, SIGKILL it if it lingers, and then kill
    whatever of the group outlived the server (spawned bot workers)."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=timeout)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


def kill_group(proc: subprocess.Popen[str], timeout: float = 30) -> None:
    """SIGKILL the server's whole process group at once (a crash: no clean stop, its
    bot workers with it) and wait for the server to be gone."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=timeout)
