"""Many rows in one statement (store/bulk.py): a post of many games updates its players' pools and
marks them active in one statement each on PostgreSQL (from arrays of the rows' values), a
statement a row on SQLite; both leave the league as a fresh replay leaves it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import psycopg
import pytest

from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from eloleague.store.bulk import FEW_ROWS
from eloleague.store.pipeline import Pipeline
from tests.pg.server import db_url, pg_server  # noqa: F401  (fixtures)
from tests.store.test_live_appends import assert_is_a_fresh_replay

DAY = dt.date(2025, 3, 1)


def _post(n: int, day: dt.date, first: int = 0) -> list[GameRecord]:
    """``n`` duels between ``2 n`` players, each player once."""
    return [
        GameRecord(
            day,
            (
                Side((Participant(f"P{first + 2 * i}"),), "decisive_victory"),
                Side((Participant(f"P{first + 2 * i + 1}"),), "defeat"),
            ),
            id=f"g{day:%m%d}-{first + i}",
        )
        for i in range(n)
    ]


def _appended(league: League, posts: Sequence[int], first: int = 1) -> None:
    """Posts of ``posts`` duels each (the same players), a day after the other from ``first``
    days after :data:`DAY`, each taking the append path and changing its players' two pools."""
    for later, games in enumerate(posts, start=first):
        report = league.import_games(_post(games, DAY + dt.timedelta(days=later)), source="post")
        assert report.added == games and report.replayed == games  # the append path
        assert len(report.rating_changes) == 2 * games


def written(sql: str) -> list[str]:
    """The writes of a statement: itself, or those the held writes joined into it
    (``WITH w1 AS (...), w2 AS (...) last``, store/held.py), each as it was written."""
    if not sql.startswith("WITH w1 AS ("):
        return [sql]
    parts: list[str] = []
    at = len("WITH ")
    while sql.startswith(f"w{len(parts) + 1} AS (", at):
        start, depth = sql.index("(", at), 0
        for end in range(start, len(sql)):
            depth += {"(": 1, ")": -1}.get(sql[end], 0)
            if depth == 0:
                break
        parts.append(sql[start + 1 : end])
        at = end + 1 + len(", ") if sql.startswith(", ", end + 1) else end + 2
    return [*parts, sql[at:]]


def _spy(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    """The writes psycopg or libpq's pipeline driven directly (:mod:`eloleague.store.pipeline`)
    is given one by one (:func:`written`: those joined into a statement apart), and those psycopg
    is given row by row (``executemany``), each still run."""
    sent: list[str] = []
    many: list[str] = []
    execute, executemany = psycopg.Cursor.execute, psycopg.Cursor.executemany
    send = Pipeline.send

    def spied(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        sent.extend(written(str(query)))
        return execute(self, query, *args, **kwargs)

    def spied_many(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        many.append(str(query))
        return executemany(self, query, *args, **kwargs)

    def spied_send(self: Any, sql: str, *args: Any, **kwargs: Any) -> Any:
        sent.extend(written(sql))
        return send(self, sql, *args, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", spied)
    monkeypatch.setattr(psycopg.Cursor, "executemany", spied_many)
    monkeypatch.setattr(Pipeline, "send", spied_send)
    return sent, many


def test_a_post_changing_many_pools_writes_them_as_a_replay_would(
    db_url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A first post registers the players; the next ones, appended, change more pools than
    :data:`~eloleague.store.bulk.FEW_ROWS`; the last one's players, registered without a game,
    are marked active in the season, as many of them. On PostgreSQL each of those is one
    statement; players already marked in the season are not marked again (store/live.py,
    ``newly_active``): no statement."""
    league = League.create(db_url, "Many", "bataille-empire")
    games = FEW_ROWS  # 2 * FEW_ROWS players
    league.import_games(_post(games, DAY), source="first")
    for n in range(2 * games, 4 * games):  # a member list: registered before their first game
        league.add_player(f"P{n}")
    sent, _ = _spy(monkeypatch) if db_url.startswith("postgresql") else ([], [])
    _appended(league, [games, games])  # the same players: their rows change, their marks stay
    newcomers = _post(games, DAY + dt.timedelta(days=3), first=2 * games)
    report = league.import_games(newcomers, source="post")
    assert report.added == games and report.replayed == games  # the append path
    monkeypatch.undo()
    if db_url.startswith("postgresql"):
        updates = [q for q in sent if q.startswith("UPDATE ratings")]
        marks = [q for q in sent if q.startswith("INSERT INTO live_active")]
        assert len(updates) == 2 and all("FROM unnest(" in q for q in updates), updates
        assert len(marks) == 1 and all("FROM unnest(" in q for q in marks), marks
    assert_is_a_fresh_replay(league)
    pools = league.current_pools()
    assert sum(p.games for p in pools.values()) == 2 * 3 * games + 2 * games


def test_a_few_pools_are_written_in_one_statement_planned_once(
    db_url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An appended duel changes two pools, two duels four: on PostgreSQL one statement writes
    them (a ``VALUES`` list; psycopg sent a statement a row), the same statement for posts of as
    many pools, and the league is what a fresh replay makes of it."""
    league = League.create(db_url, "Few", "bataille-empire")
    league.import_games(_post(2, DAY), source="first")
    sent, many = _spy(monkeypatch) if db_url.startswith("postgresql") else ([], [])
    _appended(league, [1, 1, 2])
    monkeypatch.undo()
    if db_url.startswith("postgresql"):
        updates = [q for q in sent if q.startswith("UPDATE ratings")]
        assert len(updates) == 3 and all("FROM (VALUES" in q for q in updates), updates
        assert updates[0] == updates[1]  # two pools each: one statement, prepared once
        assert not [q for q in many if q.startswith("UPDATE ratings")]
    assert_is_a_fresh_replay(league)


def test_lists_of_names_go_to_postgresql_as_binary_arrays_and_find_every_name(
    db_url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A post's names are looked up as one array on PostgreSQL, sent in binary (psycopg wrote a
    text array quoting each name, ten times slower): names a text array must quote or escape
    (quotes, a backslash, a comma, braces, spaces, accents) are each found again, the post
    registering nobody."""
    names = ["O'Brien", "Back\\slash", "Comma, Name", "{Brace}", '"Quoted"', "Élodie Ñúñez", "NULL"]
    first = [
        GameRecord(
            DAY, (Side((Participant(a),), "draw"), Side((Participant(b),), "draw")), id=f"f{i}"
        )
        for i, (a, b) in enumerate(zip(names, names[1:] + names[:1], strict=True))
    ]
    league = League.create(db_url, "Quoted", "bataille-empire")
    league.import_games(first, source="first")
    sent, _ = _spy(monkeypatch) if db_url.startswith("postgresql") else ([], [])
    later = DAY + dt.timedelta(days=1)
    again = [
        GameRecord(
            later,
            (Side((Participant(a),), "decisive_victory"), Side((Participant(b),), "defeat")),
            id=f"a{i}",
        )
        for i, (a, b) in enumerate(zip(names, names[2:] + names[:2], strict=True))
    ]
    report = league.import_games(again, source="again")
    monkeypatch.undo()
    assert report.added == len(names) and not report.new_players
    assert sorted(league.players()) == sorted(names)
    if db_url.startswith("postgresql"):
        lists = [q for q in sent if "ANY(" in q]
        assert lists and all("ANY(%s)" not in q for q in lists), lists
        assert any("name = ANY(%b)" in q for q in lists), lists
    assert_is_a_fresh_replay(league)
