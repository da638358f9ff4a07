"""Active players (a rated game on or after a day): today's ranking reads them from the pools'
last rated game, a past day's from the ledger; the ranking page, the command line and the
engine's standings agree."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable

from eloleague.engine import replay
from eloleague.engine.standings import standings
from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from eloleague.store.ranking import RankingFilter

START = dt.date(2024, 1, 6)


def _games() -> list[GameRecord]:
    """Twelve players over sixty days; from day 40 on, only the first six play."""
    rng = random.Random(7)
    out = []
    for n in range(240):
        day = n // 4
        a, b = rng.sample(range(6 if day >= 40 else 12), 2)
        sides = (
            Side((Participant(f"Joueur {a}"),), "marginal_victory"),
            Side((Participant(f"Joueur {b}"),), "defeat"),
        )
        out.append(GameRecord(START + dt.timedelta(days=day), sides, id=f"g{n}"))
    return out


def test_today_s_active_players_are_those_of_the_ledger_and_of_the_engine(
    new_db: Callable[[], str],
) -> None:
    games = _games()
    league = League.create(new_db(), "actifs", "bataille-empire")
    league.import_games(games, source="all")
    last = games[-1].date
    for since in (START, START + dt.timedelta(days=40), START + dt.timedelta(days=55), last):
        today = league.ranking(active_since=since)  # the pools' last rated game
        by_ledger = league.ranking(as_of=last, active_since=since)  # the ledger's entries
        assert today == by_ledger
        played = {p.name for g in games if g.date >= since for p in g.participants}
        assert {r.player for r in today} == played
        result = replay(league.rules, games, as_of=last)
        engine = standings(
            league.rules, result.pools, last_played=result.state.last_played, active_since=since
        )
        assert [(r.player, r.rating) for r in today] == [(r.player, r.rating) for r in engine]
        page = league.ranking_page(RankingFilter(active_since=since), per_page=100)
        assert [r.player for r in page.rows] == [r.player for r in today]
    assert len(league.ranking(active_since=START + dt.timedelta(days=40))) == 6
