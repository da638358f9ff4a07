"""SQLite's inserts of many rows, several rows a statement (store/bulk.py, ``ROWS_A_STATEMENT``):
every row stored once and in order, whatever their number and SQLite's limit of parameters; a
row already stored kept when asked; posts of any number of games prepared from a few statements
a table, and leaving the league as a fresh replay leaves it."""

from __future__ import annotations

import datetime as dt
import sqlite3
import sqlite3.dbapi2
from collections import defaultdict
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Column, Integer, MetaData, String, Table, create_engine, select

from eloleague.league import League
from eloleague.store.bulk import ROWS_A_STATEMENT, insert_rows
from tests.store.test_bulk_rows import _post
from tests.store.test_live_appends import assert_is_a_fresh_replay

_ROWS = Table(
    "rows",
    MetaData(),
    Column("league_id", Integer, primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("name", String),
    Column("note", String),
)

# Around each size a statement holds, and sums of several: one short, exact, one more.
COUNTS = sorted(
    {0, 1, 2, 7, 9, 63, 65, 511, 513, 585, 1_100}
    | {size + d for size in ROWS_A_STATEMENT for d in (-1, 0, 1)}
)


def _stored(tmp_path: Path, count: int, *, limit: int | None = None) -> list[tuple[Any, ...]]:
    """``count`` rows written by ``insert_rows`` into a new SQLite file (the league's id fixed,
    three columns bound), read back in the order they were stored; ``limit``: SQLite's limit of
    parameters a statement, lowered on the connection first."""
    engine = create_engine(f"sqlite:///{tmp_path / f'rows-{count}-{limit}.db'}")
    _ROWS.metadata.create_all(engine)
    rows = [(n, f"name {n}", None if n % 3 else f"note {n}") for n in range(count)]
    with engine.begin() as conn:
        if limit is not None:
            driver = conn.connection.dbapi_connection
            driver.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, limit)  # type: ignore[union-attr]
        insert_rows(conn, _ROWS, ("n", "name", "note"), rows, {"league_id": 7})
    with engine.connect() as conn:
        stored = [tuple(r) for r in conn.exec_driver_sql("SELECT * FROM rows ORDER BY rowid")]
    engine.dispose()
    assert stored == [(7, *row) for row in rows]
    return stored


@pytest.mark.parametrize("count", COUNTS)
def test_every_row_is_stored_once_whatever_their_number(tmp_path: Path, count: int) -> None:
    assert len(_stored(tmp_path, count)) == count


@pytest.mark.parametrize("limit", [3, 4, 30, 200])
def test_sqlite_s_limit_of_parameters_is_kept(tmp_path: Path, limit: int) -> None:
    # 3 parameters a row: a limit of 3 leaves one row a statement, 200 leaves 66 (64 at most).
    assert len(_stored(tmp_path, 600, limit=limit)) == 600


def test_rows_already_stored_are_kept_when_asked(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'kept.db'}")
    _ROWS.metadata.create_all(engine)
    with engine.begin() as conn:
        insert_rows(
            conn,
            _ROWS,
            ("n", "name", "note"),
            [(n, "first", None) for n in range(0, 600, 7)],
            {"league_id": 1},
        )
        insert_rows(
            conn,
            _ROWS,
            ("n", "name", "note"),
            [(n, "second", None) for n in range(600)],
            {"league_id": 1},
            keep_existing=True,
        )
    with engine.connect() as conn:
        names = {n: name for n, name in conn.execute(select(_ROWS.c.n, _ROWS.c.name))}
    engine.dispose()
    assert names == {n: "first" if n % 7 == 0 else "second" for n in range(600)}


def test_posts_of_any_number_of_games_insert_through_a_few_statements_a_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inserts: defaultdict[str, set[str]] = defaultdict(set)  # an insert's head: its texts

    class Cursor(sqlite3.Cursor):
        def execute(self, sql: str, *args: Any) -> Any:
            if sql.startswith("INSERT INTO "):
                inserts[sql.partition(" VALUES ")[0]].add(sql)
            return super().execute(sql, *args)

        def executemany(self, sql: str, *args: Any) -> Any:
            if sql.startswith("INSERT INTO "):
                inserts[sql.partition(" VALUES ")[0]].add(sql)
            return super().executemany(sql, *args)

    class Connection(sqlite3.Connection):
        def cursor(self, factory: Any = Cursor) -> Any:
            return super().cursor(factory)

    monkeypatch.setattr(sqlite3.dbapi2, "connect", partial(sqlite3.connect, factory=Connection))
    league = League.create(str(tmp_path / "posts.db"), "posts", "bataille-empire")
    day = dt.date(2025, 3, 2)
    for n, games in enumerate((585, 1, 700, 64, 1_000, 9)):
        report = league.import_games(_post(games, day + dt.timedelta(days=n)), source="post")
        assert report.added == games and report.replayed == games  # the append path
    for table in ("games", "side_players", "ledger"):
        heads = [head for head in inserts if head.startswith(f"INSERT INTO {table} (")]
        assert heads, table
        for head in heads:  # a text for each size of ROWS_A_STATEMENT, one for the rows left
            assert 1 < len(inserts[head]) <= len(ROWS_A_STATEMENT) + 1, head
    assert_is_a_fresh_replay(league)
