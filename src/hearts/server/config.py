"""Every setting of the server, in one :class:`Config` value.

Each setting has one name, spelled ``--some-name`` on the command line and
``HEARTS_SOME_NAME`` in the environment; the command line wins.  ``hearts serve``
reads both; ``create_app()`` with no arguments (``uvicorn
hearts.server.app:create_app --factory``, or a worker process of ``hearts serve
--workers N``) reads the environment, so every way of starting serves the same
database with the same settings.  docs/config.md lists them (a test keeps that
page and :data:`SETTINGS` in step).
"""

from __future__ import annotations

import argparse
import dataclasses
import ipaddress
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class ConfigError(ValueError):
    """A setting with a value it cannot take (the message names the setting)."""


# -- how a value is read --------------------------------------------------------------
def _int(low: int | None, high: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise ValueError(f"not an integer: {text!r}") from None
        if (low is not None and value < low) or (high is not None and value > high):
            bound = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise ValueError(f"must be {bound}, not {value}")
        return value

    return parse


def _amount(unit: str) -> Callable[[str], float]:
    """A number of ``unit`` (seconds, days): 0 or more, finite."""

    def parse(text: str) -> float:
        try:
            value = float(text.strip())
        except ValueError:
            raise ValueError(f"not a number of {unit}: {text!r}") from None
        if not value >= 0 or value == float("inf"):
            raise ValueError(f"must be 0 or more {unit}, not {text!r}")
        return value

    return parse


_seconds = _amount("seconds")


def _positive_seconds(text: str) -> float:
    value = _seconds(text)
    if value == 0:
        raise ValueError(f"must be more than 0 seconds, not {text!r}")
    return value


_days = _amount("days")


def _text(text: str) -> str:
    return text.strip()


def _path(text: str) -> Path:
    return Path(text.strip()).expanduser()


def _networks(text: str) -> tuple[Network, ...]:
    """``10.0.0.1, 192.168.0.0/16, ::1``: addresses and CIDR blocks."""
    found: list[Network] = []
    for part in text.replace(" ", ",").split(","):
        if part:
            try:
                found.append(ipaddress.ip_network(part, strict=False))
            except ValueError:
                raise ValueError(f"not an IP address or CIDR block: {part!r}") from None
    return tuple(found)


def _synchronous(text: str) -> str:
    value = text.strip().upper()
    if value not in ("FULL", "NORMAL"):
        raise ValueError(f"must be FULL or NORMAL, not {text!r}")
    return value


@dataclass(frozen=True)
class Setting:
    """One setting: the Config field, its command-line spelling and its help."""

    field: str
    parse: Callable[[str], Any]
    help: str
    aliases: tuple[str, ...] = ()
    metavar: str | None = None

    @property
    def flag(self) -> str:
        return "--" + self.field.replace("_", "-")

    @property
    def env(self) -> str:
        return "HEARTS_" + self.field.upper()


SETTINGS: tuple[Setting, ...] = (
    Setting("host", _text, "the address to listen on (0.0.0.0 or :: for every interface)"),
    Setting("port", _int(0, 65535), "the TCP port (0 picks a free one)"),
    Setting(
        "database_url",
        _text,
        "a SQLAlchemy URL, e.g. postgresql+psycopg://user@host/db (default: SQLite in DATA_DIR)",
        aliases=("--database",),
        metavar="URL",
    ),
    Setting("data_dir", _path, "where the SQLite database lives", metavar="DIR"),
    Setting("workers", _int(1), "server processes (each with its own Khó workers)"),
    Setting(
        "bot_processes",
        _int(1),
        "Khó decision processes in all, shared out among the workers (default: the cores)",
    ),
    Setting(
        "analysis_iterations",
        _int(1, 1_000_000),
        "Khó's playouts per decision when it analyses a player's hand (Phân tích)",
    ),
    Setting(
        "analysis_stale",
        _positive_seconds,
        "seconds without a heartbeat after which another process takes over an analysis",
        metavar="SECONDS",
    ),
    Setting("seed", _int(None), "reproducible deals: for tests only, never on a public server"),
    Setting(
        "trusted_proxy",
        _networks,
        "reverse proxies (IPs or CIDRs, comma-separated) whose X-Forwarded-For is believed",
        metavar="NETS",
    ),
    Setting(
        "ipv6_prefix",
        _int(32, 128),
        "the per-address limits count an IPv6 client by this prefix (128: each address alone)",
        metavar="BITS",
    ),
    Setting("new_player_burst", _int(1), "new tokens one address may make at once"),
    Setting(
        "new_player_interval",
        _seconds,
        "seconds per further token from one address (0: no limit)",
        metavar="SECONDS",
    ),
    Setting(
        "unused_days",
        _days,
        "a token never used for a move is forgotten after this many idle days",
        metavar="DAYS",
    ),
    Setting(
        "keep_days",
        _days,
        "a player (with saved matches and hands) idle this many days is removed",
        metavar="DAYS",
    ),
    Setting(
        "room_lobby_days",
        _days,
        "a room whose match never started is removed after this many days unchanged",
        metavar="DAYS",
    ),
    Setting(
        "room_days",
        _days,
        "any other room (finished or left unfinished) is removed after this many days unchanged",
        metavar="DAYS",
    ),
    Setting(
        "prune_every",
        _seconds,
        "seconds between the server's own retention passes (0: never; hearts prune by hand)",
        metavar="SECONDS",
    ),
    Setting(
        "sqlite_synchronous",
        _synchronous,
        "FULL (each action on disk before its answer) or NORMAL (faster; a power cut may "
        "lose the last actions)",
        metavar="FULL|NORMAL",
    ),
    Setting(
        "room_pace",
        _seconds,
        "rooms: seconds between the computers' cards (a finished trick is held 3 times as long)",
        metavar="SECONDS",
    ),
    # Public tables (docs/api.md "Public tables"): their start, their turn, their limits.
    Setting(
        "public_start_seconds",
        _seconds,
        "public tables: a lobby with a human starts this long after it opened (or when full)",
        metavar="SECONDS",
    ),
    Setting(
        "public_turn_seconds",
        _int(10, 600),
        "public tables: seconds per turn, then Vừa plays for the away player (tự động)",
        metavar="SECONDS",
    ),
    Setting(
        "public_reaction_seconds",
        _seconds,
        "public tables: at most one reaction per player in this many seconds",
        metavar="SECONDS",
    ),
    Setting("public_seek_burst", _int(1), "public tables: seeks one player may make at once"),
    Setting(
        "public_seek_interval",
        _seconds,
        "public tables: seconds per further seek of one player (0: no limit)",
        metavar="SECONDS",
    ),
    Setting(
        "public_seek_address_burst", _int(1), "public tables: seeks one address may make at once"
    ),
    Setting(
        "public_seek_address_interval",
        _seconds,
        "public tables: seconds per further seek from one address (0: no limit)",
        metavar="SECONDS",
    ),
    Setting("public_react_burst", _int(1), "public tables: reactions one player may send at once"),
    Setting(
        "public_react_interval",
        _seconds,
        "public tables: seconds per further reaction of one player (0: no limit)",
        metavar="SECONDS",
    ),
    Setting(
        "public_react_address_burst",
        _int(1),
        "public tables: reactions one address may send at once",
    ),
    Setting(
        "public_react_address_interval",
        _seconds,
        "public tables: seconds per further reaction from one address (0: no limit)",
        metavar="SECONDS",
    ),
)


def default_data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME/hearts`` (``~/.local/share/hearts``)."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "hearts"


@dataclass(frozen=True)
class Config:
    """The server's settings (see :data:`SETTINGS` and docs/config.md)."""

    host: str = "127.0.0.1"
    port: int = 8000
    database_url: str | None = None
    data_dir: Path | None = None
    workers: int = 1
    bot_processes: int | None = None
    # The analysis's playouts per play at 40 cards (analysis.ITERATIONS): eight times
    # Khó's own (bots.hard.DEFAULT_ITERATIONS), all spent, so that it tells apart cards
    # a fraction of a point apart that Khó at play need not.
    analysis_iterations: int = 4_000
    # An analysis's process beats every 2 s (analysis_store.HEARTBEAT) and with each
    # decision weighed: 15 s of silence is a lost process, not a slow one.
    analysis_stale: float = 15.0
    seed: int | None = None
    trusted_proxy: tuple[Network, ...] = ()
    # A home or a phone is given a whole /64: its addresses are one client's.
    ipv6_prefix: int = 64
    new_player_burst: int = 20
    new_player_interval: float = 10.0
    unused_days: float = 1.0
    keep_days: float = 400.0
    room_lobby_days: float = 1.0
    room_days: float = 14.0
    prune_every: float = 3600.0
    sqlite_synchronous: str = "FULL"
    room_pace: float = 0.7
    public_start_seconds: float = 20.0
    public_turn_seconds: int = 30
    public_reaction_seconds: float = 3.0
    public_seek_burst: int = 5
    public_seek_interval: float = 2.0
    public_seek_address_burst: int = 200
    public_seek_address_interval: float = 0.05
    public_react_burst: int = 3
    public_react_interval: float = 3.0
    public_react_address_burst: int = 100
    public_react_address_interval: float = 0.1

    @classmethod
    def load(
        cls, given: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None
    ) -> Config:
        """The settings ``given`` (already parsed, e.g. from the command line; None
        means not given), else the environment's, else the defaults."""
        env = os.environ if environ is None else environ
        given = given or {}
        values: dict[str, Any] = {}
        for s in SETTINGS:
            if given.get(s.field) is not None:
                values[s.field] = given[s.field]
                continue
            raw = env.get(s.env)
            if raw is None or not raw.strip():
                continue
            try:
                values[s.field] = s.parse(raw)
            except ValueError as exc:
                raise ConfigError(f"{s.env}: {exc}") from None
        return cls(**values)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Config:
        return cls.load(None, environ)

    @classmethod
    def from_args(
        cls, args: argparse.Namespace, environ: Mapping[str, str] | None = None
    ) -> Config:
        return cls.load(vars(args), environ)

    def to_env(self) -> dict[str, str]:
        """These settings as environment variables (for processes started from here)."""
        env: dict[str, str] = {}
        for s in SETTINGS:
            value = getattr(self, s.field)
            if value is None:
                continue
            if isinstance(value, tuple):
                env[s.env] = ",".join(str(v) for v in value)
            else:
                env[s.env] = str(value)
        return env

    def resolved(self) -> Config:
        """The same settings with the database URL made explicit (the SQLite file
        in the data dir, which is created): every process then opens the same one."""
        if self.database_url:
            return self
        data_dir = self.data_dir or default_data_dir()
        data_dir.mkdir(parents=True, exist_ok=True)
        url = f"sqlite:///{(data_dir / 'hearts.db').resolve()}"
        return dataclasses.replace(self, database_url=url, data_dir=data_dir)

    def bot_pool_size(self) -> int:
        """Khó processes for each server process: about the cores in all."""
        total = self.bot_processes or os.cpu_count() or 1
        return max(1, total // self.workers)


def _for_argparse(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """``parse`` whose refusal argparse shows as it is (not "invalid value")."""

    def wrapped(text: str) -> Any:
        try:
            return parse(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return wrapped


def add_arguments(
    parser: argparse.ArgumentParser, skip: Iterable[str] = (), only: Iterable[str] | None = None
) -> None:
    """Every setting (or ``only`` those) as an option of ``parser`` (default None:
    not given)."""
    keep = None if only is None else set(only)
    for s in SETTINGS:
        if s.field in skip or (keep is not None and s.field not in keep):
            continue
        parser.add_argument(
            s.flag,
            *s.aliases,
            dest=s.field,
            type=_for_argparse(s.parse),
            default=None,
            metavar=s.metavar,
            help=f"{s.help} [{s.env}]",
        )
