"""The league's face: a display name, a short description, a logo and a colour an officer sets
for the public site (docs/web.md, "The league's face"), one row per league in ``league_faces``.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "league_faces",
        sa.Column(
            "league_id",
            sa.Integer,
            sa.ForeignKey("leagues.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("display_name", sa.String(200), nullable=True),
        sa.Column("description", sa.Text, nullable=True),
        sa.Column("colour", sa.String(20), nullable=True),
        sa.Column("logo", sa.LargeBinary, nullable=True),
        sa.Column("logo_type", sa.String(50), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("league_faces")
