"""A transfer's claim, answered again (players/transfer.py): ``transfers.claim_hash``,
the SHA-256 of the claim id the claiming page sent with the claim that used the code.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("transfers") as batch:
        batch.add_column(sa.Column("claim_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("transfers") as batch:
        batch.drop_column("claim_hash")
