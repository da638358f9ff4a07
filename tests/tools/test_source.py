"""Where the tools take a league's ratings from (tools/source.py): a prediction and a balance
read the stored ratings, which are what a full replay of the games gives, closed seasons
included; the games are read only by the tools that need them (compare, evaluate). A replay of a
million games took `eloleague predict` 18 s (docs/benchmarks.md, "Engine and `eloleague
rate`")."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from eloleague.cli import app
from eloleague.league import League
from eloleague.tools.source import from_league
from tests.tools.helpers import duel, write_games

OUTCOMES = [("decisive_victory", "defeat"), ("draw", "draw"), ("defeat", "marginal_victory")]


def _league(tmp_path: Path) -> tuple[Path, League]:
    """A bataille-empire league of one season, closed (its inactivity penalty)."""
    db = tmp_path / "club.db"
    league = League.create(str(db), "Club", "bataille-empire")
    names = ["Ana", "Ben", "Chloé", "Dan", "Éva"]
    games = [
        duel(
            (dt.date(2025, 1, 4) + dt.timedelta(days=5 * n)).isoformat(),
            names[n % 5],
            names[(n + 1 + n // 5 % 4) % 5],
            *OUTCOMES[n % 3],
            gid=f"g{n}",
        )
        for n in range(60)
    ]
    league.import_file(write_games(tmp_path / "games.jsonl", games))
    league.close_season(dt.date(2025, 12, 31))
    return db, league


def test_a_leagues_standing_is_the_replay_of_its_games(tmp_path: Path) -> None:
    db, _ = _league(tmp_path)
    source = from_league(str(db), "Club")
    pools, as_of = source.ratings()
    replayed = source.replay()
    assert dict(pools) == dict(replayed.pools) and pools
    assert as_of == replayed.as_of == dt.date(2026, 1, 1)  # the day after the closed season
    assert len(source.games) == 60 and source.games[0].id == "g0"


def test_predict_and_balance_read_the_stored_ratings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, _ = _league(tmp_path)
    runner = CliRunner()
    where = ["--db", str(db), "--league", "Club", "--lang", "en"]
    odds = runner.invoke(app, ["predict", "Ana", "Chloé", "--json", *where])
    teams = runner.invoke(app, ["balance", "Ana", "Ben", "Chloé", "Dan", *where])
    assert odds.exit_code == 0 and teams.exit_code == 0, odds.output + teams.output

    def replayed(*_: Any, **__: Any) -> None:
        raise AssertionError("the league's games were replayed")

    monkeypatch.setattr(League, "replay_result", replayed)
    monkeypatch.setattr(League, "games", replayed)
    read = runner.invoke(app, ["predict", "Ana", "Chloé", "--json", *where])
    assert read.exit_code == 0, read.output
    assert json.loads(read.output) == json.loads(odds.output)
    balanced = runner.invoke(app, ["balance", "Ana", "Ben", "Chloé", "Dan", *where])
    assert balanced.exit_code == 0 and balanced.output == teams.output
