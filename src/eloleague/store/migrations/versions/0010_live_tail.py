"""The engine state after the last game, kept beside the current ratings so that an appended game
resumes from its players' rows (docs/league.md, "Live results"): ``ratings.last_played``, the
league-wide part in ``live_tails`` and the players active in each open season in ``live_active``.
Leagues without a ``live_tails`` row take the general path until their next recompute writes it.
``import_batches.answer`` keeps what the API answered a post, for its retries.

Revision ID: 0010
Revises: 0013
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("ratings", sa.Column("last_played", sa.Date, nullable=True))
    op.add_column("import_batches", sa.Column("answer", sa.Text, nullable=True))
    league = sa.ForeignKey("leagues.id", ondelete="CASCADE")
    op.create_table(
        "live_tails",
        sa.Column("league_id", sa.Integer, league, primary_key=True),
        sa.Column("as_of", sa.Date, nullable=False),
        sa.Column("last_date", sa.Date, nullable=False),
        sa.Column("last_round", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("ledger_next", sa.Integer, nullable=False),
        sa.Column("pools", sa.Integer, nullable=False),
        sa.Column("season_end", sa.Date, nullable=True),
        sa.Column("eligible", sa.Integer, nullable=False),
        sa.Column("started", sa.Boolean, nullable=False),
        sa.Column("periods", sa.Integer, nullable=False),
    )
    op.create_table(
        "live_active",
        sa.Column(
            "league_id",
            sa.Integer,
            sa.ForeignKey("leagues.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("season_end", sa.Date, primary_key=True),
        sa.Column("player_id", sa.Integer, primary_key=True),
        sqlite_with_rowid=False,
    )


def downgrade() -> None:
    op.drop_table("live_active")
    op.drop_table("live_tails")
    with op.batch_alter_table("ratings") as batch:
        batch.drop_column("last_played")
    with op.batch_alter_table("import_batches") as batch:
        batch.drop_column("answer")
