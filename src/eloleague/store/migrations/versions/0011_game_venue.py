"""A game's venue: the side at home (``games.home``: 0, 1 or NULL) and a neutral site
(``games.neutral``), for rule sets with a home advantage (docs/rule-sets.md).

Revision ID: 0011
Revises: 0009
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("home", sa.SmallInteger, nullable=True))
        batch.add_column(
            sa.Column("neutral", sa.Boolean, nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("neutral")
        batch.drop_column("home")
