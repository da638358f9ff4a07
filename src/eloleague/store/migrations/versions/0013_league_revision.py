"""A league's revision: a number every committed write to the league changes, so that a
server process may keep what it computed from the league (a page of the ranking) for as long as
the number is unchanged (docs/web.md, "Several workers").

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("leagues") as batch:
        batch.add_column(sa.Column("revision", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("leagues") as batch:
        batch.drop_column("revision")
