"""Public tables (issue 40): play with everyone, and a rating.

- ``rooms.public``: a public table's own part of its room (JSON), null for friends.
- ``public_tables``: one row per public table: what seekers ask for (rules and
  level), its phase, how many seats a seeker may take, when its lobby starts.
- ``public_players``: the public table each player is at (one at most: the key).
- ``ratings``: each rated player's openskill rating, name and leaderboard choice.
- ``rating_changes``: each rated match's change per player (one per match).

Revision ID: 0008_public
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_public"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("public", sa.Text, nullable=True))
    op.create_table(
        "public_tables",
        sa.Column("room_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("code", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(200), nullable=False),
        sa.Column("phase", sa.String(10), nullable=False),
        sa.Column("open_seats", sa.Integer, nullable=False),
        sa.Column("start_at", sa.Float, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_public_tables_start_at", "public_tables", ["start_at"])
    op.create_index("ix_public_tables_seek", "public_tables", ["kind", "phase", "open_seats"])
    op.create_table(
        "public_players",
        sa.Column("player_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("room_id", sa.Integer, nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_public_players_room_id", "public_players", ["room_id"])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("conservative", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("hidden", sa.Boolean, nullable=False),
        sa.Column("rated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_conservative", "ratings", ["conservative"])
    op.create_index("ix_ratings_rated_at", "ratings", ["rated_at"])
    op.create_table(
        "rating_changes",
        sa.Column("room_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("player_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("before", sa.Float, nullable=False),
        sa.Column("after", sa.Float, nullable=False),
        sa.Column("rated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_changes_player_id", "rating_changes", ["player_id"])
    op.create_index("ix_rating_changes_rated_at", "rating_changes", ["rated_at"])


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    op.drop_table("public_players")
    op.drop_table("public_tables")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("public")
