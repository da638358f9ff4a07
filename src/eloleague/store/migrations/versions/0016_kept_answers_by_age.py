"""The answers kept for retries of API posts, indexed by age (only the batches that hold one):
an answer is kept for a day, then forgotten when a later post keeps its own (store/imports.py,
``KEPT_FOR``; docs/web.md, "Posting results from a game server").

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28
"""

from __future__ import annotations

from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # IF NOT EXISTS: a database marked older than it is (a restored copy) upgrades all the same
    op.execute(
        "CREATE INDEX IF NOT EXISTS ix_import_batches_answered "
        "ON import_batches (league_id, created_at) WHERE answer IS NOT NULL"
    )


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_import_batches_answered")
