"""Compact game storage for million-game leagues: a side's result moves onto its players' rows
(``game_sides`` is gone), ``side_players`` and ``ledger`` lose SQLite's hidden rowid (each is its
primary-key index alone), the ledger's date index joins its player index (player, date), and the
content-hash index covers only games without id (the only ones looked up by content).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

OLD_LEDGER_INDEXES = ("ix_ledger_player", "ix_ledger_game", "ix_ledger_date")
LEDGER_INDEXES = {
    "ix_ledger_player": ["league_id", "player_id", "date"],
    "ix_ledger_game": ["game_id"],
}
LEDGER_COLUMNS = (
    'league_id, seq, game_id, date, player_id, mode, role, "before", expected, k, score, delta, '
    '"after", warning, fired, raw_delta, opponent, team_expected, rank, points, outcome'
)


def _side_players(name: str) -> None:
    op.create_table(
        name,
        sa.Column(
            "game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("side_no", sa.Integer, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("role", sa.String(100), nullable=False),
        sa.Column("outcome", sa.String(100), nullable=True),
        sa.Column("score", sa.Float, nullable=True),
        sa.PrimaryKeyConstraint("game_id", "side_no", "position", name="pk_side_players"),
        sqlite_with_rowid=False,
    )


def _ledger(name: str) -> None:
    op.create_table(
        name,
        sa.Column(
            "league_id",
            sa.Integer,
            sa.ForeignKey("leagues.id", ondelete="CASCADE"),
            nullable=False,
        ),
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
        sqlite_with_rowid=False,
    )


def upgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    op.drop_index("ix_games_league_hash", table_name="games")
    op.create_index(
        "ix_games_league_hash",
        "games",
        ["league_id", "content_hash"],
        sqlite_where=sa.text("ext_id IS NULL"),
        postgresql_where=sa.text("ext_id IS NULL"),
    )
    if not sqlite:  # PostgreSQL: the result columns join side_players in place
        for index in OLD_LEDGER_INDEXES:
            op.drop_index(index, table_name="ledger")
        for index, columns in LEDGER_INDEXES.items():
            op.create_index(index, "ledger", columns)
        op.add_column("side_players", sa.Column("outcome", sa.String(100), nullable=True))
        op.add_column("side_players", sa.Column("score", sa.Float, nullable=True))
        op.execute(
            "UPDATE side_players p SET outcome = s.outcome, score = s.score FROM game_sides s "
            "WHERE s.game_id = p.game_id AND s.side_no = p.side_no"
        )
        op.drop_table("game_sides")
        return
    # SQLite: new tables without rowid, filled from the old ones.
    op.drop_index("ix_side_players_player", table_name="side_players")
    _side_players("side_players_new")
    op.execute(
        "INSERT INTO side_players_new (game_id, side_no, position, player_id, role, outcome, score) "
        "SELECT p.game_id, p.side_no, p.position, p.player_id, p.role, s.outcome, s.score "
        "FROM side_players p JOIN game_sides s ON s.game_id = p.game_id AND s.side_no = p.side_no"
    )
    op.drop_table("side_players")
    op.drop_table("game_sides")
    op.rename_table("side_players_new", "side_players")
    op.create_index("ix_side_players_player", "side_players", ["player_id"])

    for index in OLD_LEDGER_INDEXES:
        op.drop_index(index, table_name="ledger")
    _ledger("ledger_new")
    op.execute(f"INSERT INTO ledger_new ({LEDGER_COLUMNS}) SELECT {LEDGER_COLUMNS} FROM ledger")
    op.drop_table("ledger")
    op.rename_table("ledger_new", "ledger")
    for index, columns in LEDGER_INDEXES.items():
        op.create_index(index, "ledger", columns)


def downgrade() -> None:
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
    op.execute(
        "INSERT INTO game_sides (game_id, side_no, outcome, score) "
        "SELECT game_id, side_no, min(outcome), min(score) FROM side_players "
        "GROUP BY game_id, side_no"
    )
    with op.batch_alter_table("side_players") as batch:
        batch.drop_column("outcome")
        batch.drop_column("score")
    op.drop_index("ix_games_league_hash", table_name="games")
    op.create_index("ix_games_league_hash", "games", ["league_id", "content_hash"])
    op.drop_index("ix_ledger_player", table_name="ledger")
    op.create_index("ix_ledger_player", "ledger", ["league_id", "player_id"])
    op.create_index("ix_ledger_date", "ledger", ["league_id", "date"])
