"""The Alembic migrations build exactly the tables of ``eloleague.store.tables`` (issue 3)."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from eloleague.league import engine_for
from eloleague.store import db
from eloleague.store.tables import metadata


def test_the_newest_migration_is_the_one_the_store_expects() -> None:
    assert db.head_revision() == db.HEAD


def test_migrations_produce_the_declared_tables(db_url: str) -> None:
    engine = engine_for(db_url)
    assert db.current_revision(engine) == db.HEAD
    with engine.connect() as conn:
        differences = compare_metadata(MigrationContext.configure(conn), metadata)
    assert differences == []
