"""Closing a season safely: a dry run lists every adjustment and stores nothing, the closing
applies exactly that list, and reopening gives back the league as it was (docs/league.md,
"Closing a season")."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

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


def test_an_import_past_a_seasons_end_tells_the_seasons_adjustments_apart(
    db_url: str, tmp_path: Path
) -> None:
    """The first game past a season's end brings the season's inactivity adjustments with it:
    the import's report gives each rating change's adjustment apart, and what is left of the
    change is the game's own, as the ledger explains it (a game server shows a player "+17 for
    the victory" and "-100 for the year", not "-83")."""
    league, _ = _league(db_url, tmp_path)
    later = [o for o in read_lines(replay_file("bataille-empire")) if o["date"] >= "2024-01-01"]
    first = later[0]
    report = league.import_file(write_lines(tmp_path / "first-of-2024.jsonl", [first]))
    ledger = league.ledger()
    season = {e.key: e.delta for e in ledger if e.is_season and e.date == dt.date(2023, 12, 31)}
    game = {e.key: e.delta for e in ledger if e.game == first["id"]}
    assert season, "players idle through 2023 lose points when 2024's first game comes"
    changes = {c.key: c for c in report.rating_changes}
    assert set(changes) == set(season) | set(game)
    for key, change in changes.items():
        assert change.adjustment == pytest.approx(season.get(key, 0.0))
        assert change.delta - change.adjustment == pytest.approx(game.get(key, 0.0))
    # the next game of the season brings none
    again = league.import_file(write_lines(tmp_path / "second-of-2024.jsonl", [later[1]]))
    assert again.rating_changes and all(c.adjustment == 0 for c in again.rating_changes)


def test_a_live_game_after_a_season_sat_out_tells_its_reversion_apart(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under a reversion toward the mean, a team's first game of a season it did not start
    reverts its rating first: a game appended live (the append path, no recompute) reports that
    reversion as the change's adjustment, apart from the game's own change."""
    import eloleague.store.live as live

    rules = Path(__file__).parents[1] / "data" / "rules" / "538-nfl.toml"
    league = League.create(db_url, "nfl", str(rules))

    def game(ident: str, date: str, home: str, away: str) -> dict[str, object]:
        return {
            "id": ident,
            "date": date,
            "sides": [
                {"players": [home], "outcome": "win", "score": 24},
                {"players": [away], "outcome": "loss", "score": 17},
            ],
        }

    first = [game("g1", "2023-09-10", "Bears", "Lions"), game("g2", "2023-09-10", "Jets", "Bills")]
    league.import_file(write_lines(tmp_path / "2023.jsonl", first))
    league.import_file(
        write_lines(tmp_path / "2024a.jsonl", [game("g3", "2024-09-08", "Bears", "Lions")])
    )
    appended = []
    real = live.append_writes

    def counted(*args: Any, **kwargs: Any) -> Any:
        appended.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(live, "append_writes", counted)
    report = league.import_file(
        write_lines(tmp_path / "2024b.jsonl", [game("g4", "2024-09-15", "Jets", "Bills")])
    )
    assert appended, "a later game of the season is appended"
    ledger = league.ledger()
    reverted = {e.key: e.delta for e in ledger if e.warning == "reversion" and e.date.year == 2024}
    own = {e.key: e.delta for e in ledger if e.game == "g4"}
    changes = {c.key: c for c in report.rating_changes}
    assert set(changes) == set(own) and set(reverted) >= set(own)
    for key, change in changes.items():
        assert change.adjustment == pytest.approx(reverted[key]) and change.adjustment != 0
        assert change.delta - change.adjustment == pytest.approx(own[key])
