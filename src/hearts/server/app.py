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
import logging
import secrets
import weakref
from collections.abc import AsyncIterator, Callable
from concurrent.futures import BrokenExecutor, Executor, ThreadPoolExecutor
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import anyio.to_thread
from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hearts.rules import Rules
from hearts.server.db import Loaded, Stale, Store, token_hash
from hearts.server.game import Game, GameError, Job, decide
from hearts.server.messages import error_message, error_status

log = logging.getLogger("hearts.server")

STATIC_DIR = Path(__file__).parent / "static"
#: Levels whose decisions are cheap enough for a thread; others go to the workers.
LIGHT_LEVELS = frozenset(("easy", "medium"))
BODY_LIMIT = 16 * 1024
T = TypeVar("T")

# -- the API's shapes (they make the OpenAPI schema) ---------------------------------
Version = Annotated[int, Field(strict=True, ge=0, le=2**53)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class VersionBody(_Body):
    version: Version


class PassBody(VersionBody):
    cards: list[StrictStr] = Field(description="the 3 cards South passes, e.g. ['QS','AH','KH']")


class PlayBody(VersionBody):
    card: StrictStr = Field(description="the card South plays, e.g. '5C'")


class SettingsBody(_Body):
    level: Literal["easy", "medium", "hard"] | None = None
    quick: StrictBool | None = None


class Token(BaseModel):
    token: str


class Settings(BaseModel):
    level: Literal["easy", "medium", "hard"]
    quick: bool


class HandPoints(BaseModel):
    points: dict[str, int]
    moon: str | None


class MatchInfo(BaseModel):
    hand_number: int
    target: int
    totals: dict[str, int]
    hands: list[HandPoints]
    over: bool
    winner: str | None


class Play(BaseModel):
    seat: str
    card: str


class Trick(BaseModel):
    leader: str
    winner: str
    points: int
    cards: list[Play]


class HandInfo(BaseModel):
    phase: Literal["pass", "play", "done"]
    pass_direction: Literal["left", "right", "across", "none"]
    pass_to: str | None
    pass_from: str | None
    passed: list[str] | None
    received: list[str] | None
    mark_received: bool
    cards: list[str]
    legal: list[str]
    illegal_reasons: dict[str, str]
    turn: str | None
    trick: list[Play]
    tricks: list[Trick]
    counts: dict[str, int]
    taken: dict[str, int]
    hearts_broken: bool
    points: dict[str, int] | None
    moon: str | None
    auto_finished: bool


class State(BaseModel):
    version: int
    settings: Settings
    seats: list[str]
    names: dict[str, str]
    match: MatchInfo
    hand: HandInfo


class Stats(BaseModel):
    played: int
    won: int
    moons: int
    best: int | None
    hands: int


class ErrorInfo(BaseModel):
    code: str
    message: str


class ErrorBody(BaseModel):
    error: ErrorInfo


class StaleBody(BaseModel):
    error: ErrorInfo
    state: State | None = Field(None, description="the current state (with code 'stale')")


_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "bad input (bad_request, bad_card, bad_pass, …)"},
    403: {"model": ErrorBody, "description": "missing or unknown token (bad_token)"},
    409: {"model": StaleBody, "description": "stale version (with the state), or wrong phase"},
    413: {"model": ErrorBody, "description": "body over 16 KiB (too_large)"},
    422: {"model": ErrorBody, "description": "a card the rules forbid now"},
}


class ApiError(Exception):
    def __init__(self, code: str, message: str | None = None, state: Any = None) -> None:
        super().__init__(code)
        self.code = code
        self.message = message or error_message(code)
        self.state = state


def _error(code: str, message: str | None = None, state: Any = None) -> JSONResponse:
    body: dict[str, Any] = {"error": {"code": code, "message": message or error_message(code)}}
    if state is not None:
        body["state"] = state
    return JSONResponse(body, status_code=error_status(code), headers={"Cache-Control": "no-store"})


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, before the app reads them."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None:
            try:
                too_large = int(length) > self.limit
            except ValueError:
                await _error("bad_request")(scope, receive, send)
                return
            if too_large:
                await _error("too_large")(scope, receive, send)
                return
            await self.app(scope, receive, send)
            return
        # No length given (chunked): read at most ``limit`` bytes, then replay them.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await _error("too_large")(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class _Heavy(Exception):
    """The step needs a worker: roll the transaction back and think outside it."""

    def __init__(self, job: Job, level: str) -> None:
        super().__init__(level)
        self.job = job
        self.level = level


def _decide_or_none(level: str, job: Job) -> list[int] | None:
    try:
        return decide(level, job)
    except Exception:
        log.exception("a %s bot failed: playing a plain legal card", level)
        return None


class Tables:
    """The game service: the store, the deal seed, the table's rules and the workers."""

    def __init__(
        self,
        store: Store,
        rules: Rules,
        seed: int | None,
        executor: Executor,
        executor_factory: Callable[[], Executor] | None = None,
    ) -> None:
        self.store = store
        self.rules = rules
        self.seed = seed
        self.executor = executor
        self.executor_factory = executor_factory
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._ids: dict[str, int] = {}

    def lock(self, player_id: int) -> asyncio.Lock:
        lock = self._locks.get(player_id)
        if lock is None:
            lock = self._locks[player_id] = asyncio.Lock()
        return lock

    # -- blocking work, run in a thread ---------------------------------------------
    def _new_game(self, loaded: Loaded) -> Game:
        return Game.new(self.rules, loaded.player.matches_started + 1, self.seed)

    def state_now(self, player_id: int) -> dict[str, Any]:
        """The current State, dealing the first match if there is none."""
        with self.store.read() as conn:
            loaded = self.store.load(conn, player_id)
        if loaded.game is not None:
            return self._state(loaded, loaded.player.version)
        with self.store.write() as conn:
            loaded = self.store.load(conn, player_id)
            if loaded.game is None:
                version = loaded.player.version
                self.store.bump_version(conn, player_id, version)
                loaded.player.version = version + 1
                self.store.new_match(conn, loaded, self._new_game(loaded))
        self.store.remember(loaded, loaded.player.version)
        return self._state(loaded, loaded.player.version)

    @staticmethod
    def _state(loaded: Loaded, version: int) -> dict[str, Any]:
        assert loaded.game is not None
        p = loaded.player
        return loaded.game.state(version, p.level, p.quick)

    def act(self, player_id: int, version: int, action: Callable[[Loaded], None]) -> dict[str, Any]:
        """Apply ``action`` made on ``version`` and commit it, or change nothing."""
        try:
            with self.store.write() as conn:
                self.store.bump_version(conn, player_id, version)
                loaded = self.store.load(conn, player_id, version)
                if loaded.game is None:
                    raise GameError("wrong_phase")
                action(loaded)
                self.store.save(conn, loaded)
        except Stale:
            raise ApiError("stale", state=self.state_now(player_id)) from None
        self.store.remember(loaded, version + 1)
        return self._state(loaded, version + 1)

    # -- the calls ------------------------------------------------------------------
    async def player_id(self, token: str) -> int:
        key = token_hash(token)  # the raw token is kept nowhere, not even here
        found = self._ids.get(key)
        if found is None:
            found = await anyio.to_thread.run_sync(self.store.player_id_by_hash, key)
            if found is None:
                raise ApiError("bad_token")
            if len(self._ids) > 100_000:
                self._ids.clear()
            self._ids[key] = found
        return found

    async def run(self, player_id: int, fn: Callable[[], T]) -> T:
        async with self.lock(player_id):
            return await anyio.to_thread.run_sync(fn)

    async def step(self, player_id: int, version: int) -> dict[str, Any]:
        """One computer action.  Dễ and Vừa decide in well under a millisecond: inside
        the action's own transaction.  Khó thinks in a worker process, outside any
        lock; its answer is applied only if the version is still the one it saw."""

        def light(loaded: Loaded) -> None:
            game = loaded.game
            assert game is not None
            job = game.computer_job()
            level = loaded.player.level
            if level not in LIGHT_LEVELS:
                raise _Heavy(job, level)  # rolls back: nothing changed
            game.apply_computer(job, _decide_or_none(level, job))

        try:
            return await self.run(player_id, functools.partial(self.act, player_id, version, light))
        except _Heavy as heavy:
            job, level = heavy.job, heavy.level
        choices: list[int] | None
        try:
            loop = asyncio.get_running_loop()
            choices = await loop.run_in_executor(self.executor, decide, level, job)
        except BrokenExecutor:
            log.exception("the bot workers died: starting new ones")
            if self.executor_factory is not None:
                broken, self.executor = self.executor, self.executor_factory()
                broken.shutdown(wait=False, cancel_futures=True)
            choices = None
        except Exception:
            log.exception("a %s bot failed: playing a plain legal card", level)
            choices = None

        def apply(loaded: Loaded) -> None:
            assert loaded.game is not None
            loaded.game.apply_computer(job, choices)

        return await self.run(player_id, functools.partial(self.act, player_id, version, apply))

    def new_match(self, player_id: int, version: int) -> dict[str, Any]:
        try:
            with self.store.write() as conn:
                self.store.bump_version(conn, player_id, version)
                loaded = self.store.load(conn, player_id, version)
                self.store.new_match(conn, loaded, self._new_game(loaded))
        except Stale:
            raise ApiError("stale", state=self.state_now(player_id)) from None
        self.store.remember(loaded, version + 1)
        return self._state(loaded, version + 1)


async def current_player(request: Request) -> int:
    """The player named by ``Authorization: Bearer <token>`` (403 otherwise)."""
    tables: Tables = request.app.state.tables
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > 256:
        raise ApiError("bad_token")
    return await tables.player_id(token)


PlayerId = Annotated[int, Depends(current_player)]


def create_app(
    database_url: str = "sqlite://",
    *,
    seed: int | None = None,
    target: int = 100,
    rules: Rules | None = None,
    executor: Executor | None = None,
    executor_factory: Callable[[], Executor] | None = None,
    body_limit: int = BODY_LIMIT,
) -> FastAPI:
    """The app on the database at ``database_url``.

    ``seed`` makes deals reproducible; ``target`` (or a whole ``rules``) sets the
    table; ``executor`` runs the costly computer decisions (Khó; a small thread
    pool if None), or ``executor_factory`` makes it, and a new one if its workers
    die.  Dễ and Vừa decide in a thread of their own.
    """
    table_rules = rules or Rules(target=target)
    store = Store(database_url)
    own_executor = executor is None
    if executor is None and executor_factory is not None:
        executor = executor_factory()
    workers = executor or ThreadPoolExecutor(max_workers=2, thread_name_prefix="hearts-bot")
    tables = Tables(store, table_rules, seed, workers, executor_factory)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
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
    app.add_middleware(BodyLimit, limit=body_limit)

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.code, exc.message, exc.state)

    @app.exception_handler(GameError)
    async def _game_error(_request: Request, exc: GameError) -> JSONResponse:
        return _error(exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return _error("bad_request")

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> Response:
        code = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}.get(
            exc.status_code, "bad_request"
        )
        response = _error(code)
        response.status_code = exc.status_code
        return response

    @app.exception_handler(Exception)
    async def _crash(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=exc)
        return _error("internal")

    no_store = {"Cache-Control": "no-store"}

    def answer(state: dict[str, Any], response: Response) -> dict[str, Any]:
        response.headers.update(no_store)
        return state

    @app.post("/api/players", response_model=Token, responses=_ERRORS, tags=["api"])
    async def new_player(response: Response) -> dict[str, str]:
        """A new browser identity: an opaque token (no match yet)."""
        token = secrets.token_urlsafe(32)
        await anyio.to_thread.run_sync(store.create_player, token)
        response.headers.update(no_store)
        return {"token": token}

    @app.get("/api/state", response_model=State, responses=_ERRORS, tags=["api"])
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

    @app.post("/api/pass", response_model=State, responses=_ERRORS, tags=["api"])
    async def pass_cards(body: PassBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """South passes 3 cards; the computers pass on the next step."""
        return await act(pid, body.version, lambda game: game.south_pass(body.cards), response)

    @app.post("/api/play", response_model=State, responses=_ERRORS, tags=["api"])
    async def play_card(body: PlayBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """South plays a card."""
        return await act(pid, body.version, lambda game: game.south_play(body.card), response)

    @app.post("/api/step", response_model=State, responses=_ERRORS, tags=["api"])
    async def step(body: VersionBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """ONE computer action: the seat to play plays a card, or the computers pass."""
        return answer(await tables.step(pid, body.version), response)

    @app.post("/api/next-hand", response_model=State, responses=_ERRORS, tags=["api"])
    async def next_hand(body: VersionBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """Deal the next hand (the hand is over and the match is not)."""
        return await act(pid, body.version, lambda game: game.next_hand(tables.seed), response)

    @app.post("/api/new-match", response_model=State, responses=_ERRORS, tags=["api"])
    async def new_match(body: VersionBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """A fresh match (allowed at any time)."""
        state = await tables.run(pid, functools.partial(tables.new_match, pid, body.version))
        return answer(state, response)

    @app.put("/api/settings", response_model=State, responses=_ERRORS, tags=["api"])
    async def settings(body: SettingsBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """Difficulty (from the next decision) and quick play; no version needed."""

        def change() -> dict[str, Any]:
            store.set_settings(pid, body.level, body.quick)
            return tables.state_now(pid)

        return answer(await tables.run(pid, change), response)

    @app.get("/api/stats", response_model=Stats, responses=_ERRORS, tags=["api"])
    async def stats(pid: PlayerId, response: Response) -> dict[str, int | None]:
        """Achievements of this token: matches played and won, moons, best match, hands."""
        response.headers.update(no_store)
        return await anyio.to_thread.run_sync(store.stats, pid)

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        page = STATIC_DIR / "index.html"
        if not page.is_file():
            return _error("not_found", "Trang chưa sẵn sàng")
        return FileResponse(page, headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")
    return app
