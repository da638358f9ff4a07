"""SQLite's write-ahead log copied into the database by a background thread, for a process that
writes live results (docs/league.md, "Live results").

In WAL mode each commit appends the pages it changed to the ``-wal`` file; every so many pages,
the commit that crosses the mark also copies the log back into the database (a *checkpoint*) and
syncs it. For live results that copy landed on one post in a few hundred and cost it tens of
milliseconds: about 80 µs a game on average, a tenth of an appended game's time, and the
slowest answers. :func:`copy_in_background` hands the copy to a thread of its own, on its own
connection (SQLite releases Python's lock while it copies: on a machine of two cores the copy
runs beside the writes). It uses ``PRAGMA wal_checkpoint(PASSIVE)``, which never blocks a reader
or a writer. The writes' own checkpoints stay, at a higher mark, should the thread fall behind.

Used by ``eloleague serve`` and by any program that keeps a league open to post results
(:meth:`eloleague.league.League.copy_log_in_background`). Other processes (the command line) keep
SQLite's usual checkpoints.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from typing import Any

from sqlalchemy import Engine, event

from eloleague.store.db import group_key, writer_turn
from eloleague.store.group_commit import group_of
from eloleague.store.messages import msg

log = logging.getLogger("eloleague.store")

COPY_EVERY_COMMITS = 256
"""The thread copies the log after this many commits (about 5,000 pages of single games, 20 MB;
a page rewritten by many of them, a player's rating, the league's row, is copied once: 256 gave
about 5 % more posts a second than 64, docs/benchmarks.md "Live results")…"""
COPY_EVERY_SECONDS = 1.0
"""…or this long after the first commit it has not copied yet."""
RESTART_WAIT = 1.0
"""Seconds the thread waits for this process's write to end before it copies the rest of the
log (else it tries again at its next turn)…"""
RESTART_BUSY = 0.1
"""…and for other processes' readers and writers (SQLite's busy handler)."""
FALLBACK_PAGES = 40_000
"""The writes' own checkpoints meanwhile: past this many pages of log (about 160 MB) only."""


class LogCopier:
    """The background copy of one SQLite database's log (see the module's docstring)."""

    def __init__(self, engine: Engine, path: str) -> None:
        self.engine = engine
        self.path = path
        self._commits = 0
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="eloleague-wal-copy", daemon=True)

    def start(self) -> None:
        event.listen(self.engine, "commit", self.committed)
        event.listen(self.engine, "connect", _fallback_only)
        self.engine.dispose()  # connections opened before would still copy at SQLite's mark
        self._thread.start()

    def committed(self, *_: Any) -> None:
        """A commit happened (the engine's ``commit`` event)."""
        with self._lock:
            self._commits += 1
            if self._commits >= COPY_EVERY_COMMITS:
                self._wake.set()

    def close(self) -> None:
        """Stop the thread once it has copied what is in the log; the engine's connections go
        back to SQLite's usual checkpoints. Once: later calls do nothing.

        The thread's last copy is made before the engine's connections are closed: the last
        connection to a database that closes copies the log itself, holding the database alone
        meanwhile, and a copy of the thread's begun then waited for it only
        :data:`RESTART_BUSY` before it failed ("database is locked", in a server's log as it
        stopped)."""
        with _COPIERS_LOCK:
            if self._stop.is_set():
                return
            if _COPIERS.get(self.path) is self:
                del _COPIERS[self.path]
            self._stop.set()
        self._wake.set()
        self._thread.join()
        event.remove(self.engine, "commit", self.committed)
        event.remove(self.engine, "connect", _fallback_only)
        self.engine.dispose()

    def _run(self) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {int(RESTART_BUSY * 1000)}")
        try:
            while True:
                self._wake.wait(COPY_EVERY_SECONDS)
                self._wake.clear()
                with self._lock:
                    pending, self._commits = self._commits, 0
                if pending:
                    self._copy(conn)
                if self._stop.is_set():
                    return
        finally:
            conn.close()

    def _copy(self, conn: sqlite3.Connection) -> None:
        """Copy the log into the database beside the writes (``PASSIVE``), then what they added
        meanwhile holding the write lock a moment (``RESTART``): the next write starts the log
        again from its beginning. Without that second step a log written to without a pause
        is never wholly copied, so never started again: it grows to the writes' own mark, and
        every page read searches it.

        The ``RESTART`` takes this process's turn to write first (the queue of
        :mod:`eloleague.store.group_commit`), then that of every process
        (:mod:`eloleague.store.writer_turn`): a write waiting for it then starts as soon as it
        is done, instead of sleeping in SQLite's busy handler (1, 2, 5, 10 ms… : a post
        answered in 20 or 35 ms instead of one), and the writes that queued meanwhile commit
        together.

        Between the two, the thread syncs the database file itself. The ``RESTART`` syncs it
        before the log starts again (what was copied must be on disk first); a ``PASSIVE`` copy
        that writes went on beside does not, so that sync flushed every page of both copies
        while the writes waited: about 4 ms of a restart's 5 (every 64 commits then: about 80 µs a
        game; docs/benchmarks.md "Live results"). Synced beside the writes, the restart flushes
        only what it copied itself."""
        try:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            _sync(self.path)
            gate = group_of(group_key(self.engine, 0)).gate  # SQLite: one queue per database
            if gate.acquire(timeout=RESTART_WAIT):
                try:
                    self._restart(conn)
                finally:
                    gate.release()
        except (sqlite3.Error, OSError) as exc:  # never the writes' concern: theirs stay
            log.warning(
                msg(
                    "copying the SQLite log of {path} failed: {reason}",
                    path=str(self.path),
                    reason=str(exc),
                )
            )

    def _restart(self, conn: sqlite3.Connection) -> None:
        """The ``RESTART`` copy, in the writers' turn of every process when there is one
        (store/writer_turn.py): their writes wait for it woken by the kernel, not in SQLite's
        busy handler."""
        turn = writer_turn(self.engine)
        if turn is not None and not turn.acquire(RESTART_WAIT):
            return
        try:
            conn.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
        finally:
            if turn is not None:
                turn.release()


_COPIERS: dict[str, LogCopier] = {}
_COPIERS_LOCK = threading.Lock()


def copy_in_background(engine: Engine) -> LogCopier | None:
    """Start copying ``engine``'s log in a background thread (once per database file and
    process); ``None`` when there is nothing to do (PostgreSQL, a database in memory)."""
    if engine.dialect.name != "sqlite":
        return None
    path = engine.url.database
    if not path or path == ":memory:":
        return None
    with _COPIERS_LOCK:
        copier = _COPIERS.get(path)
        if copier is not None:
            return copier
        copier = LogCopier(engine, path)
        copier.start()
        _COPIERS[path] = copier
        return copier


def _sync(path: str) -> None:
    """Flush the database file's written pages to the disk (as SQLite's own sync would),
    through a descriptor the process keeps open (:func:`_kept_descriptor`)."""
    getattr(os, "fdatasync", os.fsync)(_kept_descriptor(path))


_DESCRIPTORS: dict[tuple[str, int], int] = {}
_DESCRIPTORS_LOCK = threading.Lock()


def _kept_descriptor(path: str) -> int:
    """A descriptor of the database file at ``path``, opened once per file and never closed.

    Closing any descriptor of a file drops every POSIX lock the process holds on it, SQLite's
    included: with no lock left on the database, another process that closes its last
    connection (a command run while the server serves) takes the file for itself, copies the
    log and deletes it with its index, while this process goes on writing to the deleted log;
    what it commits then is seen by no other process and lost when it exits."""
    key = (path, os.stat(path).st_ino)  # a file put in the place of another gets its own
    with _DESCRIPTORS_LOCK:
        fd = _DESCRIPTORS.get(key)
        if fd is None:
            fd = _DESCRIPTORS[key] = os.open(path, os.O_RDONLY)
        return fd


def _fallback_only(dbapi_conn: Any, _record: Any) -> None:
    dbapi_conn.execute(f"PRAGMA wal_autocheckpoint = {FALLBACK_PAGES}")
