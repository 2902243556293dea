"""Đi lại (take back, issue 11): the player's setting and the match's count.

- ``players.take_back``: whether South may take back its last card (on for every
  player, those of before too).
- ``matches.take_backs``: how many cards South took back in the match; 0 for every
  match played before.  The statistics count the finished matches with any.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

NO_REUSE = {"sqlite_autoincrement": True}


def upgrade() -> None:
    with op.batch_alter_table("players", table_kwargs=NO_REUSE) as batch:
        batch.add_column(
            sa.Column("take_back", sa.Boolean, nullable=False, server_default=sa.true())
        )
    with op.batch_alter_table("matches", table_kwargs=NO_REUSE) as batch:
        batch.add_column(sa.Column("take_backs", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("matches", table_kwargs=NO_REUSE) as batch:
        batch.drop_column("take_backs")
    with op.batch_alter_table("players", table_kwargs=NO_REUSE) as batch:
        batch.drop_column("take_back")
