"""The league database's tables (SQLAlchemy Core), mirrored by the Alembic migrations.

Games are the source of truth: ``games`` and ``side_players`` (one
row per participant, with its side's result) hold what was played; ``season_closings`` what the officer declared. ``ledger``,
``ratings``, ``live_tails``, ``live_active`` and ``checkpoints`` are derived by the engine and
rewritten on every recompute (an appended game updates only its players' rows).
``users``, ``api_tokens``, ``pending_uploads``, ``web_sessions`` and ``sign_in_failures`` belong
to the web site's accounts.

Every change to these tables needs a new migration in ``store/migrations/versions``; a test checks
that the migrations produce exactly these tables.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Column,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    SmallInteger,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    literal_column,
    text,
)
from sqlalchemy.sql.elements import ColumnElement

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(column_0_label)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "pk": "pk_%(table_name)s",
    }
)

leagues = Table(
    "leagues",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(200), nullable=False, unique=True),
    # The rule set as TOML text: a preset's later change never rewrites history silently.
    Column("rules_text", Text, nullable=False),
    Column("rules_source", String(500), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # The published ratings the league started from (a ratings CSV's text, and its file's name):
    # every replay from the first game starts from them.
    Column("initial_text", Text, nullable=True),
    Column("initial_source", String(500), nullable=True),
    # Changed by every committed write to the league (League._writing): what a server
    # process computed from the league stays good while it is unchanged.
    Column("revision", Integer, nullable=False, server_default="0"),
)

# What the public site shows of a league (set by an officer): docs/web.md, "The league's face".
league_faces = Table(
    "league_faces",
    metadata,
    Column("league_id", Integer, ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True),
    Column("display_name", String(200), nullable=True),
    Column("description", Text, nullable=True),
    Column("colour", String(20), nullable=True),
    Column("logo", LargeBinary, nullable=True),
    Column("logo_type", String(50), nullable=True),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("league_id", Integer, ForeignKey("leagues.id", ondelete="CASCADE"), nullable=False),
    Column("name", String(300), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # Who the player is beyond a name (docs/league.md, "Player identity"): the federation's id
    # (licence number), unique in a league, then club and region (or country).
    Column("federation_id", String(100), nullable=True),
    Column("club", String(200), nullable=True),
    Column("region", String(200), nullable=True),
    UniqueConstraint("league_id", "name", name="uq_players_league_name"),
    UniqueConstraint("league_id", "federation_id", name="uq_players_league_federation_id"),
)

player_aliases = Table(
    "player_aliases",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("league_id", Integer, ForeignKey("leagues.id", ondelete="CASCADE"), nullable=False),
    Column("alias", String(300), nullable=False),
    Column("player_id", Integer, ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("league_id", "alias", name="uq_player_aliases_league_alias"),
)

events = Table(
    "events",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("league_id", Integer, ForeignKey("leagues.id", ondelete="CASCADE"), nullable=False),
    Column("name", String(300), nullable=False),
    # From the referee's workbook's event sheet (docs/sheets.md), when given.
    Column("place", String(300), nullable=True),
    Column("referee", String(300), nullable=True),
    UniqueConstraint("league_id", "name", name="uq_events_league_name"),
)

import_batches = Table(
    "import_batches",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("league_id", Integer, ForeignKey("leagues.id", ondelete="CASCADE"), nullable=False),
    Column("source", String(500), nullable=False),
    Column("content_hash", String(64), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("user_name", String(200), nullable=True),
    Column("added", Integer, nullable=False, default=0),
    Column("replaced", Integer, nullable=False, default=0),
    Column("unchanged", Integer, nullable=False, default=0),
    # What the API answered the post that made this batch (JSON): a retry of the same post gets
    # it again (docs/web.md, "Posting results from a game server"), for a day
    # (store/imports.py, KEPT_FOR).
    Column("answer", Text, nullable=True),
    Index("ix_import_batches_league_hash", "league_id", "content_hash"),
    # The answers kept, by age: those past their day are found without reading every batch.
    Index(
        "ix_import_batches_answered",
        "league_id",
        "created_at",
        sqlite_where=text("answer IS NOT NULL"),
        postgresql_where=text("answer IS NOT NULL"),
    ),
)

journal = Table(
    "journal",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("league_id", Integer, ForeignKey("leagues.id", ondelete="CASCADE"), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("user_name", String(200), nullable=True),
    Column("action", String(20), nullable=False),
    Column("detail", Text, nullable=False, default="{}"),
    Column("games", Integer, nullable=False, default=0),
    Column("players", Integer, nullable=False, default=0),
    # A run (store/journal.py): how many changes the entry counts, when the first was made (``at``
    # is the last's), and what its changes share (NULL: an entry of one change)
    Column("changes", Integer, nullable=False, default=1, server_default="1"),
    Column("first_at", DateTime(timezone=True), nullable=True),
    Column("run_key", String(64), nullable=True),
    Index("ix_journal_league", "league_id", "id"),
    Index("uq_journal_run", "league_id", "run_key", unique=True),
)

games = Table(
    "games",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("league_id", Integer, ForeignKey("leagues.id", ondelete="CASCADE"), nullable=False),
    # Arrival order: ties of (date, round) are replayed in this order.
    Column("seq", Integer, nullable=False),
    Column("ext_id", String(200), nullable=True),
    Column("date", Date, nullable=False),
    Column("event_id", Integer, ForeignKey("events.id"), nullable=True),
    Column("round", Integer, nullable=True),
    Column("mode", String(100), nullable=False, default=""),
    Column("rated", Boolean, nullable=False, default=True),
    # The side at home (0, 1; NULL: neither) and a neutral site (docs/rule-sets.md, home advantage).
    Column("home", SmallInteger, nullable=True),
    Column("neutral", Boolean, nullable=False, default=False, server_default=false()),
    # Hash of the content (players by id): the same game imported twice is recognised.
    Column("content_hash", String(64), nullable=False),
    Column("batch_id", Integer, ForeignKey("import_batches.id"), nullable=True),
    UniqueConstraint("league_id", "seq", name="uq_games_league_seq"),
    UniqueConstraint("league_id", "ext_id", name="uq_games_league_ext_id"),
    Index("ix_games_league_date", "league_id", "date"),
    # Only games without id are looked up by content (imports of games with ids match by id).
    Index(
        "ix_games_league_hash",
        "league_id",
        "content_hash",
        sqlite_where=text("ext_id IS NULL"),
        postgresql_where=text("ext_id IS NULL"),
    ),
    # An event's games by date (its first and last day by a seek: store/events.py); a game of no
    # event (an online game's) has no entry.
    Index(
        "ix_games_event",
        "event_id",
        "date",
        sqlite_where=text("event_id IS NOT NULL"),
        postgresql_where=text("event_id IS NOT NULL"),
    ),
    # The latest game that has an event (the ranking's trends count from that event's start):
    # without it, a league whose games have no events (an online game's) was read whole.
    Index(
        "ix_games_league_event_date",
        "league_id",
        "date",
        sqlite_where=text("event_id IS NOT NULL"),
        postgresql_where=text("event_id IS NOT NULL"),
    ),
)

# One row per participant, with the result of the participant's side (repeated for each player of a
# team: a side has no row of its own, so a duel is two rows). Without SQLite's hidden rowid the
# table is its primary-key index alone: half the writes of a bulk import.
side_players = Table(
    "side_players",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("side_no", Integer, primary_key=True),
    Column("position", Integer, primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("role", String(100), nullable=False, default=""),
    Column("outcome", String(100), nullable=True),
    Column("score", Float, nullable=True),
    sqlite_with_rowid=False,
)

season_closings = Table(
    "season_closings",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("league_id", Integer, ForeignKey("leagues.id", ondelete="CASCADE"), nullable=False),
    Column("end_date", Date, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("user_name", String(200), nullable=True),
    UniqueConstraint("league_id", "end_date", name="uq_season_closings_league_end"),
)

# Derived data ---------------------------------------------------------------------------------

ledger = Table(
    "ledger",
    metadata,
    Column("league_id", Integer, ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True),
    # Processing order (docs/formats.md --ledger).
    Column("seq", Integer, primary_key=True),
    Column("game_id", Integer, nullable=True),  # NULL: a season adjustment
    Column("date", Date, nullable=False),
    Column("player_id", Integer, nullable=False),
    Column("mode", String(100), nullable=False),
    Column("role", String(100), nullable=False),
    Column("before", Float, nullable=False),
    Column("expected", Float, nullable=True),
    Column("k", Float, nullable=True),
    Column("score", Float, nullable=True),
    Column("delta", Float, nullable=False),
    Column("after", Float, nullable=False),
    Column("warning", String(50), nullable=False, default=""),
    Column("fired", String(100), nullable=False, default=""),
    Column("raw_delta", Float, nullable=True),
    Column("opponent", Float, nullable=True),
    Column("team_expected", Float, nullable=True),
    Column("rank", Integer, nullable=True),
    Column("points", Float, nullable=True),
    Column("outcome", String(100), nullable=True),
    # The method's published pool fields after the change (LedgerEntry.extra), JSON, or NULL.
    Column("extra", Text, nullable=True),
    Index("ix_ledger_game", "game_id"),
    sqlite_with_rowid=False,
)

# The indexes by player, led by a generation of the rows (docs/league.md, "Live results"): the
# entries of new games all land in the newest generation's few pages instead of each on its
# player's page among all the league's, and a player's rows are found by one seek a generation
# (store/by_player.py). Generations are numbered from the game's row id and from the ledger's
# processing order, so that nothing has to be stored or kept up to date for them.
GAMES_SHIFT = 14
"""A generation of ``side_players`` is 2**14 games' row ids (16,384 games)."""
LEDGER_SHIFT = 15
"""A generation of ``ledger`` is 2**15 entries of a league (16,384 duels)."""


def generation(column: ColumnElement[int], shift: int) -> ColumnElement[int]:
    """The generation of a row: ``column >> shift``, written as the indexes write it (a
    literal shift: a bound one would not match the index's expression)."""
    return column.op(">>", return_type=Integer)(literal_column(str(shift)))


# A player's games (her page, the API, a merge).
Index(
    "ix_side_players_player",
    generation(side_players.c.game_id, GAMES_SHIFT),
    side_players.c.player_id,
)
# A player's history, and a player's changes since a date (active players, trends).
Index(
    "ix_ledger_player",
    ledger.c.league_id,
    generation(ledger.c.seq, LEDGER_SHIFT),
    ledger.c.player_id,
    ledger.c.date,
)

ratings = Table(
    "ratings",
    metadata,
    Column("league_id", Integer, ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True),
    Column("player_id", Integer, primary_key=True),
    Column("mode", String(100), primary_key=True),
    Column("role", String(100), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("position", Integer, nullable=False),  # order of first appearance
    # A method's pool fields beyond rating and games (PoolState.extra) as a JSON list, or NULL.
    Column("extra", Text, nullable=True),
    # The pool's last rated game (EngineState.last_played): with ``live_tails`` and
    # ``live_active``, this table is the engine state after the last game (store/live.py).
    Column("last_played", Date, nullable=True),
)

# The engine state after the league's last game, beside the pools of ``ratings``: what an
# appended game resumes from without reading the whole league (docs/league.md, "Live results").
live_tails = Table(
    "live_tails",
    metadata,
    Column("league_id", Integer, ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True),
    Column("as_of", Date, nullable=False),  # the stored ratings are as of this day
    Column("last_date", Date, nullable=False),  # the last game's date and round (0 for none)
    Column("last_round", Integer, nullable=False),
    Column("games", Integer, nullable=False),  # games replayed, and the next ledger number
    Column("ledger_next", Integer, nullable=False),
    Column("pools", Integer, nullable=False),  # rows of ``ratings`` (positions 0..pools-1)
    Column("season_end", Date, nullable=True),
    Column("eligible", Integer, nullable=False),
    Column("started", Boolean, nullable=False),
    Column("periods", Integer, nullable=False),
)

# EngineState.active: the players with a rated game in each season not yet applied.
live_active = Table(
    "live_active",
    metadata,
    Column("league_id", Integer, ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True),
    Column("season_end", Date, primary_key=True),
    Column("player_id", Integer, primary_key=True),
    sqlite_with_rowid=False,
)

checkpoints = Table(
    "checkpoints",
    metadata,
    Column("league_id", Integer, ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True),
    # The engine state after every game dated before ``date`` (no batch straddles it).
    Column("date", Date, primary_key=True),
    Column("games_before", Integer, nullable=False),
    Column("ledger_pos", Integer, nullable=False),
    Column("state", LargeBinary, nullable=False),
)

# The web site's accounts (the web area owns the logic, the store owns the schema) -------------

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(200), nullable=False, unique=True),
    Column("password_hash", String(500), nullable=False),
    Column("role", String(20), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    CheckConstraint("role IN ('officer', 'referee')", name="role"),
)

api_tokens = Table(
    "api_tokens",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("token_hash", String(200), nullable=False, unique=True),
    Column("label", String(200), nullable=False, default=""),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("last_used_at", DateTime(timezone=True), nullable=True),
)

pending_uploads = Table(
    "pending_uploads",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("league_id", Integer, ForeignKey("leagues.id", ondelete="CASCADE"), nullable=False),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("filename", String(500), nullable=False),
    Column("content", LargeBinary, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("status", String(20), nullable=False, default="pending"),
)

# A signed-in browser: the cookie holds a random id, this row its SHA-256 digest (docs/web.md,
# "Sessions"). Deleting the row ends the session on every worker at once.
web_sessions = Table(
    "web_sessions",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("csrf_token", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("seen_at", DateTime(timezone=True), nullable=False),
    Index("ix_web_sessions_user", "user_id"),
)

# Wrong passwords, one row each, kept for the sign-in throttle's window. ``key`` is a digest of
# the (address, name) pair: a name typed there is never stored (it may be a password).
sign_in_failures = Table(
    "sign_in_failures",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("key", String(64), nullable=False),
    Column("failed_at", DateTime(timezone=True), nullable=False),
    Index("ix_sign_in_failures_key", "key", "failed_at"),
    Index("ix_sign_in_failures_failed_at", "failed_at"),
)
