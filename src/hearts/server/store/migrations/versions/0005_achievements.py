"""Achievements (issue 10, item 4).

- ``achievements``: one row per goal a player unlocked (``hearts.server.records.achievements``),
  keyed by the player and the goal's id, so a goal is unlocked once.
- ``hands.level``: the difficulty set when the hand ended (for "won on Khó" and the
  points per hand by difficulty); NULL for the hands played before: nobody knows it.

Nothing is unlocked here: players of earlier releases start with every goal
locked. The counted goals (matches played, moons, …) count their saved history
and unlock at the end of their next hand.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "achievements",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("achievement", sa.String(32), primary_key=True),
        sa.Column("unlocked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("match_id", sa.Integer, nullable=True),
        sa.Column("hand", sa.Integer, nullable=True),
    )
    with op.batch_alter_table("hands") as batch:
        batch.add_column(sa.Column("level", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("hands") as batch:
        batch.drop_column("level")
    op.drop_table("achievements")
