"""The database out of reach: PostgreSQL down, restarting or unreachable, SQLite
locked past its busy timeout, read-only or on a full disk.

Nothing is wrong with the request or the server's code then, and nothing was
changed (the transaction did not commit), so a call answers 503 ``unavailable``
with ``Retry-After`` (web/errors.py) and the log gets one line per failure rather
than a traceback; a background loop (the rooms' sweep, LISTEN, the retention)
that keeps failing says so once a minute.  Any other database error is a bug: a
traceback and 500, as before.
"""

from __future__ import annotations

import logging
import sqlite3
import time

import sqlalchemy as sa

#: Seconds a caller is asked to wait before trying again (``Retry-After``).
RETRY_AFTER = 5
#: Seconds between two lines of one background loop while the database stays away.
QUIET_SECONDS = 60.0
#: SQLite's words for a database that cannot be used now (its other
#: OperationalErrors, such as ``no such table``, are bugs).
SQLITE_AWAY = (
    "locked",
    "busy",
    "readonly",
    "read-only",
    "disk is full",
    "unable to open",
    "disk i/o error",
)

_said: dict[str, float] = {}


def unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database cannot be reached or used now.

    >>> unavailable(sa.exc.OperationalError("SELECT 1", {}, sqlite3.OperationalError(
    ...     "attempt to write a readonly database")))
    True
    >>> unavailable(sa.exc.OperationalError("SELECT 1", {}, sqlite3.OperationalError(
    ...     "no such table: players")))
    False
    >>> unavailable(ValueError("x"))
    False
    """
    if isinstance(exc, sa.exc.TimeoutError):  # no connection free in the pool
        return True
    if isinstance(exc, sa.exc.DBAPIError):
        if exc.connection_invalidated:
            return True
        if not isinstance(exc, (sa.exc.OperationalError, sa.exc.InterfaceError)):
            return False
        if exc.orig is None:
            return False
        exc = exc.orig
    if isinstance(exc, sqlite3.Error):
        text = str(exc).lower()
        return isinstance(exc, sqlite3.OperationalError) and any(w in text for w in SQLITE_AWAY)
    return _psycopg_away(exc)


def _psycopg_away(exc: BaseException) -> bool:
    try:
        import psycopg
    except ImportError:  # the postgres extra is not installed: no PostgreSQL either
        return False
    return isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError))


def describe(exc: BaseException) -> str:
    """The driver's first line about it (no SQL, no parameters: a password never
    appears in a libpq message either)."""
    inner = exc.orig if isinstance(exc, sa.exc.DBAPIError) else exc
    lines = str(inner).strip().splitlines()
    return f"{type(inner).__name__}: {lines[0] if lines else ''}".rstrip(": ")


def warn(log: logging.Logger, what: str, exc: BaseException) -> None:
    """The one line of a failure that :func:`unavailable` recognised."""
    log.warning("%s: database unavailable (%s)", what, describe(exc))


def report(log: logging.Logger, message: str, exc: BaseException) -> None:
    """A background loop's failure (``message`` says which): a line now and then
    while the database is away, a traceback for anything else."""
    if not unavailable(exc):
        log.error("%s", message, exc_info=exc)
        return
    at = time.monotonic()
    if at - _said.get(message, -QUIET_SECONDS) >= QUIET_SECONDS:
        _said[message] = at
        warn(log, message, exc)
