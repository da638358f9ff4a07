"""The indexes by player led by a generation of the rows: ``side_players`` by ``game_id >> 14``
then player, ``ledger`` by league, ``seq >> 15``, player and date. A post of many games then
writes its entries into the newest generation's pages instead of one page of each player's among
the whole league's (docs/league.md, "Live results"; store/by_player.py reads them). Rebuilding
the two indexes takes a few seconds on a league of a million games.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27
"""

from __future__ import annotations

from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_side_players_player", table_name="side_players")
    op.execute("CREATE INDEX ix_side_players_player ON side_players ((game_id >> 14), player_id)")
    op.drop_index("ix_ledger_player", table_name="ledger")
    op.execute("CREATE INDEX ix_ledger_player ON ledger (league_id, (seq >> 15), player_id, date)")


def downgrade() -> None:
    op.drop_index("ix_side_players_player", table_name="side_players")
    op.create_index("ix_side_players_player", "side_players", ["player_id"])
    op.drop_index("ix_ledger_player", table_name="ledger")
    op.create_index("ix_ledger_player", "ledger", ["league_id", "player_id", "date"])
