"""The published ratings a league starts from (``leagues.initial_text``, ``initial_source``):
``eloleague init --initial ratings.csv`` keeps the list's text, and every replay from the first
game starts from it (docs/league.md, "Starting from published ratings").

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("leagues") as batch:
        batch.add_column(sa.Column("initial_text", sa.Text, nullable=True))
        batch.add_column(sa.Column("initial_source", sa.String(500), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("leagues") as batch:
        batch.drop_column("initial_source")
        batch.drop_column("initial_text")
