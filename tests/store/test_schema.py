"""The Alembic migrations build exactly the tables of ``eloleague.store.tables`` (issue 3)."""

from __future__ import annotations

import re

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Index, text
from sqlalchemy.schema import CreateIndex

from eloleague.league import engine_for
from eloleague.store import db
from eloleague.store.tables import ledger, metadata, side_players


def test_the_newest_migration_is_the_one_the_store_expects() -> None:
    assert db.head_revision() == db.HEAD


# Alembic cannot compare indexes on expressions (it warns and skips them): the test below does.
@pytest.mark.filterwarnings("ignore:.*expression-based index:UserWarning")
@pytest.mark.filterwarnings("ignore:.*expression-based index:sqlalchemy.exc.SAWarning")
def test_migrations_produce_the_declared_tables(db_url: str) -> None:
    engine = engine_for(db_url)
    assert db.current_revision(engine) == db.HEAD
    with engine.connect() as conn:
        differences = compare_metadata(MigrationContext.configure(conn), metadata)
    assert differences == []


def _bare(ddl: str) -> str:
    """An index's definition without what writing it may add: schema, method, parentheses."""
    return re.sub(r"[()\s]|public\.|USING btree", "", ddl).lower()


def test_the_indexes_on_expressions_are_the_declared_ones(db_url: str) -> None:
    """The indexes by player led by a generation (``game_id >> 14``, ``seq >> 15``), as the
    migration made them, are those of ``eloleague.store.tables``."""
    engine = engine_for(db_url)
    declared: dict[str | None, Index] = {
        ix.name: ix for table in (side_players, ledger) for ix in table.indexes
    }
    with engine.connect() as conn:
        for name in ("ix_side_players_player", "ix_ledger_player"):
            expected = _bare(str(CreateIndex(declared[name]).compile(dialect=conn.dialect)))
            if conn.dialect.name == "postgresql":
                found = conn.execute(
                    text("SELECT pg_get_indexdef(CAST(:n AS regclass))"), {"n": name}
                )
            else:
                found = conn.execute(
                    text("SELECT sql FROM sqlite_master WHERE name = :n"), {"n": name}
                )
            assert _bare(str(found.scalar())) == expected


def _counts(url: str) -> dict[str, int]:
    engine = engine_for(url)
    with engine.connect() as conn:
        return {
            table: int(conn.exec_driver_sql(f"SELECT count(*) FROM {table}").scalar() or 0)
            for table in ("games", "side_players", "ledger", "players", "ratings")
        }


def test_upgrading_a_league_keeps_every_row(db_url: str) -> None:
    """A league stored by an older eloleague (here: taken back to 0009, before the migrations
    that rebuild tables on SQLite) upgrades with every game, player and rating change kept, and
    the same ranking (a table rebuilt with the foreign keys on once deleted every game's
    players)."""
    from alembic import command

    from eloleague.league import League
    from tests.store.helpers import ranking_csv, replay_file

    league = League.create(db_url, "Club", "bataille-empire")
    league.import_file(replay_file("bataille-empire"))
    before, ranked = _counts(db_url), ranking_csv(league)
    assert before["side_players"] > 0
    engine = engine_for(db_url)
    cfg = db._alembic_config()
    with engine.connect() as raw:
        dbapi = raw.connection.dbapi_connection
        assert dbapi is not None
        if engine.dialect.name == "sqlite":
            dbapi.execute("PRAGMA foreign_keys = OFF")
        with raw.begin():
            cfg.attributes["connection"] = raw
            command.downgrade(cfg, "0009")
        if engine.dialect.name == "sqlite":
            dbapi.execute("PRAGMA foreign_keys = ON")
    assert db.current_revision(engine) == "0009"
    assert _counts(db_url) == before
    db.migrate(engine)
    assert db.current_revision(engine) == db.HEAD
    assert _counts(db_url) == before
    assert ranking_csv(League.open(db_url, "Club")) == ranked
