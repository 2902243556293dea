"""What one browser sees of a room: the Room of docs/api.md, from its own seat.

Seat letters are viewer-relative: the viewer's seat is "S" and the others follow
in play order, so the single-player table renderer works unchanged.  The table
itself is the match's State from the viewer's seat (:meth:`Game.state`): built
from that seat's view alone, so it holds no card of another hand.
"""

from __future__ import annotations

from typing import Any

from pydantic_core import to_json

from hearts.fairness import commitment
from hearts.server.i18n import lang, messages_en
from hearts.server.rooms.store import Room, now

#: A seat is shown connected this long after its last socket refresh or call.
CONNECTED_SECONDS = 30.0
#: A public table's reaction is sent this long after it was made (the page shows it 2 s).
REACTION_SECONDS = 2.0


def presence(room: Room, t: float) -> tuple[bool, ...]:
    """Whether each seat (absolute) is shown connected at ``t``: a computer always, a
    human seen (socket refresh or call) in the last :data:`CONNECTED_SECONDS`."""
    return tuple(
        s.kind == "computer"
        or (s.kind == "human" and s.seen_at is not None and t - s.seen_at < CONNECTED_SECONDS)
        for s in room.seats
    )


def room_text(room: Room, viewer: int | None) -> str:
    """:func:`room_view` as JSON text.  Its table State, the costly part and the same
    until the next version, is built once per seat and version: the answer to an
    action and the pushes to every socket of that seat share it."""
    outer = room_view(room, viewer, table=False)
    text = to_json(outer).decode()
    if viewer is None or room.game is None:
        return text
    key = (viewer, lang.current())  # the State's words are in the viewer's language
    table = room.tables.get(key)
    if table is None:
        # pydantic's JSON writer: the same JSON as json.dumps, in a quarter of the time
        state = table_state(room, viewer, outer["seats"])
        table = room.tables[key] = to_json(state).decode()
    # "state" is the last key: put the State's text in place of its null
    assert text.endswith(_NO_STATE)
    return f"{text[: -len('null}')]}{table}}}"


_NO_STATE = '"state":null}'


def room_view(room: Room, viewer: int | None, table: bool = True) -> dict[str, Any]:
    """The Room as the player at absolute seat ``viewer`` (None: no seat) sees it
    (``table``: with its State, else ``"state": None``)."""
    rules = room.rules
    n = rules.players
    letters = rules.seats
    base = viewer if viewer is not None else 0

    def letter(seat: int) -> str:
        return letters[(seat - base) % n]

    t = now()
    connected = presence(room, t)
    me = room.seats[viewer].player_id if viewer is not None else None
    hidden = _hidden_by(room, me)
    gone_hidden = _left_hidden(room, hidden)
    seats = []
    for r in range(n):
        s = room.seats[(r + base) % n]
        name, left = s.name, None
        if s.kind == "human" and s.player_id in hidden:
            name = _hidden_name()
        if s.kind == "computer":
            name = messages_en.computer(s.seat + 1) if lang.english() else f"Máy {s.seat + 1}"
            left = _hidden_name() if s.name in gone_hidden else s.name
        seats.append(
            {
                "seat": letter(s.seat),
                "name": name,
                "kind": s.kind,
                "connected": connected[s.seat],
                "auto": s.auto,
                "left": left,
            }
        )
    waiting: list[str] = []
    game = room.game
    if game is not None and room.phase == "playing":
        waiting = [letter(s) for s in waiting_humans(room)]
    auto_plays = [
        {
            "seat": letter(a["seat"]),
            "step": a["step"],
            # a pass's cards are secret: only their passer sees them
            "card": a["card"] if a["step"] == "play" or a["seat"] == viewer else None,
        }
        for a in room.auto_plays
    ]
    deadline = None
    if waiting and room.due_at is not None and room.turn_seconds is not None:
        deadline = round(max(0.0, room.due_at - t), 1)
    state = None
    if table and viewer is not None and game is not None:
        state = table_state(room, viewer, seats)
    return {
        "code": room.code,
        "version": room.version,
        "phase": room.phase,
        "you": letters[0] if viewer is not None else None,
        # nobody owns a public table (docs/api.md): no host to show
        "creator": None if room.public is not None else letter(room.creator),
        "full": not any(s.kind == "empty" for s in room.seats),
        "seats": seats,
        "rules": rules.to_api(),
        "level": room.level,
        "turn_seconds": room.turn_seconds,
        "waiting_for": waiting,
        "computer_to_move": computer_to_move(room),
        "deadline": deadline,
        "auto_plays": auto_plays,
        "public": public_view(room, viewer, letter, hidden, t),
        "fairness": fairness(room),
        "state": state,
    }


def _hidden_name() -> str:
    return "Hidden player" if lang.english() else "Người chơi ẩn"


def _left_hidden(room: Room, hidden: set[int]) -> set[str]:
    """The names of the leavers of this public table whom the viewer hid."""
    if room.public is None or not hidden:
        return set()
    return {g["name"] for g in room.public.get("left", []) if g["player_id"] in hidden}


def _hidden_by(room: Room, player_id: int | None) -> set[int]:
    """The players whose names and reactions ``player_id`` hid at this public table."""
    if room.public is None or player_id is None:
        return set()
    return set(room.public.get("hidden", {}).get(str(player_id), []))


def public_view(
    room: Room, viewer: int | None, letter: Any, hidden: set[int], t: float
) -> dict[str, Any] | None:
    """A public table's part of the Room from ``viewer``'s seat (None: friends):
    the reactions of the last 2 s not hidden, the seats hidden, the lobby's start,
    and the viewer's rating change once the match is rated."""
    public = room.public
    if public is None:
        return None
    me = room.seats[viewer].player_id if viewer is not None else None
    reactions = [
        {"seat": letter(r["seat"]), "reaction": r["reaction"], "id": r["id"]}
        for r in public.get("reactions", [])
        if t - r["at"] < REACTION_SECONDS
        and r["player_id"] not in hidden
        and room.seats[r["seat"]].player_id == r["player_id"]
    ]
    start_at = public.get("start_at")
    return {
        "reactions": reactions,
        "hidden": [
            letter(s.seat) for s in room.seats if s.kind == "human" and s.player_id in hidden
        ],
        "start_in": (
            round(max(0.0, start_at - t), 1)
            if room.phase == "lobby" and start_at is not None
            else None
        ),
        "queued": len(public.get("queue", [])),
        "rated": _rated(public, me),
    }


def _rated(public: dict[str, Any], me: int | None) -> dict[str, Any] | None:
    """The viewer's rating change, with how many people the match ranked: the
    place is among them alone, not among the seats (computers are not rated)."""
    rated = public.get("rated", {})
    mine = rated.get(str(me)) if me is not None else None
    return None if mine is None else {**mine, "people": len(rated)}


def fairness(room: Room) -> dict[str, Any]:
    """The commitment of the room's next deal (docs/fairness.md)."""
    return {"next_commitment": commitment(room.next_seed) if room.next_seed else None}


def table_state(room: Room, viewer: int, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """The single-player State of the match from seat ``viewer``."""
    game = room.game
    assert game is not None
    state = game.state(room.version, room.level, False, take_back=False, seat=viewer)
    state["fairness"] = fairness(room)
    state["names"] = {s["seat"]: s["name"] or "" for s in seats}
    state["names"][room.rules.seats[0]] = "You" if lang.english() else "Bạn"
    return state


def computer_to_move(room: Room) -> bool:
    """Whether the server is about to move for a computer (its pass or its card)."""
    game = room.game
    if game is None or room.phase != "playing" or not room.humans:
        return False
    return game.computers_to_move(set(room.humans))


def waiting_humans(room: Room) -> list[int]:
    """The humans the table waits on now (absolute seats)."""
    game = room.game
    if game is None or room.phase != "playing" or game.over:
        return []
    hand = game.hand
    humans = set(room.humans)
    if hand.phase == "pass":
        return [s for s in sorted(humans) if not hand.passes[s]]
    if hand.phase == "play":
        return [hand.turn] if hand.turn in humans else []
    if game.moon_pending:
        return [hand.shooter()]
    return []
