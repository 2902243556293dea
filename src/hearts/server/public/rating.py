"""The rating of public matches (issue 40): openskill's Plackett-Luce model, made
for free-for-all games of several players, and the leaderboard.

A finished public match with at least two real opponents is rated once: in the
same transaction as the change that ended it, which the room's version check lets
happen once whatever the processes do (``rating_changes``' key is the second
guard).  A human counts when they played at least one whole hand at the table,
their token is older than the table, and no earlier-seated counted human came from
their address (one person's second browser is not an opponent: issue 57, item 3).
Those who count are ranked among themselves by their totals (lower is better, ties
share a place); whoever left the match for good at any time ranks last, even if
they sat down again (item 4).  Computers are not rated.  The leaderboard orders by
the conservative rating ``mu - 3 sigma`` (0 for a new player).

What seating records for this, in the room's ``public`` part (never sent to a
page): ``people``, by player id as text, in the order they came: ``from`` (a hash
of the address as the limits count it), ``since`` (the hands scored when they sat
down; None while not seated), ``hands`` (whole hands played in earlier stints) and
``left``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from openskill.models import PlackettLuce
from sqlalchemy.engine import Connection

from hearts.server.rooms.store import Room
from hearts.server.store.db import players, rating_changes, ratings, rooms

MODEL = PlackettLuce()
#: How many players each board lists.
TOP = 50


@dataclass(frozen=True)
class Rated:
    """One human of a finished match: who, the name shown, the place among the humans."""

    player_id: int
    name: str
    place: int


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def conservative(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def address_key(address: str) -> str:
    """What a public table keeps of a seeker's address: enough to tell two seats
    from one address apart, not the address."""
    return hashlib.sha256(b"hearts-public-address:" + address.encode()).hexdigest()[:16]


def person(public: dict[str, Any], player_id: int) -> dict[str, Any]:
    """The table's record of ``player_id`` (made on their first seek here)."""
    people: dict[str, dict[str, Any]] = public.setdefault("people", {})
    return people.setdefault(
        str(player_id), {"from": None, "since": None, "hands": 0, "left": False}
    )


def sat_down(public: dict[str, Any], player_id: int, scored: int) -> None:
    """``player_id`` takes a seat when ``scored`` hands of the match are scored."""
    person(public, player_id)["since"] = scored


def stood_up(public: dict[str, Any], player_id: int, scored: int) -> None:
    """``player_id`` leaves the match for good when ``scored`` hands are scored."""
    p = person(public, player_id)
    if p["since"] is not None:
        p["hands"] += scored - p["since"]
    p["since"], p["left"] = None, True


def _counted(room: Room, newer: Collection[int]) -> list[tuple[int, str, bool]]:
    """The match's real opponents in the order they came: (player id, name shown,
    whether they ever left it)."""
    assert room.game is not None and room.public is not None
    scored = len(room.game.results)
    names = {g["player_id"]: g["name"] for g in room.public.get("left", [])}
    names |= {s.player_id: s.name or "" for s in room.seats if s.kind == "human"}
    seated = {s.player_id for s in room.seats if s.kind == "human"}
    people = room.public.get("people")
    if people is None:  # a table from before the record: everyone at it counts
        return [(pid, name, pid not in seated) for pid, name in names.items() if pid is not None]
    out, addresses = [], set()
    for key, p in people.items():
        pid = int(key)
        hands = p["hands"] + (scored - p["since"] if p["since"] is not None else 0)
        if pid not in names or hands < 1 or pid in newer or p["from"] in addresses:
            continue
        if p["from"] is not None:
            addresses.add(p["from"])
        out.append((pid, names[pid], p["left"] or pid not in seated))
    return out


def standings(room: Room, newer: Collection[int] = ()) -> list[Rated]:
    """The match's real opponents and their places: those who stayed by total, then
    whoever left (``newer``: the players whose token is younger than the table)."""
    assert room.game is not None
    totals = room.game.totals
    at = {s.player_id: s.seat for s in room.seats if s.kind == "human"}
    counted = _counted(room, newer)
    stayed = [(totals[at[pid]], pid, name) for pid, name, left in counted if not left]
    out = [
        Rated(pid, name, 1 + sum(1 for other, _p, _n in stayed if other < total))
        for total, pid, name in stayed
    ]
    last = len(out) + 1
    return out + [Rated(pid, name, last) for pid, name, left in counted if left]


def _newer(conn: Connection, room: Room) -> set[int]:
    """The humans at ``room`` whose token is younger than the table."""
    ids = [int(k) for k in (room.public or {}).get("people", {})]
    opened = sa.select(rooms.c.created_at).where(rooms.c.id == room.id).scalar_subquery()
    query = sa.select(players.c.id).where(players.c.id.in_(ids), players.c.created_at > opened)
    return set(conn.execute(query).scalars()) if ids else set()


def rate(conn: Connection, room: Room) -> dict[str, Any]:
    """Rate the finished match ``room`` in the caller's transaction: each human's
    change (by player id, as text) or {} when the match is not rated."""
    people = sorted(standings(room, _newer(conn, room)), key=lambda r: r.player_id)  # lock order
    if len(people) < 2:
        return {}
    ids = [r.player_id for r in people]
    rows = {
        row.player_id: row
        for row in conn.execute(
            sa.select(ratings).where(ratings.c.player_id.in_(ids)).with_for_update()
        )
    }
    before = [
        MODEL.rating(mu=rows[p].mu, sigma=rows[p].sigma) if p in rows else MODEL.rating()
        for p in ids
    ]
    after = MODEL.rate([[b] for b in before], ranks=[r.place for r in people])
    now = _now()
    changes: dict[str, Any] = {}
    for person, old, (new,) in zip(people, before, after, strict=True):
        was = conservative(old.mu, old.sigma)
        now_is = conservative(new.mu, new.sigma)
        values = {
            "mu": new.mu,
            "sigma": new.sigma,
            "conservative": now_is,
            "name": person.name,
            "rated_at": now,
        }
        row = rows.get(person.player_id)
        if row is None:
            conn.execute(
                ratings.insert().values(
                    player_id=person.player_id, matches=1, hidden=False, **values
                )
            )
        else:
            conn.execute(
                ratings.update()
                .where(ratings.c.player_id == person.player_id)
                .values(matches=row.matches + 1, **values)
            )
        conn.execute(
            rating_changes.insert().values(
                room_id=room.id,
                player_id=person.player_id,
                place=person.place,
                before=was,
                after=now_is,
                rated_at=now,
            )
        )
        changes[str(person.player_id)] = {
            "place": person.place,
            "before": round(was, 2),
            "after": round(now_is, 2),
        }
    return changes


def week_start(now: dt.datetime) -> dt.datetime:
    """Monday 00:00 UTC of ``now``'s week."""
    day = now.astimezone(dt.UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return day - dt.timedelta(days=day.weekday())


def _entries(conn: Connection, since: dt.datetime | None) -> list[dict[str, Any]]:
    query = sa.select(ratings.c.name, ratings.c.conservative).where(
        ratings.c.hidden.is_(False), ratings.c.matches > 0
    )
    if since is not None:
        query = query.where(ratings.c.rated_at >= since)
    query = query.order_by(ratings.c.conservative.desc(), ratings.c.player_id).limit(TOP)
    return [
        {"rank": i + 1, "name": name, "rating": round(value, 2)}
        for i, (name, value) in enumerate(conn.execute(query))
    ]


def leaderboard(conn: Connection, player_id: int) -> dict[str, Any]:
    """This week's and all-time top 50 and the player's own place (None: unrated).

    This week's board lists the players rated this week (Monday 00:00 UTC on), by
    their rating now."""
    row = conn.execute(sa.select(ratings).where(ratings.c.player_id == player_id)).first()
    me: dict[str, Any] | None = None
    if row is not None and row.matches > 0:
        above = conn.execute(
            sa.select(sa.func.count())
            .select_from(ratings)
            .where(
                ratings.c.hidden.is_(False),
                ratings.c.matches > 0,
                sa.or_(
                    ratings.c.conservative > row.conservative,
                    sa.and_(
                        ratings.c.conservative == row.conservative,
                        ratings.c.player_id < player_id,
                    ),
                ),
            )
        ).scalar_one()
        last = conn.execute(
            sa.select(rating_changes.c.before, rating_changes.c.after, rating_changes.c.place)
            .where(rating_changes.c.player_id == player_id)
            .order_by(rating_changes.c.rated_at.desc())
            .limit(1)
        ).first()
        me = {
            "rank": None if row.hidden else above + 1,
            "name": row.name,
            "rating": round(row.conservative, 2),
            "hidden": bool(row.hidden),
            "matches": row.matches,
            "last": None
            if last is None
            else {"place": last.place, "change": round(last.after - last.before, 2)},
        }
    return {
        "week": _entries(conn, week_start(_now())),
        "all": _entries(conn, None),
        "me": me,
    }


def keep_off(conn: Connection, player_id: int, hidden: bool) -> None:
    """The player keeps themselves off the leaderboard (or back on it)."""
    done = conn.execute(
        ratings.update().where(ratings.c.player_id == player_id).values(hidden=hidden)
    )
    if done.rowcount == 0:
        new = MODEL.rating()
        conn.execute(
            ratings.insert().values(
                player_id=player_id,
                mu=new.mu,
                sigma=new.sigma,
                conservative=conservative(new.mu, new.sigma),
                matches=0,
                name="",
                hidden=hidden,
                rated_at=_now(),
            )
        )
