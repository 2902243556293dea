"""A new player's first deal promised with the page (solo/first_deal.py):
``players.first_ticket``, the ticket the player's first deal used, unique, so that
one ticket deals once.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

NO_REUSE = {"sqlite_autoincrement": True}


def upgrade() -> None:
    with op.batch_alter_table("players", table_kwargs=NO_REUSE) as batch:
        batch.add_column(sa.Column("first_ticket", sa.String(40), nullable=True))
        batch.create_index("ix_players_first_ticket", ["first_ticket"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("players", table_kwargs=NO_REUSE) as batch:
        batch.drop_index("ix_players_first_ticket")
        batch.drop_column("first_ticket")
