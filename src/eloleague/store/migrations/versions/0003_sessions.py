"""Server-side sessions of the web site (``web_sessions``: a sign-out ends a session on every
worker at once) and the sign-in throttle's wrong passwords (``sign_in_failures``: shared by every
worker and machine). Sessions of the signed-cookie kind simply end: their holders sign in again.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    tz = sa.DateTime(timezone=True)
    op.create_table(
        "web_sessions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("csrf_token", sa.String(64), nullable=False),
        sa.Column("created_at", tz, nullable=False),
        sa.Column("seen_at", tz, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_web_sessions"),
        sa.UniqueConstraint("token_hash", name="uq_web_sessions_token_hash"),
    )
    op.create_index("ix_web_sessions_user", "web_sessions", ["user_id"])
    op.create_table(
        "sign_in_failures",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("failed_at", tz, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_sign_in_failures"),
    )
    op.create_index("ix_sign_in_failures_key", "sign_in_failures", ["key", "failed_at"])
    op.create_index("ix_sign_in_failures_failed_at", "sign_in_failures", ["failed_at"])


def downgrade() -> None:
    op.drop_table("sign_in_failures")
    op.drop_table("web_sessions")
