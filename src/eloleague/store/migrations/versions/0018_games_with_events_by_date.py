"""The games that have an event, by league and date (a partial index): the ranking's trends
count from the start of the league's latest event, found as the latest game with an event, and
in a league whose games have no events (an online game's) that search read every game, about
230 ms a ranking on a million games, for each page view while results were posted
(store/ranking.py, ``last_event_start``; docs/benchmarks.md, "Live results").

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-28
"""

from __future__ import annotations

from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # IF NOT EXISTS: a database marked older than it is (a restored copy) upgrades all the same
    op.execute(
        "CREATE INDEX IF NOT EXISTS ix_games_league_event_date "
        "ON games (league_id, date) WHERE event_id IS NOT NULL"
    )


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_games_league_event_date")
