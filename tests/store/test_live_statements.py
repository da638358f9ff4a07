"""A live game's statements are the same text for every post: SQLite prepares a statement whose
text it has not seen (the ``sqlite3`` driver keeps the last 128 it prepared), so an id written
into a statement instead of bound (a new import batch's, in the insert of the games) made every
post prepare that statement again (docs/benchmarks.md, "Live results")."""

from __future__ import annotations

import datetime as dt
import sqlite3
import sqlite3.dbapi2
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side

RUN: Counter[str] = Counter()  # how many times each statement's text ran


class _Cursor(sqlite3.Cursor):
    def execute(self, sql: str, *args: Any) -> Any:
        RUN[sql] += 1
        return super().execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> Any:
        RUN[sql] += 1
        return super().executemany(sql, *args)


class _Connection(sqlite3.Connection):
    def cursor(self, factory: Any = _Cursor) -> Any:
        return super().cursor(factory)

    def execute(self, sql: str, *args: Any) -> Any:
        RUN[sql] += 1
        return super().execute(sql, *args)


def _game(n: int) -> GameRecord:
    names = ("Ana", "Bob", "Chloé", "Dan")
    return GameRecord(
        date=dt.date(2024, 3, 1),  # a game server's results: its day's
        sides=(
            Side((Participant(names[n % 4]),), "marginal_victory"),
            Side((Participant(names[(n + 1) % 4]),), "defeat"),
        ),
        id=f"live-{n}",
    )


def test_every_appended_game_runs_the_statements_the_one_before_ran(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite3.dbapi2, "connect", partial(sqlite3.connect, factory=_Connection))
    league = League.create(str(tmp_path / "live.db"), "live", "bataille-empire")
    for n in range(6):  # the first games: new players, their first pools
        league.import_games([_game(n)], source="api")
    RUN.clear()
    posts = 8
    for n in range(6, 6 + posts):
        league.import_games([_game(n)], source="api")
    assert RUN, "the driver's statements were not seen"
    assert {sql: count for sql, count in RUN.items() if count != posts} == {}
