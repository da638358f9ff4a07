"""A league's events as its pages list them (store/events.py): each event's first and last day,
games and players, in order, a page of them, and how many there are; each event's first day
found by a seek of its games by date (``ix_games_event``), never by grouping every game of the
league (the home page's latest event took 260 ms on a million games: docs/benchmarks.md, "Web
site"); an event's ledger read in one statement. On SQLite and PostgreSQL."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import msgspec
from sqlalchemy import text

from eloleague.league import League
from eloleague.records import GameRecord
from eloleague.store.events import event_count, event_summaries
from tests.store.test_by_player import _duels, _plan, _statements

GAMES_READ = re.compile(r"\b(FROM|JOIN) games\b", re.IGNORECASE)


def _in_event(games: list[GameRecord], name: str) -> list[GameRecord]:
    return [msgspec.structs.replace(g, event=name) for g in games]


def _expected(games: list[GameRecord]) -> list[tuple[str, object, object, int, int]]:
    """(name, first, last, games, players) of each event of ``games``, oldest first then by
    name, computed from the games themselves."""
    by_event: dict[str, list[GameRecord]] = {}
    for g in games:
        if g.event:
            by_event.setdefault(g.event, []).append(g)
    rows = [
        (
            name,
            min(g.date for g in held),
            max(g.date for g in held),
            len(held),
            len({p.name for g in held for p in g.participants}),
        )
        for name, held in by_event.items()
    ]
    return sorted(rows, key=lambda r: (r[1], r[0]))


def test_the_events_listed_are_their_games(new_db: Callable[[], str]) -> None:
    league = League.create(new_db(), "events", "bataille-empire")
    games = _duels(1400, 30)  # seven days, 200 games a day
    stored = [
        *games[:200],  # no event: an online game's results
        *_in_event(games[200:500], "Spring"),  # a day and a half
        *_in_event(games[500:600], "Autumn"),
        *_in_event(games[600:700], "Summer"),  # the same day as Autumn
        *games[700:900],
        *_in_event(games[900:1000], "Winter"),
        *_in_event(games[1000:1001], "Cancelled"),
        *games[1001:],
    ]
    league.import_games(stored, source="season")
    moved = msgspec.structs.replace(stored[1000], event="Winter")  # Cancelled holds no game now
    league.correct_game(moved.id or "", moved)
    stored[1000] = moved
    with league.engine.begin() as conn:  # as a grown league is (store/bulk.py, ANALYZE_FROM)
        conn.execute(text("ANALYZE"))
    want = _expected(stored)
    assert [w[0] for w in want] == ["Spring", "Autumn", "Summer", "Winter"]

    def listed(**page: object) -> list[tuple[str, object, object, int, int]]:
        return [
            (e.name, e.first, e.last, e.games, e.players)
            for e in league.events(**page)  # type: ignore[arg-type]
        ]

    assert listed() == want
    assert listed(newest_first=True) == want[::-1]
    assert listed(newest_first=True, limit=1) == [want[-1]]
    assert listed(limit=2, offset=1) == want[1:3]
    assert listed(offset=4) == []
    assert league.event_count() == 4
    with _statements(league) as seen:
        league.events(newest_first=True, limit=1)
        league.event_count()
    reads = [(sql, params) for sql, params in seen if GAMES_READ.search(sql)]
    assert len(reads) >= 3, reads
    with league.engine.connect() as conn:
        for sql, params in reads:
            plan = _plan(conn, sql, params)
            assert "ix_games_event" in plan, (sql, plan)
            assert not re.search(r"(SCAN|Seq Scan on) games\b", plan), (sql, plan)


def _steps(conn: Any, read: Callable[[], object]) -> int:
    """SQLite's virtual machine steps (by hundreds) that ``read`` costs on ``conn``."""
    driver = conn.connection.driver_connection
    count = [0]

    def step() -> int:
        count[0] += 1
        return 0

    driver.set_progress_handler(step, 100)
    try:
        read()
    finally:
        driver.set_progress_handler(None, 100)
    return count[0]


def test_the_latest_event_costs_less_than_reading_the_games(new_db: Callable[[], str]) -> None:
    """The home page's latest event and the events' count do not read the league's games: on a
    league of 40 events of 100 games, they cost SQLite a fraction of one read of its games."""
    league = League.create(new_db(), "events", "bataille-empire")
    games = _duels(4010, 50)
    league.import_games(
        [g for n in range(41) for g in _in_event(games[n * 100 : (n + 1) * 100], f"Round {n:02}")],
        source="season",
    )
    with league.engine.begin() as conn:
        conn.execute(text("ANALYZE"))
    with league.engine.connect() as conn:
        (latest,) = event_summaries(conn, league.id, newest_first=True, limit=1)
        assert (latest.name, latest.games) == ("Round 40", 10)
        if conn.dialect.name != "sqlite":
            return  # (PostgreSQL: its plans are checked above)
        whole = _steps(
            conn,
            lambda: conn.execute(
                text("SELECT count(*), max(date) FROM games WHERE league_id = :l"),
                {"l": league.id},
            ).all(),
        )
        listed = _steps(conn, lambda: event_summaries(conn, league.id, newest_first=True, limit=1))
        counted = _steps(conn, lambda: event_count(conn, league.id))
    assert whole > 100
    assert listed + counted < whole / 4, (listed, counted, whole)


def test_an_events_ledger_is_one_read(new_db: Callable[[], str]) -> None:
    """An event's page reads its games' ledger in one statement, not one a game (200 reads took
    an event of 200 games 35 ms on a million games), each game with its own entries."""
    league = League.create(new_db(), "events", "bataille-empire")
    games = _in_event(_duels(120, 20), "Open")
    league.import_games(games, source="open")
    with _statements(league) as seen:
        report = league.event("Open")
    reads = [sql for sql, _ in seen if re.search(r"\bFROM ledger\b", sql)]
    assert len(reads) == 1, reads
    assert [g.game.id for g in report.games] == [g.id for g in games]
    for found in report.games:
        assert {e.key.player for e in found.entries} == {p.name for p in found.game.participants}
        assert all(e.game == found.game.id for e in found.entries)


def test_a_large_events_ledger_is_read_in_bounded_reads(
    new_db: Callable[[], str], monkeypatch: Any
) -> None:
    """An event of more games than one ``IN`` list holds (a database's bound on parameters) is
    read in a few statements, and its entries come as they would in one: each game's own, in the
    ledger's order (a read of seven games at a time here, 500 in use)."""
    from eloleague.store import derived

    league = League.create(new_db(), "events", "bataille-empire")
    games = _in_event(_duels(40, 12), "Open")
    league.import_games(games, source="open")
    whole = league.event("Open")
    monkeypatch.setattr(derived, "IN_CHUNK", 7)
    with _statements(league) as seen:
        report = league.event("Open")
    reads = [sql for sql, _ in seen if re.search(r"\bFROM ledger\b", sql)]
    assert len(reads) == -(-len(games) // 7), reads
    assert report == whole
    explained = [league.explain(g.id or "").entries for g in games]
    assert [found.entries for found in report.games] == explained
