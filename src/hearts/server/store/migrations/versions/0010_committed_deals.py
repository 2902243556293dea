"""Committed deals (issue 41, docs/fairness.md): the server's next secret seed.

- ``players.next_seed``: the server seed of the next hand dealt for the player
  (its commitment is in every State); made for every player of before.
- ``rooms.next_seed``: the same for a room, and ``rooms.client_seeds`` the
  seeds its humans sent for the next deal (JSON: seat -> seed).

The seed of the hand on the table lives in the hand's record (``matches.hand_record``,
the room's ``game``), revealed in the answers only once the hand is over.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

NO_REUSE = {"sqlite_autoincrement": True}


def upgrade() -> None:
    with op.batch_alter_table("players", table_kwargs=NO_REUSE) as batch:
        batch.add_column(sa.Column("next_seed", sa.String(64), nullable=True))
    with op.batch_alter_table("rooms", table_kwargs=NO_REUSE) as batch:
        batch.add_column(sa.Column("next_seed", sa.String(64), nullable=True))
        batch.add_column(sa.Column("client_seeds", sa.Text, nullable=False, server_default="{}"))
    conn = op.get_bind()
    for table in ("players", "rooms"):
        t = sa.table(table, sa.column("id", sa.Integer), sa.column("next_seed", sa.String))
        for (row_id,) in conn.execute(sa.select(t.c.id)).all():
            seed = secrets.token_hex(32)
            conn.execute(t.update().where(t.c.id == row_id).values(next_seed=seed))


def downgrade() -> None:
    with op.batch_alter_table("rooms", table_kwargs=NO_REUSE) as batch:
        batch.drop_column("client_seeds")
        batch.drop_column("next_seed")
    with op.batch_alter_table("players", table_kwargs=NO_REUSE) as batch:
        batch.drop_column("next_seed")
