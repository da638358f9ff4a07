"""The league's journal (``journal``): every import, correction, deletion, rename, merge, rule
change and season closing or reopening, with who, when, what and how many games and players it
changed (docs/league.md, "The journal").

Revision ID: 0006
Revises: 0003
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "journal",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "league_id",
            sa.Integer,
            sa.ForeignKey("leagues.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("user_name", sa.String(200), nullable=True),
        sa.Column("action", sa.String(20), nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_journal"),
    )
    op.create_index("ix_journal_league", "journal", ["league_id", "id"])


def downgrade() -> None:
    op.drop_table("journal")
