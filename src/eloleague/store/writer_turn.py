"""The writers' turn on a SQLite database, shared by every process that writes to it
(docs/league.md, "Writers in several processes").

SQLite lets one writer at a time hold its write lock. Another writer that wants the lock sleeps in
SQLite's busy handler and tries again after 1, 2, 5, 10, 15, 20, 25… ms. Inside one process the
writers queue on a lock of their own first (:mod:`eloleague.store.group_commit`), and the next
one starts the moment the last is done. Between processes they met in the busy handler: with two
server workers (``eloleague serve --workers 2``), a post that needed a millisecond of writing
often waited 10 to 50, and two workers got fewer posts through than one (docs/benchmarks.md,
"Live results").

So every SQLite write first takes the database's turn: an exclusive ``flock`` on a file beside
the database, ``<database>-writer`` (created empty the first time). A process waiting for the
turn is woken by the kernel the moment its holder lets go. The turn only orders the writers:
SQLite's own lock still guards the database. A writer that does not take the turn (another
program, an older eloleague) is waited for in the busy handler, as before. Without the file (a
folder nobody may write to, a system without ``flock``) the writes queue as before. The file may
be deleted when nothing uses the database; deleted under running processes, those that opened it
and those that create it anew no longer share a turn (they still never write at the same time).

``flock`` waits without a bound, and a write waits a bounded time before its caller answers
"busy". So the wait is made by a helper thread of the process, one per database: it hands the
turn to the writer that asked for it, or lets it go if that writer has stopped waiting. The file
locks of filelock or portalocker take a timeout by polling the lock every few milliseconds,
which is the very wait this module removes.

A thread that must not wait (a server's event loop, which writes small posts itself) asks for the
turn instead (:meth:`WriterTurn.ask`): the helper calls it back when the turn is had, and holds
the turn for that thread's next write, which takes it without waiting.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from types import ModuleType

from eloleague.store.messages import msg

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # Windows: the writers queue in SQLite's busy handler
    fcntl = None

log = logging.getLogger("eloleague.store")

SUFFIX = "-writer"
"""The turn's file: the database's path with this added."""


class WriterTurn:
    """The turn of one database in this process (:func:`turn_of`): one writer of the process
    takes it at a time, and holds the file's lock while it has it."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._mine = threading.Lock()  # one writer of this process holds or asks for the turn
        self._changed = threading.Condition()
        self._asked = False  # the helper is waiting for the file's lock
        self._handed = False  # the helper got it for the writer waiting
        self._waiting = 0  # writers waiting for the helper (0 or 1: see _mine)
        self._asker: tuple[int, Callable[[], bool]] | None = None  # a thread that asked (ask)
        self._held_for: int | None = None  # the thread whose next acquire() takes the turn held
        self._helper: threading.Thread | None = None

    def acquire(self, timeout: float | None) -> bool:
        """Take the turn, waiting at most ``timeout`` seconds (``None``: as long as it takes);
        whether it was had. Each turn had is given back with :meth:`release`."""
        if self._held_for == threading.get_ident():  # asked for (ask), had: it is this write's
            with self._changed:
                self._held_for = None
            return True
        deadline = None if timeout is None else time.monotonic() + timeout
        if not self._mine.acquire(timeout=-1 if timeout is None else max(0.0, timeout)):
            return False
        try:
            had = self._lock(deadline)
        except BaseException:
            self._mine.release()
            raise
        if not had:
            self._mine.release()
        return had

    def release(self) -> None:
        """Give the turn back: the next writer (of any process) may take it."""
        assert fcntl is not None
        fcntl.flock(self._fd, fcntl.LOCK_UN)
        self._mine.release()

    def ask(self, came: Callable[[], bool]) -> bool:
        """Ask for the turn for this thread without waiting for it: ``came()`` is called once
        the turn is had (at once in this thread, or later in the helper's), and this thread's
        next :meth:`acquire` takes it at once; :meth:`unused` gives it back if that write does
        not come. ``came()`` answers whether it will be used (``False``: it is given back).
        :meth:`withdraw` takes the question back. Answers ``False``, nothing asked, when another
        writer of this process holds the turn or waits for it."""
        assert fcntl is not None
        if not self._mine.acquire(blocking=False):
            return False
        me = threading.get_ident()
        with self._changed:
            had = False
            if not self._asked:  # (else the helper's wait for the lock is under way: join it)
                try:
                    fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    had = True
                except BlockingIOError:
                    pass
            if had:
                self._held_for = me
            else:
                self._asker = (me, came)
                self._ask_helper()
        if had:
            self._hand(came)
        return True

    def withdraw(self) -> bool:
        """Take back this thread's question (:meth:`ask`) if the turn has not come yet; whether
        it was taken back (if not, ``came()`` was called, or is about to be)."""
        with self._changed:
            if self._asker is None or self._asker[0] != threading.get_ident():
                return False
            self._asker = None  # the helper lets the lock go when it gets it
            self._mine.release()
            return True

    def unused(self) -> None:
        """Give back the turn had for this thread (:meth:`ask`) if its write did not take it."""
        with self._changed:
            if self._held_for != threading.get_ident():
                return
            self._held_for = None
        self.release()

    def _hand(self, came: Callable[[], bool]) -> None:
        """Tell an asker the turn is had for it; given back if it will not use it."""
        try:
            used = came()
        except Exception:
            log.exception(msg("a writer that asked for the turn could not be told"))
            used = False
        if not used:
            with self._changed:
                self._held_for = None
            self.release()

    def _ask_helper(self) -> None:
        """Have the helper wait for the file's lock (with ``_changed`` held)."""
        self._asked = True
        if self._helper is None:
            self._helper = threading.Thread(
                target=self._wait_for_lock, name="eloleague-writer-turn", daemon=True
            )
            self._helper.start()
        self._changed.notify_all()

    def _lock(self, deadline: float | None) -> bool:
        assert fcntl is not None
        with self._changed:
            if not self._asked:  # no wait of the helper's under way: try at once
                try:
                    fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return True
                except BlockingIOError:
                    pass
                self._ask_helper()
            self._waiting += 1
            try:
                left = None if deadline is None else deadline - time.monotonic()
                if not self._changed.wait_for(lambda: self._handed, left):
                    return False  # the helper lets the lock go when it gets it
                self._handed = False
                return True
            finally:
                self._waiting -= 1

    def _wait_for_lock(self) -> None:
        """The helper: waits for the file's lock whenever asked, then hands it to the writer
        waiting or the thread that asked, or lets it go when there is neither."""
        assert fcntl is not None
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._asked)
            fcntl.flock(self._fd, fcntl.LOCK_EX)  # Python's lock is released while it waits
            came = None
            with self._changed:
                self._asked = False
                if self._waiting:
                    self._handed = True
                    self._changed.notify_all()
                elif self._asker is not None:
                    self._held_for, came = self._asker
                    self._asker = None
                else:
                    fcntl.flock(self._fd, fcntl.LOCK_UN)
            if came is not None:
                self._hand(came)


_TURNS: dict[str, WriterTurn | None] = {}
_TURNS_LOCK = threading.Lock()


def turn_of(database: str) -> WriterTurn | None:
    """The writers' turn of the SQLite file ``database`` in this process (its file opened once);
    ``None`` when there is none (see the module's docstring: writers then queue in SQLite)."""
    try:
        return _TURNS[database]
    except KeyError:
        pass
    with _TURNS_LOCK:
        if database not in _TURNS:
            _TURNS[database] = _open(database + SUFFIX)
        return _TURNS[database]


def _open(path: str) -> WriterTurn | None:
    if fcntl is None:
        return None
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
    except PermissionError:  # a file made by another user: its lock needs no writing
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError as exc:
            log.debug("no writers' turn for %s: %s", path, exc)
            return None
    except OSError as exc:
        log.debug("no writers' turn for %s: %s", path, exc)
        return None
    return WriterTurn(fd)


def _forget_in_child() -> None:
    """A forked process opens its own file: a lock belongs to the open file, which a fork
    shares, so parent and child would both hold the turn at once."""
    global _TURNS_LOCK
    _TURNS_LOCK = threading.Lock()  # another thread may have held it at the fork
    for turn in _TURNS.values():
        if turn is not None:
            os.close(turn._fd)
    _TURNS.clear()


if hasattr(os, "register_at_fork"):  # not on Windows, which has no turn anyway
    os.register_at_fork(after_in_child=_forget_in_child)
