"""A league that starts from a federation's published ratings (``init --initial``): the ranking
right after equals the list, and after games it equals ``eloleague rate GAMES --initial LIST``
(docs/league.md, "Starting from published ratings")."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from eloleague.errors import EloleagueError, InputError
from eloleague.league import League
from tests.conftest import run_cli
from tests.store.helpers import (
    assert_equals_full_replay,
    ranking_csv,
    read_lines,
    replay_file,
    write_lines,
)


def _published(tmp_path: Path) -> tuple[Path, Path]:
    """A published list (the ratings of the first 300 games) and the games after it."""
    lines = read_lines(replay_file("bataille-empire"))
    first = write_lines(tmp_path / "past.jsonl", lines[:300])
    listing = tmp_path / "classement.csv"
    done = run_cli("rate", str(first), "--rules", "bataille-empire")
    assert done.returncode == 0, done.stderr
    listing.write_text(done.stdout, "utf-8")
    return listing, write_lines(tmp_path / "season.jsonl", lines[300:])


def test_a_league_started_from_published_ratings_rates_on_from_them(
    db_url: str, tmp_path: Path
) -> None:
    listing, season = _published(tmp_path)
    league = League.create(db_url, "Fédé", "bataille-empire", user="Claire", initial=listing)
    published = listing.read_text("utf-8").splitlines()
    assert ranking_csv(league).splitlines() == published  # the list, as published
    assert [e.action for e in league.journal()] == ["initial", "create"]

    league.import_file(season)
    rated = run_cli("rate", str(season), "--rules", "bataille-empire", "--initial", str(listing))
    assert rated.returncode == 0, rated.stderr
    assert ranking_csv(league).splitlines() == rated.stdout.splitlines()
    assert_equals_full_replay(league)
    # A full recompute, a rule change back and forth: still from the published ratings.
    league.recompute()
    assert ranking_csv(league).splitlines() == rated.stdout.splitlines()
    league.change_rules("bataille-empire-en")
    league.change_rules("bataille-empire")
    assert ranking_csv(league).splitlines() == rated.stdout.splitlines()
    # The ranking as of a day before the season's games is the list again.
    first_day = dt.date.fromisoformat(read_lines(season)[0]["date"])
    assert ranking_csv(league, first_day - dt.timedelta(days=1)).splitlines() == published


def test_a_bad_list_creates_no_league(db_url: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("player,mode,role,rating,games,title\nAlice,,,abc,3,\n", "utf-8")
    with pytest.raises(InputError, match=r"bad\.csv"):
        League.create(db_url, "Fédé", "bataille-empire", initial=bad)
    try:
        assert League.names(db_url) == []
    except EloleagueError as exc:  # SQLite: not even the database file was created
        assert "no such database" in str(exc)
