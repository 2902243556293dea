"""The rating of public matches (issue 40): openskill's Plackett-Luce model, made
for free-for-all games of several players, and the leaderboard.

A finished public match with at least two humans (those seated at its end and
those who left it for good) is rated once: in the same transaction as the change
that ended it, which the room's version check lets happen once whatever the
processes do (``rating_changes``' key is the second guard).  The humans are
ranked among themselves by their totals (lower is better, ties share a place);
who left ranks last.  Computers are not rated.  The leaderboard orders by the
conservative rating ``mu - 3 sigma`` (0 for a new player).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from openskill.models import PlackettLuce
from sqlalchemy.engine import Connection

from hearts.server.rooms.store import Room
from hearts.server.store.db import rating_changes, ratings

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


def standings(room: Room) -> list[Rated]:
    """The match's humans and their places: the seated by total, then who left."""
    assert room.game is not None and room.public is not None
    totals = room.game.totals
    seated = [(totals[s.seat], s.player_id, s.name or "") for s in room.seats if s.kind == "human"]
    here = {pid for _t, pid, _n in seated}
    out = [
        Rated(pid, name, 1 + sum(1 for other, _p, _n in seated if other < total))
        for total, pid, name in seated
        if pid is not None
    ]
    last = len(out) + 1
    gone: dict[int, str] = {}
    for left in room.public.get("left", []):
        if left["player_id"] not in here:
            gone[left["player_id"]] = left["name"]
    out += [Rated(pid, name, last) for pid, name in gone.items()]
    return out


def rate(conn: Connection, room: Room) -> dict[str, Any]:
    """Rate the finished match ``room`` in the caller's transaction: each human's
    change (by player id, as text) or {} when the match is not rated."""
    people = sorted(standings(room), key=lambda r: r.player_id)  # one lock order
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
