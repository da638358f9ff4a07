"""SQLite's log copied into the database by a background thread (store/wal.py, docs/league.md
"Live results"): the writes of a live server no longer stop to copy it, the database file holds
the results soon after, the league stays a full replay, and closing goes back to SQLite's usual
checkpoints."""

from __future__ import annotations

import datetime as dt
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from eloleague.store import wal
from eloleague.store.db import group_key
from eloleague.store.group_commit import group_of
from eloleague.web import Settings, create_app
from tests.store.test_live_appends import assert_is_a_fresh_replay

DAY = dt.date(2024, 3, 1)


def _game(n: int) -> GameRecord:
    names = ["Ana", "Bob", "Chloé", "Dan"]
    return GameRecord(
        date=DAY,
        sides=(
            Side((Participant(names[n % 4]),), "decisive_victory"),
            Side((Participant(names[(n + 1) % 4]),), "defeat"),
        ),
        id=f"g{n}",
    )


def _games_in_the_file_alone(db: Path, tmp_path: Path) -> int:
    """The games the database file holds without its log: a copy of the file alone, opened
    (-1 when the copy caught the thread half-way through writing it)."""
    alone = tmp_path / "alone.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{alone}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(db, alone)
    conn = sqlite3.connect(alone)
    try:
        return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.DatabaseError:
        return -1
    finally:
        conn.close()


def _autocheckpoint(league: League) -> int:
    with league.engine.connect() as conn:
        return int(conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar_one())


def _copying(db: Path) -> tuple[League, wal.LogCopier]:
    """A league of one game in a new database ``db``, its log copied in the background."""
    league = League.create(str(db), "Live", "bataille-empire")
    league.import_games([_game(0)], source="first")
    copier = league.copy_log_in_background()
    assert copier is not None
    return league, copier


def test_the_log_is_copied_by_the_thread_not_by_the_writes(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    league, copier = _copying(db)
    try:
        assert league.copy_log_in_background() is copier  # once per database and process
        assert _autocheckpoint(league) == wal.FALLBACK_PAGES  # the writes copy only past it
        for n in range(1, wal.COPY_EVERY_COMMITS + 2):
            league.import_games([_game(n)], source="live")
        deadline = time.monotonic() + 10
        while _games_in_the_file_alone(db, tmp_path) < wal.COPY_EVERY_COMMITS:
            assert time.monotonic() < deadline, "the log was not copied"
            time.sleep(0.05)
    finally:
        copier.close()
    # closed: what was left is copied, and the writes copy the log again at SQLite's mark
    assert _games_in_the_file_alone(db, tmp_path) == wal.COPY_EVERY_COMMITS + 2
    assert _autocheckpoint(league) == 10_000
    assert league.copy_log_in_background() is not copier  # a new one may start
    again = league.copy_log_in_background()
    assert again is not None
    again.close()
    assert_is_a_fresh_replay(league)


def test_the_server_copies_the_log_while_it_runs(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    League.create(str(db), "Live", "bataille-empire").import_games([_game(0)], source="first")
    app = create_app(Settings(db=str(db)))
    with TestClient(app):
        assert str(db) in wal._COPIERS  # started with the server
    assert str(db) not in wal._COPIERS  # stopped with it


def test_the_thread_restarts_the_log_in_the_process_turn_to_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The log's restart waits for the process's write under way to end, and a write queued
    meanwhile waits for the restart in that same queue (woken when it ends, not sleeping in
    SQLite's busy handler). The database file is synced before the turn is taken, beside the
    writes (the restart then flushes only what it copied itself). Here the test holds the turn,
    as a write would."""
    monkeypatch.setattr(wal, "RESTART_WAIT", 60.0)  # however slow the machine, it waits
    synced = threading.Event()
    sync = wal._sync

    def sync_and_tell(path: str) -> None:
        sync(path)
        synced.set()

    monkeypatch.setattr(wal, "_sync", sync_and_tell)
    db = tmp_path / "league.db"
    league = League.create(str(db), "Live", "bataille-empire")
    league.import_games([_game(n) for n in range(50)], source="api")
    copier = wal.LogCopier(league.engine, str(db))
    conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    gate = group_of(group_key(league.engine, league.id)).gate
    try:
        assert gate.acquire(timeout=10)
        copying = threading.Thread(target=copier._copy, args=(conn,))
        try:
            copying.start()
            deadline = time.monotonic() + 30
            while _games_in_the_file_alone(db, tmp_path) != 50:  # the passive copy, done
                assert time.monotonic() < deadline, "the log was never copied"
                time.sleep(0.05)
            assert synced.wait(30)  # the file synced while a write held the turn
            assert copying.is_alive()  # the restart waits for the turn
        finally:
            gate.release()
        copying.join(10)
        assert not copying.is_alive()
        busy, written, copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        assert busy == 0 and written == copied > 0  # all copied
        league.import_games([_game(50)], source="api")
        busy, after, copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        assert after < written  # restarted: the next write began the log anew
    finally:
        conn.close()
    assert_is_a_fresh_replay(league)


def test_another_process_cannot_take_the_log_away_from_a_copying_server(tmp_path: Path) -> None:
    """The thread syncs the database file through a descriptor it keeps: closing one would drop
    SQLite's locks of the whole process, and a command run meanwhile (its last connection
    closing) would delete the log the server goes on writing to, losing its next results."""
    db = tmp_path / "live.db"
    league, copier = _copying(db)
    try:
        for n in range(1, 4):
            league.import_games([_game(n)], source="api")
            wal._sync(str(db))  # what the thread does after each copy

        def games_seen_elsewhere() -> int:
            """The games another process reads (its connection then closes)."""
            code = (
                "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                "print(c.execute('SELECT count(*) FROM games').fetchone()[0]); c.close()"
            )
            done = subprocess.run(
                [sys.executable, "-c", code, str(db)], capture_output=True, text=True, check=True
            )
            return int(done.stdout)

        assert games_seen_elsewhere() == 4
        assert (tmp_path / "live.db-wal").exists() and (tmp_path / "live.db-shm").exists()
        league.import_games([_game(4)], source="api")  # answered: stored for everyone
        assert games_seen_elsewhere() == 5
    finally:
        copier.close()


def test_the_thread_makes_its_last_copy_before_the_connections_close(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last connection to a database that closes copies the log itself, holding the database
    alone: a copy the thread began then failed after a moment ("database is locked", logged as
    a server stopped). Closing lets the thread finish first; its last copy leaves the database
    file with every game and the log empty."""
    db = tmp_path / "league.db"
    league, copier = _copying(db)
    for n in range(1, 40):
        league.import_games([_game(n)], source="live")
    alive_at_dispose: list[bool] = []
    dispose = type(league.engine).dispose

    def noted(engine: object, *args: object, **kwargs: object) -> None:
        if engine is league.engine:
            alive_at_dispose.append(copier._thread.is_alive())
        dispose(engine, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(type(league.engine), "dispose", noted)
    copier.close()
    assert alive_at_dispose == [False]
    assert _games_in_the_file_alone(db, tmp_path) == 40
