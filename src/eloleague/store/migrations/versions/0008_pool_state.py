"""Pool fields of a rating method beyond rating and games (Glicko-2's deviation and volatility):
``ratings.extra`` holds them as a JSON list (NULL for the Elo methods), ``ledger.extra`` those
published after each change. Checkpoints are dropped:
engine states now count rating periods and carry those fields (recomputes rebuild them).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("ratings", sa.Column("extra", sa.Text, nullable=True))
    op.add_column("ledger", sa.Column("extra", sa.Text, nullable=True))
    op.execute("DELETE FROM checkpoints")


def downgrade() -> None:
    for table in ("ratings", "ledger"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("extra")
    op.execute("DELETE FROM checkpoints")
