"""PostgreSQL: the writes a transaction holds for its commit (:func:`~eloleague.store.bulk.
hold_for_commit`), kept here until they are sent, then sent as few statements as they can be.

A live post ends with about ten small writes whose results nobody reads (its batch, its games and
their players, the ledger, the pools, the tail, the journal, the league's revision). They went in
the commit's round trip already; each was still a statement of its own, which cost psycopg
30–45 µs of this process's time and the server a statement's start and end. Consecutive writes
of different tables are now sent as one statement, all but the last written as
``WITH w1 AS (INSERT ...), w2 AS (UPDATE ...) ...`` (PostgreSQL's data-modifying ``WITH``):
the server runs them all, on the same snapshot, and checks their foreign keys once they all
have (docs/league.md, "Live results").

What may be joined is what cannot tell the difference: an ``INSERT ... VALUES``, an ``UPDATE``
or a ``DELETE`` of one table, reading no other table (an ``UPDATE`` may join a ``VALUES`` list or
arrays of values), returning nothing. Two writes of the same table are never joined: the second
must see the first's rows (the server runs a statement's parts on one snapshot, and a row
updated twice by one statement keeps one of the two updates). Nor is a ``DELETE`` from a table
that others refer to: its rows' dependants go with it (``ON DELETE CASCADE``) once the whole
statement has run, and a dependant another part inserted would go too where it would have been
refused. (No write changes an id another row refers to.) Anything else (a savepoint's release, a
write reading another table) is sent alone, in order.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

from eloleague.store.tables import metadata

# A joined statement's parameters and characters at most: psycopg converts the ``%s`` marks of
# longer statements again at each execution (what it keeps is a statement of at most 50
# parameters and 4,096 characters), which cost more than the statements joined saved.
MAX_PARAMETERS = 50
MAX_LENGTH = 4096

_REFERENCED = frozenset(
    key.column.table.name for table in metadata.tables.values() for key in table.foreign_keys
)
"""The tables other tables refer to (a ``DELETE`` from them is sent alone)."""

_TARGET = re.compile(r'\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)"?', re.IGNORECASE)
_READS_ELSEWHERE = re.compile(r"\b(?:SELECT|RETURNING|USING|WITH)\b", re.IGNORECASE)
_UPDATE_SOURCE = re.compile(r"\bFROM\s+(?!\(VALUES\b|unnest\()", re.IGNORECASE)
_WITH_PART = len("w1 AS (), ")


class HeldWrites:
    """The statements held for the commit, written into it as into a cursor (``%s`` marks):
    :func:`~eloleague.store.bulk.run` and :func:`~eloleague.store.bulk.insert_rows` do. Each run
    of consecutive joinable writes of different tables is passed to ``send`` as one statement
    (``(sql, parameters)``) once the next statement cannot join it, the others as they come,
    in order; :meth:`flush` passes the run begun. (The commit's pipeline sends each as it is
    passed: the server runs it while this process makes the next.)"""

    __slots__ = ("_count", "_run", "_send", "_size", "_tables")

    def __init__(self, send: Callable[[str, list[Any]], object]) -> None:
        self._send = send
        self._run: list[tuple[str, Sequence[Any]]] = []
        self._tables: set[str] = set()
        self._count = self._size = 0

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        table = joinable_target(sql)
        if table is None:
            self.flush()
            self._send(sql, list(params))
            return
        if (
            table in self._tables
            or self._count + len(params) > MAX_PARAMETERS
            or self._size + len(sql) + _WITH_PART > MAX_LENGTH
        ):
            self.flush()
        self._run.append((sql, params))
        self._tables.add(table)
        self._count += len(params)
        self._size += len(sql) + _WITH_PART

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        for row in rows:
            self.execute(sql, row)

    def flush(self) -> None:
        """Pass the run of joined writes begun, if any."""
        if self._run:
            self._send(*_one_statement(self._run))
            self._run = []
            self._tables = set()
            self._count = self._size = 0


@functools.lru_cache(maxsize=512)
def joinable_target(sql: str) -> str | None:
    """The table a write that may be joined to others writes (see the module), else ``None``."""
    found = _TARGET.match(sql)
    if found is None or _READS_ELSEWHERE.search(sql) or ";" in sql:
        return None
    verb, table = sql.lstrip()[:6].upper(), found.group(1).lower()
    if verb == "UPDATE" and _UPDATE_SOURCE.search(sql):
        return None
    if verb == "DELETE" and table in _REFERENCED:
        return None
    return table


def _one_statement(run: Sequence[tuple[str, Sequence[Any]]]) -> tuple[str, list[Any]]:
    """One statement doing the writes of ``run``: the last one, after the others named in its
    ``WITH``; their parameters in the order of their marks."""
    if len(run) == 1:
        sql, params = run[0]
        return sql, list(params)
    *first, (last, _) = run
    parts = ", ".join(f"w{n} AS ({sql})" for n, (sql, _) in enumerate(first, start=1))
    return f"WITH {parts} {last}", [value for _, params in run for value in params]
