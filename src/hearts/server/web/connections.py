"""The server's HTTP connections: uvicorn's h11 protocol, hardened for the open internet.

* Every request has :data:`REQUEST_DEADLINE` seconds to arrive whole (headers and
  body), counted from the connection's start or from the end of the previous
  response; a trickle of bytes does not extend it.  Then the connection is closed.
* An answer has :data:`WRITE_DEADLINE` seconds to be read: a connection whose unsent
  bytes (the server's and the kernel's) have not shrunk for that long (its client
  does not read) is reset, so that neither it nor what its answer holds stays open.
* Open connections are capped (from ``RLIMIT_NOFILE``, raised soft to hard at start,
  less a reserve for the database, the bot workers and files).  When the cap is
  reached, a newcomer closes the oldest connection that has waited a while for its
  request, else the one whose client has read nothing for longest, else the oldest
  waiting, so a normal request always gets in, however many clients stall.
* Headers over :data:`HEADER_LIMIT` get 431 and the connection is closed.
* Repeated trouble (accept errors such as EMFILE, timeouts, evictions, bad requests)
  is one log line per kind per :data:`LOG_INTERVAL`, with a count, not a line (or a
  traceback) per event.

:func:`server_options` gives the ``uvicorn.Config`` keyword arguments for all of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import fcntl
import json
import logging
import resource
import socket
import struct
import termios
import threading
import time
import weakref
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import h11
import uvicorn.config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from hearts.server.i18n.messages import error_message, error_status
from hearts.server.web.middleware import BODY_LIMIT

REQUEST_DEADLINE = 10.0  # seconds for a request to arrive whole
KEEP_ALIVE = 5  # seconds an idle kept-alive connection stays open (uvicorn's default)
HEADER_LIMIT = 16 * 1024  # bytes of request line and headers
WRITE_DEADLINE = 10.0  # seconds an answer's unsent bytes may stay without shrinking
SWEEP_INTERVAL = 1.0  # seconds between looks at the connections' unsent bytes
# Files the server needs besides its connections: the database (SQLite's file, WAL and
# shared memory per pooled connection, or PostgreSQL sockets), the bot workers' pipes,
# static files being sent, logs.
FILES_RESERVE = 128
MAX_CONNECTIONS = 10_000  # memory, not files, bounds a bigger server
LOG_INTERVAL = 60.0
_OUTQ = getattr(termios, "TIOCOUTQ", None)  # a socket's unacknowledged bytes (Linux)

log = logging.getLogger("hearts.server.web.connections")


def open_file_limit() -> int:
    """The soft limit on open files (no limit counts as plenty)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return 4 * MAX_CONNECTIONS if soft == resource.RLIM_INFINITY else soft


def raise_open_file_limit() -> int:
    """Raise the soft limit on open files to the hard one; the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):  # e.g. a hard limit over nr_open
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return open_file_limit()


def accept_backlog(nofile: int) -> int:
    """The listen backlog, which is also how many connections asyncio accepts in one
    turn of the loop before any of them is counted: small beside the file limit."""
    return max(16, min(512, nofile // 16))


def connection_cap(nofile: int, backlog: int) -> int:
    """Connections to keep open at most.  Up to three turns' worth of accepts
    (``backlog`` each) are open files the cap has not counted yet, or has evicted
    but not yet closed."""
    return max(16, min(MAX_CONNECTIONS, nofile - FILES_RESERVE - 3 * backlog))


class Doors:
    """The connections of one server: the cap, those still waiting for their request,
    oldest first, and those with unsent bytes, by how long their client has read
    nothing (the ones to evict, in this order)."""

    def __init__(self, cap: int, deadline: float, write_deadline: float = WRITE_DEADLINE) -> None:
        self.cap = cap
        self.deadline = deadline
        self.write_deadline = write_deadline
        #: since when each has waited for its request; insertion order: oldest first
        self.waiting: dict[HeartsH11Protocol, float] = {}
        self.open: set[HeartsH11Protocol] = set()
        #: unsent bytes and since when they have not shrunk, the longest-stalled first
        self.unread: dict[HeartsH11Protocol, tuple[int, float]] = {}
        self.sweeping: asyncio.TimerHandle | None = None

    def watch(self, conn: HeartsH11Protocol) -> None:
        self.open.add(conn)
        if self.sweeping is None:
            self.sweeping = conn.loop.call_later(SWEEP_INTERVAL, self.sweep, conn.loop)

    def forget(self, conn: HeartsH11Protocol) -> None:
        self.open.discard(conn)
        self.unread.pop(conn, None)

    def sweep(self, loop: asyncio.AbstractEventLoop) -> None:
        """Reset the connections whose unsent bytes have not shrunk for the write
        deadline (a closing transport too: its close waits for them to be sent)."""
        now = loop.time()
        for conn in list(self.open):
            size = conn.transport.get_write_buffer_size() + conn.kernel_queue()
            seen = self.unread.get(conn)
            if size == 0:
                self.unread.pop(conn, None)
            elif seen is None or size < seen[0]:  # read some: its clock starts again
                self.unread.pop(conn, None)
                self.unread[conn] = (size, now)
            elif now - seen[1] >= self.write_deadline:
                log.warning(
                    "closed a connection: its client read none of its answer for %g s",
                    self.write_deadline,
                )
                conn._reset()
            else:
                self.unread[conn] = (size, seen[1])
        self.sweeping = loop.call_later(SWEEP_INTERVAL, self.sweep, loop) if self.open else None

    def victim(self, now: float) -> tuple[HeartsH11Protocol, bool] | None:
        """Whom a newcomer over the cap closes (and whether by a reset): one that has
        waited a while for its request, else one that has read nothing for a while,
        else the oldest waiting.  A connection just made is spared while there are
        others, as it has had no time to send its request."""
        oldest = next(iter(self.waiting.items()), None)
        if oldest is not None and now - oldest[1] >= SWEEP_INTERVAL:
            return oldest[0], False
        for conn, (_size, since) in self.unread.items():
            if now - since >= SWEEP_INTERVAL:
                return conn, True
            break
        return (oldest[0], False) if oldest is not None else None


# One Doors per uvicorn server (a worker process has its own), made on its first
# connection: the protocol class stays a plain module-level name that ``--workers``
# can pickle.
_doors: weakref.WeakKeyDictionary[ServerState, Doors] = weakref.WeakKeyDictionary()


def doors_of(server_state: ServerState, backlog: int) -> Doors:
    doors = _doors.get(server_state)
    if doors is None:
        cap = connection_cap(open_file_limit(), backlog)
        doors = _doors[server_state] = Doors(cap, REQUEST_DEADLINE)
    return doors


class HeartsH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline per request and a cap on connections."""

    _deadline: asyncio.TimerHandle | None = None
    _upgraded = False  # a WebSocket took the connection over: no request deadline

    def __init__(
        self,
        config: uvicorn.config.Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.doors = doors_of(server_state, config.backlog)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        doors = self.doors
        doors.watch(self)
        if len(self.connections) > doors.cap:
            victim = doors.victim(self.loop.time())
            if victim is not None and not victim[1]:
                log.warning("connections: %d open, the cap; closed the oldest idle one", doors.cap)
                victim[0]._close()
            elif victim is not None:
                log.warning("connections: %d open, the cap; reset one not reading", doors.cap)
                victim[0]._reset()
            else:
                # Every open connection is busy with a request: the newcomer waits its turn.
                log.warning("connections: %d open and all busy; refused one", doors.cap)
                self._close()
                return
        self._await_request()

    def connection_lost(self, exc: Exception | None) -> None:
        self._request_arrived()
        self.doors.forget(self)
        super().connection_lost(exc)

    def handle_events(self) -> None:
        # h11 limits only headers that arrive in pieces; these came in one read.
        if self.conn.their_state is h11.IDLE:
            pending = self.conn.trailing_data[0]
            end = pending.find(b"\r\n\r\n")
            if end > HEADER_LIMIT or (end < 0 and len(pending) > HEADER_LIMIT):
                log.warning("refused a request: headers over %d bytes", HEADER_LIMIT)
                self.send_400_response("headers too large")
                return
        super().handle_events()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._check_request()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # may start a pipelined request
        if not self.transport.is_closing():
            self._check_request(restart=True)

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._request_arrived()  # the WebSocket protocol takes the connection over
        self.doors.forget(self)
        self._upgraded = True
        super().handle_websocket_upgrade(event)

    def send_400_response(self, msg: str) -> None:
        """A request h11 cannot parse: the one error shape (431 for headers over the
        limit), then close."""
        oversize = len(self.conn.trailing_data[0]) > HEADER_LIMIT
        code = "headers_too_large" if oversize else "bad_request"
        status = error_status(code)
        body = json.dumps(
            {"error": {"code": code, "message": error_message(code)}}, ensure_ascii=False
        ).encode()
        head = (
            f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n"
            "content-type: application/json\r\n"
            f"content-length: {len(body)}\r\n"
            "cache-control: no-store\r\n"
            "x-content-type-options: nosniff\r\n"
            "connection: close\r\n\r\n"
        )
        # h11 has put the connection in its ERROR state: the answer is written as is.
        self.transport.write(head.encode("ascii") + body)
        self.transport.close()

    # -- the deadline ---------------------------------------------------------

    def _check_request(self, restart: bool = False) -> None:
        """Start the clock if a request is awaited (``restart``: a fresh deadline
        after a response), stop it once the request is whole."""
        if self._upgraded:
            return  # a room's socket stays open as long as the page does
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
            if restart or self not in self.doors.waiting:
                self._await_request()
        else:
            self._request_arrived()

    def _await_request(self) -> None:
        doors = self.doors
        doors.waiting.pop(self, None)
        doors.waiting[self] = self.loop.time()  # now the newest
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_later(doors.deadline, self._too_slow)

    def _request_arrived(self) -> None:
        self.doors.waiting.pop(self, None)
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self in self.doors.waiting:
            log.warning(
                "closed a connection: its request did not arrive whole within %g s",
                self.doors.deadline,
            )
            self._close()

    def _close(self) -> None:
        self._request_arrived()
        if not self.transport.is_closing():
            self.transport.close()

    def kernel_queue(self) -> int:
        """The bytes the kernel holds for the client, not yet acknowledged: on a fast
        link (loopback) it takes megabytes a client that reads nothing never takes."""
        sock = self.transport.get_extra_info("socket")
        if sock is None or _OUTQ is None:
            return 0
        try:
            held = fcntl.ioctl(sock.fileno(), _OUTQ, b"\0\0\0\0")
        except (OSError, ValueError):  # closed meanwhile
            return 0
        return int(struct.unpack("i", held)[0])

    def _reset(self) -> None:
        """Close at once, unsent bytes dropped, with a reset: a client that reads
        nothing would keep a plain close (and the kernel's copy) waiting."""
        self._request_arrived()
        self.doors.forget(self)
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.transport.abort()


# -- logs ---------------------------------------------------------------------


@dataclass
class _Kind:
    logger: str
    level: int
    message: str
    started: float
    repeats: int = 0


#: Errors whose traceback tells nothing: the network's, the machine's, a client's bytes.
NO_TRACEBACK = (OSError, UnicodeDecodeError)


class OncePerInterval(logging.Filter):
    """One log line per kind of trouble per ``interval`` seconds: the first record of a
    kind passes, the rest are counted and told in one line at the end of the interval.
    Network and resource errors (``OSError``) and a client's bytes that are not UTF-8
    (uvicorn logs a socket's bad text frame as it closes it with 1007) lose their
    traceback, which tells nothing."""

    def __init__(self, interval: float = LOG_INTERVAL) -> None:
        super().__init__()
        self.interval = interval
        self.kinds: dict[tuple[str, str, str], _Kind] = {}
        self.lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "hearts_summary", False):
            return True
        exc = record.exc_info[1] if record.exc_info else None
        first_line = str(record.msg).split("\n", 1)[0]
        key = (record.name, first_line, type(exc).__name__ if exc else "")
        now = time.monotonic()
        ended: _Kind | None = None
        with self.lock:
            kind = self.kinds.get(key)
            if kind is not None and now - kind.started >= self.interval:
                ended = self.kinds.pop(key)  # its timer did not run (no event loop)
                kind = None
            if kind is not None:
                kind.repeats += 1
                passes = False
            else:
                message = record.getMessage().split("\n", 1)[0]
                if isinstance(exc, NO_TRACEBACK):
                    message = f"{message}: {exc}"
                self.kinds[key] = _Kind(record.name, record.levelno, message, now)
                passes = True
        if ended is not None:
            self._tell(ended)
        if passes:
            if isinstance(exc, NO_TRACEBACK):
                record.msg, record.args = self.kinds[key].message, None
                record.exc_info, record.exc_text = None, None
            self._schedule(key)
        return passes

    def _schedule(self, key: tuple[str, str, str]) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # told when the next record of the kind comes
        loop.call_later(self.interval, self._end, key)

    def _end(self, key: tuple[str, str, str]) -> None:
        with self.lock:
            kind = self.kinds.pop(key, None)
        if kind is not None:
            self._tell(kind)

    def _tell(self, kind: _Kind) -> None:
        if kind.repeats:
            logging.getLogger(kind.logger).log(
                kind.level,
                "%s (%d more like this in %g s)",
                kind.message,
                kind.repeats,
                self.interval,
                extra={"hearts_summary": True},
            )


def log_config() -> dict[str, Any]:
    """uvicorn's logging, plus a handler for every other logger (asyncio's accept
    errors, the app's), all through :class:`OncePerInterval`."""
    config: dict[str, Any] = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    config["filters"] = {"once": {"()": OncePerInterval}}
    config["formatters"]["named"] = {
        "()": "uvicorn.logging.DefaultFormatter",
        "fmt": "%(levelprefix)s %(name)s: %(message)s",
    }
    config["handlers"]["named"] = {
        "formatter": "named",
        "class": "logging.StreamHandler",
        "stream": "ext://sys.stderr",
    }
    for name in ("default", "named"):  # not the access log: a line per request is its point
        config["handlers"][name]["filters"] = ["once"]
    config["root"] = {"handlers": ["named"]}
    return config


def server_options() -> dict[str, Any]:
    """``uvicorn.Config`` keyword arguments for a server on the open internet (raises
    this process's open-file limit as a side effect)."""
    nofile = raise_open_file_limit()
    backlog = accept_backlog(nofile)
    return {
        "http": HeartsH11Protocol,
        "h11_max_incomplete_event_size": HEADER_LIMIT,
        "timeout_keep_alive": KEEP_ALIVE,
        "backlog": backlog,
        "log_config": log_config(),
        # a room socket's frame over its message limit is refused from its header,
        # before its payload is read (uvicorn's default reads 16 MiB first)
        "ws_max_size": BODY_LIMIT,
    }
