"""The first tables: leagues, players, events, games, imports, seasons, derived data, accounts.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _league_fk() -> sa.Column[int]:
    return sa.Column(
        "league_id",
        sa.Integer,
        sa.ForeignKey("leagues.id", name=None, ondelete="CASCADE"),
        nullable=False,
    )


def upgrade() -> None:
    tz = sa.DateTime(timezone=True)
    op.create_table(
        "leagues",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("rules_text", sa.Text, nullable=False),
        sa.Column("rules_source", sa.String(500), nullable=False),
        sa.Column("created_at", tz, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_leagues"),
        sa.UniqueConstraint("name", name="uq_leagues_name"),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True),
        _league_fk(),
        sa.Column("name", sa.String(300), nullable=False),
        sa.Column("created_at", tz, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_players"),
        sa.UniqueConstraint("league_id", "name", name="uq_players_league_name"),
    )
    op.create_table(
        "player_aliases",
        sa.Column("id", sa.Integer, primary_key=True),
        _league_fk(),
        sa.Column("alias", sa.String(300), nullable=False),
        sa.Column(
            "player_id", sa.Integer, sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("created_at", tz, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_player_aliases"),
        sa.UniqueConstraint("league_id", "alias", name="uq_player_aliases_league_alias"),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Integer, primary_key=True),
        _league_fk(),
        sa.Column("name", sa.String(300), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_events"),
        sa.UniqueConstraint("league_id", "name", name="uq_events_league_name"),
    )
    op.create_table(
        "import_batches",
        sa.Column("id", sa.Integer, primary_key=True),
        _league_fk(),
        sa.Column("source", sa.String(500), nullable=False),
        sa.Column("content_hash", sa.String(64), nullable=True),
        sa.Column("created_at", tz, nullable=False),
        sa.Column("user_name", sa.String(200), nullable=True),
        sa.Column("added", sa.Integer, nullable=False),
        sa.Column("replaced", sa.Integer, nullable=False),
        sa.Column("unchanged", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_import_batches"),
    )
    op.create_index(
        "ix_import_batches_league_hash", "import_batches", ["league_id", "content_hash"]
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True),
        _league_fk(),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("ext_id", sa.String(200), nullable=True),
        sa.Column("date", sa.Date, nullable=False),
        sa.Column("event_id", sa.Integer, sa.ForeignKey("events.id"), nullable=True),
        sa.Column("round", sa.Integer, nullable=True),
        sa.Column("mode", sa.String(100), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("content_hash", sa.String(64), nullable=False),
        sa.Column("batch_id", sa.Integer, sa.ForeignKey("import_batches.id"), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
        sa.UniqueConstraint("league_id", "seq", name="uq_games_league_seq"),
        sa.UniqueConstraint("league_id", "ext_id", name="uq_games_league_ext_id"),
    )
    op.create_index("ix_games_league_date", "games", ["league_id", "date"])
    op.create_index("ix_games_league_hash", "games", ["league_id", "content_hash"])
    op.create_index("ix_games_event", "games", ["event_id"])
    op.create_table(
        "game_sides",
        sa.Column(
            "game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("side_no", sa.Integer, nullable=False),
        sa.Column("outcome", sa.String(100), nullable=True),
        sa.Column("score", sa.Float, nullable=True),
        sa.PrimaryKeyConstraint("game_id", "side_no", name="pk_game_sides"),
    )
    op.create_table(
        "side_players",
        sa.Column(
            "game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("side_no", sa.Integer, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("role", sa.String(100), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "side_no", "position", name="pk_side_players"),
    )
    op.create_index("ix_side_players_player", "side_players", ["player_id"])
    op.create_table(
        "season_closings",
        sa.Column("id", sa.Integer, primary_key=True),
        _league_fk(),
        sa.Column("end_date", sa.Date, nullable=False),
        sa.Column("created_at", tz, nullable=False),
        sa.Column("user_name", sa.String(200), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_season_closings"),
        sa.UniqueConstraint("league_id", "end_date", name="uq_season_closings_league_end"),
    )
    op.create_table(
        "ledger",
        _league_fk(),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("game_id", sa.Integer, nullable=True),
        sa.Column("date", sa.Date, nullable=False),
        sa.Column("player_id", sa.Integer, nullable=False),
        sa.Column("mode", sa.String(100), nullable=False),
        sa.Column("role", sa.String(100), nullable=False),
        sa.Column("before", sa.Float, nullable=False),
        sa.Column("expected", sa.Float, nullable=True),
        sa.Column("k", sa.Float, nullable=True),
        sa.Column("score", sa.Float, nullable=True),
        sa.Column("delta", sa.Float, nullable=False),
        sa.Column("after", sa.Float, nullable=False),
        sa.Column("warning", sa.String(50), nullable=False),
        sa.Column("fired", sa.String(100), nullable=False),
        sa.Column("raw_delta", sa.Float, nullable=True),
        sa.Column("opponent", sa.Float, nullable=True),
        sa.Column("team_expected", sa.Float, nullable=True),
        sa.Column("rank", sa.Integer, nullable=True),
        sa.Column("points", sa.Float, nullable=True),
        sa.Column("outcome", sa.String(100), nullable=True),
        sa.PrimaryKeyConstraint("league_id", "seq", name="pk_ledger"),
    )
    op.create_index("ix_ledger_player", "ledger", ["league_id", "player_id"])
    op.create_index("ix_ledger_game", "ledger", ["game_id"])
    op.create_index("ix_ledger_date", "ledger", ["league_id", "date"])
    op.create_table(
        "ratings",
        _league_fk(),
        sa.Column("player_id", sa.Integer, nullable=False),
        sa.Column("mode", sa.String(100), nullable=False),
        sa.Column("role", sa.String(100), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("league_id", "player_id", "mode", "role", name="pk_ratings"),
    )
    op.create_table(
        "checkpoints",
        _league_fk(),
        sa.Column("date", sa.Date, nullable=False),
        sa.Column("games_before", sa.Integer, nullable=False),
        sa.Column("ledger_pos", sa.Integer, nullable=False),
        sa.Column("state", sa.LargeBinary, nullable=False),
        sa.PrimaryKeyConstraint("league_id", "date", name="pk_checkpoints"),
    )
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("password_hash", sa.String(500), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("created_at", tz, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_users"),
        sa.UniqueConstraint("name", name="uq_users_name"),
        sa.CheckConstraint("role IN ('officer', 'referee')", name="ck_users_role"),
    )
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("token_hash", sa.String(200), nullable=False),
        sa.Column("label", sa.String(200), nullable=False),
        sa.Column("created_at", tz, nullable=False),
        sa.Column("last_used_at", tz, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_api_tokens"),
        sa.UniqueConstraint("token_hash", name="uq_api_tokens_token_hash"),
    )
    op.create_table(
        "pending_uploads",
        sa.Column("id", sa.Integer, primary_key=True),
        _league_fk(),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("filename", sa.String(500), nullable=False),
        sa.Column("content", sa.LargeBinary, nullable=False),
        sa.Column("created_at", tz, nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_pending_uploads"),
    )


def downgrade() -> None:
    for table in (
        "pending_uploads",
        "api_tokens",
        "users",
        "checkpoints",
        "ratings",
        "ledger",
        "season_closings",
        "side_players",
        "game_sides",
        "games",
        "import_batches",
        "events",
        "player_aliases",
        "players",
        "leagues",
    ):
        op.drop_table(table)
