"""``hearts serve``: the web game on uvicorn, with no set-up.

The settings come from the command line and the environment (docs/config.md).
Once the server listens it prints its address on stdout (the first line is always
a URL usable on this machine, so a script can start it with ``--port 0`` and read
the real port); with ``--host 0.0.0.0`` the further lines are the other addresses
it answers on.  A setting, database or port it cannot use is one line on stderr
and exit status 1 (2 for a malformed setting), never a traceback.

``--workers N`` runs N server processes under uvicorn's supervisor on one socket;
each builds its app with ``create_app()`` from the settings, which this process
puts in the environment first.
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import socket
import sys
from typing import Any

import uvicorn
from uvicorn.supervisors import Multiprocess

from hearts.server.addresses import is_loopback, is_wildcard, listening_urls
from hearts.server.config import Config, ConfigError, default_data_dir
from hearts.server.web.connections import server_options

APP_FACTORY = "hearts.server.app:create_app"
#: seconds the workers of ``--workers N`` have to start before the address is printed
WORKERS_START_TIMEOUT = 120.0


def _say(message: str) -> None:
    print(f"hearts serve: {message}", file=sys.stderr, flush=True)


def shown_url(url: str) -> str:
    """``url`` without its password, for messages."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", url)


def _reason(exc: BaseException) -> str:
    """The first line of what went wrong (a driver's own words when there are some)."""
    inner = getattr(exc, "orig", None) or exc
    text = str(inner).strip().splitlines()
    return text[0] if text else type(inner).__name__


def _uvicorn_config(app: Any, **options: Any) -> uvicorn.Config:
    # proxy_headers off: the client's address is the TCP peer unless the peer is a
    # trusted proxy (web/ratelimit.py, --trusted-proxy), not whatever uvicorn believes.
    # server_options: the guard against slow and half-sent requests (web/connections.py).
    return uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="on",
        proxy_headers=False,
        **server_options(),
        **options,
    )


class _Server(uvicorn.Server):
    """Prints the addresses once the socket is served."""

    urls: list[str]  # set before run

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if not self.should_exit:
            print("\n".join(self.urls), flush=True)


class _Supervisor(Multiprocess):
    """uvicorn's supervisor of N workers that prints the addresses once every worker
    serves (before that, connections wait in the socket's backlog)."""

    urls: list[str]  # set before run
    printed = False

    def init_processes(self) -> None:
        super().init_processes()
        for process in self.processes:
            wait = getattr(process, "wait_until_ready", None)  # uvicorn >= 0.46
            if wait is not None and not wait(WORKERS_START_TIMEOUT, self.should_exit):
                return  # the supervisor sees the failed worker and stops
        print("\n".join(self.urls), flush=True)
        self.printed = True


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets that say TCP, and
    # without it a kept-alive connection waits ~40 ms on delayed ACKs.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except BaseException:
        sock.close()
        raise
    sock.set_inheritable(True)  # for the workers of --workers N
    return sock


def serve(args: argparse.Namespace) -> int:
    try:
        config = Config.from_args(args)
    except ConfigError as exc:
        _say(str(exc))
        return 2
    data_dir = config.data_dir or default_data_dir()
    in_data_dir = not config.database_url
    try:
        config = config.resolved()  # creates the data dir
    except FileExistsError:
        _say(f"cannot use the data dir {data_dir}: not a directory")
        return 1
    except OSError as exc:
        _say(f"cannot use the data dir {data_dir}: {exc.strerror or exc}")
        return 1
    url = config.database_url
    assert url is not None
    if in_data_dir and not os.access(data_dir, os.W_OK | os.X_OK):
        _say(f"cannot use the data dir {data_dir}: not writable")  # SQLite writes beside the file
        return 1
    # The workers (and the database layer) read the settings from here.
    os.environ.update(config.to_env())

    from hearts.server.app import create_app  # after the environment is set
    from hearts.server.store.db import Store
    from hearts.server.table.computers import bot_pool

    # Listen before the bot workers start: a port in use then stops nothing half-made
    # (workers killed while they start print tracebacks at exit).
    try:
        sock = _listen(config.host, config.port)
    except OSError as exc:
        _say(f"cannot listen on {config.host}:{config.port}: {exc.strerror or exc}")
        return 1

    # Open the database here first: a bad URL, an unreachable server or an unwritable
    # file is one line now rather than a traceback in every worker.
    app: Any = APP_FACTORY
    try:
        if config.workers == 1:
            # Khó's workers warm up in the background: the server listens meanwhile
            pool = functools.partial(bot_pool, config.bot_pool_size(), _say)
            app = create_app(config=config, executor_factory=pool)
        else:
            Store(url).close()
    except Exception as exc:
        sock.close()
        _say(f"cannot open the database {shown_url(url)}: {_reason(exc)}")
        return 1

    urls = listening_urls(sock, config.host)
    _say(f"database {shown_url(url).split('@')[-1]}")
    if not is_loopback(config.host):
        where = "every interface" if is_wildcard(config.host) else config.host
        _say(
            f"listening on {where} in plain HTTP (no TLS): on a public network put a "
            "TLS reverse proxy in front (docs/deploy.md) and set --trusted-proxy"
        )
        if config.seed is not None:
            _say("warning: --seed makes the deals predictable; use it for tests only")
    try:
        if config.workers == 1:
            server = _Server(_uvicorn_config(app))
            server.urls = urls
            server.run(sockets=[sock])  # the app's lifespan shuts the bot workers down
            return 0 if server.started else 1
        supervisor = _Supervisor(
            _uvicorn_config(app, factory=True, workers=config.workers), sockets=[sock]
        )
        supervisor.urls = urls
        supervisor.run()
        return 0 if supervisor.printed else 1
    finally:
        sock.close()
