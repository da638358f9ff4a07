"""A player's rows of ``side_players`` and ``ledger`` are read through the indexes led by a
generation (store/by_player.py): every generation is searched, none is scanned whole."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event, text

from eloleague.engine.replay import dated_in_order
from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from eloleague.store import by_player
from eloleague.store.bulk import to_date
from eloleague.store.ranking import RankingFilter
from eloleague.store.tables import GAMES_SHIFT, LEDGER_SHIFT

DAY = dt.date(2024, 3, 1)


def _duels(n: int, players: int, start: int = 0, seed: int = 1) -> list[GameRecord]:
    rng = random.Random(seed)
    out = []
    for i in range(start, start + n):
        a, b = rng.sample(range(players), 2)
        sides = (
            Side((Participant(f"Joueur {a}"),), "defeat"),
            Side((Participant(f"Joueur {b}"),), "marginal_victory"),
        )
        out.append(GameRecord(DAY + dt.timedelta(days=i // 200), sides, id=f"g{i}"))
    return out


def _played(games: list[GameRecord], name: str) -> set[str]:
    return {g.id or "" for g in games if any(p.name == name for p in g.participants)}


def _skip_game_ids(league: League, past: int) -> None:
    """The next games' row ids past ``past`` (another league's game took the ids between)."""
    if league.engine.dialect.name == "postgresql":
        with league.engine.begin() as conn:
            conn.execute(
                text("SELECT setval(pg_get_serial_sequence('games', 'id'), :n)"), {"n": past}
            )
        return
    other = League.create(str(league.engine.url), "autre", "bataille-empire")
    with other.engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO games (id, league_id, seq, date, mode, rated, content_hash, neutral) "
                "VALUES (:n, :league, 1, '2024-01-01', '', 1, 'x', 0)"
            ),
            {"n": past, "league": other.id},
        )
    other.engine.dispose()


def _duel(n: int, first: str, second: str) -> GameRecord:
    sides = (Side((Participant(first),), "draw"), Side((Participant(second),), "draw"))
    return GameRecord(DAY + dt.timedelta(days=n // 200), sides, id=f"z{n}")


def test_a_player_s_games_are_found_in_every_generation(new_db: Callable[[], str]) -> None:
    """Games whose row ids lie in two generations of ``side_players`` (0 and 3): her page,
    her history and a merge find every one of them."""
    url = new_db()
    league = League.create(url, "gen", "bataille-empire")
    first = [
        *_duels(30, 6),
        _duel(30, "Zoe Martin", "Joueur 1"),
        _duel(31, "Zoé Martin", "Joueur 2"),
    ]
    league.import_games(first, source="first")
    _skip_game_ids(league, 3 << GAMES_SHIFT)
    second = [*_duels(30, 6, start=40, seed=2), _duel(80, "Joueur 4", "Zoe Martin")]
    league.import_games(second, source="second")
    with league.engine.connect() as conn:
        ids = [r[0] for r in conn.execute(text("SELECT id FROM games ORDER BY id"))]
    assert ids[0] >> GAMES_SHIFT == 0 and ids[-1] >> GAMES_SHIFT == 3

    everything = first + second
    for name in ("Joueur 1", "Zoe Martin"):
        report = league.player(name)
        assert {g.id for g in report.games} == _played(everything, name)
        assert {e.game for e in report.history if e.game} == _played(everything, name)

    league.merge_players("Zoe Martin", "Zoé Martin")  # her games in both generations move
    merged = league.player("Zoé Martin")
    assert {g.id for g in merged.games} == {"z30", "z31", "z80"}


@pytest.mark.slow
def test_a_player_s_history_is_found_in_every_ledger_generation(tmp_path: Any) -> None:
    """A league whose ledger holds more than one generation (over 2**15 entries): a player's
    history, the ranking's active players and trends read both."""
    league = League.create(str(tmp_path / "big.db"), "gen", "bataille-empire")
    games = _duels((1 << LEDGER_SHIFT) // 2 + 500, 40)
    league.import_games(games, source="big")
    with league.engine.connect() as conn:
        last = conn.execute(text("SELECT max(seq) FROM ledger")).scalar()
    assert last is not None and last >> LEDGER_SHIFT == 1

    for name in ("Joueur 3", "Joueur 39"):
        report = league.player(name)
        assert {e.game for e in report.history if e.game} == _played(games, name)
        assert len(report.history) == len(_played(games, name))

    last_day = games[-1].date
    active = league.ranking_page(RankingFilter(active_since=last_day), per_page=100)
    assert {r.player for r in active.rows} == {
        p.name for g in games if g.date >= last_day for p in g.participants
    }


@contextmanager
def _statements(league: League) -> Iterator[list[tuple[str, Any]]]:
    seen: list[tuple[str, Any]] = []

    def keep(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        seen.append((statement, parameters))

    event.listen(league.engine, "before_cursor_execute", keep)
    try:
        yield seen
    finally:
        event.remove(league.engine, "before_cursor_execute", keep)


BY_PLAYER = re.compile(r"\b(side_players|ledger)\.player_id\s*(=|IN)", re.IGNORECASE)


def _plan(conn: Any, sql: str, params: Any) -> str:
    driver = conn.connection.driver_connection
    if conn.dialect.name == "postgresql":
        with driver.cursor() as cursor:
            cursor.execute("SET enable_seqscan = off")  # the tables are small: is an index usable?
            cursor.execute("EXPLAIN " + sql, params)
            return " | ".join(r[0] for r in cursor.fetchall())
    return " | ".join(r[-1] for r in driver.execute("EXPLAIN QUERY PLAN " + sql, params))


SEEKS = {
    # each generation sought (not SQLite's skip-scan, which needs statistics; PostgreSQL 15 has
    # none): the generation and the player are both conditions of the index
    "sqlite": re.compile(
        r"ix_(side_players|ledger)_player \((league_id=\? AND )?<expr>=\? AND player_id"
    ),
    "postgresql": re.compile(
        r"(Index (Only )?Scan using|Bitmap Index Scan on) ix_(side_players|ledger)_player .*"
        r"Index Cond: .*\(\w+ >> 1[45]\) = (ANY|\d)"  # (by player, or merged with the players)
    ),
}


def test_no_read_by_player_scans_the_table(new_db: Callable[[], str]) -> None:
    """Every statement that picks rows of ``side_players`` or ``ledger`` by player, in a
    player's page, the ranking of active players with trends, and a merge, is planned (the
    league analysed, as a grown one is) as a seek of the index by player in each generation,
    never as a scan of the table: a condition on the player alone, without the generations,
    would be one on PostgreSQL, and on SQLite until the league's statistics are gathered."""
    league = League.create(new_db(), "gen", "bataille-empire")
    games = [
        *_duels(400, 12),
        _duel(400, "Zoe Martin", "Joueur 1"),
        _duel(401, "Zoé Martin", "Joueur 2"),
    ]
    league.import_games(games, source="all")
    with league.engine.begin() as conn:  # as a grown league is (store/bulk.py, ANALYZE_FROM)
        conn.execute(text("ANALYZE"))
    with _statements(league) as seen:
        league.player("Joueur 1")
        league.ranking_page(RankingFilter(active_since=games[-1].date))
        league.merge_players("Zoe Martin", "Zoé Martin")
    picked = [(sql, params) for sql, params in seen if BY_PLAYER.search(sql)]
    assert len(picked) >= 4, "the page, the ranking and the merge read rows by player"
    with league.engine.connect() as conn:
        seeks = SEEKS[conn.dialect.name]
        for sql, params in picked:
            plan = _plan(conn, sql, params)
            assert seeks.search(plan), (sql, plan)
            assert not re.search(r"(SCAN|Seq Scan on) (side_players|ledger)\b", plan), (sql, plan)


def _dated(n: int, days: int, outcomes: tuple[str, str], events: bool) -> list[GameRecord]:
    """``n`` duels of 12 players over ``days`` days; with ``events``, one event a week whose
    games run over its first ten days (each event begun before the one before it ended)."""
    rng = random.Random(7)
    out = []
    for i in range(n):
        a, b = rng.sample(range(12), 2)
        day = i * days // n
        sides = (
            Side((Participant(f"Joueur {a}"),), outcomes[0]),
            Side((Participant(f"Joueur {b}"),), outcomes[1]),
        )
        week = day // 7 - (rng.random() < 0.4 and day >= 7)  # 40 %: the week before's event
        event = f"Week {week}" if events else None
        out.append(GameRecord(DAY + dt.timedelta(days=day), sides, id=f"d{i}", event=event))
    return out


@pytest.mark.parametrize(
    ("preset", "outcomes", "events"),
    [
        ("bataille-empire", ("defeat", "marginal_victory"), False),  # per game, 30 days of trend
        ("bataille-empire", ("defeat", "marginal_victory"), True),  # since the last event began
        ("adlg", ("defeat", "victory"), True),  # per event: the ledger is not in date order
    ],
)
def test_trends_are_the_changes_since_their_day_read_from_the_generations_holding_them(
    new_db: Callable[[], str],
    monkeypatch: pytest.MonkeyPatch,
    preset: str,
    outcomes: tuple[str, str],
    events: bool,
) -> None:
    """With generations of 8 ledger entries, the ranking's trend of every row is the sum of the
    ledger's changes of its pool dated on or after the trends' first day; where the ledger is in
    date order, the generations read are exactly those holding such entries."""
    monkeypatch.setattr(by_player, "LEDGER_SHIFT", 3)
    league = League.create(new_db(), "gen", preset)
    league.import_games(_dated(300, 90, outcomes, events), source="all")
    page = league.ranking_page(RankingFilter(), per_page=100)
    since = page.trend_since
    assert since is not None and page.rows
    moved: dict[tuple[str, str, str], float] = {}
    for entry in league.ledger():
        if entry.date >= since:
            key = (entry.key.player, entry.key.mode, entry.key.role)
            moved[key] = moved.get(key, 0.0) + entry.delta
    assert any(moved.values())
    for row in page.rows:
        assert row.trend == pytest.approx(moved.get((row.player, row.mode, row.role), 0.0))
    with league.engine.connect() as conn:
        holding = {
            seq >> 3
            for seq, day in conn.execute(text("SELECT seq, date FROM ledger"))
            if to_date(day) >= since
        }
        every = set(by_player.ledger_generations(conn, league.id))
        found = by_player.ledger_generations_since(conn, league.id, since)
    assert len(every) > 2 * len(holding) > 0  # most are older than the trends
    if dated_in_order(league.rules):
        assert set(found) == holding
    else:  # not in date order, as here: the trends above were read from every generation
        dates = [entry.date for entry in league.ledger()]
        assert dates != sorted(dates)
