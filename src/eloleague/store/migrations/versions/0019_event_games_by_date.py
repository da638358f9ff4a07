"""An event's games by date, and only the games that have an event (a partial index in place of
``ix_games_event``, which held every game, those of no event included): the events' pages and
the home page find each event's first day by a seek (store/events.py), where they grouped every
game of the league (about 260 ms for the latest event and 470 ms for the events' page on a
million games), and a game of no event (an online game's) writes no entry there
(docs/benchmarks.md, "Web site").

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-28
"""

from __future__ import annotations

from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_games_event")
    op.execute("CREATE INDEX ix_games_event ON games (event_id, date) WHERE event_id IS NOT NULL")


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_games_event")
    op.execute("CREATE INDEX ix_games_event ON games (event_id)")
