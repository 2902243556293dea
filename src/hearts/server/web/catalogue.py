"""GET /api/rules: the rule facts the page needs, from the engine (hearts.rules), so
that the page keeps no copy of them: the default table, what a player may choose
(player counts, moon scorings, targets), each table size's deck, and which cards
break hearts under which rule. The same for every player and every match; no token."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from pydantic import BaseModel, Field

from hearts.cards import card_name, cards_of
from hearts.rules import API_RULES, MOON_RULES, REMOVED, TARGETS, Rules


class TargetRange(BaseModel):
    min: int
    max: int


class TableFacts(BaseModel):
    removed: list[str] = Field(description="the cards taken out of the deck")
    hand_size: int = Field(description="cards dealt to each player")
    lead: str = Field(description="the card that leads the first trick")


class Breakers(BaseModel):
    cards: list[str] = Field(description="the cards whose play breaks hearts at every table")
    rules: dict[str, list[str]] = Field(
        description="more cards that break hearts while the (boolean) rule named is on"
    )


class Catalogue(BaseModel):
    defaults: dict[str, bool | int | str] = Field(description="the default table's rules")
    players: list[int]
    moon: list[str]
    target: TargetRange
    tables: dict[str, TableFacts] = Field(description="per player count")
    breakers: Breakers


def _names(mask: int) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]


def catalogue() -> dict[str, Any]:
    """The facts, as GET /api/rules answers them."""
    default = Rules()
    tables = {}
    for players in sorted(REMOVED):
        rules = Rules(players=players)
        tables[str(players)] = {
            "removed": list(REMOVED[players]),
            "hand_size": rules.hand_size,
            "lead": card_name(rules.lead_card),
        }
    more = {}
    for key in API_RULES:
        if type(getattr(default, key)) is bool:
            on: dict[str, Any] = {key: True}
            extra = Rules(**on).breakers & ~default.breakers
            if extra:
                more[key] = _names(extra)
    return {
        "defaults": {key: getattr(default, key) for key in API_RULES},
        "players": sorted(REMOVED),
        "moon": list(MOON_RULES),
        "target": {"min": TARGETS.start, "max": TARGETS.stop - 1},
        "tables": tables,
        "breakers": {"cards": _names(default.breakers), "rules": more},
    }


FACTS = catalogue()  # they change only with a release
router = APIRouter()


@router.get("/api/rules", response_model=Catalogue, tags=["api"])
async def rules_catalogue(response: Response) -> dict[str, Any]:
    """The rule facts of this server (docs/api.md, Rules)."""
    response.headers["Cache-Control"] = "no-cache"
    return FACTS
