"""Group commit: the writes of one process to one league that wait for its lock at the same time
share one transaction (docs/league.md, "Live results").

A game server posts each result as its game ends, from many connections at once. Each write
costs a transaction: taking the lock, reading the league's rules, the commit (SQLite writes every
page the write touched to its log; PostgreSQL waits for its log on disk), and the league's
revision. While one write holds the lock, the others queue; the next to get the lock takes every
queued write with it (up to :data:`MOST_WRITES` writes, :data:`MOST_GAMES` games) and runs them
one after the other in one transaction, each in its own savepoint: a write that fails (a game
that conflicts with a stored one) is undone alone and its caller gets its error, the others
commit. Each write keeps its own import batch, journal entry (or its place in a run of the
journal) and answer, exactly as if it had been alone; only the transaction is shared. A caller returns when the transaction that holds its
write has committed (or failed): an answer is never given for a write that could still be lost.

Writes of one kind may go further and be applied as one (:class:`Together`: the imports of a
league's results, :mod:`eloleague.store.imports_together`), their reads and statements shared,
each still given its own result. When they cannot (:class:`NotTogether`, or any error), what was
done is undone (a savepoint); the writes before the first that cannot join are applied together,
that one alone, and the rest the same way, in order (after any other error, each alone).

A write waits at most its ``wait`` for the lock, then gets :class:`~eloleague.errors.BusyError`,
unless another write has already taken it into a transaction: then it waits for that one.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy import Connection

from eloleague.errors import BusyError, EloleagueError
from eloleague.store import after_commit
from eloleague.store.bulk import drop_held, hold_for_commit, run, send_held
from eloleague.store.messages import msg

T = TypeVar("T")

log = logging.getLogger(__name__)

Reads = Callable[[Connection], Sequence[tuple[str, Sequence[Any]]]]
"""Given the transaction's connection, the reads a write begins with (``(sql, parameters)``)."""

MOST_WRITES = 64  # writes in one transaction
MOST_GAMES = 2_000  # games in one transaction (a write of more runs alone)


class NotTogether(Exception):
    """Writes that cannot be applied as one (:class:`Together`). ``first``: the first of them
    that cannot join those before it (those may still go together, and those after it), or
    ``None`` when none can: each is applied alone."""

    def __init__(self, first: int | None = None) -> None:
        super().__init__(first)
        self.first = first


@dataclass(frozen=True)
class Together(Generic[T]):
    """How a write may be applied with others of its kind queued next to it: writes of the same
    ``key`` are given together to ``run(conn, their parts)``, which returns each one's result, in
    order, or raises :class:`NotTogether` (or any error): then each is applied alone.
    ``ahead(conn, their parts)``: the reads ``run`` begins with, made with the lock when those
    writes are all the transaction holds (as a write's own ``ahead`` when it is alone)."""

    key: Hashable
    part: Any
    run: Callable[[Connection, list[Any]], list[T]]
    ahead: Callable[[Connection, list[Any]], Sequence[tuple[str, Sequence[Any]]]] | None = None


class Write(Generic[T]):
    """A write waiting for its transaction: what it does with the connection, its games, the
    reads it begins with (when it is the first write of its transaction, they may be made with
    the lock: on PostgreSQL in the lock's round trip), how it may be applied with others."""

    __slots__ = ("ahead", "body", "done", "error", "games", "result", "taken", "together")

    def __init__(
        self,
        body: Callable[[Connection], T],
        games: int,
        ahead: Reads | None = None,
        together: Together[T] | None = None,
    ) -> None:
        self.body = body
        self.games = games
        self.ahead = ahead
        self.together = together
        self.done = threading.Event()
        self.result: T | None = None
        self.error: BaseException | None = None
        self.taken = False

    def outcome(self) -> T:
        if self.error is not None:
            raise self.error
        return self.result  # type: ignore[return-value]


Transaction = Callable[[float | None, Reads | None], AbstractContextManager[Connection]]
"""Opens a write transaction holding the league's lock: given the wait left and the reads its
writes begin with, made with the lock (:func:`first_reads`)."""


def first_reads(writes: Sequence[Write[Any]]) -> Reads | None:
    """The reads a transaction of ``writes`` begins with: those of the first write, or, when
    they are all of one kind and may be applied as one (:class:`Together`), those of them all."""
    together = writes[0].together
    if len(writes) == 1 or together is None or together.ahead is None:
        return writes[0].ahead
    if any(w.together is None or w.together.key != together.key for w in writes):
        return writes[0].ahead
    parts = [w.together.part for w in writes if w.together is not None]
    ahead = together.ahead
    return lambda conn: ahead(conn, parts)


class Group:
    """The writes of one process to one league (one SQLite database) waiting for its lock."""

    def __init__(self) -> None:
        self.gate = threading.Lock()  # held by the thread running a transaction
        self._queue_lock = threading.Lock()
        self._waiting: list[Write[Any]] = []

    def run(
        self,
        write: Write[T],
        transaction: Transaction,
        wait: float | None,
    ) -> T:
        """Run ``write`` in a transaction of ``transaction(wait left, its first write)`` (a
        write transaction holding the league's lock), shared with the writes queued meanwhile;
        its result, or its error raised. :class:`BusyError` when the lock is not had within
        ``wait`` seconds."""
        self.queue(write)
        return self.wait_for(write, transaction, wait)

    def busy(self) -> bool:
        """Whether a transaction of this group runs, or a write waits in its queue."""
        return self.gate.locked() or bool(self._waiting)

    def queue(self, write: Write[Any]) -> None:
        """Put ``write`` in the queue: the next transaction of this group takes it (its caller
        then waits for it with :meth:`wait_for`)."""
        with self._queue_lock:
            self._waiting.append(write)

    def wait_for(self, write: Write[T], transaction: Transaction, wait: float | None) -> T:
        """The result of ``write`` (queued: :meth:`queue`), leading the transaction that takes
        it when no other thread does (see :meth:`run`)."""
        started = time.monotonic()
        while not write.done.is_set():
            left = None if wait is None else wait - (time.monotonic() - started)
            if (left is not None and left <= 0) or not self.gate.acquire(
                timeout=-1 if left is None else left
            ):
                with self._queue_lock:
                    if not write.taken:  # nobody took it: nothing was done
                        self._waiting.remove(write)
                        raise BusyError(busy_text())
                write.done.wait()  # in a transaction now: its outcome is coming
                break
            try:
                if not write.taken:  # else a transaction that just ended held it
                    self._lead(transaction, None if left is None else max(0.05, left))
            finally:
                self.gate.release()
        return write.outcome()

    def run_now(self, writes: Sequence[Write[Any]], transaction: Transaction) -> bool:
        """Run ``writes`` (not queued) in one transaction, in this thread, if that needs no wait:
        no other write of this process runs or waits, and the league's lock is had at once.
        Whether they ran (their outcomes are set); if not, nothing was done and they may be
        queued. The event loop of a server writes small posts this way (docs/league.md, "Live
        results"): a thread that waited would make the loop wait."""
        if not self.gate.acquire(blocking=False):
            return False
        try:
            with self._queue_lock:
                if self._waiting:  # their turn first: a thread is about to lead them
                    return False
                for write in writes:
                    write.taken = True
            return self._apply(list(writes), transaction, 0.0, give_back=True)
        finally:
            self.gate.release()

    def _take(self) -> list[Write[Any]]:
        with self._queue_lock:
            taken: list[Write[Any]] = []
            games = 0
            for write in self._waiting:
                if taken and (len(taken) >= MOST_WRITES or games + write.games > MOST_GAMES):
                    break
                taken.append(write)
                games += write.games
            del self._waiting[: len(taken)]
            for write in taken:
                write.taken = True
            return taken

    def _lead(self, transaction: Transaction, wait: float | None) -> None:
        self._apply(self._take(), transaction, wait)

    def _apply(
        self,
        writes: list[Write[Any]],
        transaction: Transaction,
        wait: float | None,
        give_back: bool = False,
    ) -> bool:
        """Run ``writes`` (taken) in one transaction; their outcomes set. ``give_back``: if
        the lock was not had in time (:class:`BusyError`), the writes are left as they were,
        not done, and the answer is ``False``."""
        try:
            with transaction(wait, first_reads(writes)) as conn:
                if len(writes) == 1:  # alone: its error rolls the transaction back
                    writes[0].result = writes[0].body(conn)
                else:
                    for kind in _kinds(writes):
                        _apply_kind(conn, kind)
        except BaseException as exc:  # the transaction failed: no write of it was stored
            if give_back and isinstance(exc, BusyError):
                for write in writes:
                    write.taken, write.result, write.error = False, None, None
                return False
            for write in writes:
                if write.error is None:
                    write.error = exc
                    write.result = None
        for write in writes:
            write.done.set()
        return True


class Queued(Generic[T]):
    """A write made ready for its group, not run yet: :func:`run_now` runs several at once in
    the calling thread when that needs no wait; :meth:`result` waits for it, leading its
    transaction when no other thread does. ``then``: what its result becomes once it ran.
    ``wait`` bounds the whole wait from the moment the write was made ready: a write first
    offered to :func:`run_now` (a server's event loop waiting a moment for the database's turn)
    waits in :meth:`result` only what is left of it."""

    __slots__ = ("_queued", "group", "made", "then", "transaction", "wait", "write")

    def __init__(
        self,
        group: Group,
        write: Write[T],
        transaction: Transaction,
        wait: float | None,
        then: Callable[[T], T] | None = None,
    ) -> None:
        self.group = group
        self.write = write
        self.transaction = transaction
        self.wait = wait
        self.then = then
        self.made = time.monotonic()
        self._queued = False

    @classmethod
    def answered(cls, result: T) -> Queued[T]:
        """A write that needed no transaction of the group (a dry run, rolled back): done,
        ``result`` its result."""
        write: Write[T] = Write(lambda _conn: result, 0)
        write.result = result
        write.done.set()
        return cls(Group(), write, _no_transaction, None)

    def result(self) -> T:
        """The write's result once its transaction committed, or its error raised (as
        :meth:`Group.run`)."""
        if self.write.done.is_set():
            done = self.write.outcome()
        else:
            self.queue()
            left = self.wait
            if left is not None:  # at least a moment: the lock may be free by now
                left = max(0.05, left - (time.monotonic() - self.made))
            done = self.group.wait_for(self.write, self.transaction, left)
        return done if self.then is None else self.then(done)

    def behind_own_writes(self) -> bool:
        """Whether another write of this process runs or waits in its group (when
        :func:`run_now` did not run this one and none does, another process had the lock)."""
        return self.group.busy()

    def queue(self) -> None:
        """Put the write in its group's queue (once): the next transaction takes it."""
        if not self._queued:
            self._queued = True
            self.group.queue(self.write)


def _no_transaction(
    _wait: float | None, _reads: Reads | None
) -> AbstractContextManager[Connection]:
    raise AssertionError("an answered write runs no transaction")


def run_now(queued: Sequence[Queued[Any]]) -> bool:
    """Run the writes of ``queued`` in this thread, one transaction per group, where that
    needs no wait (:meth:`Group.run_now`); whether all of them ran. Those that did not wait
    for :meth:`Queued.result`."""
    groups: dict[int, list[Queued[Any]]] = {}
    for each in queued:
        if not each.write.done.is_set():
            groups.setdefault(id(each.group), []).append(each)
    ran = True
    for same in groups.values():
        ran = same[0].group.run_now([q.write for q in same], same[0].transaction) and ran
    return ran


def _kinds(writes: Sequence[Write[Any]]) -> list[list[Write[Any]]]:
    """``writes`` in runs of consecutive writes that may be applied together (same key)."""
    runs: list[list[Write[Any]]] = []
    for write in writes:
        key = None if write.together is None else write.together.key
        last = runs[-1][0].together if runs else None
        if key is not None and last is not None and last.key == key:
            runs[-1].append(write)
        else:
            runs.append([write])
    return runs


def _apply_kind(conn: Connection, writes: Sequence[Write[Any]]) -> None:
    """Apply writes of one kind in order: together as far as they can go, each in a savepoint
    otherwise (:class:`NotTogether`)."""
    rest = list(writes)
    while len(rest) > 1:
        first = _together_in_savepoint(conn, rest)
        if first == len(rest):
            return
        if first is None or not 0 <= first < len(rest):  # none can join: each alone
            break
        if first < 2 or _together_in_savepoint(conn, rest[:first]) != first:
            for write in rest[:first]:
                _in_savepoint(conn, write)
        _in_savepoint(conn, rest[first])
        rest = rest[first + 1 :]
    for write in rest:
        _in_savepoint(conn, write)


def _together_in_savepoint(conn: Connection, writes: Sequence[Write[Any]]) -> int | None:
    """Apply ``writes`` as one (:class:`Together`), in a savepoint: how many were (all of them),
    or else the first that cannot join those before it, ``None`` when none can (nothing of them
    is left)."""
    together = writes[0].together
    assert together is not None
    hold_for_commit(conn)  # PostgreSQL: the savepoint sent with the writes, in their round trip
    run(conn, "SAVEPOINT together")
    asked = after_commit.mark(conn)
    try:
        results = together.run(conn, [w.together.part for w in writes if w.together is not None])
        _release(conn, "together")
    except Exception as exc:
        drop_held(conn)
        run(conn, "ROLLBACK TO SAVEPOINT together")
        after_commit.drop_since(conn, asked)
        run(conn, "RELEASE SAVEPOINT together")
        if isinstance(exc, NotTogether):
            return exc.first
        if not isinstance(exc, EloleagueError):  # each alone will say it again
            log.warning(
                msg("writes applied alone after an error together: {error}", error=repr(exc))
            )
        return None
    for write, result in zip(writes, results, strict=True):
        write.result = result
    return len(writes)


def _in_savepoint(conn: Connection, write: Write[Any]) -> None:
    hold_for_commit(conn)
    run(conn, "SAVEPOINT one_write")
    asked = after_commit.mark(conn)
    try:
        write.result = write.body(conn)
        _release(conn, "one_write")
    except Exception as exc:  # this write is undone alone; the others go on
        drop_held(conn)
        run(conn, "ROLLBACK TO SAVEPOINT one_write")
        after_commit.drop_since(conn, asked)
        run(conn, "RELEASE SAVEPOINT one_write")
        write.error = exc


def _release(conn: Connection, savepoint: str) -> None:
    """End a write's savepoint, the statements it held for the commit sent with the release and
    answered before the write counts as done (:func:`~eloleague.store.bulk.hold_for_commit`):
    their error is that write's (the release, after them, then does not run)."""
    run(conn, f"RELEASE SAVEPOINT {savepoint}")
    send_held(conn)


def busy_text() -> str:
    """What a write that did not get the lock in time is told."""
    return msg(
        "the database is busy: another import or recompute is running; try again when it ends"
    )


_GROUPS: dict[tuple[str, int | None], Group] = {}
_GROUPS_LOCK = threading.Lock()


def group_of(key: tuple[str, int | None]) -> Group:
    """The group of ``key`` (a database URL, and a league's id on PostgreSQL)."""
    with _GROUPS_LOCK:
        return _GROUPS.setdefault(key, Group())
