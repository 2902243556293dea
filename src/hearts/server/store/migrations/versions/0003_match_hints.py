"""The hints South was given in a match (Gợi ý, issue 11).

- ``matches.hints``: how many hints were answered in the match; 0 for every match
  played before.
- ``meta.schema`` stays "2": it only keeps 0.1.0 servers (older than the
  migrations) away; a server of 0002 refuses this database by its revision.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

NO_REUSE = {"sqlite_autoincrement": True}


def upgrade() -> None:
    with op.batch_alter_table("matches", table_kwargs=NO_REUSE) as batch:
        batch.add_column(sa.Column("hints", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("matches", table_kwargs=NO_REUSE) as batch:
        batch.drop_column("hints")
