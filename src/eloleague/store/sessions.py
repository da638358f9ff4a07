"""The web site's session records and the sign-in throttle's wrong passwords (the SQL only; the
rules, timeouts and cookies are in :mod:`eloleague.web.security`, docs/web.md "Sessions").

Every time is an aware UTC datetime. SQLite keeps them as text without the zone, which compares
in the same order as long as every value is UTC; values read back are made aware again.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import OperationalError

from eloleague.store.db import is_sqlite, read, write
from eloleague.store.tables import sign_in_failures, users, web_sessions

# How long a best-effort write (noting a session's activity) waits for a busy database.
_TOUCH_WAIT_MS = 100


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """A session as stored, with its user's account."""

    token_hash: str
    user_id: int
    user_name: str
    role: str
    csrf_token: str
    created_at: dt.datetime
    seen_at: dt.datetime


def _aware(value: dt.datetime) -> dt.datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)


def _expired(idle_before: dt.datetime, opened_before: dt.datetime) -> ColumnElement[bool]:
    return or_(web_sessions.c.seen_at < idle_before, web_sessions.c.created_at < opened_before)


def open_session(
    engine: Engine,
    token_hash: str,
    user_id: int,
    csrf_token: str,
    now: dt.datetime,
    *,
    idle_before: dt.datetime,
    opened_before: dt.datetime,
) -> None:
    """Store a new session, and forget every session that has expired (idle since before
    ``idle_before``, or opened before ``opened_before``)."""
    with write(engine) as conn:
        conn.execute(delete(web_sessions).where(_expired(idle_before, opened_before)))
        conn.execute(
            insert(web_sessions).values(
                token_hash=token_hash,
                user_id=user_id,
                csrf_token=csrf_token,
                created_at=now,
                seen_at=now,
            )
        )


def find_session(engine: Engine, token_hash: str) -> SessionRecord | None:
    """The session whose id has this digest, with its account (``None``: none, or ended)."""
    with read(engine) as conn:
        row = conn.execute(
            select(
                web_sessions.c.token_hash,
                web_sessions.c.user_id,
                users.c.name,
                users.c.role,
                web_sessions.c.csrf_token,
                web_sessions.c.created_at,
                web_sessions.c.seen_at,
            )
            .select_from(web_sessions.join(users, web_sessions.c.user_id == users.c.id))
            .where(web_sessions.c.token_hash == token_hash)
        ).first()
    if row is None:
        return None
    return SessionRecord(
        row.token_hash,
        row.user_id,
        row.name,
        row.role,
        row.csrf_token,
        _aware(row.created_at),
        _aware(row.seen_at),
    )


def touch(engine: Engine, token_hash: str, now: dt.datetime) -> bool:
    """Note the session's activity, unless another writer holds the database (a long import):
    then nothing waits and ``False`` is returned (the next request notes it)."""
    with engine.connect() as conn:
        sqlite = is_sqlite(conn)
        if sqlite:
            waited = int(conn.exec_driver_sql("PRAGMA busy_timeout").scalar() or 0)
            conn.exec_driver_sql(f"PRAGMA busy_timeout = {_TOUCH_WAIT_MS}")
            conn.commit()
        try:
            with conn.begin():
                if not sqlite:
                    conn.execute(text(f"SET LOCAL lock_timeout = '{_TOUCH_WAIT_MS}ms'"))
                conn.execute(
                    update(web_sessions)
                    .where(web_sessions.c.token_hash == token_hash)
                    .values(seen_at=now)
                )
        except OperationalError:
            return False
        finally:
            if sqlite:
                conn.exec_driver_sql(f"PRAGMA busy_timeout = {waited}")
                conn.commit()
    return True


def end_session(engine: Engine, token_hash: str) -> None:
    """Forget one session (signing out)."""
    with write(engine) as conn:
        conn.execute(delete(web_sessions).where(web_sessions.c.token_hash == token_hash))


def end_user_sessions(conn: Connection, user_id: int) -> int:
    """Forget every session of an account, in the caller's transaction; how many there were."""
    done = conn.execute(delete(web_sessions).where(web_sessions.c.user_id == user_id))
    return int(done.rowcount)


def live_sessions(
    engine: Engine, *, idle_before: dt.datetime, opened_before: dt.datetime
) -> dict[int, int]:
    """How many sessions each account has that have not expired (account id: count)."""
    with read(engine) as conn:
        rows = conn.execute(
            select(web_sessions.c.user_id, func.count())
            .where(~_expired(idle_before, opened_before))
            .group_by(web_sessions.c.user_id)
        )
        return {int(uid): int(count) for uid, count in rows}


# The sign-in throttle ---------------------------------------------------------------------------


def recent_failures(engine: Engine, key: str, since: dt.datetime) -> list[dt.datetime]:
    """When the wrong passwords for ``key`` were given since ``since``, oldest first."""
    with read(engine) as conn:
        rows = conn.execute(
            select(sign_in_failures.c.failed_at)
            .where(sign_in_failures.c.key == key, sign_in_failures.c.failed_at >= since)
            .order_by(sign_in_failures.c.failed_at)
        )
        return [_aware(t) for (t,) in rows]


def add_failure(engine: Engine, key: str, now: dt.datetime, *, forget_before: dt.datetime) -> None:
    """Note a wrong password for ``key``, and forget every failure older than ``forget_before``."""
    with write(engine) as conn:
        conn.execute(delete(sign_in_failures).where(sign_in_failures.c.failed_at < forget_before))
        conn.execute(insert(sign_in_failures).values(key=key, failed_at=now))


def clear_failures(engine: Engine, key: str) -> None:
    """Forget the wrong passwords for ``key`` (its right password was given)."""
    with write(engine) as conn:
        conn.execute(delete(sign_in_failures).where(sign_in_failures.c.key == key))
