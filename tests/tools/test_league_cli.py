"""The four commands against a real SQLite league (League.create + import_file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eloleague.league import League
from tests.conftest import REPLAY, run_cli


@pytest.fixture(scope="module")
def league_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("league") / "club.db"
    league = League.create(str(db), "Club", "bataille-empire")
    league.import_file(REPLAY / "bataille-empire.jsonl")
    return db


def _league(*args: str, db: Path) -> list[str]:
    return [*args, "--db", str(db), "--league", "Club"]


def test_predict_from_the_league(league_db: Path) -> None:
    out = run_cli(*_league("predict", "Marie P024", "Éric P014", "--json", db=league_db))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    marie = data["players"][0]
    assert (marie["rating"], marie["games"]) == (1570, 65)  # the league's ranking
    assert data["sides"][0]["expected"] == 0.78
    bad = run_cli(*_league("predict", "Marie P24", "Éric P014", db=league_db))
    assert bad.returncode == 2 and "did you mean: Marie P024" in bad.stderr


def test_balance_from_the_league(league_db: Path) -> None:
    out = run_cli(
        *_league("balance", "Marie P024", "Éric P014", "Éric P015", "Marie P002", db=league_db)
    )
    assert out.returncode == 0, out.stderr
    assert "mean 1443.0" in out.stdout and "mean 1508.0" in out.stdout


def test_compare_from_the_league(league_db: Path) -> None:
    same = run_cli(*_league("compare", "--rules", "bataille-empire", db=league_db))
    assert same.returncode == 0 and "No change" in same.stdout
    other = run_cli(
        *_league("compare", "--rules", "bataille-empire-en", "--movers", "3", db=league_db)
    )
    assert other.returncode == 0, other.stderr
    assert "rating changes differ" in other.stdout and "Biggest movers" in other.stdout
    bad = run_cli(*_league("compare", "--rules", "adlg", db=league_db))
    assert bad.returncode == 2 and "more problems" in bad.stderr


def test_evaluate_from_the_league(league_db: Path, tmp_path: Path) -> None:
    report = tmp_path / "r.html"
    out = run_cli(*_league("evaluate", "--report", str(report), db=league_db))
    assert out.returncode == 0, out.stderr
    assert "790 rated games" in out.stdout and "OpenSkill" in out.stdout
    assert "<svg" in report.read_text("utf-8")


def test_a_renamed_player_is_found_under_the_old_spelling(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    league = League.create(str(db), "Club", "bataille-empire")
    league.import_file(REPLAY / "bataille-empire.jsonl")
    league.rename_player("Marie P024", "Marie Dupont")
    out = run_cli(*_league("predict", "Marie P024", "Éric P014", "--json", db=db))
    assert out.returncode == 0, out.stderr
    marie = json.loads(out.stdout)["players"][0]
    assert (marie["player"], marie["rating"], marie["games"]) == ("Marie Dupont", 1570, 65)
    out = run_cli(*_league("balance", "Marie P024", "Éric P014", "Éric P015", "Marie P002", db=db))
    assert out.returncode == 0 and "Marie Dupont" in out.stdout, out.stderr
