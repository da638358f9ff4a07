"""What SQLite stores for the values its driver binds through the adaptation protocol: ``None``,
a ``bool``, ``bytes``. ``store/db.py`` registers adapters that skip the protocol's failed lookups
(``_bind_plainly``); what is stored must be what the driver stored without them."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

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
