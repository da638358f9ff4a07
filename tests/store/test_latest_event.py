"""The ranking's trends count from the start of the league's latest event (store/ranking.py,
``last_event_start``): found through the index of the games that have one
(``ix_games_league_event_date``), never by reading the league's games. An online game's league
has no events, and that search read every game for each view of the ranking while results were
posted (docs/benchmarks.md, "Live results"). On SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

import msgspec
from sqlalchemy import text

from eloleague.league import League
from eloleague.records import GameRecord
from eloleague.store.ranking import RankingFilter, last_event_start
from tests.store.test_by_player import DAY, _duels, _plan, _statements

LATEST_EVENT = re.compile(r"\bevent_id IS NOT NULL\b.*ORDER BY games\.date DESC", re.DOTALL)


def _in_event(games: list[GameRecord], name: str) -> list[GameRecord]:
    return [msgspec.structs.replace(g, event=name) for g in games]


def test_the_latest_event_is_found_through_its_index(new_db: Callable[[], str]) -> None:
    league = League.create(new_db(), "live", "bataille-empire")
    games = _duels(1200, 20)  # six days, no event: an online game's results
    league.import_games(games[:600], source="first")
    with league.engine.connect() as conn:
        assert last_event_start(conn, league.id) is None
    spring, summer = _in_event(games[600:800], "Spring"), _in_event(games[800:1000], "Summer")
    league.import_games([*spring, *summer], source="events")
    league.import_games(games[1000:], source="live again")  # later games, without event
    with league.engine.connect() as conn:
        assert last_event_start(conn, league.id) == summer[0].date == DAY + dt.timedelta(days=4)
    with league.engine.begin() as conn:  # as a grown league is (store/bulk.py, ANALYZE_FROM)
        conn.execute(text("ANALYZE"))
    with _statements(league) as seen:
        page = league.ranking_page(RankingFilter())
    assert page.rows and page.trend_since == summer[0].date
    (latest,) = [(sql, params) for sql, params in seen if LATEST_EVENT.search(sql)]
    with league.engine.connect() as conn:
        plan = _plan(conn, *latest)
    assert "ix_games_league_event_date" in plan, plan
    assert not re.search(r"(SCAN|Seq Scan on) games\b", plan), plan
