"""The solo table's routes of docs/api.md: South against the computers, the hint,
the take-back, the records, Phân tích, the settings and the statistics."""

from __future__ import annotations

import functools
from typing import Any

import anyio.to_thread
from fastapi import Depends, FastAPI, Request
from fastapi.responses import Response

from hearts.server.coach.jobs import Coach
from hearts.server.players.identity import PlayerId
from hearts.server.records import achievements, history
from hearts.server.solo import review
from hearts.server.solo.tables import Tables
from hearts.server.table import actions
from hearts.server.table.game import client_seed_from_api, rules_from_api
from hearts.server.web.errors import ApiError
from hearts.server.web.ratelimit import (
    RATE_LIMITED_RESPONSE,
    limit_new_players,
    request_address,
)
from hearts.server.web.schema import (
    ERROR_RESPONSES,
    MAX_HAND,
    NOT_FOUND_RESPONSE,
    PLAY_RESPONSES,
    Achievements,
    Analysis,
    AnalysisBody,
    Check,
    Hint,
    Knew,
    MoonBody,
    NewMatchBody,
    NewPlayer,
    NextCommitment,
    NextHandBody,
    PassBody,
    PlayBody,
    PlayerBody,
    RecordBody,
    SettingsBody,
    State,
    Stats,
    VersionBody,
)
from hearts.server.web.security import NO_STORE


def install(app: FastAPI, tables: Tables, coach: Coach) -> None:
    """The solo table's routes on ``app``, with ``coach``'s on that table."""
    _deal_routes(app, tables, coach)
    _match_routes(app, tables, coach)
    _record_routes(app, tables, coach)
    _player_routes(app, tables)


def _hand_number(number: int) -> int:
    """A hand number from a path; one no match can have is 404 before any query (the
    database's integers are narrower than Python's)."""
    if not 1 <= number <= MAX_HAND:
        raise ApiError("not_found", "Ván này chưa xong hoặc không có")
    return number


def answer(state: dict[str, Any], response: Response) -> dict[str, Any]:
    response.headers.update(NO_STORE)
    return state


async def _human(
    tables: Tables, pid: int, version: int, action: actions.HumanAction, response: Response
) -> dict[str, Any]:
    """South's ``action`` on the game of ``version`` (committed, or nothing changes);
    the State after it."""
    state = await tables.run(pid, functools.partial(tables.human, pid, version, action))
    return answer(state, response)


def _deal_routes(app: FastAPI, tables: Tables, coach: Coach) -> None:
    """A token, the State, and the moves of a hand."""

    @app.post(
        "/api/players",
        response_model=NewPlayer,
        responses=ERROR_RESPONSES | RATE_LIMITED_RESPONSE,
        tags=["api"],
        dependencies=[Depends(limit_new_players)],  # per address: web/ratelimit.py
    )
    async def new_player(response: Response, body: PlayerBody | None = None) -> dict[str, Any]:
        """A new browser identity: an opaque token (no match yet; its row is made on
        its first use), with ``"fairness": true`` also its first deal's commitment,
        with ``"first_deal"`` its first match dealt from the page's ticket."""
        response.headers.update(NO_STORE)
        token = tables.players.tokens.issue()
        if body is not None and body.first_deal is not None:
            # the token and its first match at once, or nothing (solo/first_deal.py)
            seed = client_seed_from_api(body.first_deal.client_seed)
            deal = functools.partial(tables.first_match, token, body.first_deal.ticket, seed)
            return {"token": token, "state": await anyio.to_thread.run_sync(deal)}
        if body is None or not body.fairness:
            return {"token": token}
        pid = await tables.players.player_id(token)  # its first use: the row and its seed
        found = await tables.run(pid, functools.partial(tables.next_commitment, pid))
        return {"token": token, "fairness": found}

    @app.get("/api/state", response_model=State, responses=ERROR_RESPONSES, tags=["api"])
    async def get_state(pid: PlayerId, response: Response) -> dict[str, Any]:
        """The State; deals a first match if this token has none."""
        return answer(await tables.run(pid, functools.partial(tables.state_now, pid)), response)

    @app.get(
        "/api/fairness", response_model=NextCommitment, responses=ERROR_RESPONSES, tags=["api"]
    )
    async def fairness(pid: PlayerId, response: Response) -> dict[str, Any]:
        """The commitment of the next deal and the State's version, dealing nothing: a
        new player's page reads it, then starts its first match with its own seed."""
        found = await tables.run(pid, functools.partial(tables.next_commitment, pid))
        return answer(found, response)

    @app.post("/api/pass", response_model=State, responses=ERROR_RESPONSES, tags=["api"])
    async def pass_cards(body: PassBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """South passes hand.pass_count cards; the computers pass on the next step."""
        return await _human(tables, pid, body.version, actions.Pass(body.cards), response)

    @app.post("/api/play", response_model=State, responses=PLAY_RESPONSES, tags=["api"])
    async def play_card(body: PlayBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """South plays a card."""
        play = functools.partial(
            tables.human, pid, body.version, actions.Play(body.card), checker=body.checker
        )
        return answer(await tables.run(pid, play), response)

    @app.post("/api/step", response_model=State, responses=ERROR_RESPONSES, tags=["api"])
    async def step(body: VersionBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """ONE computer action: the seat to play plays a card, or the computers pass."""
        return answer(await tables.step(pid, body.version), response)

    @app.post("/api/hint", response_model=Hint, responses=ERROR_RESPONSES, tags=["api"])
    async def hint(body: VersionBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """Gợi ý: Khó's pass or card for South now, with why; counted in the match."""
        return answer(await coach.hint(pid, body.version), response)

    @app.post("/api/check", response_model=Check, responses=ERROR_RESPONSES, tags=["api"])
    async def check(body: VersionBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """Cảnh báo nước đi: the cards of South's play now that Khó rates clearly worse
        than its own choice, with why; asked as South's turn comes, not counted."""
        return answer(await coach.check(pid, body.version), response)

    @app.post("/api/take-back", response_model=State, responses=ERROR_RESPONSES, tags=["api"])
    async def take_back(body: VersionBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """Đi lại: take back South's last card of the hand and the computers' after it."""
        state = await tables.run(pid, functools.partial(tables.take_back, pid, body.version))
        return answer(state, response)


def _match_routes(app: FastAPI, tables: Tables, coach: Coach) -> None:
    """The next hand, a new match, the moon's choice."""

    @app.post("/api/next-hand", response_model=State, responses=ERROR_RESPONSES, tags=["api"])
    async def next_hand(body: NextHandBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """Deal the next hand (the hand is over and the match is not), from the server's
        committed seed and ``client_seed``."""
        seed = client_seed_from_api(body.client_seed)
        await coach.drop_analysis(pid)  # the player moves on: its analysis stops
        return await _human(tables, pid, body.version, actions.NextHand(seed), response)

    @app.post("/api/new-match", response_model=State, responses=ERROR_RESPONSES, tags=["api"])
    async def new_match(body: NewMatchBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """A fresh match (allowed at any time), at the table ``rules`` if given."""
        rules = rules_from_api(body.rules, tables.rules)  # bad_rules before anything changes
        seed = client_seed_from_api(body.client_seed)
        await coach.drop_analysis(pid)
        make = functools.partial(tables.new_match, pid, body.version, rules, seed)
        state = await tables.run(pid, make)
        return answer(state, response)

    @app.post("/api/moon", response_model=State, responses=ERROR_RESPONSES, tags=["api"])
    async def moon(body: MoonBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """South shot the moon and chooses how it is scored ("shooter_chooses")."""
        return await _human(tables, pid, body.version, actions.Moon(body.choice), response)


def _record_routes(app: FastAPI, tables: Tables, coach: Coach) -> None:
    """The hands' records, Phân tích, the settings and the statistics."""

    @app.get("/api/hands/{number}", responses=ERROR_RESPONSES, tags=["api"])
    async def hand_record(number: int, pid: PlayerId, response: Response) -> dict[str, Any]:
        """Hand ``number`` of the current match as a hearts-hand/1 record, once finished."""
        number = _hand_number(number)
        record = await anyio.to_thread.run_sync(history.hand_record, tables.store, pid, number)
        if record is None:
            raise ApiError("not_found", "Ván này chưa xong hoặc không có")
        response.headers.update(NO_STORE)
        return record

    @app.post("/api/records/check", responses=ERROR_RESPONSES, tags=["api"])
    async def check_record(body: RecordBody, _pid: PlayerId, response: Response) -> dict[str, Any]:
        """Xem lại ván: a hearts-hand/1 record checked by the rules and laid out trick
        by trick (400 bad_record naming the first illegal step)."""
        response.headers.update(NO_STORE)
        return await anyio.to_thread.run_sync(review.replay, body.record)

    @app.post(
        "/api/analysis",
        response_model=Analysis,
        responses=ERROR_RESPONSES | NOT_FOUND_RESPONSE | RATE_LIMITED_RESPONSE,
        tags=["api"],
    )
    async def start_analysis(
        body: AnalysisBody, pid: PlayerId, request: Request, response: Response
    ) -> Any:
        """Phân tích: Khó weighs South's decisions in finished hand ``hand`` in the
        background, below live play; poll GET /api/analysis/{hand}. 429 analysis_busy
        when this server runs its cap of analyses (of all, or of this address)."""
        address = request_address(request)
        return answer(await coach.start_analysis(pid, body.hand, address), response)

    @app.get(
        "/api/analysis/{hand}", response_model=Analysis, responses=ERROR_RESPONSES, tags=["api"]
    )
    async def get_analysis(hand: int, pid: PlayerId, response: Response) -> Any:
        """The analysis of ``hand`` as far as it went (progress, then the findings)."""
        return answer(await coach.analysis_now(pid, _hand_number(hand)), response)

    @app.get(
        "/api/knew/{hand}",
        response_model=Knew,
        response_model_by_alias=True,
        responses=ERROR_RESPONSES | RATE_LIMITED_RESPONSE,
        tags=["api"],
    )
    async def get_knew(hand: int, pid: PlayerId, request: Request, response: Response) -> Any:
        """Máy đã biết gì: each computer decision of finished hand ``hand``, what its
        seat could see, and Khó's belief about the cards it could not; worked out
        after the hand only (409 hand_in_play before), below live play."""
        address = request_address(request)
        return answer(await coach.knew(pid, _hand_number(hand), address), response)


def _player_routes(app: FastAPI, tables: Tables) -> None:
    """A player's settings, statistics and achievements."""

    @app.put("/api/settings", response_model=State, responses=ERROR_RESPONSES, tags=["api"])
    async def settings(body: SettingsBody, pid: PlayerId, response: Response) -> dict[str, Any]:
        """Difficulty (from the next decision) and quick play; no version needed."""

        def change() -> dict[str, Any]:
            tables.store.set_settings(pid, body.level, body.quick, body.take_back)
            return tables.state_now(pid)

        return answer(await tables.run(pid, change), response)

    @app.get("/api/stats", response_model=Stats, responses=ERROR_RESPONSES, tags=["api"])
    async def stats(pid: PlayerId, response: Response) -> dict[str, Any]:
        """Achievements of this token: matches played and won, moons, best match, hands,
        and the finished matches by the rules they were played with."""
        response.headers.update(NO_STORE)
        found: dict[str, Any] = dict(await anyio.to_thread.run_sync(tables.store.stats, pid))
        found["tables"] = await anyio.to_thread.run_sync(history.stats_by_rules, tables.store, pid)
        found["levels"] = await anyio.to_thread.run_sync(achievements.levels, tables.store, pid)
        return found

    @app.get(
        "/api/achievements", response_model=Achievements, responses=ERROR_RESPONSES, tags=["api"]
    )
    async def achievement_list(pid: PlayerId, response: Response) -> dict[str, Any]:
        """Every achievement, locked or unlocked, with progress; and the match on the
        table's Q♠ takers and achievements."""
        response.headers.update(NO_STORE)
        return await anyio.to_thread.run_sync(achievements.listing, tables.store, pid)
