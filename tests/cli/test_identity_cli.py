"""Player identity on the command line: the ratings CSV and the CSV long format carry ids, clubs
and regions; ``ranking --club/--region``; ``player add/edit`` (docs/league.md, "Player
identity")."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from tests.conftest import run_cli

PUBLISHED = """player,mode,role,rating,games,title,player_id,club,region
Jean Dupont,,,1100,12,,FR-001,Lyon,Rhône
Jean Dupont,,,1040,30,,FR-002,Brest,Bretagne
Alice Martin,,,1000,5,,FR-003,Lyon,Rhône
"""

SEASON = """game,date,side,player,player_id,club,outcome
g1,2025-03-01,1,Jean Dupont,FR-002,Brest,decisive_victory
g1,2025-03-01,2,Jean Dupont,FR-001,,defeat
g2,2025-03-02,1,Alice Martin,FR-003,,draw
g2,2025-03-02,2,Bruno Petit,FR-004,Quimper,draw
"""


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_a_federation_list_with_namesakes_then_a_season(tmp_path: Path) -> None:
    db = ["--db", str(tmp_path / "fede.db")]
    listing = tmp_path / "classement.csv"
    listing.write_text(PUBLISHED, "utf-8")
    done = run_cli("init", "--rules", "bataille-empire", "--initial", str(listing), *db)
    assert done.returncode == 0, done.stderr
    start = _rows(run_cli("ranking", "-f", "csv", *db).stdout)
    assert [(r["player"], r["rating"]) for r in start] == [
        ("Jean Dupont (FR-001)", "1100"),
        ("Jean Dupont (FR-002)", "1040"),
        ("Alice Martin", "1000"),
    ]
    season = tmp_path / "saison.csv"
    season.write_text(SEASON, "utf-8")
    done = run_cli("import", str(season), *db)
    assert done.returncode == 0, done.stderr
    after = {r["player"]: r for r in _rows(run_cli("ranking", "-f", "csv", *db).stdout)}
    assert set(after) == {
        "Jean Dupont (FR-001)",
        "Jean Dupont (FR-002)",
        "Alice Martin",
        "Bruno Petit",
    }
    assert int(after["Jean Dupont (FR-002)"]["games"]) == 31  # 30 published + 1
    assert int(after["Jean Dupont (FR-001)"]["games"]) == 13
    lyon = _rows(run_cli("ranking", "-f", "csv", "--club", "Lyon", *db).stdout)
    assert [r["player"] for r in lyon] == ["Jean Dupont (FR-001)", "Alice Martin"]
    bretagne = _rows(run_cli("ranking", "-f", "csv", "--region", "bretagne", *db).stdout)
    assert [r["player"] for r in bretagne] == ["Jean Dupont (FR-002)"]
    # The plain name is refused with the two names that tell them apart.
    shown = run_cli("player", "Jean Dupont", *db)
    assert shown.returncode != 0
    assert "Jean Dupont (FR-001)" in shown.stderr and "Traceback" not in shown.stderr
    # A player is found by her id; her id, club and region are shown (in French too).
    shown = run_cli("player", "FR-004", *db, env={"ELOLEAGUE_LANG": "fr"})
    assert shown.returncode == 0, shown.stderr
    assert "Bruno Petit" in shown.stdout and "club\u202f: Quimper" in shown.stdout
    # The ranking CSV carries them too, and reads back as a published list.
    listed = _rows(run_cli("ranking", "-f", "csv", *db).stdout)
    assert {r["player"]: r["player_id"] for r in listed}["Bruno Petit"] == "FR-004"
    again = tmp_path / "again.csv"
    again.write_text(run_cli("ranking", "-f", "csv", *db).stdout, "utf-8")
    other = ["--db", str(tmp_path / "other.db")]
    done = run_cli("init", "--rules", "bataille-empire", "--initial", str(again), *other)
    assert done.returncode == 0, done.stderr
    assert run_cli("ranking", "-f", "csv", *other).stdout == again.read_text("utf-8")
    # The long-format export carries the ids back.
    exported = _rows(run_cli("export", "-", "-f", "csv", *db).stdout)
    assert {(r["player"], r["player_id"]) for r in exported} >= {
        ("Jean Dupont (FR-001)", "FR-001"),
        ("Jean Dupont (FR-002)", "FR-002"),
    }


def test_player_add_and_edit(tmp_path: Path) -> None:
    db = ["--db", str(tmp_path / "club.db")]
    assert run_cli("init", "--rules", "bataille-empire", *db).returncode == 0
    done = run_cli("player", "add", "Chloé Roux", "--id", "FR-9", "--club", "Lyon", *db)
    assert done.returncode == 0, done.stderr
    assert '"Chloé Roux" registered' in done.stdout
    done = run_cli("player", "edit", "FR-9", "--region", "Rhône", "--clear", "club", *db)
    assert done.returncode == 0, done.stderr
    assert "region: Rhône" in done.stdout and "club" not in done.stdout.split("\n", 1)[1]
    again = run_cli("player", "add", "Chloé R.", "--id", "FR-9", *db)
    assert again.returncode != 0 and "FR-9" in again.stderr and "Traceback" not in again.stderr
    bad = run_cli("player", "edit", "FR-9", "--clear", "email", *db)
    assert bad.returncode != 0 and "Traceback" not in bad.stderr
