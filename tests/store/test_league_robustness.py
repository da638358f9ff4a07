"""A killed import leaves the database as it was; concurrent writers queue (issue 3 §5)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from eloleague.league import League
from tests.store.helpers import (
    assert_equals_full_replay,
    ranking_csv,
    read_lines,
    replay_file,
    write_lines,
)

SCRIPT = textwrap.dedent(
    """
    import sys, time
    from eloleague.league import League
    league = League.open(sys.argv[1])
    def stall(done, total):
        print("replaying", flush=True)
        time.sleep(float(sys.argv[3]))
    league.progress = stall
    league.import_file(sys.argv[2])
    print("done", flush=True)
    """
)


def _start(db_url: str, path: Path, pause: float) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", SCRIPT, db_url, str(path), str(pause)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_killing_an_import_in_the_middle_loses_nothing_and_stores_nothing(
    db_url: str, tmp_path: Path
) -> None:
    lines = read_lines(replay_file("adlg"))
    league = League.create(db_url, "adlg", "adlg")
    league.import_file(write_lines(tmp_path / "first.jsonl", lines[:400]))
    before = ranking_csv(league)

    child = _start(db_url, write_lines(tmp_path / "rest.jsonl", lines[400:]), 60)
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "replaying"  # games inserted, recompute under way
    child.kill()
    child.wait()

    again = League.open(db_url)
    assert len(again.games()) == 400
    assert ranking_csv(again) == before
    assert_equals_full_replay(again)
    # The same import then goes through as if nothing had happened.
    assert again.import_file(tmp_path / "rest.jsonl").added == len(lines) - 400


def test_two_imports_at_once_both_land_one_after_the_other(db_url: str, tmp_path: Path) -> None:
    lines = read_lines(replay_file("bataille-empire"))
    League.create(db_url, "be", "bataille-empire")
    first = _start(db_url, write_lines(tmp_path / "a.jsonl", lines[:400]), 0.3)
    second = _start(db_url, write_lines(tmp_path / "b.jsonl", lines[400:]), 0.3)
    for child in (first, second):
        out, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
        assert out.strip().endswith("done")
    league = League.open(db_url)
    assert len(league.games()) == len(lines)
    assert_equals_full_replay(league)
