"""Reads joined into one statement on PostgreSQL (store/bulk.py ``one_row``, ``many_rows``,
``run_together``): a read of one row and reads of several rows, sent as one statement, give each
read its own rows, in order, with the values a statement of its own gives (numbers exact, dates
as ISO text that ``to_date`` reads); on SQLite each read runs alone and gives the same rows."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from eloleague.store.bulk import many_rows, one_row, run, run_together, to_date
from eloleague.store.db import write
from tests.store.test_read_ahead import _count_statements

# (statements of this file's own: declaring one joinable is for the whole process)
ONE = one_row("SELECT name AS joined FROM players WHERE league_id = ? AND name = ?")
SEVERAL = many_rows(
    "SELECT id, name, rating, last_played FROM players JOIN ratings ON player_id = id "
    "WHERE players.league_id = ? ORDER BY rating DESC, name",
    4,
)
NONE = many_rows("SELECT id, name FROM players WHERE league_id = ? AND name = 'nobody'", 2)


def _reads(league_id: int) -> list[tuple[str, tuple[Any, ...]]]:
    return [(SEVERAL, (league_id,)), (ONE, (league_id, "Bea")), (NONE, (league_id,))]


def test_joined_reads_give_each_read_its_rows(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    league = League.create(db_url, "Joined", "bataille-empire")
    league.import_games(
        [
            GameRecord(
                dt.date(2025, 1, n + 1),
                (Side((Participant(a),), "decisive_victory"), Side((Participant(b),), "defeat")),
                id=f"g{n}",
            )
            for n, (a, b) in enumerate([("Ana", "Bea"), ("Bea", "Cyd"), ("Ana", "Cyd")])
        ],
        source="three",
    )
    postgres = db_url.startswith("postgresql")
    with write(league.engine) as conn:
        alone = [run(conn, sql, params) for sql, params in _reads(league.id)]
        sent = _count_statements(monkeypatch) if postgres else []
        several, one, none = run_together(conn, _reads(league.id))
    if postgres:
        assert len(sent) == 1, sent  # the three reads in one statement
    assert one == [("Bea",)] == alone[1]
    assert none == [] == alone[2]
    assert [row[1] for row in several] == [row[1] for row in alone[0]] == ["Ana", "Bea", "Cyd"]
    for joined, own in zip(several, alone[0], strict=True):
        assert joined[:2] == tuple(own[:2])
        assert joined[2] == own[2]  # the same double, exactly (1044.0 may come as 1044)
        assert (
            to_date(joined[3]) == to_date(own[3]) == dt.date(2025, 1, 3 if own[1] != "Bea" else 2)
        )
