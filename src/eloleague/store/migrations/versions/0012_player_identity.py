"""Player identity and the event sheet's facts: a player's federation id (licence number), club
and region (docs/league.md, "Player identity"); an event's place and referee, read from the
referee's workbook (docs/sheets.md).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("federation_id", sa.String(100), nullable=True))
        batch.add_column(sa.Column("club", sa.String(200), nullable=True))
        batch.add_column(sa.Column("region", sa.String(200), nullable=True))
        batch.create_unique_constraint(
            "uq_players_league_federation_id", ["league_id", "federation_id"]
        )
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("place", sa.String(300), nullable=True))
        batch.add_column(sa.Column("referee", sa.String(300), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("referee")
        batch.drop_column("place")
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint("uq_players_league_federation_id", type_="unique")
        batch.drop_column("region")
        batch.drop_column("club")
        batch.drop_column("federation_id")
