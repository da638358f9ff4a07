"""A post of many games looks its stored games up by id, and reads back the row ids of the games it
wrote, at a cost that does not grow with the league (store/imports.py, store/games.py): on
PostgreSQL each id is one lookup in the index of ids, never a read of every game."""

from __future__ import annotations

import datetime as dt

import pytest

from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from eloleague.store.bulk import run
from eloleague.store.games import _row_ids
from eloleague.store.imports import _ext_id_reads
from tests.pg.server import PgServer

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
