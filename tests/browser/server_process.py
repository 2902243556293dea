"""``hearts serve`` as a subprocess, for the browser tests."""

from __future__ import annotations

import os
import queue
import subprocess
import threading
from pathlib import Path

from processes import hearts_command, stop_group

START_TIMEOUT = 60.0  # seconds for the server to print its address (a loaded machine)


class HeartsServer:
    """``hearts serve`` on a free port of 127.0.0.1, with a data dir that outlives
    restarts of the process."""

    def __init__(self, data_dir: Path, seed: int = 1, args: tuple[str, ...] = ()) -> None:
        self.data_dir = data_dir
        self.seed = seed
        self.args = args  # more options of ``hearts serve`` (e.g. ``--room-pace 0``)
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.log = data_dir / "server.log"

    def start(self, port: int = 0) -> str:
        """Start the server (on ``port``, 0 for a free one) and return its address."""
        assert self.proc is None, "already running"
        env = {k: v for k, v in os.environ.items() if k != "HEARTS_DATABASE_URL"}
        cmd = hearts_command(
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--seed",
            str(self.seed),
            "--data-dir",
            str(self.data_dir),
            *self.args,
        )
        with self.log.open("a") as log:
            # its own process group: stop() also ends the worker processes it spawns
            self.proc = subprocess.Popen(
                cmd,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
                env=env,
                start_new_session=True,
            )
        lines: queue.Queue[str] = queue.Queue()
        stdout = self.proc.stdout
        assert stdout is not None
        threading.Thread(target=lambda: [lines.put(x) for x in stdout], daemon=True).start()
        try:
            line = lines.get(timeout=START_TIMEOUT)
        except queue.Empty:
            self.stop()
            raise RuntimeError(f"hearts serve printed no address: {self.log.read_text()}") from None
        self.url = line.strip()
        assert self.url.startswith("http://127.0.0.1:"), self.url
        return self.url

    def stop(self, timeout: float = 15) -> None:
        """SIGTERM, and SIGKILL after ``timeout`` seconds (:func:`processes.stop_group`)."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        stop_group(proc, timeout)

    @property
    def port(self) -> int:
        return int(self.url.rstrip("/").rsplit(":", 1)[1])

    def restart(self) -> str:
        """Stop and start again on the same port (the page's origin, hence its
        localStorage token, stays the same) with the same data dir."""
        port = self.port
        self.stop()
        return self.start(port)
