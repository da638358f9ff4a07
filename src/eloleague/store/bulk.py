"""Fast bulk writes and reads for the hot paths (a million games): plain DBAPI ``executemany``
with tuples and raw cursors, bypassing SQLAlchemy's per-row parameter processing.

The SQL is built from the :mod:`~eloleague.store.tables` definitions, with the driver's own
placeholder style, so SQLite and PostgreSQL share the code. SQLite stores dates as ISO text
(as SQLAlchemy's ``Date`` type does); :func:`to_date` reads either form back.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Table

CHUNK = 50_000


def _placeholder(conn: Connection) -> str:
    style = conn.dialect.paramstyle
    return "?" if style == "qmark" else "%s"


def insert_rows(
    conn: Connection, table: Table, columns: Sequence[str], rows: Sequence[Sequence[Any]]
) -> None:
    """``INSERT INTO table (columns) VALUES (...)`` for every row (tuples in column order).

    Dates must already be in the database's form: see :func:`date_param`.
    """
    if not rows:
        return
    mark = _placeholder(conn)
    quoted = ", ".join('"' + c + '"' for c in columns)
    sql = f"INSERT INTO {table.name} ({quoted}) VALUES ({', '.join([mark] * len(columns))})"
    for i in range(0, len(rows), CHUNK):
        conn.exec_driver_sql(sql, list(rows[i : i + CHUNK]))


def date_param(conn: Connection) -> Any:
    """A function turning a date into the parameter the driver stores (ISO text for SQLite)."""
    if conn.dialect.name == "sqlite":
        return dt.date.isoformat
    return lambda d: d


def to_date(value: Any) -> dt.date:
    """A date column's raw value (ISO text from SQLite, a date from PostgreSQL) as a date."""
    if isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(value)
