"""Who a player is, for every mode (a solo table, a room, a public table): the
browser's token (:mod:`hearts.server.store.tokens`), its player's row, and this
process's cache of the two; and :data:`PlayerId`, the routes' dependency that
answers 403 ``bad_token`` for a token this server did not issue."""

from __future__ import annotations

import time
from typing import Annotated

import anyio.to_thread
from fastapi import Depends, Request

from hearts.server.store.db import Moved, Store, token_hash
from hearts.server.store.tokens import Tokens
from hearts.server.web.errors import ApiError, bearer_token

#: How long a token's player id is trusted without asking the database (the
#: retention may remove a player inactive for a day; its lookup refreshes that; a
#: token moved to another browser by another process is refused after this long).
ID_CACHE_SECONDS = 30.0


class Players:
    """The players of one app: its tokens and the cache of their player ids."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.tokens = Tokens(store.token_secret)
        self._ids: dict[str, tuple[int, float]] = {}  # token hash -> (player id, until)

    async def player_id(self, token: str) -> int:
        """The token's player; its row is made on the first call of a token this
        server issued.  403 ``bad_token`` for any other token."""
        key = token_hash(token)  # the raw token is kept nowhere, not even here
        now = time.monotonic()
        cached = self._ids.get(key)
        if cached is not None and cached[1] > now:
            return cached[0]
        issued = self.tokens.issued(token)
        try:
            found = await anyio.to_thread.run_sync(self.store.player_for, key, issued)
        except Moved:
            raise ApiError("moved") from None
        if found is None:
            raise ApiError("bad_token")
        if len(self._ids) > 100_000:
            self._ids.clear()
        self._ids[key] = (found, now + ID_CACHE_SECONDS)
        return found

    def forget_token(self, digest: str) -> None:
        """Drop a token that moved to another browser (players/transfer.py) from the cache."""
        self._ids.pop(digest, None)

    def forget(self, player_ids: list[int]) -> None:
        """Drop removed players from the token cache."""
        gone = set(player_ids)
        if gone:
            self._ids = {k: v for k, v in self._ids.items() if v[0] not in gone}


async def current_player(request: Request) -> int:
    """The player named by ``Authorization: Bearer <token>`` (403 otherwise), among
    the app's ``state.players``."""
    players: Players = request.app.state.players
    return await players.player_id(bearer_token(request))


PlayerId = Annotated[int, Depends(current_player)]
