"""Rooms: play with friends (issue 9).

- ``rooms``: one row per room (its code, version, phase, rules, the match as JSON,
  and when the server's next move is due).
- ``room_seats``: who sits where (a player, a computer, or nobody yet).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(16), nullable=False, unique=True),
        sa.Column("version", sa.BigInteger, nullable=False),
        sa.Column("phase", sa.String(8), nullable=False),
        sa.Column("creator", sa.Integer, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("level", sa.String(8), nullable=False),
        sa.Column("turn_seconds", sa.Integer, nullable=True),
        sa.Column("game", sa.Text, nullable=True),
        sa.Column("auto_plays", sa.Text, nullable=False),
        sa.Column("due_at", sa.Float, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_rooms_due_at", "rooms", ["due_at"])
    op.create_table(
        "room_seats",
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("player_id", sa.Integer, nullable=True),
        sa.Column("auto", sa.Boolean, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=True),
    )
    op.create_index("ix_room_seats_player_id", "room_seats", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_room_seats_player_id", "room_seats")
    op.drop_table("room_seats")
    op.drop_index("ix_rooms_due_at", "rooms")
    op.drop_table("rooms")
