"""Moving a player to another browser (issue 39, item 17; players/transfer.py).

- ``transfers``: the one-time codes (their SHA-256), the player, when each expires
  and whether it was used.
- ``moved_tokens``: the tokens whose player moved away, so that their browser is
  told so instead of starting as a new player.

Revision ID: 0009
Revises: 0008_public
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008_public"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "transfers",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("used", sa.Boolean, nullable=False),
    )
    op.create_index("ix_transfers_player_id", "transfers", ["player_id"])
    op.create_index("ix_transfers_expires_at", "transfers", ["expires_at"])
    op.create_table(
        "moved_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer, nullable=False),
        sa.Column("moved_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_moved_tokens_player_id", "moved_tokens", ["player_id"])
    op.create_index("ix_moved_tokens_moved_at", "moved_tokens", ["moved_at"])


def downgrade() -> None:
    op.drop_index("ix_moved_tokens_moved_at", "moved_tokens")
    op.drop_index("ix_moved_tokens_player_id", "moved_tokens")
    op.drop_table("moved_tokens")
    op.drop_index("ix_transfers_expires_at", "transfers")
    op.drop_index("ix_transfers_player_id", "transfers")
    op.drop_table("transfers")
