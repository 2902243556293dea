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
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from pathlib import Path
from typing import Annotated, Any

import anyio.to_thread
from fastapi import Depends, FastAPI, Request
from fastapi.responses import Response

from hearts.rules import Rules
from hearts.server import achievements, catalogue, history, retention, review, roomapi
from hearts.server.compress import Page, gzip_static
from hearts.server.config import Config
from hearts.server.db import Loaded, Store
from hearts.server.errors import ApiError, bearer_token, error_response, install_error_handlers
from hearts.server.game import Game, rules_from_api
from hearts.server.lang import Language
from hearts.server.live import Live
from hearts.server.middleware import BodyLimit, HeadAsGet
from hearts.server.ratelimit import RATE_LIMITED_RESPONSE, limit_new_players
from hearts.server.ratelimit import install as install_rate_limit
from hearts.server.rooms import Rooms
from hearts.server.schema import (
    ERROR_RESPONSES,
    Achievements,
    Analysis,
    AnalysisBody,
    Hint,
    MoonBody,
    NewMatchBody,
    PassBody,
    PlayBody,
    RecordBody,
    SettingsBody,
    State,
    Stats,
    Token,
    VersionBody,
    integer_bounds,
)
from hearts.server.security import (
    IMMUTABLE,
    CachedStaticFiles,
    SecurityHeaders,
    static_version,
    versioned_page,
)
from hearts.server.tables import Tables, bot_pool

STATIC_DIR = Path(__file__).parent / "static"
BODY_LIMIT = 16 * 1024
#: ``create_app(prune_every=…)``'s default: the configured interval.
FROM_CONFIG = -1.0


async def current_player(request: Request) -> int:
    """The player named by ``Authorization: Bearer <token>`` (403 otherwise)."""
    tables: Tables = request.app.state.tables
    return await tables.player_id(bearer_token(request))


PlayerId = Annotated[int, Depends(current_player)]


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
    if config is None and database_url is None:
        config = Config.from_env()
        if executor is None and executor_factory is None:
            executor_factory = functools.partial(bot_pool, config.bot_pool_size())
    config = config or Config()
    if database_url is None:
        database_url = config.resolved().database_url
        assert database_url is not None
    seed = config.seed if seed is None else seed
    table_rules = rules or Rules(target=target)
    store = Store(database_url)
    own_executor = executor is None
    if executor is None and executor_factory is not None:
        executor = executor_factory()
    workers = executor or ThreadPoolExecutor(max_workers=2, thread_name_prefix="hearts-bot")
    tables = Tables(store, table_rules, seed, workers, executor_factory)
    tables.analysis_iterations = config.analysis_iterations
    rooms = Rooms(tables, config.room_pace if room_pace is None else room_pace, lambda _c, _r: None)
    live = Live(rooms)
    policy = retention.Policy(
        unused_days=config.unused_days if unused_days is None else unused_days,
        keep_days=config.keep_days if keep_days is None else keep_days,
        room_lobby_days=config.room_lobby_days,
        room_days=config.room_days,
    )
    if prune_every == FROM_CONFIG:
        prune_every = config.prune_every or None

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        pruning = None
        if prune_every is not None:
            pruning = asyncio.create_task(
                retention.keep_pruning(store, policy, prune_every, tables.forget, rooms.forget_all)
            )
        await rooms.start_driving()
        await live.start()
        yield
        await live.stop()
        await rooms.stop_driving()
        await tables.stop_analyses()  # another process goes on with them at once
        if pruning is not None:
            pruning.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pruning
        if own_executor:
            tables.executor.shutdown(wait=True, cancel_futures=True)
        store.close()

    app = FastAPI(
        title="Hearts",
        version="1",
        summary="The web game's JSON API (docs/api.md): South against three computers.",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.tables = tables
    app.state.rooms = rooms
    app.add_middleware(BodyLimit, limit=body_limit)
    app.add_middleware(HeadAsGet)
    app.add_middleware(Language)  # X-Hearts-Lang: the language of the server's words
    app.add_middleware(SecurityHeaders)  # the last added is the outermost: on everything

    install_error_handlers(app)
    install_rate_limit(app, config)
    integer_bounds(app)
    roomapi.install(app, tables, rooms, live, config)
    app.include_router(catalogue.router)

    no_store = {"Cache-Control": "no-store"}

    def answer(state: dict[str, Any], response: Response) -> dict[str, Any]:
        response.headers.update(no_store)
        return state

    @app.post(
        "/api/players",
        response_model=Token,
        responses=ERROR_RESPONSES | RATE_LIMITED_RESPONSE,
        tags=["api"],
        dependencies=[Depends(limit_new_players)],  # per address: ratelimit.py
    )
    async def new_player(response: Response) -> dict[str, str]:
        """A new browser identity: an opaque token (no match yet; its row is made on
        its first use)."""
        response.headers.update(no_store)
        return {"token": tables.tokens.issue()}

    @app.get("/api/state", response_model=State, responses=ERROR_RESPONSES, tags=["api"])
    async def get_state(pid: PlayerId, response: Response) -> dict[str, Any]:
        """The State; deals a first match if this token has none."""
        return answer(await tables.run(pid, functools.partial(tables.state_now, pid)), response)

    async def act(
        pid: int, version: int, fn: Callable[[Game], object], response: Response
    ) -> dict[str, Any]:
        """Apply ``fn`` to the game of ``version`` (committed, or nothing changes);
        the State after it."""

        def on_game(loaded: Loaded) -> None:
            assert loaded.game is not None
            fn(loaded.game)

        state = await tables.run(pid, functools.partial(tables.act, pid, version, on_game))
        return answer(state, response)

    @app.post("/api/pass", response_model=State, responses=ERROR_RESPONSES, tags=["api"])
    async def pass_cards(body: PassBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """South passes hand.pass_count cards; the computers pass on the next step."""
        return await act(pid, body.version, lambda game: game.south_pass(body.cards), response)

    @app.post("/api/play", response_model=State, responses=ERROR_RESPONSES, tags=["api"])
    async def play_card(body: PlayBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """South plays a card."""
        return await act(pid, body.version, lambda game: game.south_play(body.card), response)

    @app.post("/api/step", response_model=State, responses=ERROR_RESPONSES, tags=["api"])
    async def step(body: VersionBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """ONE computer action: the seat to play plays a card, or the computers pass."""
        return answer(await tables.step(pid, body.version), response)

    @app.post("/api/hint", response_model=Hint, responses=ERROR_RESPONSES, tags=["api"])
    async def hint(body: VersionBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """Gợi ý: Khó's pass or card for South now, with why; counted in the match."""
        return answer(await tables.hint(pid, body.version), response)

    @app.post("/api/take-back", response_model=State, responses=ERROR_RESPONSES, tags=["api"])
    async def take_back(body: VersionBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """Đi lại: take back South's last card of the hand and the computers' after it."""
        state = await tables.run(pid, functools.partial(tables.take_back, pid, body.version))
        return answer(state, response)

    @app.post("/api/next-hand", response_model=State, responses=ERROR_RESPONSES, tags=["api"])
    async def next_hand(body: VersionBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """Deal the next hand (the hand is over and the match is not)."""
        await tables.drop_analysis(pid)  # the player moves on: its analysis stops
        return await act(pid, body.version, lambda game: game.next_hand(tables.seed), response)

    @app.post("/api/new-match", response_model=State, responses=ERROR_RESPONSES, tags=["api"])
    async def new_match(body: NewMatchBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """A fresh match (allowed at any time), at the table ``rules`` if given."""
        rules = rules_from_api(body.rules, tables.rules)  # bad_rules before anything changes
        await tables.drop_analysis(pid)
        state = await tables.run(pid, functools.partial(tables.new_match, pid, body.version, rules))
        return answer(state, response)

    @app.post("/api/moon", response_model=State, responses=ERROR_RESPONSES, tags=["api"])
    async def moon(body: MoonBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """South shot the moon and chooses how it is scored ("shooter_chooses")."""
        return await act(pid, body.version, lambda game: game.south_moon(body.choice), response)

    @app.get("/api/hands/{number}", responses=ERROR_RESPONSES, tags=["api"])
    async def hand_record(number: int, pid: PlayerId, response: Response) -> dict[str, Any]:
        """Hand ``number`` of the current match as a hearts-hand/1 record, once finished."""
        record = await anyio.to_thread.run_sync(history.hand_record, store, pid, number)
        if record is None:
            raise ApiError("not_found", "Ván này chưa xong hoặc không có")
        response.headers.update(no_store)
        return record

    @app.post("/api/records/check", responses=ERROR_RESPONSES, tags=["api"])
    async def check_record(body: RecordBody, _pid: PlayerId, response: Response) -> dict[str, Any]:
        """Xem lại ván: a hearts-hand/1 record checked by the rules and laid out trick
        by trick (400 bad_record naming the first illegal step)."""
        response.headers.update(no_store)
        return await anyio.to_thread.run_sync(review.replay, body.record)

    @app.post("/api/analysis", response_model=Analysis, responses=ERROR_RESPONSES, tags=["api"])
    async def start_analysis(body: AnalysisBody, pid: PlayerId, response: Response) -> Any:
        """Phân tích: Khó weighs South's decisions in finished hand ``hand`` in the
        background; poll GET /api/analysis/{hand}."""
        return answer(await tables.start_analysis(pid, body.hand), response)

    @app.get(
        "/api/analysis/{hand}", response_model=Analysis, responses=ERROR_RESPONSES, tags=["api"]
    )
    async def get_analysis(hand: int, pid: PlayerId, response: Response) -> Any:
        """The analysis of ``hand`` as far as it went (progress, then the findings)."""
        return answer(await tables.analysis_now(pid, hand), response)

    @app.put("/api/settings", response_model=State, responses=ERROR_RESPONSES, tags=["api"])
    async def settings(body: SettingsBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """Difficulty (from the next decision) and quick play; no version needed."""

        def change() -> dict[str, Any]:
            store.set_settings(pid, body.level, body.quick, body.take_back)
            return tables.state_now(pid)

        return answer(await tables.run(pid, change), response)

    @app.get("/api/stats", response_model=Stats, responses=ERROR_RESPONSES, tags=["api"])
    async def stats(pid: PlayerId, response: Response) -> dict[str, Any]:
        """Achievements of this token: matches played and won, moons, best match, hands,
        and the finished matches by the rules they were played with."""
        response.headers.update(no_store)
        found: dict[str, Any] = dict(await anyio.to_thread.run_sync(store.stats, pid))
        found["tables"] = await anyio.to_thread.run_sync(history.stats_by_rules, store, pid)
        found["levels"] = await anyio.to_thread.run_sync(achievements.levels, store, pid)
        return found

    @app.get(
        "/api/achievements", response_model=Achievements, responses=ERROR_RESPONSES, tags=["api"]
    )
    async def achievement_list(pid: PlayerId, response: Response) -> dict[str, Any]:
        """Every achievement, locked or unlocked, with progress; and the match on the
        table's Q♠ takers and achievements."""
        response.headers.update(no_store)
        return await anyio.to_thread.run_sync(achievements.listing, store, pid)

    # Versioned static URLs: an upgrade changes the version, so a browser never runs a
    # cached script of the release before; an unknown version is 404.
    version = static_version(STATIC_DIR)
    page_file = STATIC_DIR / "index.html"
    page = Page(versioned_page(page_file.read_text(), version)) if page_file.is_file() else None

    @app.get("/", include_in_schema=False)
    async def index(request: Request) -> Response:
        if page is None:
            return error_response("not_found", "Trang chưa sẵn sàng")
        return page.response(request, {"Cache-Control": "no-cache"})

    @app.get("/r/{code}", include_in_schema=False)
    async def room_page(code: str, request: Request) -> Response:
        """A room's invite link: the same page, which reads the code from its path."""
        return await index(request)

    immutable = CachedStaticFiles(directory=STATIC_DIR, cache_control=IMMUTABLE)
    app.mount(f"/static/v/{version}", gzip_static(immutable), name="static-versioned")
    plain = CachedStaticFiles(directory=STATIC_DIR, cache_control="no-cache")
    app.mount("/static", gzip_static(plain), name="static")
    return app
