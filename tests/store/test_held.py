"""Writes held for the commit, joined (store/held.py): on PostgreSQL consecutive writes of
different tables whose results nobody reads are sent as one statement, and the league is what it
would be had each been sent alone."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import pytest

from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from eloleague.store.bulk import hold_for_commit, run
from eloleague.store.db import write
from eloleague.store.held import MAX_PARAMETERS, HeldWrites, joinable_target
from tests.pg.server import PgServer, pg_server  # noqa: F401  (fixture)
from tests.store.test_bulk_rows import written
from tests.store.test_live_appends import assert_is_a_fresh_replay
from tests.store.test_read_ahead import _count_statements, league_revision


def joined(statements: Sequence[tuple[str, Sequence[Any]]]) -> list[tuple[str, list[Any]]]:
    """``statements`` (``%s`` marks) as :class:`HeldWrites` sends them, in order."""
    out: list[tuple[str, list[Any]]] = []
    held = HeldWrites(lambda sql, params: out.append((sql, params)))
    for sql, params in statements:
        held.execute(sql, params)
    held.flush()
    return out


BATCH = "INSERT INTO import_batches (id, source) VALUES (%s, %s)"
GAME = 'INSERT INTO games ("id", "seq") VALUES (%s, %s), (%s, %s)'
POOLS = (
    'UPDATE ratings AS t SET "rating" = v."rating" FROM (VALUES (CAST(%s AS FLOAT), '
    'CAST(%s AS INTEGER))) AS v("rating", "player_id") WHERE t."player_id" = v."player_id"'
)
REVISION = "UPDATE leagues SET revision = revision + 1 WHERE id = %s"


def test_writes_of_different_tables_are_joined_in_order_with_their_parameters() -> None:
    """Four writes of four tables: one statement, the last write after the others named in its
    ``WITH``, the parameters in the order of their marks."""
    statements = [(BATCH, (1, "a")), (GAME, (5, 6, 7, 8)), (POOLS, (1.5, 3)), (REVISION, (9,))]
    ((sql, params),) = joined(statements)
    assert sql == f"WITH w1 AS ({BATCH}), w2 AS ({GAME}), w3 AS ({POOLS}) {REVISION}"
    assert params == [1, "a", 5, 6, 7, 8, 1.5, 3, 9]
    assert written(sql) == [BATCH, GAME, POOLS, REVISION]  # the tests' reading of it


def test_what_cannot_be_joined_is_sent_alone_and_in_order() -> None:
    """A second write of a table begins a new statement (it must see the first's rows); a write
    reading another table, returning rows or taking a savepoint is sent as it is, between the
    statements joined before and after it."""
    again = (REVISION, (9,))
    reading = ("INSERT INTO journal (detail) SELECT name FROM leagues WHERE id = %s", (9,))
    returning = ("INSERT INTO games (id) VALUES (%s) RETURNING id", (4,))
    release = ("RELEASE SAVEPOINT one_write", ())
    other_table = ("UPDATE ratings AS t SET rating = o.rating FROM old AS o WHERE t.id = o.id", ())
    statements = [
        (BATCH, (1, "a")),
        (REVISION, (9,)),
        again,
        reading,
        (GAME, (5, 6, 7, 8)),
        returning,
        release,
        other_table,
        (BATCH, (2, "b")),
    ]
    assert [sql for sql, _ in joined(statements)] == [
        f"WITH w1 AS ({BATCH}) {REVISION}",
        REVISION,
        reading[0],
        GAME,
        returning[0],
        release[0],
        other_table[0],
        BATCH,
    ]
    assert [p for _, params in joined(statements) for p in params] == [
        p for _, params in statements for p in params
    ]
    for sql in (reading[0], returning[0], release[0], other_table[0], "SELECT 1"):
        assert joinable_target(sql) is None, sql
    assert joinable_target('DELETE FROM "checkpoints" WHERE date > %s') == "checkpoints"
    # rows of a table others refer to: their dependants would go too, at the statement's end
    for parent in ("games", "players", "import_batches", "leagues"):
        assert joinable_target(f"DELETE FROM {parent} WHERE id = %s") is None, parent
    assert joinable_target("UPDATE leagues SET revision = revision + 1 WHERE id = %s") == "leagues"


def test_a_joined_statement_stays_within_what_the_driver_keeps_converted() -> None:
    """Writes whose parameters would pass :data:`MAX_PARAMETERS` together are split: psycopg
    converts a statement of more at each execution again (store/held.py)."""
    rows = MAX_PARAMETERS // 4 + 1  # two games' worth of marks per statement below
    game = "INSERT INTO games (id, seq) VALUES " + ", ".join(["(%s, %s)"] * rows)
    pools = "INSERT INTO ratings (id, seq) VALUES " + ", ".join(["(%s, %s)"] * rows)
    out = joined([(game, [0] * 2 * rows), (pools, [0] * 2 * rows), (REVISION, (1,))])
    assert [sql for sql, _ in out] == [game, f"WITH w1 AS ({pools}) {REVISION}"]
    assert all(len(params) <= MAX_PARAMETERS for _, params in out)


def _duel(gid: str, day: dt.date, a: str, b: str) -> GameRecord:
    return GameRecord(
        day,
        (Side((Participant(a),), "decisive_victory"), Side((Participant(b),), "defeat")),
        id=gid,
    )


@pytest.mark.pg
def test_a_live_post_s_writes_go_as_a_few_statements_and_leave_a_fresh_replay(
    pg_server: PgServer,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An appended game's writes (its batch, the game and its players, its ledger, the pools,
    the tail, the journal, the league's revision) reach PostgreSQL as fewer statements than
    writes, with the commit; the league is then what a fresh replay makes of it."""
    league = League.create(pg_server.new_database(), "Held", "bataille-empire")
    day = dt.date(2025, 5, 1)
    league.import_games([_duel("g0", day, "A", "B"), _duel("g1", day, "C", "D")], source="first")
    statements = _count_statements(monkeypatch)
    for n, (a, b) in enumerate([("A", "C"), ("B", "D"), ("A", "D")], start=2):
        statements.clear()
        report = league.import_games([_duel(f"g{n}", day, a, b)], source="post")
        assert report.added == 1 and report.replayed == 1  # the append path
        # the lock's round trip ends with the plans put back as configured (its last statement)
        put_back = max(n for n, sql in enumerate(statements) if "AS configured" in sql)
        held = statements[put_back + 1 :]
        assert held[-1] == "COMMIT"
        writes = [w for sql in held[:-1] for w in written(sql)]
        tables = {joinable_target(w) for w in writes}
        assert {"games", "ledger", "ratings", "journal", "leagues"} <= tables, writes
        assert len(held) - 1 <= len(writes) // 2, held
    monkeypatch.undo()
    assert_is_a_fresh_replay(league)


@pytest.mark.pg
def test_writes_of_one_table_held_together_each_see_the_one_before(
    pg_server: PgServer,  # noqa: F811
) -> None:
    """Three updates of one row held for the commit, between writes of other tables: each is
    applied (a statement updating a row twice would keep one of its updates)."""
    league = League.create(pg_server.new_database(), "Twice", "bataille-empire")
    start = league_revision(league)
    with write(league.engine) as conn:
        hold_for_commit(conn)
        for _ in range(3):
            run(conn, "UPDATE leagues SET revision = revision + 1 WHERE id = ?", (league.id,))
            run(conn, "DELETE FROM checkpoints WHERE league_id = ?", (league.id,))
    assert league_revision(league) == start + 3
