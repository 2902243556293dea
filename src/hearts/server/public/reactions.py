"""Quick reactions and hidden players at a public table (issue 40): no free text
between strangers, only a fixed set of reactions, shown over the seat for 2 s, at
most one per player in ``--public-reaction-seconds`` (3 s by default); and any
player may hide another's name and reactions for the rest of the match.

Both are changes of the room (its next version, pushed to every seat like a card);
the page sends them with no version: service.act tries again while others move.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hearts.server.i18n.messages import reaction_message
from hearts.server.rooms.store import Room, now
from hearts.server.web.errors import ApiError

#: Each reaction's name (the API's and the page's ``data-reaction``) and what it shows.
REACTIONS: dict[str, str] = {
    "like": "👍",
    "wow": "😮",
    "laugh": "😂",
    "sad": "😢",
    "nice": "Hay quá!",
    "sorry": "Xin lỗi",
    "thanks": "Cảm ơn",
}
#: A change of the room, as service.act takes it.
Action = Callable[[Room, int | None], None]
#: A reaction is kept in the room's row this long (then dropped at the next one).
KEPT_SECONDS = 10.0


def _seated(room: Room, seat: int | None) -> int:
    if seat is None:
        raise ApiError("not_in_room")
    if room.public is None:
        raise ApiError("bad_request")  # rooms of friends have no reactions
    if room.phase == "over":
        raise ApiError("match_over")
    return seat


def react(reaction: Any, every: float = 3.0) -> Action:
    """The room action of sending ``reaction``, at most one per player in ``every``
    seconds (``--public-reaction-seconds``); ApiError, nothing changed, if refused."""
    if not isinstance(reaction, str) or reaction not in REACTIONS:
        raise ApiError("bad_reaction")
    too_soon = reaction_message(every)  # in the request's language, made in its context

    def action(room: Room, seat: int | None) -> None:
        seat = _seated(room, seat)
        assert room.public is not None
        t = now()
        player = room.seats[seat].player_id
        kept = [r for r in room.public.get("reactions", []) if t - r["at"] < KEPT_SECONDS]
        if any(r["player_id"] == player and t - r["at"] < every for r in kept):
            raise ApiError("reaction_too_soon", too_soon)
        number = int(room.public.get("reaction_count", 0)) + 1
        kept.append(
            {"id": number, "seat": seat, "player_id": player, "reaction": reaction, "at": t}
        )
        room.public["reactions"] = kept
        room.public["reaction_count"] = number

    return action


def hide(letter: Any, hidden: bool) -> Action:
    """The room action of hiding (or showing again) the player at seat ``letter``
    (as the caller sees it) for the rest of the match."""
    if not isinstance(letter, str):
        raise ApiError("bad_seat")

    def action(room: Room, seat: int | None) -> None:
        seat = _seated(room, seat)
        assert room.public is not None
        letters = room.rules.seats
        if letter not in letters:
            raise ApiError("bad_seat")
        target = room.seats[(letters.index(letter) + seat) % room.rules.players]
        if target.kind != "human" or target.seat == seat or target.player_id is None:
            raise ApiError("bad_seat")
        me = str(room.seats[seat].player_id)
        by_me = set(room.public.setdefault("hidden", {}).get(me, []))
        if hidden:
            by_me.add(target.player_id)
        else:
            by_me.discard(target.player_id)
        room.public["hidden"][me] = sorted(by_me)

    return action
