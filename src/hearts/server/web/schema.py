"""The API's shapes: the request bodies and answers that make the OpenAPI schema
(docs/api.md is the prose reference)."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr

from hearts.rules import Moon, MoonScoring

MAX_VERSION = 2**53  # the largest integer every JSON client holds exactly
#: No match has more hands; a larger number in a path is no hand (404), whatever the
#: database's integers hold.
MAX_HAND = 10_000

Version = Annotated[
    int,
    Field(
        strict=True,
        ge=0,
        le=MAX_VERSION,
        description="the State's version the action was made on: a JSON integer from 0 to"
        ' 2^53, written without a fraction or an exponent (not 1.0, 1e3 or "1")',
    ),
]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class VersionBody(_Body):
    version: Version


class PassBody(VersionBody):
    cards: list[StrictStr] = Field(
        description="the hand.pass_count cards South passes, e.g. ['QS','AH','KH']"
    )


ClientSeed = Annotated[
    StrictStr | None,
    Field(
        description="the client's seed for the deal (docs/fairness.md): 1-64 characters of"
        " [0-9a-f], else 400 bad_client_seed",
    ),
]


class NextHandBody(VersionBody):
    # Checked by the route (400 bad_client_seed), not here: the error has its own code.
    client_seed: ClientSeed = None


class NewMatchBody(NextHandBody):
    # Checked by the game (400 bad_rules with a Vietnamese message), not here.
    rules: Any = Field(
        None,
        description="the table's rules: players 3-7, qs_breaks_hearts, moon, jd_bonus, "
        "target 50-500; missing keys take the defaults",
    )


class MoonBody(VersionBody):
    choice: MoonScoring


class PlayBody(VersionBody):
    card: StrictStr = Field(description="the card South plays, e.g. '5C'")
    checker: Literal["on", "asked"] | None = Field(
        None,
        description="Cảnh báo nước đi at a solo table: on (no question), asked (the"
        " question shown before this card), absent or null (off); counted in the match",
    )


class RecordBody(_Body):
    # Checked by the rules (400 bad_record with a Vietnamese message), not here.
    record: Any = Field(description="a hearts-hand/1 record: the object or its JSON text")


class AnalysisBody(_Body):
    hand: int = Field(strict=True, ge=1, le=MAX_HAND, description="a finished hand of the match")


class SettingsBody(_Body):
    level: Literal["easy", "medium", "hard"] | None = None
    quick: StrictBool | None = None
    take_back: StrictBool | None = None


class Token(BaseModel):
    token: str


class FirstDealBody(_Body):
    """The first deal promised with the page (docs/fairness.md): the page's ticket and
    the seed it drew after reading the ticket's commitment."""

    ticket: StrictStr = Field(max_length=64, description="the page's hearts-first-deal ticket")
    client_seed: StrictStr = Field(max_length=64, description="1-64 characters of 0-9, a-f")


class PlayerBody(_Body):
    """``POST /api/players``: a page about to deal its first match asks for that
    deal's commitment in the same answer, or deals it at once with the commitment the
    page came with (one or two round trips less on a slow link)."""

    fairness: StrictBool = Field(
        False, description="also answer the first deal's commitment (the row is made now)"
    )
    first_deal: FirstDealBody | None = Field(
        None, description="deal the first match now, from the page's ticket and this seed"
    )


class TransferBody(_Body):
    """Chuyển sang máy khác: the one-time code (any case; dashes and spaces ignored),
    and the claiming page's idempotency key: the same code claimed again with the same
    ``claim_id`` answers the same token (a lost answer is asked again)."""

    code: StrictStr = Field(max_length=64)
    claim_id: StrictStr | None = Field(None, pattern=r"^[0-9a-f]{32}$")


class TransferCode(BaseModel):
    code: str  # three groups of five, e.g. "ABCDE-FGHJK-MNPQR"
    expires_in: int  # seconds


class PaceInfo(BaseModel):
    gap_ms: int = Field(description="between the computers' moves")
    hold_ms: int = Field(description="a finished trick stays on the table")


class Settings(BaseModel):
    level: Literal["easy", "medium", "hard"]
    quick: bool
    take_back: bool = Field(True, description="South may take back its last card (Đi lại)")
    pace: PaceInfo | None = Field(
        None,
        description="the computers' pace the page keeps at a solo table (table/pacing.py;"
        " Chơi nhanh's when quick); null where the server keeps the table's time",
    )


class RulesInfo(BaseModel):
    """The match's rules: all five keys, always."""

    players: int
    qs_breaks_hearts: bool
    moon: Moon
    jd_bonus: bool
    target: int


class HandPoints(BaseModel):
    points: dict[str, int]
    moon: str | None = Field(description="the seat that shot the moon")
    moon_scoring: MoonScoring | None = Field(description="how that moon was scored")


class MoonOutcome(BaseModel):
    points: dict[str, int] = Field(description="the hand's points with this choice")
    totals: dict[str, int] = Field(description="the match totals after it")


class CheckerCount(BaseModel):
    plays: int = Field(default=0, description="South's cards played with Cảnh báo nước đi on")
    asked: int = Field(default=0, description="of them, those it asked about first")


class MatchInfo(BaseModel):
    hand_number: int
    target: int
    totals: dict[str, int]
    hands: list[HandPoints]
    over: bool
    winner: str | None
    hints: int = 0  # hints South was given in this match
    take_backs: int = 0  # cards South took back in this match (Đi lại)
    checker: CheckerCount = CheckerCount()  # Cảnh báo nước đi in this match


class Play(BaseModel):
    seat: str
    card: str


class Trick(BaseModel):
    leader: str
    winner: str
    points: int
    taken: dict[str, int] = Field(
        description="the points each seat has taken in this hand once this trick is won"
    )
    cards: list[Play]


class HandFairness(BaseModel):
    """The seeds of the hand (docs/fairness.md)."""

    commitment: str = Field(description="SHA-256 of the server seed, shown before the deal")
    client_seeds: list[str] = Field(description="the clients' seeds, in the order joined")
    client_seats: list[int] = Field(
        description="whose each client seed is: its seat in the deal's seat order"
    )
    server_seed: str | None = Field(description="the server's seed: null until the hand is over")
    deal_seat: int = Field(
        description="the index of the first of `seats` (you) in the deal's seat order"
    )
    deal: dict[str, list[str]] | None = Field(
        description="every seat's dealt cards, once the hand is over (null before)"
    )


class Fairness(BaseModel):
    next_commitment: str | None = Field(
        description="SHA-256 of the server seed of the next hand dealt for this player"
    )


class NextCommitment(Fairness):
    version: int = Field(description="the player's State version (for POST /api/new-match)")


class NewPlayer(Token):
    fairness: NextCommitment | None = Field(
        None, description='GET /api/fairness of the new token, when asked with "fairness": true'
    )
    state: State | None = Field(None, description='the first match\'s State, with "first_deal"')


class HandInfo(BaseModel):
    phase: Literal["pass", "play", "moon_choice", "done"]
    pass_direction: Literal["left", "right", "across", "none"]
    pass_count: int
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
    broken_at: int | None = Field(
        description="the index, among the hand's cards played (tricks, then the trick), "
        "of the card that broke hearts (null: not broken)"
    )
    points: dict[str, int] | None
    moon: str | None
    moon_scoring: MoonScoring | None
    moon_choice: dict[MoonScoring, MoonOutcome] | None = Field(
        description="both outcomes while South, who shot the moon, chooses"
    )
    auto_finished: bool
    can_take_back: bool = Field(
        False, description="POST /api/take-back would take back South's last card now"
    )
    fairness: HandFairness | None = Field(
        None, description="the hand's seeds (null: dealt before deals were committed)"
    )


class Unlock(BaseModel):
    """An achievement (records/achievements.py): its stable id, Vietnamese name,
    one-line condition and icon."""

    id: str
    name: str
    condition: str
    icon: str


class State(BaseModel):
    version: int
    settings: Settings
    rules: RulesInfo
    seats: list[str] = Field(description="the seats in play order, South first")
    names: dict[str, str]
    match: MatchInfo
    hand: HandInfo
    unlocked: list[Unlock] = Field(
        default_factory=list,
        description="the achievements unlocked when the finished hand on the table ended"
        " (empty while a hand is being played)",
    )
    fairness: Fairness = Field(description="the commitment of the next deal")
    preparing_hard: bool = Field(
        False,
        description="Khó is still being prepared on the server (its kernel compiles after "
        "an install): its cards wait for it (always false in a room)",
    )


class AchievementInfo(Unlock):
    unlocked: bool
    unlocked_at: str | None = Field(description="when (ISO 8601, UTC), null while locked")
    progress: int | None = Field(description="the count so far (up to goal) of a counted goal")
    goal: int | None = Field(description="the count a counted goal needs; null for the others")


class MatchAchievements(BaseModel):
    queens: dict[str, int] = Field(description="per seat, the hands of this match it took Q♠ in")
    unlocked: list[str] = Field(description="ids of the achievements unlocked in this match")


class Achievements(BaseModel):
    achievements: list[AchievementInfo]
    match: MatchAchievements


class TableStats(BaseModel):
    rules: RulesInfo
    played: int
    won: int
    best: int | None


class LevelStats(BaseModel):
    hands: int
    points: int
    average: float | None = Field(description="South's points per hand at this difficulty")


class Stats(BaseModel):
    played: int
    won: int
    moons: int
    best: int | None
    hands: int
    take_back_matches: int = Field(0, description="finished matches with a take-back (Đi lại)")
    checker_plays: int = Field(
        0, description="cards played with Cảnh báo nước đi on, in finished matches"
    )
    checker_asked: int = Field(0, description="of them, those it asked about first")
    levels: dict[str, LevelStats] = Field(
        default_factory=dict, description="hands by the difficulty set when each ended"
    )
    tables: list[TableStats] = Field(
        default_factory=list, description="finished matches by the rules they were played with"
    )


class ErrorInfo(BaseModel):
    code: str
    message: str
    #: a bad record's fault as a code and its values (``bad_record``: docs/api.md)
    reason: dict[str, Any] | None = None


class ErrorBody(BaseModel):
    error: ErrorInfo


class StaleBody(BaseModel):
    error: ErrorInfo
    state: State | None = Field(None, description="the current state (with code 'stale')")


class Hint(BaseModel):
    """Gợi ý: Khó's choice for South (``card`` in play, ``cards`` in the pass; the
    other is null), the mean points of the options it weighed (a card, or a pass
    as its cards space-separated), why (``why``: what the choice was made by, a
    code; ``reasons``: in the caller's language, why first, the estimates last),
    and the State after the hint was counted."""

    card: str | None
    cards: list[str] | None
    estimates: dict[str, float]
    why: str = Field(description="what Khó chose by, a code (docs/api.md, Hint)")
    reasons: list[str]
    state: State


class Flag(BaseModel):
    """A card of South's that Khó's search rates clearly worse than its choice."""

    why: str = Field(description="why the card is worse, a code (docs/api.md, Play checker)")
    measure: Literal["points", "moon", "match"] = Field(description="what figures measure")
    figures: dict[str, float] = Field(description="the card's and Khó's choice's, in measure")
    line: str = Field(description="the question's reason, in the caller's language")


class Check(BaseModel):
    """Cảnh báo nước đi: the check of South's play at ``version``: Khó's choice
    (``card``, the hint's) and the legal cards it rates clearly worse (``flagged``;
    any other card is fine).  Not counted, no action: the version stays."""

    version: int
    card: str
    flagged: dict[str, Flag]


class Finding(BaseModel):
    """A decision of South's where Khó chose otherwise."""

    kind: Literal["pass", "play"]
    index: int | None = Field(description="the play's index in the hand (null: the pass)")
    trick: int = Field(description="the trick (1-13; 0: the pass)")
    played: str | list[str] = Field(description="South's card (or passed cards)")
    best: str | list[str] = Field(description="Khó's card (or cards)")
    cost: float = Field(description="South's expected points minus Khó's choice's")
    points: dict[str, float] = Field(description="'played' and 'best': expected points")
    costly: bool = Field(description="one of the three costliest (a positive cost)")


class Analysis(BaseModel):
    """Phân tích of a finished hand: how far it went and what Khó found."""

    hand: int
    status: Literal["running", "done", "cancelled", "failed"]
    done: int = Field(description="decisions weighed so far")
    total: int = Field(description="South's decisions in the hand")
    decisions: list[Finding]


class Belief(BaseModel):
    """What Khó believed about the cards it could not see, from its imagined deals."""

    worlds: int = Field(description="the deals its search imagined")
    seats: dict[str, dict[str, int]] = Field(
        description="per other seat, per watched card it could not see: the % of deals"
    )


class Played(BaseModel):
    """A card on the table, with its seat."""

    seat: str
    card: str


class Known(BaseModel):
    """A computer's decision: what its seat could see, what it chose and believed."""

    seat: str
    kind: Literal["pass", "play"]
    index: int | None = Field(description="the play's index in the hand (null: a pass)")
    trick: int = Field(description="the trick (1-13; 0: the pass)")
    chose: str | list[str] = Field(description="its card (or passed cards)")
    hand: list[str] = Field(description="its cards then")
    passed: list[str]
    received: list[str]
    from_: str | None = Field(alias="from", description="who passed it `received`")
    table: list[Played] = Field(description="the trick on the table, leader first")
    played: int = Field(description="cards played in the hand before this decision")
    where: dict[str, str] = Field(description="each watched card it could not see: its seat")
    belief: Belief | None = Field(description="Khó's belief (null: another level, or no choice)")


class Knew(BaseModel):
    """Máy đã biết gì: every computer decision of a finished hand."""

    hand: int
    level: str | None = Field(description="the computers' level when the hand ended")
    watched: list[str] = Field(description="the cards a belief is given for")
    decisions: list[Known]


def _error(model: type[BaseModel], description: str) -> dict[str, Any]:
    """An error answer of a route, for the OpenAPI document: its model by reference.
    A ``model`` here would be built again for every route of every app (most of
    ``create_app``'s time); the models go into the document once (install_openapi)."""
    ref = {"$ref": f"#/components/schemas/{model.__name__}"}
    return {"description": description, "content": {"application/json": {"schema": ref}}}


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: _error(ErrorBody, "bad input (bad_request, bad_card, bad_pass, …)"),
    403: _error(ErrorBody, "missing or unknown token (bad_token)"),
    409: _error(StaleBody, "stale version (with the state), or wrong phase"),
    410: _error(ErrorBody, "this token's player moved to another browser"),
    413: _error(ErrorBody, "body over 16 KiB (too_large)"),
    500: _error(ErrorBody, "an unexpected server error (internal)"),
}
#: A play's answers: also a card the rules forbid now.
PLAY_RESPONSES = ERROR_RESPONSES | {422: _error(ErrorBody, "a card the rules forbid now")}
#: A route whose body names something that may not exist (a path parameter's route
#: gets it by install_openapi).
NOT_FOUND_RESPONSE: dict[int | str, dict[str, Any]] = {
    404: _error(ErrorBody, "no such room, hand or code (room_not_found, not_found, …)"),
}
#: The path of the route that carries the error models into the document's
#: components while it is made (and is then taken out of it).
_ERRORS_PATH = "/_error-models"


def install_openapi(app: FastAPI) -> None:
    """``/openapi.json`` (the app is made with ``openapi_url=None``): integer bounds as
    integers (FastAPI's model makes them floats, ``9007199254740992.0``), so it says
    exactly what is accepted; the error answers' models (:func:`_error`) among its
    components; ``no-cache``, as it changes with the server's release."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            models: dict[int | str, dict[str, Any]] = {
                400: {"model": ErrorBody},
                409: {"model": StaleBody},
            }
            carrier = APIRoute(_ERRORS_PATH, endpoint=_no_answer, responses=models)
            app.router.routes.append(carrier)
            try:
                made = FastAPI.openapi(app)
            finally:
                app.router.routes.remove(carrier)
            del made["paths"][_ERRORS_PATH]
            _integral(made)
            _answers_as_given(made)
        return app.openapi_schema or {}

    app.openapi = openapi  # type: ignore[method-assign]

    @app.get("/openapi.json", include_in_schema=False)
    async def schema() -> JSONResponse:
        return JSONResponse(app.openapi(), headers={"Cache-Control": "no-cache"})


def _answers_as_given(made: dict[str, Any]) -> None:
    """The statuses the routes answer, as they answer them: a request FastAPI finds
    malformed is 400 ``bad_request`` (web/errors.py), not its 422; a route with a path
    parameter (a room's code, a hand's number) may name one that is not there, 404."""
    bad = ERROR_RESPONSES[400]
    for path, operations in made["paths"].items():
        for operation in operations.values():
            answers = operation["responses"]
            said = json.dumps(answers.get("422", {}))
            if "HTTPValidationError" in said:
                del answers["422"]
                answers.setdefault("400", bad)
            if "{" in path:
                answers.setdefault("404", NOT_FOUND_RESPONSE[404])
    schemas = made.get("components", {}).get("schemas", {})
    if "HTTPValidationError" not in json.dumps(made["paths"]):
        schemas.pop("HTTPValidationError", None)
        schemas.pop("ValidationError", None)


def _no_answer() -> None:
    """The error models' carrier (install_openapi): never routed to."""


def _integral(node: Any) -> None:
    if isinstance(node, dict):
        if node.get("type") == "integer":
            for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
                if isinstance(node.get(key), float) and node[key].is_integer():
                    node[key] = int(node[key])
        for value in node.values():
            _integral(value)
    elif isinstance(node, list):
        for value in node:
            _integral(value)
