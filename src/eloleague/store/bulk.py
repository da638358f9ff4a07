"""Fast bulk writes and reads for the hot paths (a million games): the driver's own cursor, with
plain tuples, bypassing SQLAlchemy's per-row processing.

SQLite gets ``VALUES`` lists of many rows a statement (:data:`ROWS_A_STATEMENT`, quicker than
``executemany``'s statement a row); PostgreSQL gets ``COPY ... FROM STDIN`` (psycopg 3
``cursor.copy``), an order of magnitude quicker than row-by-row inserts. The SQL is built
from the :mod:`~eloleague.store.tables` definitions, with the driver's placeholder style, so the
callers share one code path. SQLite stores dates as ISO text (as SQLAlchemy's ``Date`` type does);
:func:`to_date` reads either form back. Everything runs inside the caller's transaction.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import sqlite3
import time
import weakref
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, Table

from eloleague.store.held import HeldWrites
from eloleague.store.pipeline import Pipeline, sent_together, usable

FEW_ROWS = 100  # PostgreSQL: up to this many rows are inserted with executemany, not COPY


_DATABASE_KEYS: weakref.WeakKeyDictionary[Engine, str] = weakref.WeakKeyDictionary()


def database_key(engine: Engine) -> str:
    """The database ``engine`` opens, as the per-database caches and queues name it: its URL
    (the password hidden), rendered once per engine (a live write asks for it several times,
    each rendering a few microseconds)."""
    key = _DATABASE_KEYS.get(engine)
    if key is None:
        key = _DATABASE_KEYS[engine] = engine.url.render_as_string()
    return key


def placeholder(conn: Connection) -> str:
    """The driver's parameter mark: ``?`` (sqlite3) or ``%s`` (psycopg)."""
    return "?" if conn.dialect.paramstyle == "qmark" else "%s"


def cursor(conn: Connection) -> Any:
    """A DBAPI cursor on ``conn``'s connection, inside its current transaction. Both drivers are
    synchronous: the pool's DBAPI connection is the driver's own, one attribute away, where
    ``driver_connection`` goes through three properties (a dozen cursors a game)."""
    return conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]


def insert_rows(
    conn: Connection,
    table: Table,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    fixed: Mapping[str, int | None] | None = None,
    *,
    keep_existing: bool = False,
) -> None:
    """``INSERT INTO table (columns) VALUES (...)`` for every row (tuples in column order).

    ``fixed``: columns with the same value on every row (an id, or ``NULL``), written once into
    the statement instead of being bound row after row (on SQLite a third fewer parameters for the
    ledger of a two-player league is a third less time). Only values that stay the same from one
    write to the next (the league's id): the driver prepares a statement whose text it has not
    seen, so an id new with each write (an import batch's) is bound instead
    (``tests/store/test_live_statements.py``). Dates must already be in the database's
    form: see :func:`date_param`. ``keep_existing``: a row whose key is stored already is skipped
    (``ON CONFLICT DO NOTHING``), the stored one kept.
    """
    if not rows:
        return
    constants = dict(fixed or {})
    _ids_only(constants)
    postgresql = conn.dialect.name == "postgresql"
    head, copy_head, values = _insert_sql(
        table.name, tuple(constants.items()), tuple(columns), postgresql
    )
    if postgresql and len(rows) > FEW_ROWS and not keep_existing:
        send_held(conn)  # a pipeline cannot carry COPY
    held = _held_cursor(conn.info)
    cur = held or cursor(conn)
    try:
        if postgresql and len(rows) > FEW_ROWS and not keep_existing:
            prefix = tuple(constants.values())
            with cur.copy(copy_head) as copy:
                for row in rows:
                    copy.write_row((*prefix, *row) if prefix else row)
            return
        ending = " ON CONFLICT DO NOTHING" if keep_existing else ""
        if postgresql and len(rows) > FEW_ROWS:  # (keep_existing) one statement, from arrays
            listed = _unnest_sql(table, tuple(columns))
            literals = ", ".join("NULL" if v is None else str(v) for v in constants.values())
            cur.execute(
                head.replace(" VALUES ", f" SELECT {literals + ', ' if literals else ''}* ")
                + f"FROM {listed}{ending}",
                _as_arrays(rows),
            )
            return
        if postgresql:
            # A few rows (the append path writes a handful a game): one statement of several rows
            # (COPY takes several round trips; psycopg's executemany, one statement a row, each
            # costing the server and this process about as much as the whole of this one).
            for i in range(0, len(rows), FEW_ROWS):
                chunk = rows[i : i + FEW_ROWS]
                sql = _rows_sql((head, values, ending), len(chunk))
                cur.execute(sql, list(itertools.chain.from_iterable(chunk)))
            return
        _sqlite_insert(cur, (head, values, ending), rows)
    finally:
        if cur is not held:
            cur.close()


ROWS_A_STATEMENT = (512, 64, 8)
"""SQLite: the numbers of rows :func:`insert_rows` writes with one statement (a ``VALUES`` list
of that many rows), largest first, as many of each as fit; the rest, under the smallest, one
statement a row through ``executemany``. A few sizes only, so that each table's statements are
prepared once and stay among the driver's 128 prepared statements. The statement runs its rows
in one step of SQLite's, where ``executemany`` resets, binds and steps a statement for each row
through the driver: a post of 1,000 games' rows (1,000 games, 2,000 players' rows, 2,000 ledger
rows) took about 14.6 ms instead of 18.2 by 500 rows a statement (docs/benchmarks.md, "Live
results", 2026-12-06 "sixth")."""


def _sqlite_insert(
    cur: sqlite3.Cursor, statement: tuple[str, str, str], rows: Sequence[Sequence[Any]]
) -> None:
    """SQLite: ``statement`` (``INSERT INTO ... VALUES ``, one row of ``?`` marks, what follows
    them) for every row of ``rows``, several rows a statement (:data:`ROWS_A_STATEMENT`) within
    SQLite's limit of parameters a statement."""
    head, values, ending = statement
    start, left = 0, len(rows)
    if left >= ROWS_A_STATEMENT[-1]:  # (a live game's few rows go straight to executemany)
        width = max(values.count("?"), 1)
        most = cur.connection.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) // width
        for size in (size for size in ROWS_A_STATEMENT if size <= most):
            sql = _rows_sql(statement, size)
            while left >= size:
                cur.execute(sql, list(itertools.chain.from_iterable(rows[start : start + size])))
                start, left = start + size, left - size
    if left:
        cur.executemany(head + values + ending, rows[start:] if start else rows)


@functools.lru_cache(maxsize=256)
def _rows_sql(statement: tuple[str, str, str], size: int) -> str:
    """An ``INSERT`` of ``size`` rows given in its ``VALUES`` list (``statement``: its head,
    one row's values, what follows them)."""
    head, values, ending = statement
    return head + ", ".join([values] * size) + ending


def _ids_only(fixed: Mapping[str, int | None], *, nulls: bool = True) -> None:
    """Check that the values written into a statement (:func:`insert_rows`' and
    :func:`update_rows`' ``fixed``) are ids (or ``NULL``, when ``nulls``), never text."""
    for value in fixed.values():
        if not (type(value) is int or (nulls and value is None)):
            raise TypeError(f"fixed values are ids{' or None' if nulls else ''}, not {value!r}")


def update_rows(
    conn: Connection,
    table: Table,
    columns: Sequence[str],
    keys: Sequence[str],
    rows: Sequence[Sequence[Any]],
    fixed: Mapping[str, int],
) -> None:
    """``UPDATE table SET columns = ... WHERE keys = ...`` for every row (tuples: the values of
    ``columns``, then those of ``keys``); ``fixed``: key columns with the same value on every row
    (an id), written into the statement once. In the caller's transaction.

    SQLite: ``executemany`` (its fastest path). PostgreSQL, where psycopg sends ``executemany``
    as a statement a row, each costing the driver about as much as a small read: one row, the
    same; up to :data:`FEW_ROWS` rows (a duel's two pools, the pools of posts written together),
    one statement joining the table to a ``VALUES`` list of them, which the server plans once
    for each number of rows; more, one statement joining the table to arrays of the rows'
    values (the 2,000 pools a post of 1,000 games changes, with the players it marks active,
    :func:`insert_rows`, made a post of 1,000 games take 166–193 ms instead of 142–159). Arrays
    for a few rows would cost more than they save: the server plans that statement afresh each
    time, its generic plan's estimate of an array's rows looking dearer to it
    (docs/benchmarks.md, "Live results")."""
    if not rows:
        return
    _ids_only(fixed, nulls=False)
    postgresql = conn.dialect.name == "postgresql"
    constants = tuple(fixed.items())
    if postgresql and 1 < len(rows) <= FEW_ROWS:
        sql = _update_values_sql(table, constants, tuple(columns), tuple(keys), len(rows))
        run(conn, sql, [value for row in rows for value in row])
        return
    arrays = postgresql and len(rows) > FEW_ROWS
    sql = _update_sql(table, constants, tuple(columns), tuple(keys), arrays)
    if not arrays:
        run(conn, sql, rows, many=True)
        return
    for setting in BY_KEY:
        run(conn, f"SET LOCAL {setting} = off")
    run(conn, sql, _as_arrays(rows))
    for setting in BY_KEY:
        run(conn, f"SET LOCAL {setting} TO DEFAULT")


BY_KEY = ("enable_hashjoin", "enable_mergejoin")
"""The plans :func:`update_rows` leaves out for rows joined from arrays (PostgreSQL): each row
is then found by the key's index. A hash join (the planner's choice for a thousand rows and
more) read every row of the league's table to join them, a cost that grew with the league:
2,000 pools updated in 17.3 ms as planned against 19.3 by key among 10,000, in 29.9 (up to 47)
against 18.4 among 100,000 (docs/benchmarks.md, "Live results"). Set for that statement alone,
then back as configured, in the commit's round trip (four statements more, a post of many
games)."""


@functools.lru_cache(maxsize=256)
def _update_values_sql(
    table: Table,
    constants: tuple[tuple[str, int], ...],
    columns: tuple[str, ...],
    keys: tuple[str, ...],
    count: int,
) -> str:
    """PostgreSQL: :func:`update_rows`' statement for ``count`` rows given in a ``VALUES`` list,
    each value cast to its column's type (a list of NULLs would otherwise be text)."""
    named = (*columns, *keys)
    row = ", ".join(f"CAST(? AS {kind})" for kind in _pg_types(table, named))
    listed = ", ".join([f"({row})"] * count)
    names = ", ".join(f'"{c}"' for c in named)
    return _update_joined(table, constants, columns, keys, f"(VALUES {listed}) AS v({names})")


@functools.lru_cache(maxsize=64)
def _update_sql(
    table: Table,
    constants: tuple[tuple[str, int], ...],
    columns: tuple[str, ...],
    keys: tuple[str, ...],
    arrays: bool,
) -> str:
    """:func:`update_rows`' statement, built once (a live game updates its players' pools): by
    rows (``?`` marks), or joined to arrays of the rows' values (PostgreSQL)."""
    if not arrays:
        sets = ", ".join(f'"{c}" = ?' for c in columns)
        where = " AND ".join(
            [*(f'"{k}" = {v}' for k, v in constants), *(f'"{k}" = ?' for k in keys)]
        )
        return f"UPDATE {table.name} SET {sets} WHERE {where}"
    return _update_joined(table, constants, columns, keys, _unnest_sql(table, (*columns, *keys)))


def _update_joined(
    table: Table,
    constants: tuple[tuple[str, int], ...],
    columns: tuple[str, ...],
    keys: tuple[str, ...],
    source: str,
) -> str:
    """``UPDATE table AS t`` setting ``columns`` from ``source``'s rows (named ``v``), joined
    on the keys (PostgreSQL)."""
    sets = ", ".join(f'"{c}" = v."{c}"' for c in columns)
    where = " AND ".join(
        [*(f't."{k}" = {v}' for k, v in constants), *(f't."{k}" = v."{k}"' for k in keys)]
    )
    return f"UPDATE {table.name} AS t SET {sets} FROM {source} WHERE {where}"


def _as_arrays(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """The rows as one list of each column's values (the parameters of :func:`_unnest_sql`),
    sent in binary: psycopg writes an array of 2,000 values as text in 1 to 3 ms, in binary in
    about half a millisecond."""
    return [list(values) for values in zip(*rows, strict=True)]


@functools.lru_cache(maxsize=64)
def _unnest_sql(table: Table, columns: tuple[str, ...]) -> str:
    """PostgreSQL: ``unnest(%b::type[], ...) AS v("column", ...)``, rows given as one array of
    each column's values (:func:`_as_arrays`) read as a table."""
    arrays = ", ".join(f"%b::{kind}[]" for kind in _pg_types(table, columns))
    named = ", ".join(f'"{c}"' for c in columns)
    return f"unnest({arrays}) AS v({named})"


def _pg_types(table: Table, columns: Sequence[str]) -> list[str]:
    """PostgreSQL's names of the types of ``table``'s ``columns`` (``DOUBLE PRECISION``,
    ``VARCHAR(100)``, ...), for the casts of statements built once (cached by their callers)."""
    from sqlalchemy.dialects import postgresql

    dialect = postgresql.dialect()  # type: ignore[no-untyped-call]
    return [table.c[c].type.compile(dialect=dialect) for c in columns]


@functools.lru_cache(maxsize=256)
def _insert_sql(
    table: str,
    constants: tuple[tuple[str, int | None], ...],
    columns: tuple[str, ...],
    postgresql: bool,
) -> tuple[str, str, str]:
    """:func:`insert_rows`' statements, built once (a live game inserts rows into four tables):
    ``INSERT INTO table (columns) VALUES ``, PostgreSQL's ``COPY`` of the same columns, and the
    values of one row."""
    quoted = ", ".join('"' + c + '"' for c in (*(name for name, _ in constants), *columns))
    literals = ["NULL" if v is None else str(v) for _, v in constants]
    values = f"({', '.join(literals + ['%s' if postgresql else '?'] * len(columns))})"
    return (
        f"INSERT INTO {table} ({quoted}) VALUES ",
        f"COPY {table} ({quoted}) FROM STDIN",
        values,
    )


def fetch_all(conn: Connection, sql: str, params: Sequence[Any] = ()) -> list[Any]:
    """Every row of ``sql`` (driver placeholders) as plain tuples, in one call."""
    cur = cursor(conn)
    try:
        cur.execute(sql, tuple(params))
        return list(cur.fetchall())
    finally:
        cur.close()


def run(conn: Connection, sql: str, params: Sequence[Any] = (), *, many: bool = False) -> Any:
    """Run one statement written with ``?`` marks through the driver's cursor (``%s`` on
    PostgreSQL), without SQLAlchemy's per-statement work: the append path runs a dozen small
    statements per game, and that work was most of its time. ``many``: ``params`` is a list of
    rows. Returns the rows of a query (plain tuples), else ``None``."""
    info = conn.info  # a property of a property: read once
    ahead = info.get(_AHEAD)
    if ahead and not many:
        for i, (statement, rows) in enumerate(ahead):
            if statement == (sql, tuple(params)):
                del ahead[i]
                return rows
    if conn.dialect.paramstyle != "qmark":
        sql = sql.replace("?", "%s")
        if _HELD in info and _reads(sql):
            send_held(conn)  # a read's rows are not known before its answer: wait for it
    held = _held_cursor(info)
    cur = held or cursor(conn)
    try:
        if many:
            cur.executemany(sql, params)
            return None
        cur.execute(sql, tuple(params))
        return None if held else _rows(cur)
    finally:
        if cur is not held:
            cur.close()


def _rows(cur: Any) -> list[Any] | None:
    """The rows of the statement ``cur`` ran, ``None`` if it returns none. On PostgreSQL, read
    from the result's status: psycopg's ``description`` builds a column object per column on
    each call, about 8 % of a post's time on the append path. SQLite's cursor is told by its
    type: asked for ``pgresult``, it would raise (and format) an AttributeError each time, a
    dozen a game."""
    result = None if isinstance(cur, sqlite3.Cursor) else cur.pgresult
    if result is None:  # SQLite (its description costs nothing)
        return cur.fetchall() if cur.description is not None else None
    return cur.fetchall() if result.status == _TUPLES_OK else None


# psycopg.pq.ExecStatus.TUPLES_OK, libpq's PGRES_TUPLES_OK: imported here, psycopg would load
# where PostgreSQL is not used, and imported in _rows it took a post 1 % of its time
_TUPLES_OK = 2


def run_together(conn: Connection, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[Any]:
    """Run ``statements`` (each ``(sql with ? marks, parameters)``) one after the other, in the
    caller's transaction; each one's rows (plain tuples), or ``None`` for a statement that returns
    none. On PostgreSQL they travel in one round trip (libpq's pipeline mode,
    :mod:`eloleague.store.pipeline`; with the writes held for the commit before them, if any)
    instead of one each: the server still runs each after the one before it has ended, so a
    statement sees what those before it did (a read after a lock is taken reads what the lock
    protects); an error raises, and the statements after it do not run."""
    if conn.dialect.name != "postgresql":
        return [run(conn, sql, params) for sql, params in statements]
    driver = conn.connection.driver_connection
    units = _joined(statements)
    marked = [(sql.replace("?", "%s"), params) for sql, params, _ in units]
    held = conn.info.get(_HELD)
    cursors: list[Any] = []
    try:
        if held is not None and held.pipe is not None:
            answered = held.with_these(marked)
        elif held is None and usable(driver):
            answered = sent_together(driver, marked)
        else:  # psycopg's own pipeline (nested in the one held open, if any)
            with driver.pipeline():  # type: ignore[union-attr]
                for sql, params in marked:
                    cur = driver.cursor()  # type: ignore[union-attr]
                    cursors.append(cur)
                    cur.execute(sql, params)
            answered = cursors
        found: list[Any] = []
        for result, (sql, _, reads) in zip(answered, units, strict=True):
            found += [_rows(result)] if reads == 1 else _split(result, sql)
        return found
    finally:
        for cur in cursors:
            cur.close()


_ONE_ROW: set[str] = set()


def one_row(sql: str) -> str:
    """``sql`` (written with ``?`` marks), declared a read of one row at most (by a key):
    :func:`run_together` joins such reads next to each other into one statement on PostgreSQL.
    Each statement costs the driver and the server about as much as a small read; a post's
    transaction begins with up to five such reads (the league's rules, the poster's token, the
    post's digest, the tail, the last arrival number; docs/benchmarks.md, "Live results")."""
    _ONE_ROW.add(sql)
    return sql


_MANY_ROWS: dict[str, int] = {}
"""The reads declared of several rows (:func:`many_rows`), with their number of columns."""


def many_rows(sql: str, columns: int) -> str:
    """``sql`` (written with ``?`` marks), a read of any number of rows of ``columns`` columns,
    declared joinable as :func:`one_row` reads are: on PostgreSQL :func:`run_together` sends it
    in one statement with the joinable reads next to it, its rows as one JSON array (a post's
    names, their namesakes, the pools of the players they name, its row ids). Its reader gets
    each row as a tuple, its numbers as numbers (a float with no fraction as an int: its reader
    makes it a float again) and its dates as ISO text (:func:`to_date` takes both). The first
    thousand declared are kept; any other is sent as a statement of its own."""
    if sql not in _MANY_ROWS and len(_MANY_ROWS) < 1000:
        _MANY_ROWS[sql] = columns
    return sql


def _joinable(sql: str) -> bool:
    return sql in _ONE_ROW or sql in _MANY_ROWS


def _joined(
    statements: Sequence[tuple[str, Sequence[Any]]],
) -> list[tuple[str, tuple[Any, ...], int]]:
    """``statements`` as they are sent: each ``(sql, parameters, 1)``, but consecutive reads
    declared joinable (:func:`one_row`, :func:`many_rows`) as one ``(sql, their parameters,
    how many)``."""
    units: list[tuple[str, tuple[Any, ...], int]] = []
    i = 0
    while i < len(statements):
        end = i
        while end < len(statements) and _joinable(statements[end][0]):
            end += 1
        if end - i < 2:
            sql, params = statements[i]
            units.append((sql, tuple(params), 1))
            i += 1
            continue
        group = statements[i:end]
        joined = _joined_sql(tuple(sql for sql, _ in group))
        units.append((joined, tuple(p for _, params in group for p in params), end - i))
        i = end
    return units


_READ_MARK = "eloleague_read"
_ROWS_MARK = "eloleague_rows"


@functools.lru_cache(maxsize=64)
def _joined_sql(reads: tuple[str, ...]) -> str:
    """One statement giving the row of each of ``reads`` (one row at most each) side by side,
    each preceded by a mark that is NULL when the read found no row, or the rows of a read of
    several (:func:`many_rows`) as one JSON array (:func:`_split`)."""
    parts = []
    for n, sql in enumerate(reads):
        columns = _MANY_ROWS.get(sql)
        if columns is None:
            picked = f'SELECT 1 AS "{_READ_MARK}", q.* FROM ({sql}) AS q'
        else:
            names = ", ".join(f"c{c}" for c in range(columns))
            each = ", ".join(f"q.c{c}" for c in range(columns))
            picked = (
                f'SELECT 1 AS "{_READ_MARK}", (SELECT json_agg(json_build_array({each})) '
                f'FROM ({sql}) AS q ({names})) AS "{_ROWS_MARK}"'
            )
        parts.append(f"LEFT JOIN LATERAL ({picked}) AS r{n} ON true")
    picked = ", ".join(f"r{n}.*" for n in range(len(reads)))
    return f"SELECT {picked} FROM (VALUES (1)) AS one (x) {' '.join(parts)}"


def _split(cur: Any, sql: str) -> list[list[Any]]:
    """The rows of each read that ``cur`` ran joined (``sql``, :func:`_joined_sql`): ``[row]``
    or ``[]`` for a read of one row, its rows for a read of several."""
    marks = _MARKS.get(sql)
    if marks is None:  # where each read's columns begin, from the result's field names
        result = cur.pgresult
        names = [result.fname(n) for n in range(result.nfields)]
        at = [n for n, name in enumerate(names) if name == _READ_MARK.encode()]
        ends = (*at[1:], len(names))
        marks = _MARKS[sql] = tuple(
            (n, end, end - n == 2 and names[n + 1] == _ROWS_MARK.encode())
            for n, end in zip(at, ends, strict=True)
        )
    rows = cur.fetchall()
    if len(rows) != 1:  # more than one: a read declared of one row gave several
        raise RuntimeError(f"reads declared of one row at most gave {len(rows)} rows")
    (row,) = rows
    return [
        [tuple(each) for each in row[at + 1] or ()]
        if several
        else ([] if row[at] is None else [row[at + 1 : end]])
        for at, end, several in marks
    ]


_MARKS: dict[str, tuple[tuple[int, int, bool], ...]] = {}
"""Where each read's columns begin and end in the row of a statement of :func:`_joined_sql`,
and whether they are the rows of a read of several."""


_AHEAD = "eloleague.read_ahead"


@contextmanager
def read_ahead(conn: Connection, statements: Sequence[tuple[str, Sequence[Any]]]) -> Iterator[None]:
    """On PostgreSQL, the reads ``statements`` (each ``(sql with ? marks, parameters)``) run at
    once, in one round trip (:func:`run_together`); within the block, :func:`run` given one of
    them (same SQL, same parameters) returns its rows instead of asking again, once. For reads
    the caller is about to make one after the other with nothing written in between that they
    read (an import's names and stored ids, docs/benchmarks.md "Live results"); a read the block
    does not make is dropped at its end. Reads by key, they are planned generically
    (:data:`GENERIC_PLANS`), as those made with the league's lock. Elsewhere (SQLite's reads cost
    no round trip): nothing."""
    if conn.dialect.name != "postgresql" or not statements:
        yield
        return
    made = [key for key, _ in conn.info.get(_AHEAD, ())]  # kept: read with the league's lock
    todo = [(sql, params) for sql, params in statements if (sql, tuple(params)) not in made]
    found = []
    if todo and plan_cache_mode(conn):  # reads by key: planned once (GENERIC_PLANS)
        found = run_generic(conn, (generic_after("SELECT 1"), ()), todo)[1:]
    elif todo:
        found = run_together(conn, todo)
    with kept_ahead(conn, todo, found):
        yield


GENERIC_PLANS = "set_config('plan_cache_mode', 'force_generic_plan', true)"
"""Set before the reads a write makes by key, with its lock (:func:`~eloleague.store.db.
lock_league`) or ahead (:func:`read_ahead`). Run again and again on a connection, the driver
prepares them; PostgreSQL would still plan each one afresh for its values (its choice for
statements whose custom plans look cheaper, as lists of names do), about a third of the
server's time for a post of one game, and more for the posts written together (docs/
benchmarks.md, "Live results"). Their generic plan, made once per connection, is the same index
lookups. Set by :func:`generic_after`, which keeps the mode as configured aside first."""


def generic_after(statement: str) -> str:
    """``statement`` (a read of one row: the league's lock), then the statements after it planned
    generically (:data:`GENERIC_PLANS`), in one statement; the mode as configured is kept in this
    transaction's ``eloleague.plans`` setting for :data:`PLANS_AS_CONFIGURED` to put back. Each
    setting reads its row from the one before, a subquery: the server runs a subquery that calls
    a volatile function apart from the query around it, and first."""
    return (
        f"SELECT {GENERIC_PLANS} AS generic FROM (SELECT set_config('eloleague.plans', "
        f"current_setting('plan_cache_mode'), true) AS kept FROM ({statement}) AS first) AS saved"
    )


PLANS_AS_CONFIGURED: tuple[str, Sequence[Any]] = (
    one_row(
        "SELECT set_config('plan_cache_mode', current_setting('eloleague.plans'), true) "
        "AS configured"
    ),
    (),
)
"""After those reads: the rest of the write (a recompute's reads of a date range, whose best
plan depends on the dates) planned as the server is configured to. A read of one row, sent with
the last of them (:func:`run_generic`)."""


def run_generic(
    conn: Connection,
    first: tuple[str, Sequence[Any]],
    reads: Sequence[tuple[str, Sequence[Any]]],
) -> list[Any]:
    """:func:`run_together` of ``first`` (a statement of :func:`generic_after`) then ``reads``
    planned generically, the plans put back as configured (:data:`PLANS_AS_CONFIGURED`) in the
    same round trip; the rows of ``first``, then of each read, in order. The reads declared
    joinable (:func:`one_row`, :func:`many_rows`) are sent last, as one statement with the
    setting put back: each statement less is the server's start and end of a statement and
    this process's work for it (about 45 µs through psycopg's pipeline, before
    :mod:`eloleague.store.pipeline`; docs/benchmarks.md, "Live results"). ``reads`` must be
    reads only, whose order does not matter."""
    last = sorted(range(len(reads)), key=lambda n: _joinable(reads[n][0]))
    done = run_together(conn, [first, *(reads[n] for n in last), PLANS_AS_CONFIGURED])
    found: list[Any] = [None] * len(reads)
    for at, n in enumerate(last, start=1):
        found[n] = done[at]
    return [done[0], *found]


def plan_cache_mode(conn: Connection) -> bool:
    """Whether the server has ``plan_cache_mode`` (PostgreSQL 12 and later)."""
    info = getattr(conn.connection.driver_connection, "info", None)
    return info is not None and int(info.server_version) >= 120000


@contextmanager
def kept_ahead(
    conn: Connection, statements: Sequence[tuple[str, Sequence[Any]]], found: Sequence[Any]
) -> Iterator[None]:
    """Within the block, :func:`run` given one of ``statements`` returns its rows from ``found``
    (what the caller read ahead, in another statement's round trip) instead of asking again,
    once; what is left of them, and of reads kept before, is dropped at its end: rows kept past
    the writes of the block would be stale (the connection's info outlives the transaction)."""
    keep_ahead(conn, statements, found)
    try:
        yield
    finally:
        drop_ahead(conn)


def keep_ahead(
    conn: Connection, statements: Sequence[tuple[str, Sequence[Any]]], found: Sequence[Any]
) -> None:
    """:func:`kept_ahead` for a caller that drops them itself (:func:`drop_ahead`)."""
    if statements:
        conn.info.setdefault(_AHEAD, []).extend(
            ((sql, tuple(params)), rows)
            for (sql, params), rows in zip(statements, found, strict=True)
        )


def taken_ahead(
    conn: Connection, statements: Sequence[tuple[str, Sequence[Any]]]
) -> list[Any] | None:
    """The rows of ``statements`` if every one of them was read ahead and kept (each taken once,
    as :func:`run` takes it), else ``None`` and nothing is run nor taken: for reads that only a
    round trip already made is worth (PostgreSQL's), which the caller otherwise goes without."""
    ahead = conn.info.get(_AHEAD)
    if not statements or not ahead:
        return None
    keys = [(sql, tuple(params)) for sql, params in statements]
    kept = [key for key, _ in ahead]
    if any(key not in kept for key in keys):
        return None
    return [run(conn, sql, params) for sql, params in keys]


def taken_by_text(conn: Connection, sql: str) -> tuple[tuple[Any, ...], Any] | None:
    """The parameters and rows of the read of ``sql`` kept ahead, whatever its parameters
    (taken, as :func:`run` takes it), or ``None``: for a read whose parameters the caller
    does not know again (the names of a whole post, where it has only some of them)."""
    ahead = conn.info.get(_AHEAD) or []
    for i, ((kept, params), rows) in enumerate(ahead):
        if kept == sql:
            del ahead[i]
            return params, rows
    return None


def all_kept(conn: Connection, statements: Sequence[tuple[str, Sequence[Any]]]) -> bool:
    """Whether every one of ``statements`` was read ahead and is kept (none taken)."""
    kept = [key for key, _ in conn.info.get(_AHEAD, ())]
    return all((sql, tuple(params)) in kept for sql, params in statements)


def drop_kept(conn: Connection, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
    """Forget those of ``statements`` kept ahead and not taken (:func:`keep_ahead`), leaving the
    others kept: for reads a caller kept for a call of its own inside a longer block."""
    ahead = conn.info.get(_AHEAD)
    if not ahead:
        return
    for sql, params in statements:
        key = (sql, tuple(params))
        for i, (kept, _rows) in enumerate(ahead):
            if kept == key:
                del ahead[i]
                break


def drop_ahead(conn: Connection) -> None:
    """Forget every read kept ahead on ``conn`` (:func:`kept_ahead`)."""
    conn.info.pop(_AHEAD, None)


_HELD = "eloleague.held_writes"


class _Held:
    """What :func:`hold_for_commit` holds open: libpq's pipeline driven directly
    (:class:`~eloleague.store.pipeline.Pipeline`, ``pipe``), or, on a connection that cannot be
    (:func:`~eloleague.store.pipeline.usable`), psycopg's pipeline and the one cursor its
    statements share (nobody reads their results, and a cursor made for each was about 5 µs of
    this process's time a statement, docs/benchmarks.md "Live results"); and what joins the
    statements (:class:`~eloleague.store.held.HeldWrites`)."""

    __slots__ = ("cursor", "driver", "pipe", "pipeline", "writes")

    def __init__(self, driver: Any) -> None:
        self.driver = driver
        self.pipe: Pipeline | None = None
        self.pipeline: Any = None
        self.cursor: Any = None
        if usable(driver):
            self.pipe = Pipeline(driver)
            self.writes = HeldWrites(self._send)
        else:
            self.pipeline = driver.pipeline()
            self.pipeline.__enter__()
            self.cursor = driver.cursor()
            self.writes = HeldWrites(self.cursor.execute)

    def _send(self, sql: str, params: Sequence[Any]) -> None:
        assert self.pipe is not None
        self.pipe.send(sql, params)

    def with_these(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[Any]:
        """Send what is held, then ``statements`` (``%s`` marks), and wait (one round trip);
        their results. The writes made after them are held again."""
        assert self.pipe is not None
        self.writes.flush()
        numbers = [self.pipe.send(sql, params) for sql, params in statements]
        answered = self.pipe.finish()
        self.pipe = Pipeline(self.driver)
        return [answered[n] for n in numbers]

    def commit(self) -> None:
        """``COMMIT``, after what is held."""
        if self.pipe is not None:
            self.pipe.send("COMMIT")
        else:
            self.cursor.execute("COMMIT")

    def leave(self, exc: BaseException | None) -> None:
        """Send what is held and wait for it; with ``exc`` (the transaction failed), send it
        and drop its answers (libpq's pipeline), or leave psycopg's, which logs them."""
        if self.pipe is not None:
            if exc is None:
                self.pipe.finish()
            else:
                self.pipe.abandon()
            return
        try:
            if exc is None:
                self.pipeline.__exit__(None, None, None)
            else:
                self.pipeline.__exit__(type(exc), exc, exc.__traceback__)
        finally:
            self.cursor.close()


def _held_cursor(info: Mapping[str, Any]) -> Any:
    """Where the statements held for the commit go (a :class:`~eloleague.store.held.HeldWrites`,
    written into as into a cursor), or ``None`` when none are (``info``: the connection's)."""
    held = info.get(_HELD)
    return held.writes if held is not None else None


def _reads(sql: str) -> bool:
    """Whether a statement may return rows (a query, or a write with ``RETURNING``)."""
    upper = sql.upper()
    return upper.lstrip().startswith(("SELECT", "WITH")) or "RETURNING" in upper


def hold_for_commit(conn: Connection) -> None:
    """On PostgreSQL, the statements the transaction makes from now on go with its ``COMMIT``,
    in its round trip instead of one of their own, joined into as few statements as they can be
    (:mod:`eloleague.store.held`): libpq's pipeline (:mod:`eloleague.store.pipeline`) is entered
    and held open until :func:`send_held` (the commit of :func:`eloleague.store.db.write`, or
    the end of the write's savepoint when the transaction holds several writes,
    :mod:`eloleague.store.group_commit`).
    For the last statements of a write, whose results nobody reads (its ledger, its journal
    entry, the league's revision): an error among them surfaces when they are sent, and fails
    the write. A read, a statement through SQLAlchemy (:func:`eloleague.store.db.connect`) and a
    ``COPY`` (which a pipeline cannot carry, :func:`insert_rows`) send them first and wait;
    :func:`run_together` sends its statements after them, in the same round trip. Elsewhere:
    nothing."""
    if conn.dialect.name == "postgresql" and _HELD not in conn.info:
        conn.info[_HELD] = _Held(conn.connection.driver_connection)


def start_held(conn: Connection) -> None:
    """Let the server start now on the writes held for the commit (:func:`hold_for_commit`): the
    run of joined writes begun is sent without waiting for anything, instead of when the next
    write cannot join it. For a writer about to compute a while (a post's rating) before its
    next write: the server stores the games meanwhile, and the commit's round trip waits on less
    (docs/league.md, "Live results"). Nothing held: nothing."""
    held = conn.info.get(_HELD)
    if held is not None and held.pipe is not None:
        held.writes.flush()


def send_held(conn: Connection, *, commit: bool = False) -> None:
    """Send the statements :func:`hold_for_commit` holds and wait for their answers (one round
    trip), with ``COMMIT`` after them when ``commit``; their error raises. Nothing held: nothing
    is sent (the caller commits as usual)."""
    held = conn.info.pop(_HELD, None)
    if held is None:
        return
    try:
        held.writes.flush()
        if commit:  # psycopg then finds the transaction ended: its own commit() sends nothing
            held.commit()
    except BaseException as exc:
        held.leave(exc)
        raise
    held.leave(None)


def drop_held(conn: Connection) -> None:
    """Leave a held pipeline (the transaction failed and is rolled back): what it holds is not
    waited for, its errors are psycopg's to log."""
    held = conn.info.pop(_HELD, None)
    if held is not None:
        held.leave(RuntimeError("the transaction is rolled back"))


def one_of(conn: Connection, values: Sequence[Any]) -> tuple[str, tuple[Any, ...]]:
    """A condition's right-hand side matching any of ``values``, and its parameters: ``IN (?, ?,
    ...)`` on SQLite, ``= ANY(%b)`` with one array on PostgreSQL (a statement of a thousand
    parameters cost PostgreSQL about 15 ms to plan, each time: a post of 1,000 games spent 60 ms
    looking up its names). The array is sent in binary (``%b``, psycopg's mark, which
    :func:`run` leaves as it is): psycopg wrote 2,000 names as a text array in 3.4 ms, quoting
    each, and in binary in 0.34 ms; a post of 1,000 games sends its names twice and its games'
    ids once (docs/benchmarks.md, "Live results")."""
    if conn.dialect.name == "postgresql":
        return "= ANY(%b)", (list(values),)
    return f"IN ({marks(len(values))})", tuple(values)


def each_looked_up(table: str, columns: str, key: str, alias: str) -> str:
    """PostgreSQL: a ``FROM`` item with, for each value of an array, the row of ``table`` whose
    ``key`` is that value in a league, named ``alias``: its parameters are the array (text, sent
    in binary) then the league's id. Each value is looked up in the key's index (the subquery's
    ``LIMIT`` keeps it a lookup a value): ``key = ANY(array)`` let the planner read the whole
    table instead once the array was long and the table not huge (a thousand lookups estimated
    dearer than a scan), a cost that grows with the league (docs/benchmarks.md, "Live
    results"). ``key`` must be unique in a league."""
    return (
        f"unnest(%b::text[]) AS {alias}_wanted (value) CROSS JOIN LATERAL (SELECT {columns} "
        f"FROM {table} WHERE league_id = ? AND {key} = {alias}_wanted.value LIMIT 1) AS {alias}"
    )


def list_size(conn: Connection) -> int:
    """How many values one :func:`one_of` condition takes: SQLite's lists are kept short, a
    PostgreSQL array holds them all (one statement instead of several)."""
    return 100_000 if conn.dialect.name == "postgresql" else 500


def marks(count: int) -> str:
    """``?, ?, ...``: ``count`` parameter marks for an ``IN (...)`` list."""
    return ", ".join("?" * count)


def date_param(conn: Connection) -> Any:
    """A function turning a date into the parameter the driver stores (ISO text for SQLite)."""
    if conn.dialect.name == "sqlite":
        return dt.date.isoformat
    return lambda d: d


def stamp_param(conn: Connection) -> Any:
    """A function turning a datetime into the parameter the driver stores: SQLite keeps text in
    the form SQLAlchemy's ``DateTime`` writes (``2026-11-23 18:04:05.123456``, no zone),
    PostgreSQL the value itself. (``isoformat`` writes it in a third of ``strftime``'s time, a
    live game's two stamps 5 µs sooner, and pads the year to four digits as SQLAlchemy does.)"""
    if conn.dialect.name == "sqlite":
        return lambda t: t.replace(tzinfo=None).isoformat(" ", "microseconds")
    return lambda t: t


def to_stamp(value: Any) -> dt.datetime:
    """A datetime column's raw value (text from SQLite, a datetime from PostgreSQL), in UTC."""
    stamp = value if isinstance(value, dt.datetime) else dt.datetime.fromisoformat(value)
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=dt.UTC)


def to_date(value: Any) -> dt.date:
    """A date column's raw value (ISO text from SQLite, a date from PostgreSQL) as a date."""
    if isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(value)


# Indexes are rebuilt after a load of at least this many games, when that is at least half as many
# as the database holds: one sort beats a million random index inserts.
REBUILD_FROM = 50_000

CACHE_KB = 16_384
"""SQLite's page cache of each connection (``PRAGMA cache_size``, in KiB: 4,096 pages).

Not larger, because of what a write that splits a page costs at its end. SQLite's B-tree numbers
a split's new pages in order by moving one of them, for a moment, to the page number of the lock
byte (262,145 with 4 KiB pages, far past a database under 1 GB); at the end of the transaction
the cache forgets the pages past the end of the database, and, with one so far past it, looks at
every page it holds to find them. With 256 MB of cache (65,536 pages) that took 300 to 650 µs,
in one live game's commit out of three on the million-game league; with 16 MB, some tens of µs
(docs/benchmarks.md, "Live results"). Pages missing from the cache are read from the operating
system's."""

SORT_CACHE_KB = 262_144
"""The page cache while :func:`deferred_indexes` builds indexes again: SQLite sorts an index's
entries in as much memory as the cache may hold, and merges fewer runs with more."""


@contextmanager
def deferred_indexes(conn: Connection, tables: Sequence[str], games: int) -> Iterator[None]:
    """On SQLite, when about ``games`` games' worth of rows (games, their players, their ledger
    entries) are about to be written into ``tables`` and that is a large share of the database,
    drop those tables' secondary indexes and create them again at the end of the block, inside
    the caller's transaction (an error rolls everything back, indexes included). Primary keys and
    unique constraints stay in force throughout. Other databases: nothing changes.
    """
    if conn.dialect.name != "sqlite" or games < REBUILD_FROM:
        yield
        return
    held = conn.exec_driver_sql("SELECT max(id) FROM games").scalar() or 0
    if games * 2 < held:
        yield
        return
    saved: list[str] = []
    for table in tables:
        for name, sql in conn.exec_driver_sql(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? "
            "AND sql IS NOT NULL",
            (table,),
        ).all():
            conn.exec_driver_sql(f'DROP INDEX "{name}"')
            saved.append(sql)
    yield
    conn.exec_driver_sql(f"PRAGMA cache_size = -{SORT_CACHE_KB}")
    try:
        _rebuild(conn, saved)
    finally:
        conn.exec_driver_sql(f"PRAGMA cache_size = -{CACHE_KB}")


def _rebuild(conn: Connection, statements: Sequence[str]) -> None:
    for sql in statements:
        conn.exec_driver_sql(sql)


ANALYZE_FROM = 20_000  # ledger rows: below that, any query plan is quick
PG_CHECK_EVERY = 1.0  # seconds between two checks of a PostgreSQL database's statistics


def refresh_statistics(conn: Connection) -> bool:
    """Analyse the league-sized tables (:data:`LEAGUE_SIZED`) when the ledger has no statistics
    yet or has more than doubled since they were gathered; return whether it ran.

    Without statistics SQLite reads a player's ledger by scanning the whole league's (its primary
    key starts with the league), which makes a player's page of a million-game league take half
    a second instead of a few milliseconds. A full ``ANALYZE`` takes about a second per million
    games; it runs again only each time the ledger doubles.

    PostgreSQL's autovacuum analyses a table once enough of it changed, but not a database
    restored or copied from a template (its change counters start at zero), nor one whose bulk
    import committed a minute ago: meanwhile its planner guesses, and read a live game's two
    players' ratings and names by filtering every player of the league (docs/benchmarks.md, "Live
    results"). The same rule covers it: statistics once the ledger is large, again when it has
    doubled. There the check is a round trip, so a process makes it at most once a second
    (:data:`PG_CHECK_EVERY`) per database: a live game's post would otherwise pay for it.
    """
    database = database_key(conn.engine)
    if conn.dialect.name == "postgresql":
        now = time.monotonic()
        if now - _CHECKED.get(database, -PG_CHECK_EVERY) < PG_CHECK_EVERY:
            return False
        _CHECKED[database] = now
    # Each league's ledger is numbered from 1: its last number is its size (one index seek each).
    ((ledger_rows,),) = run(
        conn,
        "SELECT sum((SELECT max(seq) FROM ledger WHERE ledger.league_id = leagues.id)) "
        "FROM leagues",
    )
    ledger_rows = ledger_rows or 0
    if ledger_rows < ANALYZE_FROM:
        return False
    if ledger_rows <= 2 * _ANALYSED.get(database, 0):  # statistics only grow: no need to look
        return False
    known = _analysed_rows(conn)
    if known is not None and ledger_rows <= 2 * known:
        _ANALYSED[database] = known
        return False
    for table in LEAGUE_SIZED:
        run(conn, f"ANALYZE {table}")
    forget_other_statistics(conn)
    _ANALYSED.pop(database, None)  # read again next time, once committed
    return True


def _analysed_rows(conn: Connection) -> int | None:
    """The ledger's rows when its statistics were gathered, ``None`` when it has none."""
    if conn.dialect.name == "sqlite":
        if not _has_statistics(conn):
            return None
        stat = run(
            conn, "SELECT stat FROM sqlite_stat1 WHERE tbl = 'ledger' AND idx = 'ix_ledger_player'"
        )
        return int(stat[0][0].split()[0]) if stat and stat[0][0] else None
    # PostgreSQL: the table's size as last counted (by ANALYZE, VACUUM or an index build), when
    # its columns have statistics at all.
    found = run(
        conn,
        "SELECT reltuples FROM pg_class WHERE oid = 'ledger'::regclass AND EXISTS "
        "(SELECT 1 FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'ledger')",
    )
    return int(found[0][0]) if found else None


# The tables whose size follows the ledger's (they are analysed when it doubles). The others grow
# with something else, an import batch per post for instance: statistics
# taken when they held a row would make SQLite scan them (it did: the post's answer was kept by a
# scan of every earlier post), and without statistics it uses their indexes.
LEAGUE_SIZED = ("ledger", "games", "side_players", "players", "player_aliases", "ratings", "events")


def forget_other_statistics(conn: Connection) -> None:
    """SQLite: drop the statistics of the tables not in :data:`LEAGUE_SIZED` (an older
    ``ANALYZE`` of every table took them) and make this connection's planner read the rest
    again. PostgreSQL scales its statistics to each table's current size: nothing to do."""
    if conn.dialect.name != "sqlite" or not _has_statistics(conn):
        return
    run(
        conn,
        f"DELETE FROM sqlite_stat1 WHERE tbl NOT IN ({marks(len(LEAGUE_SIZED))})",
        LEAGUE_SIZED,
    )
    run(conn, "ANALYZE sqlite_master")  # the planner reloads the statistics


def _has_statistics(conn: Connection) -> bool:
    """Whether the SQLite file has a statistics table (the first ``ANALYZE`` makes it)."""
    return bool(
        run(conn, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'")
    )


# The ledger's size at its last analysis, per database, as this process last read it: a write
# that leaves the ledger within twice that size needs not read the statistics (a live game would
# otherwise run three statements more). Another process's analysis only raises the true value.
_ANALYSED: dict[str, int] = {}
_CHECKED: dict[str, float] = {}  # PostgreSQL: when this process last checked each database
