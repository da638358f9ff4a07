"""A post of many games looks its stored games up by id, and reads back the row ids of the games it
wrote, at a cost that does not grow with the league (store/imports.py, store/games.py): on
PostgreSQL each id is one lookup in the index of ids, never a read of every game."""

from __future__ import annotations

import datetime as dt

import pytest

from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from eloleague.store.bulk import BY_KEY, _as_arrays, run, update_rows
from eloleague.store.db import write
from eloleague.store.games import _row_ids
from eloleague.store.imports import _ext_id_reads
from eloleague.store.tables import ratings
from tests.pg.server import PgServer
from tests.store.test_read_ahead import _count_statements

DAY = dt.date(2025, 3, 1)


def _games(first: int, count: int, winner: str = "decisive_victory") -> list[GameRecord]:
    return [
        GameRecord(
            DAY,
            (
                Side((Participant(f"P{n % 40}"),), winner),
                Side((Participant(f"P{(n + 1 + n // 40 % 39) % 40}"),), "defeat"),
            ),
            id=f"g{n}",
        )
        for n in range(first, first + count)
    ]


def test_a_post_finds_its_stored_games_by_id(db_url: str) -> None:
    league = League.create(db_url, "Club", "bataille-empire")
    assert league.import_games(_games(0, 300), source="first").added == 300
    again = league.import_games(_games(0, 300) + _games(300, 150), source="again")
    assert (again.added, again.unchanged, again.replaced) == (150, 300, 0)
    changed = league.import_games(_games(100, 20, "marginal_victory"), source="fix", update=True)
    assert (changed.added, changed.unchanged, changed.replaced) == (0, 0, 20)


def test_the_row_ids_of_games_are_read_back_in_their_order(db_url: str) -> None:
    league = League.create(db_url, "Club", "bataille-empire")
    league.import_games(_games(0, 150), source="first")
    with league.engine.connect() as conn:
        stored = dict(run(conn, "SELECT seq, id FROM games WHERE league_id = ?", (league.id,)))
        following = sorted(stored)[10:61]  # numbers that follow each other: read as a range
        scattered = [sorted(stored)[i] for i in (90, 5, 149, 17, 18)]
        for seqs in (following, scattered, following[::-1]):
            assert _row_ids(conn, league.id, seqs) == [stored[s] for s in seqs]


@pytest.mark.pg
def test_postgresql_looks_each_id_up_in_the_index_of_ids(pg_server: PgServer) -> None:
    league = League.create(pg_server.new_database(), "Club", "bataille-empire")
    league.import_games(_games(0, 3000), source="season")
    wanted = [f"g{n}" for n in range(2500, 3500)]  # 500 stored, 500 new: a post of 1,000 games
    with league.engine.connect() as conn:
        reads = _ext_id_reads(conn, league.id, wanted)
        assert reads is not None
        ((sql, params),) = reads
        found = {row[0] for row in run(conn, sql, params)}
        plan = "\n".join(row[0] for row in run(conn, "EXPLAIN " + sql, params))
    assert found == {f"g{n}" for n in range(2500, 3000)}
    # ``ext_id = ANY(array)`` had PostgreSQL read all 3,000 games for 1,000 ids
    assert "Seq Scan on games" not in plan
    assert "uq_games_league_ext_id" in plan


def test_postgresql_updates_many_pools_each_through_the_key_s_index(
    pg_server: PgServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A post of many games updates its players' pools joined to arrays of their values: each
    pool is found by the ratings' key (a hash join read every pool of the league, a cost that
    grew with the league), the planner's settings for it set for that statement alone."""
    league = League.create(pg_server.new_database(), "Club", "bataille-empire")
    league.import_games(
        [
            GameRecord(
                DAY,
                (
                    Side((Participant(f"A{n}"),), "decisive_victory"),
                    Side((Participant(f"B{n}"),), "defeat"),
                ),
                id=f"m{n}",
            )
            for n in range(1500)
        ],
        source="season",
    )
    columns, keys = ("rating", "games", "extra", "last_played"), ("player_id", "mode", "role")
    with write(league.engine) as conn:
        rows = run(
            conn,
            "SELECT rating + 1, games, extra, last_played, player_id, mode, role FROM ratings "
            "WHERE league_id = ? ORDER BY player_id LIMIT 1000",
            (league.id,),
        )
        sent = _count_statements(monkeypatch)
        update_rows(conn, ratings, columns, keys, rows, {"league_id": league.id})
        monkeypatch.undo()
        update = next(s for s in sent if s.startswith("UPDATE ratings"))
        for setting in BY_KEY:
            run(conn, f"SET LOCAL {setting} = off")
        plan = "\n".join(r[0] for r in run(conn, "EXPLAIN " + update, _as_arrays(rows)))
        for setting in BY_KEY:
            run(conn, f"SET LOCAL {setting} TO DEFAULT")
        settings = [run(conn, f"SHOW {setting}")[0][0] for setting in BY_KEY]
    assert sent == [
        "SET LOCAL enable_hashjoin = off",
        "SET LOCAL enable_mergejoin = off",
        update,
        "SET LOCAL enable_hashjoin TO DEFAULT",
        "SET LOCAL enable_mergejoin TO DEFAULT",
    ], sent
    assert "Seq Scan on ratings" not in plan and "pk_ratings" in plan, plan
    assert settings == ["on", "on"]  # as configured, for the rest of the write
    with league.engine.connect() as conn:
        after = {
            tuple(row[1:]): row[0]
            for row in run(
                conn,
                "SELECT rating, player_id, mode, role FROM ratings WHERE league_id = ?",
                (league.id,),
            )
        }
    assert all(after[tuple(row[4:])] == row[0] for row in rows)  # each pool its new rating
