"""The web game's FastAPI app: the JSON API of docs/api.md and the static page.

The server is authoritative: it holds every match in the database and answers
each call with the State South may see.  Database work runs in threads (Dễ and
Vừa decide there too, inside the action's transaction: they take well under a
millisecond); Khó thinks in a worker pool (processes under ``hearts serve``), so
the event loop never waits on either.  Actions of one token are serialised by an
asyncio lock and, across processes, by the version check in the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import sys
from collections.abc import AsyncIterator, Callable, Coroutine
from concurrent.futures import Executor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from hearts.rules import Rules
from hearts.server.coach.jobs import Coach
from hearts.server.config import Config
from hearts.server.i18n.lang import Language
from hearts.server.players import transfer
from hearts.server.players.identity import Players
from hearts.server.public import api as public_api
from hearts.server.public.seating import Seating
from hearts.server.rooms import api as rooms_api
from hearts.server.rooms.live import Live
from hearts.server.rooms.service import Rooms
from hearts.server.solo import api as solo_api
from hearts.server.solo.tables import Tables
from hearts.server.store import retention
from hearts.server.store.db import Store
from hearts.server.table.computers import bot_pool
from hearts.server.web import catalogue, page, qr
from hearts.server.web.errors import install_error_handlers
from hearts.server.web.middleware import BODY_LIMIT, BodyLimit, HeadAsGet
from hearts.server.web.ratelimit import install as install_rate_limit
from hearts.server.web.schema import install_openapi
from hearts.server.web.security import SecurityHeaders
from hearts.server.web.stopping import on_stop_signal

STATIC_DIR = Path(__file__).parent / "static"
#: ``create_app(prune_every=…)``'s default: the configured interval.
FROM_CONFIG = -1.0


def create_app(
    database_url: str | None = None,
    *,
    seed: int | None = None,
    target: int = 100,
    rules: Rules | None = None,
    executor: Executor | None = None,
    executor_factory: Callable[[], Executor] | None = None,
    body_limit: int = BODY_LIMIT,
    unused_days: float | None = None,
    keep_days: float | None = None,
    prune_every: float | None = FROM_CONFIG,
    config: Config | None = None,
    room_pace: float | None = None,
) -> FastAPI:
    """The app on the database at ``database_url``.

    With no arguments (``uvicorn hearts.server.app:create_app --factory``, a worker
    of ``hearts serve --workers N``) every setting comes from the environment
    (docs/config.md) and Khó thinks in worker processes.  Otherwise the settings
    are ``config``'s (the defaults if None; the environment is not read), on the
    database at ``database_url`` if given.

    ``seed`` makes deals reproducible; ``target`` (or a whole ``rules``) sets the
    table; ``executor`` runs the costly computer decisions (Khó; a small thread
    pool if None), or ``executor_factory`` makes it, and a new one if its workers
    die.  Dễ and Vừa decide in a thread of their own.  The retention policy
    (docs/retention.md: ``unused_days``, ``keep_days``) runs at start and every
    ``prune_every`` seconds (None: never; ``hearts prune`` does it by hand); each
    comes from ``config`` when not given.  ``room_pace``: seconds between the
    computers' cards in a room (``config.room_pace`` if None).
    """
    config, database_url, executor_factory = _settings(
        config, database_url, executor, executor_factory
    )
    seed = config.seed if seed is None else seed
    store = Store(database_url, seed=seed)
    own_executor = executor is None
    if executor is None and executor_factory is not None:
        executor = executor_factory()
    workers = executor or ThreadPoolExecutor(max_workers=2, thread_name_prefix="hearts-bot")
    players = Players(store)
    table = rules or Rules(target=target)
    tables = Tables(store, table, workers, executor_factory, players=players)
    coach = Coach(tables)
    coach.analysis_iterations = config.analysis_iterations
    coach.analysis_stale = config.analysis_stale
    pace = config.room_pace if room_pace is None else room_pace
    rooms = Rooms(store, tables.computers, pace, lambda _c, _r: None)
    live = Live(rooms)
    seating = Seating(rooms, config.public_start_seconds, config.public_turn_seconds)
    pruning = _pruning(config, store, players, rooms, unused_days, keep_days, prune_every)

    app = FastAPI(
        title="Hearts",
        version="1",
        summary="The web game's JSON API (docs/api.md): South against three computers.",
        docs_url=None,
        openapi_url=None,  # web/schema.py serves it
        redoc_url=None,
        lifespan=_lifespan(tables, coach, rooms, live, seating, pruning, own_executor),
    )
    app.state.players = players  # who a player is: players/identity.py's PlayerId
    app.state.tables = tables
    app.state.coach = coach
    app.state.rooms = rooms
    app.state.live = live
    app.state.seating = seating
    _add_middleware(app, body_limit)
    install_error_handlers(app)
    install_rate_limit(app, config)
    install_openapi(app)
    rooms_api.install(app, players, table, rooms, live, config)
    public_api.install(app, table, rooms, seating, config)
    solo_api.install(app, tables, coach)
    transfer.install(app, players)
    app.include_router(catalogue.router)
    app.include_router(qr.router)
    page.install(app, STATIC_DIR, tables.first_deals.meta)
    return app


def _pruning(
    config: Config,
    store: Store,
    players: Players,
    rooms: Rooms,
    unused_days: float | None,
    keep_days: float | None,
    prune_every: float | None,
) -> Callable[[], Any] | None:
    """The retention policy's loop (docs/retention.md), each setting ``config``'s
    unless given; None when it never runs."""
    policy = retention.Policy(
        unused_days=config.unused_days if unused_days is None else unused_days,
        keep_days=config.keep_days if keep_days is None else keep_days,
        room_lobby_days=config.room_lobby_days,
        room_days=config.room_days,
    )
    every = (config.prune_every or None) if prune_every == FROM_CONFIG else prune_every
    if every is None:
        return None
    return functools.partial(
        retention.keep_pruning, store, policy, every, players.forget, rooms.forget_all
    )


def _add_middleware(app: FastAPI, body_limit: int) -> None:
    """The middleware around every call (the last added is the outermost)."""
    app.add_middleware(BodyLimit, limit=body_limit)
    app.add_middleware(HeadAsGet)
    app.add_middleware(Language)  # X-Hearts-Lang: the language of the server's words
    app.add_middleware(SecurityHeaders)  # the outermost: on everything


def _settings(
    config: Config | None,
    database_url: str | None,
    executor: Executor | None,
    executor_factory: Callable[[], Executor] | None,
) -> tuple[Config, str, Callable[[], Executor] | None]:
    """The settings, the database's URL and the bot workers' factory: from the
    environment when neither a config nor a URL is given (then Khó thinks in
    worker processes unless an executor is given)."""
    if config is None and database_url is None:
        config = Config.from_env()
        if executor is None and executor_factory is None:
            executor_factory = functools.partial(bot_pool, config.bot_pool_size(), _say)
    config = config or Config()
    if database_url is None:
        database_url = config.resolved().database_url
        assert database_url is not None
    return config, database_url, executor_factory


def _say(line: str) -> None:
    """A line on stderr about this server process (Khó's warm-up)."""
    print(f"hearts: {line}", file=sys.stderr, flush=True)


def _lifespan(
    tables: Tables,
    coach: Coach,
    rooms: Rooms,
    live: Live,
    seating: Seating,
    pruning: Callable[[], Coroutine[Any, Any, None]] | None,
    own_executor: bool,
) -> Callable[[FastAPI], contextlib.AbstractAsyncContextManager[None]]:
    """What starts with the app and stops with it: the retention's pruning, the
    rooms' moves and live updates, the public lobbies' start; then the analyses,
    the workers, the store."""

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        pruned = None if pruning is None else asyncio.create_task(pruning())
        await rooms.start_driving()
        await live.start()
        on_stop_signal(live.stopping)
        if own_executor:
            on_stop_signal(tables.computers.stopping)  # a kernel compiling is not waited for
        await seating.start()
        yield
        await seating.stop()
        await live.stop()
        await rooms.stop_driving()
        await coach.stop_analyses()  # another process goes on with them at once
        if pruned is not None:
            pruned.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pruned
        if own_executor:
            tables.computers.shutdown()
        tables.store.close()

    return lifespan
