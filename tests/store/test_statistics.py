"""Query-planner statistics: a grown league reads one player's rows through their indexes."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import pytest
from sqlalchemy import text

from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from eloleague.store import bulk
from eloleague.store.bulk import ANALYZE_FROM, LEAGUE_SIZED
from eloleague.store.db import migrate
from tests.pg.server import PgServer

PLAN = (  # a player's ledger as store/by_player.py reads it: every generation named
    "EXPLAIN QUERY PLAN SELECT * FROM ledger WHERE league_id = 1 AND (seq >> 15) IN (0, 1) "
    "AND player_id = 3 ORDER BY seq"
)


def _games(n: int, start: int = 0) -> list[GameRecord]:
    rng = random.Random(n + start)
    day = dt.date(2020, 1, 1)
    out = []
    for i in range(start, start + n):
        a, b = rng.sample(range(200), 2)
        sides = (
            Side((Participant(f"P{a}"),), "defeat"),
            Side((Participant(f"P{b}"),), "marginal_victory"),
        )
        out.append(GameRecord(day + dt.timedelta(days=i // 50), sides, id=f"g{i}"))
    return out


def _plan(league: League) -> str:
    with league.engine.connect() as conn:
        return " ".join(str(row[-1]) for row in conn.execute(text(PLAN)))


def test_statistics_are_gathered_once_the_ledger_is_large_and_again_when_it_doubles(
    tmp_path: Path,
) -> None:
    league = League.create(str(tmp_path / "s.db"), "s", "bataille-empire")
    league.import_games(_games(100), source="small")
    with league.engine.connect() as conn:
        assert (
            conn.execute(text("SELECT name FROM sqlite_master WHERE name = 'sqlite_stat1'")).first()
            is None
        )

    league.import_games(_games(ANALYZE_FROM // 2, start=100), source="large")
    assert "ix_ledger_player" in _plan(league)  # not a scan of the league's whole ledger

    def counted() -> int:
        with league.engine.connect() as conn:
            stat = conn.execute(
                text("SELECT stat FROM sqlite_stat1 WHERE idx = 'ix_ledger_player'")
            ).scalar()
        return int(str(stat).split()[0])

    first = counted()
    assert first >= ANALYZE_FROM
    league.import_games(_games(100, start=ANALYZE_FROM), source="a few more")
    assert counted() == first  # not gathered again for a small change
    league.import_games(_games(ANALYZE_FROM, start=ANALYZE_FROM + 100), source="doubled")
    assert counted() > 2 * first


KEPT_ANSWER = (
    "EXPLAIN QUERY PLAN UPDATE import_batches SET answer = 'x' "
    "WHERE league_id = 1 AND content_hash = 'abc'"
)


def test_tables_growing_with_posts_keep_no_statistics_and_are_read_through_their_indexes(
    tmp_path: Path,
) -> None:
    """An analysis taken when the import batches held one row made SQLite scan them: keeping a
    post's answer read every earlier post. Only the league-sized tables are analysed."""
    league = League.create(str(tmp_path / "s.db"), "s", "bataille-empire")
    league.import_games(_games(ANALYZE_FROM // 2 + 100), source="large")
    with league.engine.connect() as conn:
        analysed = {r[0] for r in conn.execute(text("SELECT DISTINCT tbl FROM sqlite_stat1"))}
        plan = " ".join(str(row[-1]) for row in conn.execute(text(KEPT_ANSWER)))
    assert "ledger" in analysed
    assert not analysed & {"import_batches", "journal"}
    assert "ix_import_batches_league_hash" in plan


def test_the_upgrade_forgets_the_statistics_an_older_analysis_took(tmp_path: Path) -> None:
    league = League.create(str(tmp_path / "s.db"), "s", "bataille-empire")
    league.import_games(_games(100), source="small")
    with league.engine.begin() as conn:  # what an older eloleague left: every table analysed
        conn.execute(text("ANALYZE"))
        conn.execute(text("UPDATE alembic_version SET version_num = '0010'"))
    league.engine.dispose()
    migrate(league.engine)  # what the next start does
    with league.engine.connect() as conn:
        analysed = {r[0] for r in conn.execute(text("SELECT DISTINCT tbl FROM sqlite_stat1"))}
        plan = " ".join(str(row[-1]) for row in conn.execute(text(KEPT_ANSWER)))
    assert "ledger" in analysed and "import_batches" not in analysed
    assert "ix_import_batches_league_hash" in plan


LEDGER_PLAN = (  # a player's ledger as store/by_player.py reads it: every generation named
    "EXPLAIN SELECT * FROM ledger WHERE league_id = 1 AND (seq >> 15) IN (0, 1) AND player_id = 3 "
    "ORDER BY seq"
)


@pytest.mark.pg
def test_postgresql_gathers_them_too_where_autovacuum_has_not(
    pg_server: PgServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database copied from a template or restored, or a bulk import of a minute ago: no
    statistics, and PostgreSQL's planner read a player's ledger (or a game's two players'
    ratings) by filtering the whole league's. The write that grows the ledger past the threshold
    gathers them."""
    monkeypatch.setattr(bulk, "PG_CHECK_EVERY", 0.0)  # each write checks (not once a second)
    league = League.create(pg_server.new_database(), "s", "bataille-empire")
    with league.engine.begin() as conn:  # autovacuum must not do it meanwhile
        for table in LEAGUE_SIZED:
            conn.execute(text(f"ALTER TABLE {table} SET (autovacuum_enabled = false)"))

    def counted() -> float | None:
        with league.engine.connect() as conn:
            return conn.execute(
                text(
                    "SELECT reltuples FROM pg_class WHERE relname = 'ledger' AND EXISTS "
                    "(SELECT 1 FROM pg_stats WHERE tablename = 'ledger')"
                )
            ).scalar()

    def plan() -> str:
        with league.engine.connect() as conn:
            return " ".join(str(row[0]) for row in conn.execute(text(LEDGER_PLAN)))

    league.import_games(_games(100), source="small")
    assert counted() is None

    league.import_games(_games(ANALYZE_FROM // 2, start=100), source="large")
    first = counted()
    assert first is not None and first >= ANALYZE_FROM
    assert (
        "Index Cond: ((league_id = 1) AND ((seq >> 15) = ANY ('{0,1}'::integer[])) "
        "AND (player_id = 3))"
    ) in plan()
    league.import_games(_games(100, start=ANALYZE_FROM), source="a few more")
    assert counted() == first  # not gathered again for a small change
    league.import_games(_games(ANALYZE_FROM, start=ANALYZE_FROM + 100), source="doubled")
    again = counted()
    assert again is not None and again > 2 * first
