"""The writers' turn of a SQLite database across processes (store/writer_turn.py, docs/league.md
"Writers in several processes"): a write waits for another process's turn, bounded, and is then
told busy with nothing stored; a waiting process gets the turn when the other lets go; a writer
that gave up waiting leaves the turn to the others; a forked child takes turns with its parent;
without the turn's file the writes go on as before. Real processes, a real SQLite file."""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from eloleague.errors import BusyError
from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from eloleague.store import wal
from eloleague.store.db import delete_sqlite_files
from eloleague.store.writer_turn import SUFFIX, WriterTurn, turn_of

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="flock: POSIX systems only")

# Another process holding the turn: "take" (waits as long as it takes), "try" (answers whether
# the turn was had within 0.2 s: its own helper may still be waiting for a lock just let go),
# "release", each answered by a line.
_OTHER = """
import sys
from eloleague.store.writer_turn import turn_of
turn = turn_of(sys.argv[1])
print("ready", flush=True)
for line in sys.stdin:
    order = line.strip()
    if order == "take":
        print("held" if turn.acquire(None) else "not held", flush=True)
    elif order == "try":
        print("held" if turn.acquire(0.2) else "not held", flush=True)
    elif order == "release":
        turn.release()
        print("released", flush=True)
"""


class Other:
    """The other process (:data:`_OTHER`)."""

    def __init__(self, database: Path) -> None:
        self.run = subprocess.Popen(
            [sys.executable, "-c", _OTHER, str(database)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.ask(None) == "ready"

    def ask(self, order: str | None) -> str:
        assert self.run.stdin is not None and self.run.stdout is not None
        if order is not None:
            self.run.stdin.write(order + "\n")
            self.run.stdin.flush()
        return self.run.stdout.readline().strip()

    def close(self) -> None:
        assert self.run.stdin is not None
        self.run.stdin.close()
        assert self.run.wait(timeout=30) == 0


@pytest.fixture
def database(tmp_path: Path) -> Path:
    path = tmp_path / "league.db"
    League.create(str(path), "Club", "bataille-empire")
    return path


@pytest.fixture
def other(database: Path) -> Iterator[Other]:
    process = Other(database)
    yield process
    process.close()


@pytest.fixture
def turn(database: Path) -> WriterTurn:
    """This process's turn of the database."""
    found = turn_of(str(database))
    assert found is not None
    return found


def game(n: int) -> GameRecord:
    return GameRecord(
        date=dt.date(2024, 3, 1),
        sides=(
            Side((Participant("Ana"),), "decisive_victory"),
            Side((Participant("Bob"),), "defeat"),
        ),
        id=f"g{n}",
    )


def test_a_write_waits_for_another_process_turn_then_is_told_busy_and_stores_nothing(
    database: Path, other: Other
) -> None:
    league = League.open(str(database), "Club")
    assert league.import_games([game(1)], source="api").added == 1
    assert other.ask("take") == "held"
    league.write_wait = 0.3
    with pytest.raises(BusyError):
        league.import_games([game(2)], source="api")
    assert other.ask("release") == "released"
    assert [g.id for g in league.games()] == ["g1"]
    assert league.import_games([game(2)], source="api").added == 1
    assert [g.id for g in league.games()] == ["g1", "g2"]


def test_a_writer_waiting_for_the_turn_gets_it_when_the_other_process_lets_go(
    turn: WriterTurn, other: Other
) -> None:
    assert other.ask("take") == "held"
    had = threading.Event()

    def wait_for_the_turn() -> None:
        if turn.acquire(60):
            had.set()

    waiter = threading.Thread(target=wait_for_the_turn)
    waiter.start()
    assert not had.wait(0.3)  # the other process holds it
    assert other.ask("release") == "released"
    waiter.join(timeout=30)
    assert had.is_set()
    assert other.ask("try") == "not held"  # this process holds it now
    turn.release()
    assert other.ask("try") == "held"
    assert other.ask("release") == "released"


def test_a_writer_that_stopped_waiting_leaves_the_turn_to_the_others(
    turn: WriterTurn, other: Other
) -> None:
    assert other.ask("take") == "held"
    assert not turn.acquire(0.2)  # this process's helper goes on waiting for the lock…
    assert other.ask("release") == "released"
    deadline = time.monotonic() + 30
    while other.ask("try") != "held":  # …and lets it go once it has it: nobody wants it here
        assert time.monotonic() < deadline, "the turn was kept by a writer that gave up"
        time.sleep(0.01)
    assert not turn.acquire(0.2)
    assert other.ask("release") == "released"
    assert turn.acquire(30)  # the helper hands it over now that a writer waits
    assert other.ask("try") == "not held"
    turn.release()


def _setting(event: threading.Event) -> Callable[[], bool]:
    """A ``came()`` for :meth:`WriterTurn.ask` that sets ``event`` and uses the turn."""

    def came() -> bool:
        event.set()
        return True

    return came


def _until_the_other_takes_it(other: Other) -> None:
    """This process's helper may hold the lock a moment after the other let it go."""
    deadline = time.monotonic() + 30
    while other.ask("try") != "held":
        assert time.monotonic() < deadline, "this process kept the turn"
        time.sleep(0.01)
    assert other.ask("release") == "released"


def _until_idle(turn: WriterTurn) -> None:
    """This process's helper may still be waiting for the lock the other process let go (the
    other's next try can win it first): once it got and let it go, nobody holds the turn."""
    deadline = time.monotonic() + 30
    while True:
        with turn._changed:
            if not turn._asked:
                return
        assert time.monotonic() < deadline, "this process's helper kept waiting"
        time.sleep(0.01)


def test_a_thread_that_may_not_wait_asks_for_the_turn_and_is_called_when_it_comes(
    turn: WriterTurn, other: Other
) -> None:
    """A server's event loop asks instead of waiting (docs/league.md, "Writers in several
    processes"): called back once the other process lets go, its next write takes the turn
    held for it without waiting."""
    assert other.ask("take") == "held"
    came = threading.Event()
    assert turn.ask(_setting(came))
    assert not came.wait(0.3)  # the other process holds it; nothing waits in this thread
    assert other.ask("release") == "released"
    assert came.wait(30)  # called from the helper's thread
    assert other.ask("try") == "not held"  # held for this thread…
    assert turn.acquire(0)  # …whose next write takes it at once
    assert other.ask("try") == "not held"
    turn.release()
    _until_the_other_takes_it(other)


def test_a_turn_asked_for_goes_back_when_withdrawn_unused_or_unwanted(
    turn: WriterTurn, other: Other
) -> None:
    assert other.ask("take") == "held"
    came = threading.Event()
    assert turn.ask(_setting(came))
    assert turn.withdraw()  # before it came: the helper lets the lock go when it gets it
    assert other.ask("release") == "released"
    _until_the_other_takes_it(other)
    _until_idle(turn)
    assert not came.is_set()

    assert turn.ask(lambda: True)  # nobody has it: had at once, held for this thread
    assert not turn.withdraw()  # too late: it came
    assert other.ask("try") == "not held"
    turn.unused()  # no write took it
    _until_the_other_takes_it(other)

    assert turn.ask(lambda: False)  # the asker cannot use it (its event loop closed)
    _until_the_other_takes_it(other)

    assert turn.acquire(5)  # another writer of this process has it: nothing is asked
    assert not turn.ask(lambda: True)
    turn.release()
    _until_the_other_takes_it(other)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
def test_a_forked_child_takes_turns_with_its_parent(database: Path, turn: WriterTurn) -> None:
    assert turn.acquire(5)
    turn.release()
    child_holds, parent_done = os.pipe(), os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: take the turn, say so, hold it until the parent has tried
        code = 1
        try:
            mine = turn_of(str(database))
            if mine is not None and mine.acquire(5):
                os.write(child_holds[1], b"x")
                os.read(parent_done[0], 1)
                mine.release()
                code = 0
        finally:
            os._exit(code)
    try:
        assert os.read(child_holds[0], 1) == b"x"
        # A lock belongs to the open file: had the child kept the parent's, this would succeed.
        assert not turn.acquire(0.2)
    finally:
        os.write(parent_done[1], b"x")
        _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert turn.acquire(5)
    turn.release()


def test_the_log_restarts_in_the_turn_of_every_process(
    database: Path, other: Other, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The log copier's ``RESTART`` (store/wal.py) waits for another process's writer: it
    starts the log anew once that writer lets go, not beside it."""
    monkeypatch.setattr(wal, "RESTART_WAIT", 60.0)  # however slow the machine, it waits
    league = League.open(str(database), "Club")
    league.import_games([game(n) for n in range(50)], source="api")
    copier = wal.LogCopier(league.engine, str(database))
    conn = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
    try:
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        assert other.ask("take") == "held"
        restarting = threading.Thread(target=copier._restart, args=(conn,))
        restarting.start()
        restarting.join(0.3)
        assert restarting.is_alive()  # waits for the other process's turn
        assert other.ask("release") == "released"
        restarting.join(30)
        assert not restarting.is_alive()
        _, written, _ = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        league.import_games([game(50)], source="api")
        _, after, _ = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        assert after < written  # restarted: the next write began the log anew
    finally:
        conn.close()


def test_without_the_turns_file_the_writes_go_on(tmp_path: Path) -> None:
    path = tmp_path / "league.db"
    Path(str(path) + SUFFIX).mkdir()  # cannot be opened as the turn's file
    assert turn_of(str(path)) is None
    league = League.create(str(path), "Club", "bataille-empire")
    assert league.import_games([game(1)], source="api").added == 1
    assert [g.id for g in league.games()] == ["g1"]


def test_a_database_and_the_files_beside_it_are_deleted_together(tmp_path: Path) -> None:
    """The demo's rebuild and the benchmarks' copies start from nothing: no log, no log index,
    no writers' turn left from the database before (docs/league.md, "Where the data lives")."""
    path = tmp_path / "league.db"
    league = League.create(str(path), "Club", "bataille-empire")
    league.import_games([game(1)], source="api")
    reader = sqlite3.connect(path)  # open: SQLite keeps its log and the log's index
    try:
        assert reader.execute("SELECT count(*) FROM games").fetchone() == (1,)
        beside = {"league.db", "league.db-wal", "league.db-shm", "league.db" + SUFFIX}
        assert {p.name for p in tmp_path.iterdir()} == beside
        delete_sqlite_files(path)
        assert list(tmp_path.iterdir()) == []
    finally:
        reader.close()
        league.engine.dispose()
