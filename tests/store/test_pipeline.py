"""libpq's pipeline driven directly on PostgreSQL (store/pipeline.py): statements sent in one
round trip give their rows in order, typed as psycopg's cursors type them; a failing statement
raises psycopg's own error and leaves the connection usable once rolled back; the statements the
store prepares stay prepared across rollbacks (psycopg, left to prepare its own, would deallocate
them all); a connection that cannot be driven so goes through psycopg's pipeline instead."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from psycopg import pq

from eloleague.store import pipeline as pipeline_module
from eloleague.store.bulk import run, run_together
from eloleague.store.db import connect, write
from eloleague.store.pipeline import Pipeline, numbered, sent_together, usable
from tests.pg.server import PgServer, pg_server  # noqa: F401  (fixture)

pytestmark = pytest.mark.pg


@pytest.fixture
def conn(pg_server: PgServer) -> Iterator[psycopg.Connection[Any]]:  # noqa: F811
    """A connection of psycopg's, preparing nothing itself (as the store's)."""
    url = pg_server.new_database().replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(url, prepare_threshold=None) as connection:
        yield connection


def test_marks_are_numbered_as_libpq_takes_them() -> None:
    assert numbered("SELECT %s, %b, '50%%', %t") == (b"SELECT $1, $2, '50%', $3", ("s", "b", "t"))
    with pytest.raises(ValueError, match="%d"):
        numbered("SELECT %d")


FIRST = (1, "Ana", dt.date(2025, 1, 2), 0.1, psycopg.types.json.Json({"a": [1]}))
SECOND = (2, 'Élodie "Ñ", {x}', None, 1e-300, None)


def test_statements_sent_together_give_their_rows_in_order(
    conn: psycopg.Connection[Any],
) -> None:
    assert usable(conn)
    pipe = Pipeline(conn)
    pipe.send("CREATE TEMP TABLE t (n int, name text, day date, x float8, doc json)")
    pipe.send(
        "INSERT INTO t VALUES (%s, %s, %s, %s, %s), (%s, %s, %s, %s, %s)",
        (*FIRST, *SECOND),
    )
    pipe.send(
        "SELECT n, name, day, x, doc FROM t WHERE name = ANY(%b) ORDER BY n",
        (["Ana", 'Élodie "Ñ", {x}', "nobody"],),
    )
    pipe.send("SELECT '50%%' AS pct, %s::int + 1 AS next", (41,))
    created, inserted, rows, literal = pipe.finish()
    assert created.pgresult.command_status == b"CREATE TABLE"
    assert conn.pgconn.transaction_status == pq.TransactionStatus.INTRANS  # begun as psycopg would
    assert conn.pgconn.pipeline_status == pq.PipelineStatus.OFF
    assert rows.fetchall() == [
        (1, "Ana", dt.date(2025, 1, 2), 0.1, {"a": [1]}),
        (2, 'Élodie "Ñ", {x}', None, 1e-300, None),
    ]
    assert literal.fetchall() == [("50%", 42)]
    assert inserted.pgresult.command_status == b"INSERT 0 2"
    conn.commit()  # psycopg commits the transaction begun here
    assert conn.execute("SELECT count(*) FROM t").fetchone() == (2,)


def test_a_failing_statement_raises_psycopgs_error_and_the_connection_goes_on(
    conn: psycopg.Connection[Any],
) -> None:
    pipe = Pipeline(conn)
    pipe.send("SELECT 1")
    pipe.send("SELECT 1 / %s", (0,))
    pipe.send("SELECT 'never run, never prepared'")
    with pytest.raises(psycopg.errors.DivisionByZero) as raised:
        pipe.finish()
    assert raised.value.sqlstate == "22012"
    assert conn.pgconn.pipeline_status == pq.PipelineStatus.OFF
    assert conn.pgconn.transaction_status == pq.TransactionStatus.INERROR
    conn.rollback()
    # the third statement's preparation did not run: it is prepared again, not assumed
    pipe = Pipeline(conn)
    pipe.send("SELECT 'never run, never prepared'")
    (again,) = pipe.finish()
    assert again.fetchall() == [("never run, never prepared",)]
    names = conn.execute("SELECT statement FROM pg_prepared_statements").fetchall()
    assert ("SELECT 'never run, never prepared'",) in names


def test_a_failure_before_the_round_trip_leaves_pipeline_mode(
    conn: psycopg.Connection[Any],
) -> None:
    pipe = Pipeline(conn)
    pipe.send("CREATE TEMP TABLE kept (n int)")
    with pytest.raises(TypeError):
        pipe.send("INSERT INTO kept VALUES (%s)", ())  # one mark, no parameter
    pipe.abandon()
    assert conn.pgconn.pipeline_status == pq.PipelineStatus.OFF
    conn.rollback()
    assert conn.execute("SELECT 1").fetchone() == (1,)
    with pytest.raises(TypeError):  # the same through sent_together, which abandons itself
        sent_together(conn, [("SELECT 1", ()), ("SELECT %s", ())])
    assert conn.pgconn.pipeline_status == pq.PipelineStatus.OFF
    conn.rollback()
    ((one,),) = [result.fetchall() for result in sent_together(conn, [("SELECT %s", (1,))])]
    assert one == (1,)
    conn.rollback()


def test_the_store_s_prepared_statements_outlive_rollbacks(
    pg_server: PgServer,  # noqa: F811
) -> None:
    """The store's engine lets psycopg prepare nothing: psycopg would otherwise deallocate every
    prepared statement on a rollback (here a write that fails), the store's with them, and the
    next write would ask for a statement the server no longer has."""
    engine = connect(pg_server.new_database())
    read = "SELECT count(*) FROM pg_class WHERE relname = ?"
    for _ in range(3):
        with pytest.raises(psycopg.errors.DivisionByZero), write(engine) as conn:
            assert run_together(conn, [(read, ("pg_class",))]) == [[(1,)]]
            for _ in range(6):  # what psycopg would prepare after its threshold of five
                run(conn, "SELECT 1 / ?", (1,))
            run(conn, "SELECT 1 / ?", (0,))
        with write(engine) as conn:  # the same statement, prepared by the store, after a rollback
            driver: Any = conn.connection.driver_connection
            assert driver.prepare_threshold is None and usable(driver)
            assert run_together(conn, [(read, ("pg_class",))]) == [[(1,)]]
    with engine.connect() as conn:
        prepared = conn.exec_driver_sql("SELECT name FROM pg_prepared_statements").scalars().all()
    assert prepared and all(name.startswith("eloleague_") for name in prepared), prepared
    engine.dispose()


def test_a_connection_that_prepares_itself_goes_through_psycopgs_pipeline(
    pg_server: PgServer,  # noqa: F811
) -> None:
    engine = connect(pg_server.new_database())
    with write(engine) as conn:
        driver: Any = conn.connection.driver_connection
        driver.prepare_threshold = 5  # as psycopg's default: it may deallocate all on rollback
        assert not usable(driver)
        sent: list[str] = []
        execute = psycopg.Cursor.execute

        def spied(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
            sent.append(str(query))
            return execute(self, query, *args, **kwargs)

        psycopg.Cursor.execute = spied  # type: ignore[method-assign]
        try:
            found = run_together(conn, [("SELECT ?::text", ("a",)), ("SELECT ?::int", (2,))])
        finally:
            psycopg.Cursor.execute = execute  # type: ignore[method-assign]
            driver.prepare_threshold = None
        assert found == [[("a",)], [(2,)]]
        assert sent == ["SELECT %s::text", "SELECT %s::int"]
    engine.dispose()


def test_json_rows_read_through_the_pipeline_are_psycopgs(
    conn: psycopg.Connection[Any],
) -> None:
    pipe = Pipeline(conn)
    pipe.send("SELECT json_agg(json_build_array(n, n / 2.0)) FROM generate_series(1, 3) AS n")
    (result,) = pipe.finish()
    ((rows,),) = result.fetchall()
    assert rows == json.loads("[[1, 0.5], [2, 1.0], [3, 1.5]]")
    conn.rollback()


def test_statements_larger_than_the_socket_takes_at_once_are_all_sent(
    conn: psycopg.Connection[Any],
) -> None:
    """Statements of several megabytes: libpq's buffer is sent as the socket takes it (the
    answers read meanwhile), then answered in order."""
    big = "é" * 3_000_000  # 6 MB of UTF-8, twice
    pipe = Pipeline(conn)
    pipe.send("SELECT length(%s), octet_length(%s)", (big, big))
    pipe.send("SELECT md5(%s) = md5(repeat('é', 3000000))", (big,))
    lengths, same = pipe.finish()
    assert lengths.fetchall() == [(3_000_000, 6_000_000)]
    assert same.fetchall() == [(True,)]
    conn.rollback()


def test_past_its_bound_the_statement_used_least_recently_is_deallocated(
    conn: psycopg.Connection[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Posts of many sizes make many shapes of statements: the connection keeps the most
    recently used prepared, the others deallocated, each still answered. They are deallocated by
    the protocol's ``Close`` message, as they were prepared, not by an SQL ``DEALLOCATE`` of the
    store's names, which a pooler renaming prepared statements (PgBouncer 1.21+) cannot follow."""
    monkeypatch.setattr(pipeline_module, "PREPARED_MAX", 2)
    sent: list[tuple[str, Any]] = []

    class Recorded:  # libpq's connection, each call noted, then made
        def __init__(self, pgconn: Any) -> None:
            self._pgconn = pgconn

        def __getattr__(self, name: str) -> Any:
            found = getattr(self._pgconn, name)
            if not name.startswith("send_"):
                return found

            def call(*args: Any, **kwargs: Any) -> Any:
                sent.append((name, args[0] if args else None))
                return found(*args, **kwargs)

            return call

    def answers(*texts: str) -> list[Any]:
        pipe = Pipeline(conn)
        pipe._pgconn = Recorded(pipe._pgconn)  # the spy
        for text in texts:
            pipe.send(text)
        return [result.fetchall() for result in pipe.finish()]

    def prepared() -> list[str]:
        return [
            statement
            for (statement,) in conn.execute(
                "SELECT statement FROM pg_prepared_statements ORDER BY prepare_time"
            ).fetchall()
        ]

    assert answers("SELECT 'a'", "SELECT 'b'") == [[("a",)], [("b",)]]
    assert answers("SELECT 'a'", "SELECT 'c'") == [[("a",)], [("c",)]]  # 'b': least recent
    assert prepared() == ["SELECT 'a'", "SELECT 'c'"]
    # three new in one pipeline: 'a' and 'c' make room for them ('c' again, under a new name)
    assert answers("SELECT 'b'", "SELECT 'd'", "SELECT 'c'") == [[("b",)], [("d",)], [("c",)]]
    assert sorted(prepared()) == ["SELECT 'b'", "SELECT 'c'", "SELECT 'd'"]
    assert answers("SELECT 'd'") == [[("d",)]]
    assert answers("SELECT 'e'") == [[("e",)]]  # room made again: the bound holds
    assert sorted(prepared()) == ["SELECT 'd'", "SELECT 'e'"]
    closed = [what for how, what in sent if how == "send_close_prepared"]
    assert len(closed) == 5 and all(name.startswith(b"eloleague_") for name in closed), sent
    assert not [what for how, what in sent if b"DEALLOCATE" in (what or b"")], sent
    conn.rollback()
