"""One error shape for every refusal: ``{"error": {"code", "message"}}`` with the
status of docs/api.md, and the handlers that turn exceptions into it."""

from __future__ import annotations

import errno
import logging
from typing import Any

import sqlalchemy as sa
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from hearts.server.i18n.messages import error_message, error_status, localized
from hearts.server.store import outage
from hearts.server.table.game import GameError
from hearts.server.web.security import HEADERS, NO_STORE

log = logging.getLogger("hearts.server")


class ApiError(Exception):
    def __init__(self, code: str, message: str | None = None, state: Any = None) -> None:
        super().__init__(code)
        self.code = code
        self.message = message or error_message(code)
        self.state = state


def error_response(
    code: str, message: str | None = None, state: Any = None, reason: Any = None
) -> JSONResponse:
    text = localized(message) if message else error_message(code)
    body: dict[str, Any] = {"error": {"code": code, "message": text}}
    if reason is not None:  # what is wrong, for the page to word (a bad record)
        body["error"]["reason"] = reason
    if state is not None:
        body["state"] = state
    # The security headers too: a crash's answer is sent outside the middleware.
    headers = {**NO_STORE, **HEADERS}
    return JSONResponse(body, status_code=error_status(code), headers=headers)


def install_error_handlers(app: FastAPI) -> None:
    """Every refusal and crash answers in the one error shape."""

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.code, exc.message, exc.state)

    @app.exception_handler(GameError)
    async def _game_error(_request: Request, exc: GameError) -> JSONResponse:
        return error_response(exc.code, exc.message, reason=exc.reason)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response("bad_request")

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> Response:
        code = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}.get(
            exc.status_code, "bad_request"
        )
        response = error_response(code)
        response.status_code = exc.status_code
        if exc.status_code == 405:
            # The router names the methods; the static files (no header) take GET and HEAD.
            allow = (exc.headers or {}).get("Allow", "GET")
            allowed = [m.strip() for m in allow.split(",")]
            if "GET" in allowed and "HEAD" not in allowed:
                allowed.append("HEAD")  # HeadAsGet answers it
            response.headers["Allow"] = ", ".join(allowed)
        return response

    @app.exception_handler(sa.exc.SQLAlchemyError)
    async def _database(request: Request, exc: sa.exc.SQLAlchemyError) -> JSONResponse:
        # Handled here, not as a crash: Starlette re-raises those, and the server
        # would log a second traceback.
        if not outage.unavailable(exc):
            return await _crash(request, exc)
        kind = request.method if request.scope["type"] == "http" else "WebSocket"
        outage.warn(log, f"{kind} {request.url.path}", exc)
        response = error_response("unavailable")
        response.headers["Retry-After"] = str(outage.RETRY_AFTER)
        return response

    @app.exception_handler(OSError)
    async def _os_error(request: Request, exc: OSError) -> JSONResponse:
        # Out of file descriptors is the server's load, not a bug: the client may retry.
        if exc.errno not in (errno.EMFILE, errno.ENFILE):
            return await _crash(request, exc)
        kind = request.method if request.scope["type"] == "http" else "WebSocket"
        log.warning("%s %s: out of open files", kind, request.url.path, exc_info=exc)
        response = error_response("unavailable")
        response.headers["Retry-After"] = str(outage.RETRY_AFTER)
        return response

    @app.exception_handler(Exception)
    async def _crash(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=exc)
        return error_response("internal")


def bearer_token(request: Request) -> str:
    """The token of ``Authorization: Bearer <token>``; 403 ``bad_token`` otherwise."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > 256:
        raise ApiError("bad_token")
    return token
