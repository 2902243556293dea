"""The schema of release 0.1.0, as its ``metadata.create_all`` made it.

A database made by 0.1.0 has these tables and no ``alembic_version``: the server
stamps it at this revision and upgrades from here.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    meta = op.create_table(
        "meta",
        sa.Column("key", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("level", sa.String(8), nullable=False),
        sa.Column("quick", sa.Boolean, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("match_id", sa.Integer, nullable=True),
        sa.Column("matches_started", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("totals", sa.Text, nullable=False),
        sa.Column("results", sa.Text, nullable=False),
        sa.Column("hand_number", sa.Integer, nullable=False),
        sa.Column("hand_record", sa.Text, nullable=False),
        sa.Column("auto_finished", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("south_total", sa.Integer, nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_matches_player_id", "matches", ["player_id"])
    op.create_table(
        "hands",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("south_points", sa.Integer, nullable=False),
        sa.Column("shooter", sa.Integer, nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_hands_match_id", "hands", ["match_id"])
    op.create_index("ix_hands_player_id", "hands", ["player_id"])
    op.bulk_insert(meta, [{"key": "schema", "value": "1"}])


def downgrade() -> None:
    for table in ("hands", "matches", "players", "meta"):
        op.drop_table(table)
