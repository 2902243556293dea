"""``hearts serve`` in a subprocess, for the tests that need real sockets (the
test client of the other server tests never goes through uvicorn)."""

from __future__ import annotations

import contextlib
import os
import queue
import resource
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

from processes import hearts_command, stop_group

START_TIMEOUT = 60.0  # seconds for the server to print its address (a loaded machine)


def serve_command(data_dir: Path, *args: str) -> list[str]:
    """``hearts serve`` on a free loopback port with ``data_dir``, as a command line."""
    return hearts_command(
        "serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", str(data_dir), *args
    )


@contextlib.contextmanager
def hearts_serve(
    data_dir: Path, *args: str, nofile: int | None = None, log: Path | None = None
) -> Iterator[str]:
    """Start ``hearts serve --port 0`` (open files limited to ``nofile``, soft and
    hard, if given), yield its address, stop it.  Its stderr goes to ``log``."""
    log = log or data_dir / "server.log"
    env = {k: v for k, v in os.environ.items() if k != "HEARTS_DATABASE_URL"}
    cmd = serve_command(data_dir, *args)

    def limit() -> None:
        if nofile is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    with log.open("a") as err:
        # its own process group: stopping it also ends the bot workers it spawns
        proc = subprocess.Popen(
            cmd,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env=env,
            start_new_session=True,
            preexec_fn=limit,
        )
    try:
        lines: queue.Queue[str] = queue.Queue()
        stdout = proc.stdout
        assert stdout is not None
        threading.Thread(target=lambda: [lines.put(x) for x in stdout], daemon=True).start()
        try:
            url = lines.get(timeout=START_TIMEOUT).strip()
        except queue.Empty:
            raise RuntimeError(f"hearts serve printed no address: {log.read_text()}") from None
        yield url
    finally:
        stop_group(proc)


def serve_secretly(data_dir: Path) -> tuple[subprocess.Popen[str], str]:
    """``hearts serve`` (no --seed: secret seeds) in its own process group."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEARTS_")}
    with (data_dir / "server.log").open("a") as log:
        proc = subprocess.Popen(
            serve_command(data_dir),
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
            env=env,
            start_new_session=True,
        )
    assert proc.stdout is not None
    return proc, proc.stdout.readline().strip().rstrip("/")
