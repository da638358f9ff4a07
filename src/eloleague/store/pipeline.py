"""PostgreSQL: statements sent in one round trip through libpq's pipeline mode, driven directly.

psycopg's own pipeline (``Connection.pipeline()``) talks to the server after each statement it
is given: it sends it, then looks for results at once (a ``poll``, a ``send``, a ``recv``
attempt), about 80 µs of this process's CPU a statement on the benchmark's machine, where a
post of one game sends six (docs/benchmarks.md, "Live results", 2026-11-28 "fourth"). Here the
statements are queued in libpq's buffer (each flushed without waiting, so that the server starts
on it while this process makes the next), then one sync, one wait, and the results read in
order. Everything goes through psycopg's documented lower layers: :mod:`psycopg.pq` (libpq) and
:class:`psycopg.adapt.Transformer` (the same dumpers and loaders as a cursor's).

A :class:`Pipeline` is used where the whole transaction's statements of a stretch go through the
store (:func:`~eloleague.store.bulk.run_together`, the writes held for the commit): nothing else
uses the connection until :meth:`Pipeline.finish` (or :meth:`Pipeline.abandon`) has left
libpq's pipeline mode. :func:`usable` says when a connection may be driven so.
"""

from __future__ import annotations

import functools
import itertools
import re
import select
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

PREPARED_MAX = 200
"""Statements kept prepared per connection (and those one pipeline prepares beyond): past that,
the one used least recently is deallocated as a new one is prepared (posts of many sizes make
many shapes of joined writes; a post of one game's few statements, used again and again,
stay)."""

_MARK = re.compile(r"%(.)")


def usable(driver: Any) -> bool:
    """Whether the psycopg connection ``driver`` may be driven directly: psycopg 3's libpq
    wrapper with pipeline mode, UTF-8, a transaction psycopg would begin as :class:`Pipeline`
    does (at ``READ COMMITTED``, the level :func:`eloleague.store.db.connect` gives its
    connections, or at none set), no pipeline of psycopg's open, and psycopg preparing no
    statement itself (``prepare_threshold`` ``None``, as :func:`eloleague.store.db.connect` sets
    it): psycopg deallocates every prepared statement of the session (``DEALLOCATE ALL``) on a
    rollback once it has prepared one of its own, and would take this module's with them."""
    pgconn = getattr(driver, "pgconn", None)
    if pgconn is None or not hasattr(pgconn, "enter_pipeline_mode"):
        return False
    from psycopg import IsolationLevel, pq

    return (
        pgconn.pipeline_status == pq.PipelineStatus.OFF
        and pgconn.nonblocking == 1
        and not driver.autocommit
        and driver.prepare_threshold is None
        and driver.isolation_level in (None, IsolationLevel.READ_COMMITTED)
        and driver.read_only is None
        and driver.deferrable is None
        and driver.info.encoding == "utf-8"
    )


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> tuple[bytes, tuple[str, ...]]:
    """``sql`` written with psycopg's marks (``%s``, ``%b`` binary, ``%t`` text, ``%%``) as libpq
    takes it (``$1``, ``$2``...), and each parameter's mark letter."""
    kinds: list[str] = []

    def number(found: re.Match[str]) -> str:
        kind = found.group(1)
        if kind == "%":
            return "%"
        if kind not in "sbt":
            raise ValueError(f"unsupported mark %{kind} in {sql[:80]!r}")
        kinds.append(kind)
        return f"${len(kinds)}"

    return _MARK.sub(number, sql).encode(), tuple(kinds)


_PREPARED: weakref.WeakKeyDictionary[Any, OrderedDict[tuple[bytes, tuple[int, ...]], bytes]] = (
    weakref.WeakKeyDictionary()
)
"""Per psycopg connection: the names of the statements prepared on it, by text and parameter
types, the one used least recently first."""

_NAMES = itertools.count()
"""The prepared statements' numbers (``eloleague_N``: psycopg's own are ``_pg3_N``)."""


class Pipeline:
    """Statements queued on one connection's pipeline (:meth:`send`), then sent and answered in
    one round trip (:meth:`finish`). The transaction is begun first when it has not been, at
    ``READ COMMITTED`` whatever the server's default, as psycopg begins the store's (why:
    :func:`eloleague.store.db._writes_read_committed`). Not for a connection psycopg is using
    meanwhile (:func:`usable`)."""

    __slots__ = ("_commands", "_driver", "_pending", "_pgconn", "_prepared", "_statements")

    def __init__(self, driver: Any) -> None:
        from psycopg import pq

        self._driver = driver
        self._pgconn = pgconn = driver.pgconn
        self._prepared = _PREPARED.setdefault(driver, OrderedDict())
        self._pending: dict[tuple[bytes, tuple[int, ...]], bytes] = {}  # prepared in this one
        # what each queued command is: ("ignore", None), its result nobody's (the BEGIN);
        # ("statement", its number); ("prepared", (its key, its name)), a statement's
        # preparation, kept once it has succeeded
        self._commands: list[tuple[str, Any]] = []
        self._statements = 0
        pgconn.enter_pipeline_mode()
        if pgconn.transaction_status == pq.TransactionStatus.IDLE:
            pgconn.send_query_params(b"BEGIN ISOLATION LEVEL READ COMMITTED", None)
            self._commands.append(("ignore", None))

    def send(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Queue ``sql`` (psycopg's ``%s`` marks) with ``params`` and flush what the socket takes
        without waiting; the statement's number among this pipeline's results."""
        from psycopg import pq
        from psycopg.adapt import PyFormat, Transformer

        query, kinds = numbered(sql)
        if len(kinds) != len(params):
            raise TypeError(f"{len(kinds)} marks, {len(params)} parameters: {sql[:80]!r}")
        tx = Transformer(self._driver)
        formats = [getattr(PyFormat, _FORMATS[kind]) for kind in kinds]
        values = tx.dump_sequence(params, formats) if params else []
        types = tuple(tx.types or ()) if params else ()
        pgconn = self._pgconn
        key = (query, types)
        name = self._prepared.get(key)
        if name is not None:
            self._prepared.move_to_end(key)
        else:
            name = self._pending.get(key)
        if name is None:
            name = f"eloleague_{next(_NAMES)}".encode()
            pgconn.send_prepare(name, query, param_types=types or None)
            self._commands.append(("prepared", (key, name)))
            self._pending[key] = name
            self._make_room()
        pgconn.send_query_prepared(
            name,
            values or None,
            param_formats=list(tx.formats or ()) if params else None,
            result_format=pq.Format.TEXT,
        )
        number = self._statements
        self._statements += 1
        self._commands.append(("statement", number))
        pgconn.flush()  # what the socket takes now: the server begins while this process goes on
        return number

    def _make_room(self) -> None:
        """Deallocate the statements used least recently beyond :data:`PREPARED_MAX` (after
        the statements queued before, which may use them). Forgotten at once: if the pipeline
        fails before, one stays on the server unused.

        With libpq 17 or later, by the protocol's own message (``Close``), as the statement was
        prepared (``Parse``): a pooler that keeps prepared statements across its server
        connections (PgBouncer 1.21 and later in transaction mode, ``max_prepared_statements``)
        follows those messages, and renames the statements on the server, where an SQL
        ``DEALLOCATE`` of the client's name would fail."""
        from psycopg import pq

        by_message = pq.version() >= 170000
        while self._prepared and len(self._prepared) + len(self._pending) > PREPARED_MAX:
            _, name = self._prepared.popitem(last=False)
            if by_message:
                self._pgconn.send_close_prepared(name)
            else:  # pragma: no cover - libpq before 17 (psycopg's binary wheels bring a later)
                self._pgconn.send_query_params(b"DEALLOCATE " + name, None)
            self._commands.append(("ignore", None))

    def finish(self) -> list[Result]:
        """Send what is queued with a sync, wait for every result (one round trip) and leave
        pipeline mode; each statement's result, in order. A statement's error raises (as
        psycopg's), once every result is read: the transaction is then failed."""
        self._pgconn.pipeline_sync()
        return self._drain(raise_error=True)

    def abandon(self) -> None:
        """Leave pipeline mode after a failure (the transaction is being rolled back): what was
        queued is sent and its results dropped. On a broken connection, nothing more."""
        from psycopg import pq

        if self._pgconn.pipeline_status == pq.PipelineStatus.OFF:  # left already (finish failed)
            return
        try:
            self._pgconn.pipeline_sync()
            self._drain(raise_error=False)
        except Exception:  # the connection's own failure: its rollback reports it
            return

    def _drain(self, *, raise_error: bool) -> list[Result]:
        from psycopg import pq

        pgconn = self._pgconn
        _flush(pgconn)
        found: list[Result] = []
        error: BaseException | None = None
        for kind, what in self._commands:
            result = _next_result(pgconn)
            if result.status == pq.ExecStatus.FATAL_ERROR:
                if error is None:
                    error = _error(result, self._driver)
            elif result.status == pq.ExecStatus.PIPELINE_ABORTED:
                pass
            elif kind == "prepared":
                key, name = what
                self._prepared[key] = name
            elif kind == "statement":
                found.append(Result(result, self._driver))
            if _next_result(pgconn, end=True) is not None:  # each command's results end so
                raise RuntimeError("a statement of the pipeline gave several results")
        sync = _next_result(pgconn)
        if sync.status != pq.ExecStatus.PIPELINE_SYNC:
            raise RuntimeError(f"the pipeline's sync answered {sync.status}")
        pgconn.exit_pipeline_mode()
        if error is not None and raise_error:
            raise error
        return found


def sent_together(driver: Any, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[Result]:
    """``statements`` (``(sql with %s marks, parameters)``) in one round trip on ``driver``
    (:func:`usable`), pipeline mode left whatever happens; their results, in order."""
    pipe = Pipeline(driver)
    try:
        for sql, params in statements:
            pipe.send(sql, params)
    except BaseException:
        pipe.abandon()
        raise
    return pipe.finish()


def _flush(pgconn: Any) -> None:
    """Send libpq's whole output buffer. While the socket takes no more, what the server
    answers meanwhile is read into libpq's buffer (libpq's advice: a server blocked writing
    results it is not read may stop reading the statements)."""
    while pgconn.flush() == 1:
        if _wait(pgconn.socket, write=True):
            pgconn.consume_input()


def _next_result(pgconn: Any, *, end: bool = False) -> Any:
    """libpq's next result (``end``: the ``None`` that ends a command's results), reading from
    the socket only while libpq would otherwise block."""
    while True:
        while pgconn.is_busy():
            _wait(pgconn.socket, write=False)
            pgconn.consume_input()
        result = pgconn.get_result()
        if result is not None or end:
            return result


def _wait(fd: int, *, write: bool) -> bool:
    """Until ``fd`` can be read, or written when ``write``; whether it can be read. The
    interpreter's lock is released meanwhile."""
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLIN | (select.POLLOUT if write else 0))
        return any(events & select.POLLIN for _, events in poller.poll())
    readable, _, _ = select.select([fd], [fd] if write else [], [])  # pragma: no cover - Windows
    return bool(readable)  # pragma: no cover


def _error(result: Any, driver: Any) -> BaseException:
    """The psycopg exception a cursor would raise for ``result``."""
    from psycopg import errors

    return errors.error_from_result(result, encoding=driver.info.encoding)


_FORMATS = {"s": "AUTO", "b": "BINARY", "t": "TEXT"}
"""psycopg's format (:class:`psycopg.adapt.PyFormat`) of each mark's parameter."""


class Result:
    """One statement's result as :func:`~eloleague.store.bulk.run_together` reads it: the
    result (``pgresult``, as a psycopg cursor has) and its rows as tuples (``fetchall``)."""

    __slots__ = ("_driver", "pgresult")

    def __init__(self, pgresult: Any, driver: Any) -> None:
        self.pgresult = pgresult
        self._driver = driver

    def fetchall(self) -> list[tuple[Any, ...]]:
        from psycopg.adapt import Transformer

        tx = Transformer(self._driver)
        tx.set_pgresult(self.pgresult)
        return tx.load_rows(0, self.pgresult.ntuples, tuple)
