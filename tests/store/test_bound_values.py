"""What SQLite stores for the values its driver binds through the adaptation protocol: ``None``,
a ``bool``, ``bytes``. ``store/db.py`` registers adapters that skip the protocol's failed lookups
(``_bind_plainly``); what is stored must be what the driver stored without them. And a time the
store writes itself (``bulk.stamp_param``) is written as SQLAlchemy writes it."""

from __future__ import annotations

import datetime as dt
import sqlite3
import subprocess
import sys
from pathlib import Path

from sqlalchemy import Column, DateTime, MetaData, Table, create_engine, select

from eloleague.store.bulk import run, stamp_param
from eloleague.store.db import connect

VALUES = (None, True, False, b"\x00ab", bytearray(b"cd"), 7, 2.5, "text")
READ = "SELECT " + ", ".join(f"typeof({c}) || ':' || quote({c})" for c in "abcdefgh") + " FROM t"


def store(path: str) -> None:
    """:data:`VALUES` stored in a new table of ``path``, by ``execute`` and by ``executemany``."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("CREATE TABLE t (a, b, c, d, e, f, g, h)")
    conn.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?)", VALUES)
    conn.executemany("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [VALUES] * 2)
    conn.close()


def _stored(path: Path) -> list[tuple[str, ...]]:
    with sqlite3.connect(path) as conn:
        return conn.execute(READ).fetchall()


def test_none_bools_and_bytes_are_stored_as_the_driver_stores_them(tmp_path: Path) -> None:
    plain = tmp_path / "plain.db"  # a process that opened no league: the driver's own binding
    subprocess.run(
        [sys.executable, "-c", f"from {__name__} import store; store({str(plain)!r})"],
        check=True,
        cwd=Path(__file__).parents[2],
    )
    connect(f"sqlite:///{tmp_path / 'league.db'}").dispose()  # registers the adapters
    assert (type(None), sqlite3.PrepareProtocol) in sqlite3.adapters
    adapted = tmp_path / "adapted.db"
    store(str(adapted))  # the same statements, in this process
    rows = _stored(adapted)
    assert rows == _stored(plain)
    assert rows[0] == (
        "null:NULL",
        "integer:1",
        "integer:0",
        "blob:X'006162'",
        "blob:X'6364'",
        "integer:7",
        "real:2.5",
        "text:'text'",
    )


def test_a_time_is_written_as_sqlalchemy_writes_it(tmp_path: Path) -> None:
    # The append path writes its stamps itself (bulk.stamp_param); the site reads them back
    # through SQLAlchemy's DateTime, which must find what it writes itself.
    table = Table("t", MetaData(), Column("at", DateTime))
    engine = create_engine(f"sqlite:///{tmp_path / 'stamps.db'}")
    table.metadata.create_all(engine)
    times = [
        dt.datetime(2026, 12, 6, 15, 21, 57, 509487, tzinfo=dt.UTC),
        dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC),  # no fraction: still written
        dt.datetime(999, 1, 2, 3, 4, 5, 7),  # a year of three digits
    ]
    with engine.begin() as conn:
        for t in times:
            conn.execute(table.insert(), {"at": t.replace(tzinfo=None)})
        written = [stamp_param(conn)(t) for t in times]
        stored = [text for (text,) in conn.exec_driver_sql("SELECT at FROM t")]
        assert written == stored
        run(conn, "INSERT INTO t (at) VALUES (?)", (written[0],))
        read = list(conn.execute(select(table.c.at)).scalars())
    engine.dispose()
    assert read[-1] == times[0].replace(tzinfo=None)
