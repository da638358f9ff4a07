"""SQLite: the query planner's statistics kept for the league-sized tables only. An earlier
``ANALYZE`` of every table recorded the import batches and the journal when they held a row or
two; SQLite then scanned them, so that keeping a post's answer read every earlier post
(docs/benchmarks.md, "Live results"). PostgreSQL keeps its statistics itself: nothing to do.

Revision ID: 0014
Revises: 0010
Create Date: 2026-11-23
"""

from __future__ import annotations

from alembic import op

from eloleague.store.bulk import forget_other_statistics

revision = "0014"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "sqlite":
        forget_other_statistics(conn)


def downgrade() -> None:
    """Nothing to put back: the next analysis takes what the planner needs."""
