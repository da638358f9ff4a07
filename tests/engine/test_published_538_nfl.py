"""FiveThirtyEight's NFL Elo reproduced from its own published data: every game of the 2016, 2017
and 2018 seasons (tests/data/published/538-nfl-2016-2018.csv, the rows of those seasons of
``data/nfl_games.csv`` in github.com/fivethirtyeight/nfl-elo-game, MIT licence) rated with
tests/data/rules/538-nfl.toml, written from docs/rule-sets.md. Each team starts from its first
published rating of 2016; every later pre-game rating (``elo1``, ``elo2``, after two season
reversions) and every win probability (``elo_prob1``) comes out as published: the data print
ratings to 10 or 11 decimals, and the largest difference is 2.4e-11 (float rounding)."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import pytest

from eloleague.engine.replay import replay
from eloleague.records import GameRecord, Participant, PoolKey, PoolState, Side
from eloleague.rules import load_rules

DATA = Path(__file__).parent.parent / "data"
OUTCOME = {"1": ("win", "loss"), "0": ("loss", "win"), "0.5": ("tie", "tie")}


def published() -> list[dict[str, str]]:
    with (DATA / "published" / "538-nfl-2016-2018.csv").open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def records(rows: list[dict[str, str]]) -> list[GameRecord]:
    out = []
    for n, row in enumerate(rows):
        o1, o2 = OUTCOME[row["result1"]]
        out.append(
            GameRecord(
                date=dt.date.fromisoformat(row["date"]),
                sides=(
                    Side((Participant(row["team1"]),), o1, float(row["score1"])),
                    Side((Participant(row["team2"]),), o2, float(row["score2"])),
                ),
                id=f"{n}",
                home=0,  # team1 is the home team unless the site is neutral
                neutral=row["neutral"] == "1",
            )
        )
    return out


def test_every_published_rating_and_probability() -> None:
    rows = published()
    assert len(rows) == 801
    rules = load_rules(DATA / "rules" / "538-nfl.toml")
    initial: dict[PoolKey, PoolState] = {}
    for row in rows:
        for team, elo in ((row["team1"], row["elo1"]), (row["team2"], row["elo2"])):
            initial.setdefault(PoolKey(team), PoolState(float(elo)))
    result = replay(rules, records(rows), initial=initial)
    by_game: dict[str, dict[str, tuple[float, float]]] = {}
    reverted = 0
    for entry in result.ledger:
        if entry.game:
            assert entry.expected is not None
            by_game.setdefault(entry.game, {})[entry.key.player] = (entry.before, entry.expected)
        else:
            assert entry.warning == "reversion"
            reverted += 1
    assert reverted == 2 * 32  # every team, before its first game of 2017 and of 2018
    worst = 0.0
    for n, row in enumerate(rows):
        game = by_game[str(n)]
        before1, p1 = game[row["team1"]]
        before2, p2 = game[row["team2"]]
        assert before1 == pytest.approx(float(row["elo1"]), abs=1e-9)
        assert before2 == pytest.approx(float(row["elo2"]), abs=1e-9)
        assert p1 == pytest.approx(float(row["elo_prob1"]), abs=1e-12)
        assert p2 == pytest.approx(1 - float(row["elo_prob1"]), abs=1e-12)
        worst = max(worst, abs(before1 - float(row["elo1"])), abs(before2 - float(row["elo2"])))
    assert worst < 1e-9  # the data give ratings to 11 decimals
