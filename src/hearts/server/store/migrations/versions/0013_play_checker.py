"""Cảnh báo nước đi (the play checker, issue 59): what the match records of it.

- ``matches.checker_plays``: South's cards played with the checker on; 0 for every
  match played before.
- ``matches.checker_asked``: those it asked about first (the question shown).
- ``matches.checker_off``: whether any of South's cards was played with it off;
  true for every match played before (none had it), false for a new match until
  such a card.  A finished match with cards checked, none asked about and none
  played with it off is a clean one (the achievement ``checker_clean``).

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

NO_REUSE = {"sqlite_autoincrement": True}


def upgrade() -> None:
    with op.batch_alter_table("matches", table_kwargs=NO_REUSE) as batch:
        batch.add_column(sa.Column("checker_plays", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("checker_asked", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(
            sa.Column("checker_off", sa.Boolean, nullable=False, server_default=sa.true())
        )


def downgrade() -> None:
    with op.batch_alter_table("matches", table_kwargs=NO_REUSE) as batch:
        batch.drop_column("checker_off")
        batch.drop_column("checker_asked")
        batch.drop_column("checker_plays")
