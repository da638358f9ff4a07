"""What a process learns from a write transaction, kept only once the transaction is committed.

A cache of the database (the league's registered names, :func:`eloleague.store.players.
registered_names`) may be extended with what a write read or wrote, but only when that write is
stored: a rolled-back write leaves no trace in the database (SQLite even hands its row ids out
again), so it must leave none in the cache either. A write asks :func:`later` to run an action;
:func:`eloleague.store.db.write` runs the actions once its transaction is committed and drops
them when it is rolled back; a write of a group commit undone alone (its savepoint rolled back)
drops its own (:func:`mark`, :func:`drop_since`).
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection

_KEY = "eloleague.after_commit"


def later(conn: Connection, action: Callable[[], None]) -> None:
    """Run ``action`` once the write transaction of ``conn`` is committed; never if it is not."""
    conn.info.setdefault(_KEY, []).append(action)


def mark(conn: Connection) -> int:
    """Where the actions asked so far end (:func:`drop_since`)."""
    return len(conn.info.get(_KEY, ()))


def drop_since(conn: Connection, where: int) -> None:
    """Forget the actions asked since :func:`mark` gave ``where`` (their savepoint was undone)."""
    del conn.info.get(_KEY, [])[where:]


def drop(conn: Connection) -> None:
    """Forget every action asked (the transaction is rolled back, or another one begins)."""
    conn.info.pop(_KEY, None)


def run_actions(conn: Connection) -> None:
    """Run the actions asked, in order (the transaction is committed)."""
    for action in conn.info.pop(_KEY, ()):
        action()
