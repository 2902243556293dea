"""64-bit counters and the players' last activity (for the retention policy).

- ``players.version`` (the API accepts versions up to 2^53), ``players.matches_started``
  and ``matches.number`` (never above the version) become BIGINT.
- ``players.last_seen_at``: set on every action; filled here with the latest of the
  player's creation and its matches' last change.
- ``players`` and ``matches`` ids are never reused on SQLite (AUTOINCREMENT): the
  deal seed mixes the match id in, and a removed player's id stays its own.
- ``meta.schema`` = "2", so that a 0.1.0 server refuses this database.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)
NO_REUSE = {"sqlite_autoincrement": True}


def upgrade() -> None:
    with op.batch_alter_table("players", table_kwargs=NO_REUSE) as batch:
        batch.alter_column("version", type_=sa.BigInteger, existing_nullable=False)
        batch.alter_column("matches_started", type_=sa.BigInteger, existing_nullable=False)
        batch.add_column(sa.Column("last_seen_at", WHEN, nullable=True))
    players = sa.table(
        "players", sa.column("id"), sa.column("created_at"), sa.column("last_seen_at")
    )
    matches = sa.table("matches", sa.column("player_id"), sa.column("updated_at"))
    latest_match = (
        sa.select(sa.func.max(matches.c.updated_at))
        .where(matches.c.player_id == players.c.id)
        .scalar_subquery()
    )
    # Both columns hold the same format on SQLite too, so the comparison is by time.
    op.execute(
        players.update().values(
            last_seen_at=sa.case(
                (latest_match > players.c.created_at, latest_match), else_=players.c.created_at
            )
        )
    )
    with op.batch_alter_table("players", table_kwargs=NO_REUSE) as batch:
        batch.alter_column("last_seen_at", existing_type=WHEN, nullable=False)
        batch.create_index("ix_players_last_seen_at", ["last_seen_at"])
    with op.batch_alter_table("matches", table_kwargs=NO_REUSE) as batch:
        batch.alter_column("number", type_=sa.BigInteger, existing_nullable=False)
    meta = sa.table("meta", sa.column("key"), sa.column("value"))
    op.execute(meta.update().where(meta.c.key == "schema").values(value="2"))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.alter_column("number", type_=sa.Integer, existing_nullable=False)
    with op.batch_alter_table("players") as batch:
        batch.drop_index("ix_players_last_seen_at")
        batch.drop_column("last_seen_at")
        batch.alter_column("matches_started", type_=sa.Integer, existing_nullable=False)
        batch.alter_column("version", type_=sa.Integer, existing_nullable=False)
    meta = sa.table("meta", sa.column("key"), sa.column("value"))
    op.execute(meta.update().where(meta.c.key == "schema").values(value="1"))
