"""The journal's runs: the imports one user makes from one source within a UTC hour, replacing
nothing (a game server's posts, hundreds a second), are one entry that counts them, instead of
an entry each (store/journal.py; docs/league.md, "The journal").

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

COLUMNS = (
    sa.Column("changes", sa.Integer, nullable=False, server_default="1"),
    sa.Column("first_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("run_key", sa.String(64), nullable=True),
)


def upgrade() -> None:
    # What is there already is left: a database marked older than it is (a restored copy)
    # upgrades all the same.
    found = sa.inspect(op.get_bind())
    have = {c["name"] for c in found.get_columns("journal")}
    missing = [c for c in COLUMNS if c.name not in have]
    if missing:
        with op.batch_alter_table("journal") as batch:
            for column in missing:
                batch.add_column(column)
    if "uq_journal_run" not in {i["name"] for i in found.get_indexes("journal")}:
        op.create_index("uq_journal_run", "journal", ["league_id", "run_key"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_journal_run", table_name="journal")
    with op.batch_alter_table("journal") as batch:
        for column in reversed(COLUMNS):
            batch.drop_column(column.name)
