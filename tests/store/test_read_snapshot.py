"""A read (``store.db.read``: a page, an export, a replay) sees the league as it was at one moment,
whatever is committed while it runs: SQLite's read transactions do; on PostgreSQL the read runs at
``REPEATABLE READ``, where the default (``READ COMMITTED``) took a new snapshot for each statement.
A live post committed between a read's statements (the games' sides read, then the games) was
seen by one and not the other: a game without sides, a player without a name. A write, the other
way round, runs at ``READ COMMITTED`` whatever the database's default: after the league's lock,
its reads must see what the writer before it committed."""

from __future__ import annotations

import datetime as dt
from typing import Any

import psycopg
import pytest

from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from eloleague.store import games as games_module
from eloleague.store import pipeline
from eloleague.store.bulk import fetch_all
from eloleague.store.db import read, write
from tests.pg.server import PgServer, pg_server  # noqa: F401  (fixture)

DAY = dt.date(2025, 3, 1)


def _duel(gid: str, a: str, b: str) -> GameRecord:
    return GameRecord(
        DAY,
        (Side((Participant(a),), "decisive_victory"), Side((Participant(b),), "defeat")),
        id=gid,
    )


def test_a_post_committed_during_a_read_is_not_half_seen(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game and a new player committed between the read of the games' sides and the read of
    the games themselves: the read answers the league as it was before the post (on PostgreSQL,
    before this fix, the game was found without its sides and the read failed); the next read
    sees the post whole."""
    league = League.create(db_url, "Snapshot", "bataille-empire")
    league.import_games([_duel("g1", "Anna", "Bruno")], source="first")
    read_rows = fetch_all  # what store.games reads with
    posted: list[Any] = []

    def then_a_post(*args: Any, **kwargs: Any) -> Any:
        rows = read_rows(*args, **kwargs)
        if not posted:  # the post commits on another connection, between two of the read's reads
            posted.append(league.import_games([_duel("g2", "Anna", "Newcomer")], source="live"))
        return rows

    monkeypatch.setattr(games_module, "fetch_all", then_a_post)
    seen = league.games()
    monkeypatch.undo()
    assert posted and posted[0].added == 1
    assert [g.id for g in seen] == ["g1"]
    assert [g.id for g in league.games()] == ["g1", "g2"]
    assert [p.name for p in league.games()[1].participants] == ["Anna", "Newcomer"]


@pytest.mark.pg
def test_a_read_leaves_its_connection_as_the_writes_drive_it(
    pg_server: PgServer,  # noqa: F811
) -> None:
    """After a read at ``REPEATABLE READ``, the pooled connection is back at ``READ COMMITTED``,
    the level of writes: a write on it is driven through the store's own pipeline
    (``store.pipeline.usable``), as before any read."""
    league = League.create(pg_server.new_database(), "Snapshot", "bataille-empire")
    league.import_games([_duel("g1", "Anna", "Bruno")], source="first")
    with read(league.engine) as conn:
        driver: Any = conn.connection.driver_connection
        assert conn.exec_driver_sql("SHOW transaction_isolation").scalar() == "repeatable read"
    with write(league.engine) as conn:
        same = conn.connection.driver_connection is driver  # the same pooled connection
        assert same
        assert conn.exec_driver_sql("SHOW transaction_isolation").scalar() == "read committed"
    assert driver.isolation_level == psycopg.IsolationLevel.READ_COMMITTED
    assert pipeline.usable(driver)


@pytest.mark.pg
def test_a_connection_that_cannot_be_set_back_is_not_lent_again(
    pg_server: PgServer,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """If the connection refuses to be set back after a read (the server cut it), it leaves the
    pool: a write lent it at ``REPEATABLE READ`` would read from a snapshot taken before the
    league's lock was had."""
    league = League.create(pg_server.new_database(), "Snapshot", "bataille-empire")
    level: Any = psycopg.Connection.isolation_level  # the property

    def refuse_unset(self: Any, value: Any) -> None:
        if level.fget(self) == psycopg.IsolationLevel.REPEATABLE_READ:  # a read's, set back
            raise psycopg.OperationalError("the connection is gone")
        level.fset(self, value)

    monkeypatch.setattr(psycopg.Connection, "isolation_level", property(level.fget, refuse_unset))
    with read(league.engine) as conn:
        first: Any = conn.connection.driver_connection
        assert first.isolation_level == psycopg.IsolationLevel.REPEATABLE_READ
    monkeypatch.undo()
    assert first.closed
    with write(league.engine) as conn:
        assert conn.connection.driver_connection is not first
        assert conn.exec_driver_sql("SHOW transaction_isolation").scalar() == "read committed"


@pytest.mark.pg
def test_a_write_reads_at_read_committed_whatever_the_database_s_default(
    pg_server: PgServer,  # noqa: F811
) -> None:
    """A database whose transactions default to ``REPEATABLE READ`` (a DBA's
    ``default_transaction_isolation``): a write still begins at ``READ COMMITTED``, since its
    first statement takes the league's lock, and at the stricter level every read after it would
    see the league as it was before the lock was had (without the games of the writer it waited
    for). Reads keep their own level."""
    url = pg_server.new_database()
    base, name = url.replace("postgresql+psycopg://", "postgresql://").rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
        admin.execute(
            f"ALTER DATABASE \"{name}\" SET default_transaction_isolation = 'repeatable read'"
        )
    league = League.create(url, "Snapshot", "bataille-empire")
    seen: list[Any] = []

    def look(conn: Any) -> None:  # in the import's transaction, once the lock is had
        seen.append(conn.exec_driver_sql("SHOW transaction_isolation").scalar())

    league.import_games([_duel("g1", "Anna", "Bruno")], source="first", guard=look)
    league.import_games([_duel("g2", "Anna", "Bruno")], source="live", guard=look)
    assert seen == ["read committed", "read committed"]
    with read(league.engine) as conn:
        assert conn.exec_driver_sql("SHOW transaction_isolation").scalar() == "repeatable read"
