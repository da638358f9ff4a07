"""Uploads waiting for an officer (``pending_uploads``): a referee's result file, or an
officer's previewed one, kept with its bytes until it is confirmed or rejected
(docs/web.md, "Uploads and review"). The statements run in the caller's transaction."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import Connection, and_, insert, select, update

from eloleague.store.tables import pending_uploads, users

PENDING = "pending"
IMPORTED = "imported"
REJECTED = "rejected"


@dataclass(frozen=True, slots=True)
class Pending:
    """An upload waiting for an officer (or one that was confirmed or rejected)."""

    id: int
    league_id: int
    filename: str
    user: str
    created_at: dt.datetime
    status: str


_COLUMNS = (
    pending_uploads.c.id,
    pending_uploads.c.league_id,
    pending_uploads.c.filename,
    users.c.name,
    pending_uploads.c.created_at,
    pending_uploads.c.status,
)
_FROM = pending_uploads.join(users, users.c.id == pending_uploads.c.user_id)


def hold(conn: Connection, league_id: int, user_id: int, filename: str, content: bytes) -> int:
    """Keep a checked upload; its number. The same file sent again by the same user while it
    still waits is the same upload (a previewed file sent twice waits once)."""
    same = conn.execute(
        select(pending_uploads.c.id).where(
            and_(
                pending_uploads.c.league_id == league_id,
                pending_uploads.c.user_id == user_id,
                pending_uploads.c.status == PENDING,
                pending_uploads.c.filename == filename,
                pending_uploads.c.content == content,
            )
        )
    ).scalar()
    if same is not None:
        return int(same)
    pk = conn.execute(
        insert(pending_uploads).values(
            league_id=league_id,
            user_id=user_id,
            filename=filename,
            content=content,
            created_at=dt.datetime.now(dt.UTC),
            status=PENDING,
        )
    ).inserted_primary_key
    assert pk is not None
    return int(pk[0])


def waiting(conn: Connection, league_id: int) -> list[Pending]:
    """The league's uploads waiting for an officer, oldest first."""
    rows = conn.execute(
        select(*_COLUMNS)
        .select_from(_FROM)
        .where(and_(pending_uploads.c.league_id == league_id, pending_uploads.c.status == PENDING))
        .order_by(pending_uploads.c.id)
    ).all()
    return [Pending(*r) for r in rows]


def load(conn: Connection, league_id: int, upload_id: int) -> tuple[Pending, bytes] | None:
    """An upload of the league and its bytes (``None``: no such upload)."""
    row = conn.execute(
        select(*_COLUMNS, pending_uploads.c.content)
        .select_from(_FROM)
        .where(and_(pending_uploads.c.id == upload_id, pending_uploads.c.league_id == league_id))
    ).first()
    if row is None:
        return None
    return Pending(*row[:6]), bytes(row[6])


def set_status(conn: Connection, upload_id: int, status: str) -> None:
    """Mark an upload imported or rejected."""
    conn.execute(
        update(pending_uploads).where(pending_uploads.c.id == upload_id).values(status=status)
    )
