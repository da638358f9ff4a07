"""A killed import leaves the database as it was; concurrent writers queue (issue 3 §5)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from eloleague.league import League
from eloleague.store import bulk
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


def _indexes(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
        )
        return {name for (name,) in rows}


def test_indexes_rebuilt_after_a_large_load_are_all_back_even_after_a_failure(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(bulk, "REBUILD_FROM", 10)  # every load of 10 games counts as large
    rebuilt: list[int] = []
    real_rebuild = bulk._rebuild

    def rebuild(conn: Any, statements: Any) -> None:
        rebuilt.append(len(statements))
        real_rebuild(conn, statements)

    monkeypatch.setattr(bulk, "_rebuild", rebuild)
    path = tmp_path / "league.db"
    league = League.create(str(path), "adlg", "adlg")
    expected = _indexes(path)
    assert {"ix_ledger_player", "ix_side_players_player", "ix_games_league_date"} <= expected

    lines = read_lines(replay_file("adlg"))
    league.import_file(write_lines(tmp_path / "first.jsonl", lines[:400]))
    assert _indexes(path) == expected
    assert_equals_full_replay(league)
    before = ranking_csv(league)

    def fail(done: int, total: int) -> None:
        raise RuntimeError("the machine stops")

    league.progress = fail
    with pytest.raises(RuntimeError):
        league.import_file(write_lines(tmp_path / "rest.jsonl", lines[400:]))
    league.progress = None
    assert _indexes(path) == expected
    assert len(league.games()) == 400 and ranking_csv(league) == before

    league.import_file(tmp_path / "rest.jsonl")
    league.recompute()
    assert _indexes(path) == expected
    # Both imports (not the failed one) rebuilt all but the batches' indexes, the journal's and
    # the web site's (sessions, sign-in failures: not the games' tables); the recompute, the
    # ledger's.
    not_games = ("ix_web_", "ix_sign_in_", "ix_journal", "uq_journal", "ix_import_batches_")
    league_indexes = {i for i in expected if not i.startswith(not_games)}
    assert len(league_indexes) == len(expected) - 7
    assert rebuilt == [len(league_indexes), len(league_indexes), 2]
    assert_equals_full_replay(league)


def test_indexes_are_sorted_in_a_large_cache_and_the_connection_goes_back_to_its_own(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A connection keeps a small page cache (a write that splits a page looks through all of it
    # at its end: bulk.CACHE_KB); the index builds after a large load sort in a large one, and
    # the connection has its small one again for what follows.
    monkeypatch.setattr(bulk, "REBUILD_FROM", 10)
    during: list[int] = []
    real_rebuild = bulk._rebuild

    def rebuild(conn: Any, statements: Any) -> None:
        during.append(conn.exec_driver_sql("PRAGMA cache_size").scalar())
        real_rebuild(conn, statements)

    monkeypatch.setattr(bulk, "_rebuild", rebuild)
    league = League.create(str(tmp_path / "league.db"), "adlg", "adlg")
    lines = read_lines(replay_file("adlg"))
    for part, games in (("first", lines[:400]), ("more", lines[400:])):
        league.import_file(write_lines(tmp_path / f"{part}.jsonl", games))
        with league.engine.connect() as conn:  # the pool's one connection, the import's own
            assert conn.exec_driver_sql("PRAGMA cache_size").scalar() == -bulk.CACHE_KB
    assert during and set(during) == {-bulk.SORT_CACHE_KB}
    assert_equals_full_replay(league)
