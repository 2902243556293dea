"""Phân tích in the database (``db.analyses``, migration 0007): an analysis's
progress and findings live in its row, so that any server process answers a poll
the same; the search runs in the bot pool of one process, which owns the row's
current ``run``.

- Every start, restart or take-over claims the row by raising ``run`` (an
  optimistic lock, like the players' ``version``); the process that holds the run
  writes progress and the result under ``WHERE run = :its run``, so a process whose
  run was taken (or the analysis cancelled) finds its write refused and stops.
- The running process refreshes ``heartbeat`` (Unix seconds) every
  ``HEARTBEAT`` seconds and with every decision weighed.  A ``running`` row whose
  heartbeat is older than ``STALE`` seconds lost its process (killed, stopped):
  whichever process is asked about it next takes it over and goes on from the
  decisions already weighed (each weighing is deterministic for its view and the
  row's budget, so the findings are those of one uninterrupted run).

Every method is one short transaction: call it from a thread.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import RowMapping

from hearts.server.coach.analysis import Analysis
from hearts.server.config import Config
from hearts.server.store.db import Store, analyses

#: Seconds between the running process's heartbeats.
HEARTBEAT = 2.0
#: A running analysis whose heartbeat is older than this lost its process
#: (:attr:`hearts.server.config.Config.analysis_stale`).
STALE = Config.analysis_stale


@dataclass
class Job:
    """An analysis as its row holds it: the :class:`Analysis` (progress and findings),
    its player, budget, the run that owns it and its last heartbeat."""

    analysis: Analysis
    player_id: int
    iterations: int
    run: int = 0
    heartbeat: float = 0.0

    @property
    def key(self) -> tuple[int, int]:
        return self.analysis.match_id, self.analysis.hand

    def stale(self, now: float, stale: float = STALE) -> bool:
        """Running, but its process has not been heard of for ``stale`` seconds."""
        return self.analysis.status == "running" and now - self.heartbeat > stale


def _job(row: RowMapping) -> Job:
    found = Analysis(
        hand=row["hand"],
        match_id=row["match_id"],
        on_table=row["on_table"],
        total=row["total"],
        done=row["done"],
        status=row["status"],
        found=list(json.loads(row["found"])),
    )
    return Job(found, row["player_id"], row["iterations"], row["run"], row["heartbeat"])


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _where(job: Job, run: int) -> sa.ColumnElement[bool]:
    match_id, hand = job.key
    return sa.and_(analyses.c.match_id == match_id, analyses.c.hand == hand, analyses.c.run == run)


class AnalysisStore:
    """The analyses of one :class:`Store` (its engine and its locks)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def get(self, match_id: int, hand: int) -> Job | None:
        with self.store.read() as conn:
            row = (
                conn.execute(
                    sa.select(analyses).where(
                        analyses.c.match_id == match_id, analyses.c.hand == hand
                    )
                )
                .mappings()
                .one_or_none()
            )
        return None if row is None else _job(row)

    def claim(self, job: Job, seen: int | None) -> bool:
        """Write ``job`` as running under a new run: a new row when ``seen`` is None,
        else over the row still at run ``seen``.  False: another process claimed it
        first (nothing written).  Sets ``job.run`` and ``job.heartbeat``."""
        a = job.analysis
        now = time.time()
        values: dict[str, Any] = {
            "player_id": job.player_id,
            "on_table": a.on_table,
            "status": "running",
            "done": a.done,
            "total": a.total,
            "found": json.dumps(a.found),
            "iterations": job.iterations,
            "heartbeat": now,
            "updated_at": _now(),
        }
        try:
            with self.store.write() as conn:
                if seen is None:
                    run = 1
                    conn.execute(
                        analyses.insert().values(
                            match_id=a.match_id, hand=a.hand, run=run, **values
                        )
                    )
                else:
                    run = seen + 1
                    done = conn.execute(
                        analyses.update().where(_where(job, seen)).values(run=run, **values)
                    )
                    if done.rowcount != 1:
                        return False
        except sa.exc.IntegrityError:  # the same hand's first start, in another process
            return False
        a.status = "running"
        job.run, job.heartbeat = run, now
        return True

    def save(self, job: Job) -> bool:
        """Write the progress, findings and status of ``job``'s run, with a heartbeat;
        False when the run is no longer the row's running one (cancelled, taken
        over): its process stops."""
        a = job.analysis
        now = time.time()
        saved = self._update_running(
            job,
            status=a.status,
            done=a.done,
            found=json.dumps(a.found),
            heartbeat=now,
            updated_at=_now(),
        )
        job.heartbeat = now
        return saved

    def beat(self, job: Job, at: float | None = None) -> bool:
        """The heartbeat of ``job``'s run (``at``: the time written, now if None);
        False when the run no longer runs (cancelled, taken over)."""
        return self._update_running(job, heartbeat=time.time() if at is None else at)

    def cancel(self, job: Job) -> bool:
        """Stop ``job``'s run (the player moved on)."""
        cancelled = self._update_running(job, status="cancelled", updated_at=_now())
        job.analysis.status = "cancelled"
        return cancelled

    def _update_running(self, job: Job, **values: Any) -> bool:
        """Write ``values`` over ``job``'s run if it still runs; whether it did."""
        with self.store.write() as conn:
            done = conn.execute(
                analyses.update()
                .where(_where(job, job.run), analyses.c.status == "running")
                .values(**values)
            )
        return done.rowcount == 1

    def cancel_player(self, player_id: int, keep: tuple[int, int] | None = None) -> None:
        """Stop every running analysis of the player (but ``keep``'s): whichever
        process runs one finds its next write refused."""
        where = sa.and_(analyses.c.player_id == player_id, analyses.c.status == "running")
        if keep is not None:
            where = sa.and_(
                where, sa.not_(sa.and_(analyses.c.match_id == keep[0], analyses.c.hand == keep[1]))
            )
        with self.store.write() as conn:
            conn.execute(
                analyses.update().where(where).values(status="cancelled", updated_at=_now())
            )
