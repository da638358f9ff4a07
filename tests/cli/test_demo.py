"""`make demo` without the server: the sample leagues land in a SQLite file and are printed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from eloleague.demo import sample_files
from eloleague.league import League
from eloleague.rules import preset_names
from tests.conftest import run_cli


def test_demo_builds_one_league_per_preset_and_prints_them(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    done = subprocess.run(
        [sys.executable, "-m", "eloleague.demo", "--db", str(db), "--no-serve"],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert done.returncode == 0, done.stderr
    assert League.names(str(db)) == preset_names()
    for name in preset_names():
        assert f"{name}: " in done.stdout
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
    # The officer account the demo prints lets a newcomer log in to the site.
    from eloleague.accounts import authenticate
    from eloleague.demo import DEMO_PASSWORD, DEMO_USER

    user = authenticate(league.engine, DEMO_USER, DEMO_PASSWORD)
    assert user is not None and user.is_officer
