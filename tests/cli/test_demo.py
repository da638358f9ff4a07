"""`make demo` without the server: the sample leagues land in a SQLite file and are printed."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from eloleague.demo import sample_files
from eloleague.league import League
from eloleague.rules import preset_names
from tests.conftest import run_cli


def league_top(db: Path, name: str) -> str:
    return League.open(str(db), name).ranking()[0].player


def test_demo_builds_one_league_per_preset_and_prints_them(tmp_path: Path) -> None:
    """Run as a French-speaking newcomer would (LANG=fr_FR): the demo's lines and the tables'
    headings are French; the same table in English from the command line."""
    db = tmp_path / "demo.db"
    done = subprocess.run(
        [sys.executable, "-m", "eloleague.demo", "--db", str(db), "--no-serve"],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "COLUMNS": "200", "LANG": "fr_FR.UTF-8", "ELOLEAGUE_LANG": ""},
    )
    assert done.returncode == 0, done.stderr
    assert "Création des ligues de démonstration" in done.stdout
    assert "Joueur" in done.stdout and "Elo" in done.stdout and "Parties" in done.stdout
    assert "La même chose en ligne de commande" in done.stdout
    assert League.names(str(db)) == preset_names()
    for name in preset_names():  # French typography, each count with its noun's form
        assert re.search(rf"{name}\u202f: {name}\.jsonl\u202f: \d+ parties ajoutées", done.stdout)
    # The stored ranking is what `eloleague rate` computes from the same sample file.
    league = League.open(str(db), "bataille-empire")
    rated = run_cli(
        "rate",
        str(sample_files()["bataille-empire"]),
        "--rules",
        "bataille-empire",
        "--format",
        "csv",
    )
    ranked = run_cli("ranking", "--db", str(db), "--league", "bataille-empire", "--format", "csv")
    assert ranked.returncode == 0, ranked.stderr
    assert ranked.stdout == rated.stdout
    assert league.ranking()[0].player in done.stdout
    table = run_cli(
        "--lang", "en", "ranking", "--db", str(db), "--league", "adlg", "--format", "table"
    )
    assert table.returncode == 0, table.stderr
    assert "Player" in table.stdout and "Rating" in table.stdout and "Joueur" not in table.stdout
    # The command the demo prints runs as printed where the demo ran (given an absolute path).
    printed = re.search(r"commande\u202f: (.+)$", done.stdout, re.MULTILINE)
    assert printed, done.stdout
    command = shlex.split(printed.group(1))
    assert command[-5:] == ["ranking", "--db", str(db), "--league", "adlg"]
    same = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert same.returncode == 0 and league_top(db, "adlg") in same.stdout, same.stderr
    # The officer account the demo prints lets a newcomer log in to the site.
    from eloleague.accounts import authenticate
    from eloleague.demo import DEMO_PASSWORD, DEMO_USER

    user = authenticate(league.engine, DEMO_USER, DEMO_PASSWORD)
    assert user is not None and user.is_officer


def test_the_demo_lines_are_whole_and_its_command_runs_where_it_ran(tmp_path: Path) -> None:
    """Output to a file (rich's 80 columns), the demo run in a folder with a relative database:
    each import's line is whole, and the command it prints, copied as is, runs there."""
    (tmp_path / "leagues").mkdir()
    env = {**os.environ, "COLUMNS": "", "ELOLEAGUE_LANG": "en"}
    done = subprocess.run(
        [sys.executable, "-m", "eloleague.demo", "--db", "leagues/demo.db", "--no-serve"],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    for name in preset_names():
        assert re.search(rf"^✓ {name}: .+ already there; \d+ new players$", done.stdout, re.M)
    printed = re.search(r"^The same from the command line: (.+)$", done.stdout, re.MULTILINE)
    assert printed, done.stdout
    command = shlex.split(printed.group(1))
    assert command[-5:] == ["ranking", "--db", "leagues/demo.db", "--league", "adlg"]
    same = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert same.returncode == 0, same.stderr
    assert league_top(tmp_path / "leagues" / "demo.db", "adlg") in same.stdout


def test_a_demo_file_in_a_missing_folder_is_said_in_words(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "eloleague.demo", "--db", "nowhere/demo.db", "--no-serve"],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "ELOLEAGUE_LANG": "en"},
        cwd=tmp_path,
    )
    assert done.returncode == 2
    assert f"the folder {tmp_path / 'nowhere'} does not exist" in done.stderr
    assert "Traceback" not in done.stderr
