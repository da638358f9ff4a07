"""Closing a season safely: a dry run lists every adjustment and stores nothing, the closing
applies exactly that list, and reopening gives back the league as it was (docs/league.md,
"Closing a season")."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from eloleague.errors import EloleagueError
from eloleague.league import League
from tests.store.helpers import (
    assert_equals_full_replay,
    ranking_csv,
    rate_csv,
    read_lines,
    replay_file,
    write_lines,
)

END = dt.date(2024, 12, 31)


def _league(db_url: str, tmp_path: Path) -> tuple[League, Path]:
    lines = [o for o in read_lines(replay_file("bataille-empire")) if o["date"] < "2024-01-01"]
    path = write_lines(tmp_path / "to2023.jsonl", lines)
    league = League.create(db_url, "be", "bataille-empire")
    league.import_file(path)
    return league, path


def test_the_dry_run_lists_what_the_closing_then_applies_and_reopening_undoes_it(
    db_url: str, tmp_path: Path
) -> None:
    league, path = _league(db_url, tmp_path)
    before = ranking_csv(league)
    ledger_before = league.ledger()

    planned = league.close_season(END, user="Claire", dry_run=True)
    assert ranking_csv(league) == before and league.ledger() == ledger_before
    assert league.closings() == []
    assert planned, "players idle through 2024 lose points"
    assert all(e.is_season and e.date == END and e.warning == "inactivity" for e in planned)
    assert all(e.after == e.before + e.delta and e.delta < 0 for e in planned)

    applied = league.close_season(END, user="Claire")
    assert applied == planned
    assert [e for e in league.ledger() if e.is_season and e.date == END] == applied
    assert ranking_csv(league) == rate_csv(path, "bataille-empire", END + dt.timedelta(days=1))
    assert league.closings() == [END]

    undone = league.reopen_season(END)
    assert undone == applied
    assert league.closings() == []
    assert ranking_csv(league) == before
    assert league.ledger() == ledger_before
    assert_equals_full_replay(league)
    # Closed again, it applies the same list again.
    assert league.close_season(END) == applied


def test_a_season_that_is_not_closed_or_has_games_after_it_cannot_be_reopened(
    db_url: str, tmp_path: Path
) -> None:
    league, _ = _league(db_url, tmp_path)
    with pytest.raises(EloleagueError, match="is not closed"):
        league.reopen_season(END)
    league.close_season(END)
    later = {
        "id": "after-1",
        "date": "2025-02-01",
        "sides": [
            {"players": ["Nouveau Un"], "outcome": "draw"},
            {"players": ["Nouveau Deux"], "outcome": "draw"},
        ],
    }
    league.import_file(write_lines(tmp_path / "later.jsonl", [later]))
    before = ranking_csv(league)
    with pytest.raises(EloleagueError, match="cannot be reopened: the league has games after"):
        league.reopen_season(END)
    assert ranking_csv(league) == before and league.closings() == [END]
