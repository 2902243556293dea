"""Phân tích (analysis, issue 11) in the database: every server process answers a
poll with the same progress and findings, and takes over an analysis whose process
died (its heartbeat went stale).

- ``analyses``: one row per analysed hand of a match (match, hand), with its player,
  status, progress, findings as JSON, budget, run number and heartbeat.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("hand", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("on_table", sa.Integer, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("found", sa.Text, nullable=False),
        sa.Column("iterations", sa.Integer, nullable=False),
        sa.Column("run", sa.BigInteger, nullable=False),
        sa.Column("heartbeat", sa.Float, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_analyses_player_id", "analyses", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_analyses_player_id", "analyses")
    op.drop_table("analyses")
