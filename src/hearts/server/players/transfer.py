"""Chuyển sang máy khác (issue 39, item 17): a player moves their match, statistics
and achievements to another browser, with no account.

The old browser asks for a one-time code (``POST /api/transfer``); the other browser
opens its link ``/t/<code>`` (or types it) and claims it (``POST
/api/transfer/claim``): the player's row gets a new token, given to that browser
alone, and the old token is kept among the moved ones, so that its browser is told
(410 ``moved``) instead of being taken for a new player.  A code has 15 symbols of
30 (73 bits), is kept only as its SHA-256, is used once, lasts ten minutes, and a
new one replaces the player's earlier ones; claims are limited per address (each
address may try ``CLAIM_BURST`` codes at once, then one a minute), so a code cannot
be guessed.  The token cache of this process forgets the old token at once; another
process of the same database trusts it for at most ``identity.ID_CACHE_SECONDS``.

A claim's answer may be lost (the connection drops, the server stops after its
commit): the page sends a random claim id with its claim and, after a network error,
claims again with the same id, which answers the same token (derived from the code
and the claim id under the tokens' secret, ``Tokens.derive``, so that it is stored
nowhere; only the claim id's SHA-256 is kept).  Another or no claim id is refused.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
import time
from collections.abc import Callable
from typing import Any

import anyio.to_thread
import sqlalchemy as sa
from fastapi import FastAPI, Request, Response

from hearts.server.players.identity import Players
from hearts.server.store.db import moved_tokens, players, token_hash, transfers
from hearts.server.web.errors import ApiError, bearer_token
from hearts.server.web.ratelimit import RateLimited, TokenBuckets, request_address
from hearts.server.web.schema import (
    ERROR_RESPONSES,
    NOT_FOUND_RESPONSE,
    Token,
    TransferBody,
    TransferCode,
)
from hearts.server.web.security import NO_STORE

#: The code's symbols: no 0/O, 1/I/L or U, so that it reads and types without doubt.
ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789"
GROUPS, GROUP = 3, 5  # 15 symbols: 15 · log2(30) ≈ 73.6 bits
LIFETIME = 600  # seconds
CLAIM_BURST, CLAIM_INTERVAL = 10, 60.0  # per address, codes asked for and claimed


def new_code() -> str:
    raw = "".join(secrets.choice(ALPHABET) for _ in range(GROUPS * GROUP))
    return "-".join(raw[i : i + GROUP] for i in range(0, len(raw), GROUP))


def code_hash(code: str) -> str | None:
    """The stored form of ``code`` (typed in any case, with or without dashes or
    spaces); None for what cannot be a code.

    >>> code_hash("abcde-fghjk-mnpqr") == code_hash("ABCDEFGHJKMNPQR")
    True
    >>> code_hash("ABCDE-FGHJK-MNPQ0") is None
    True
    """
    plain = code.upper().replace("-", "").replace(" ", "")
    if len(plain) != GROUPS * GROUP or any(c not in ALPHABET for c in plain):
        return None
    return hashlib.sha256(plain.encode()).hexdigest()


class Transfers:
    """The codes of one app, on the store of its ``players``."""

    def __init__(self, players: Players, clock: Callable[[], float] = time.time) -> None:
        self.players = players
        self.clock = clock
        self.limit = TokenBuckets(CLAIM_BURST, CLAIM_INTERVAL)

    def check_limit(self, request: Request) -> None:
        wait = self.limit.take(request_address(request))
        if wait > 0:
            raise RateLimited(wait, "transfer_limited")

    def create(self, player_id: int) -> str:
        """A new code for ``player_id``; its earlier unused codes stop working."""
        code = new_code()
        digest = code_hash(code)
        with self.players.store.write() as conn:
            conn.execute(transfers.delete().where(transfers.c.player_id == player_id))
            conn.execute(
                transfers.insert().values(
                    code_hash=digest,
                    player_id=player_id,
                    expires_at=self.clock() + LIFETIME,
                    used=False,
                )
            )
        return code

    def claim(self, code: str, claim_id: str | None = None) -> tuple[str, str | None]:
        """Use ``code``: a new token of its player, and the token hash that moved away
        (None when this answers again a claim already made with ``claim_id``).
        Refused (and nothing changes) for a code that is unknown, used or expired."""
        digest = code_hash(code)
        if digest is None:
            raise ApiError("transfer_unknown")
        claim = None if claim_id is None else hashlib.sha256(claim_id.encode()).hexdigest()
        # With a claim id the token is derived, not drawn: its answer, lost, can be
        # given again to the holder of the code and the claim id, and is kept nowhere.
        tokens = self.players.tokens
        token = tokens.issue() if claim_id is None else tokens.derive(f"{digest}:{claim_id}")
        with self.players.store.write() as conn:
            row = conn.execute(sa.select(transfers).where(transfers.c.code_hash == digest)).first()
            if row is None:
                raise ApiError("transfer_unknown")
            if row.used:
                if claim is not None and row.claim_hash == claim and self._holds(conn, row, token):
                    return token, None
                raise ApiError("transfer_used")
            if row.expires_at < self.clock():
                raise ApiError("transfer_expired")
            taken = conn.execute(
                transfers.update()
                .where(transfers.c.code_hash == digest, transfers.c.used == sa.false())
                .values(used=True, claim_hash=claim)
            )
            if taken.rowcount != 1:  # claimed at this moment by another process
                raise ApiError("transfer_used")
            old = conn.execute(
                sa.select(players.c.token_hash).where(players.c.id == row.player_id)
            ).scalar()
            if old is None:  # the player was removed meanwhile (retention)
                raise ApiError("transfer_unknown")
            now = dt.datetime.now(dt.UTC)
            # a new version: an action the old browser sent before is stale
            conn.execute(
                players.update()
                .where(players.c.id == row.player_id)
                .values(
                    token_hash=token_hash(token), version=players.c.version + 1, last_seen_at=now
                )
            )
            conn.execute(
                moved_tokens.insert().values(token_hash=old, player_id=row.player_id, moved_at=now)
            )
        return token, old

    @staticmethod
    def _holds(conn: sa.Connection, row: sa.Row[Any], token: str) -> bool:
        """Whether ``row``'s player still has ``token`` (not moved on again since)."""
        found = conn.execute(
            sa.select(players.c.token_hash).where(players.c.id == row.player_id)
        ).scalar()
        return found == token_hash(token)


def install(app: FastAPI, players: Players) -> None:
    """The transfer's routes on ``app``."""
    transfer = Transfers(players)
    app.state.transfers = transfer
    responses = ERROR_RESPONSES | {429: {"description": "too many codes from one address"}}

    @app.post("/api/transfer", response_model=TransferCode, responses=responses, tags=["api"])
    async def new_transfer(request: Request, response: Response) -> dict[str, object]:
        """A one-time code that moves this token's player to another browser."""
        pid = await players.player_id(bearer_token(request))
        transfer.check_limit(request)
        code = await anyio.to_thread.run_sync(transfer.create, pid)
        response.headers.update(NO_STORE)
        return {"code": code, "expires_in": LIFETIME}

    @app.post(
        "/api/transfer/claim",
        response_model=Token,
        responses=responses | NOT_FOUND_RESPONSE,
        tags=["api"],
    )
    async def claim_transfer(
        body: TransferBody, request: Request, response: Response
    ) -> dict[str, str]:
        """The player of ``code`` becomes this browser's: its new token."""
        transfer.check_limit(request)
        token, old = await anyio.to_thread.run_sync(transfer.claim, body.code, body.claim_id)
        if old is not None:
            players.forget_token(old)
        response.headers.update(NO_STORE)
        return {"token": token}
