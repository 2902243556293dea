"""``hearts serve``: the web game on uvicorn, with no set-up.

The database is SQLite in ``--data-dir`` (default: the user's data directory)
unless ``--database`` or ``HEARTS_DATABASE_URL`` names another.  Once the server
listens it prints its address on stdout, so a script can start it with
``--port 0`` and read the real port.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import socket
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import uvicorn

from hearts.server.app import create_app
from hearts.server.game import warm_up
from hearts.server.protocol import server_options


def default_data_dir() -> Path:
    """``$HEARTS_DATA_DIR``, else ``$XDG_DATA_HOME/hearts`` (``~/.local/share/hearts``)."""
    env = os.environ.get("HEARTS_DATA_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "hearts"


def database_url(args: argparse.Namespace) -> str:
    url = args.database or os.environ.get("HEARTS_DATABASE_URL")
    if url:
        return str(url)
    data_dir = Path(args.data_dir) if args.data_dir else default_data_dir()
    data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(data_dir / 'hearts.db').resolve()}"


class _Server(uvicorn.Server):
    """Prints the address once the socket is served."""

    address = ""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if not self.should_exit:
            print(self.address, flush=True)


def bot_workers() -> ProcessPoolExecutor:
    """Processes for the computers' decisions: Khó thinks without holding the server."""
    size = min(2, os.cpu_count() or 1)
    pool = ProcessPoolExecutor(
        max_workers=size,
        # spawn, not fork: the server has threads by the time workers are (re)made.
        mp_context=multiprocessing.get_context("spawn"),
        initializer=warm_up,
    )
    for _ in range(size):  # start (and warm) the workers now, not on Khó's first card
        pool.submit(int)
    return pool


def serve(args: argparse.Namespace) -> int:
    url = database_url(args)
    app = create_app(url, seed=args.seed, executor_factory=bot_workers)
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets that say TCP, and
    # without it a kept-alive connection waits ~40 ms on delayed ACKs.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as exc:
        print(f"hearts serve: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1
    port = sock.getsockname()[1]
    host = f"[{args.host}]" if family == socket.AF_INET6 else args.host
    if args.host in ("0.0.0.0", "::"):
        host = "127.0.0.1" if family == socket.AF_INET else "[::1]"
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, lifespan="on", **server_options()
    )
    server = _Server(config)
    server.address = f"http://{host}:{port}/"
    print(f"hearts serve: database {url.split('@')[-1]}", file=sys.stderr, flush=True)
    try:
        server.run(sockets=[sock])  # the app's lifespan shuts the bot workers down
    finally:
        sock.close()
    return 0
