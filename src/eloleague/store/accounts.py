"""The rows of the accounts and their API tokens (``users``, ``api_tokens``): the SQL only. What
they mean (roles, password rules and hashes, the tokens' form and digest, how often a token's use
is noted) is :mod:`eloleague.accounts`'s."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from eloleague.store.bulk import one_row, run
from eloleague.store.tables import api_tokens, users

UserRow = tuple[int, str, str]
"""An account's id, name and role."""


def insert_user(conn: Connection, name: str, password_hash: str, role: str, at: dt.datetime) -> int:
    """Store a new account; its id (``IntegrityError`` when the name is taken)."""
    pk = conn.execute(
        insert(users).values(name=name, password_hash=password_hash, role=role, created_at=at)
    ).inserted_primary_key
    assert pk is not None
    return int(pk[0])


def user_id(conn: Connection, name: str) -> int | None:
    """The id of the account ``name``, ``None`` when there is none."""
    found = conn.execute(select(users.c.id).where(users.c.name == name)).scalar()
    return None if found is None else int(found)


def user_row(conn: Connection, name: str) -> UserRow | None:
    """The account ``name``, ``None`` when there is none."""
    row = conn.execute(
        select(users.c.id, users.c.name, users.c.role).where(users.c.name == name)
    ).first()
    return None if row is None else (row.id, row.name, row.role)


def user_and_hash(conn: Connection, name: str) -> tuple[UserRow, str] | None:
    """The account ``name`` and its password's hash, ``None`` when there is none."""
    row = conn.execute(
        select(users.c.id, users.c.name, users.c.role, users.c.password_hash).where(
            users.c.name == name
        )
    ).first()
    return None if row is None else ((row.id, row.name, row.role), row.password_hash)


def all_users(conn: Connection) -> list[UserRow]:
    """Every account, by name."""
    rows = conn.execute(select(users.c.id, users.c.name, users.c.role).order_by(users.c.name))
    return [(r.id, r.name, r.role) for r in rows]


def set_password_hash(conn: Connection, uid: int, password_hash: str) -> None:
    """Store the account's new password hash."""
    conn.execute(update(users).where(users.c.id == uid).values(password_hash=password_hash))


def insert_token(conn: Connection, uid: int, digest: str, label: str, at: dt.datetime) -> None:
    """Store a token of the account ``uid`` by its digest."""
    conn.execute(
        insert(api_tokens).values(user_id=uid, token_hash=digest, label=label, created_at=at)
    )


def token_holder(conn: Connection, digest: str) -> tuple[Any, ...] | None:
    """The token stored with ``digest`` and its account: (token id, digest, account id, name,
    role, last use). Plain SQL: a game server asks on every post."""
    rows = run(conn, *token_holder_read(digest))
    return tuple(rows[0]) if rows else None


def token_holder_read(digest: str) -> tuple[str, tuple[str]]:
    """:func:`token_holder`'s statement and parameters, for a caller to read ahead (with the
    league's lock: :meth:`eloleague.league.League.import_later`'s ``guard``)."""
    return (_TOKEN_HOLDER, (digest,))


_TOKEN_HOLDER = one_row(
    "SELECT t.id, t.token_hash, u.id, u.name, u.role, t.last_used_at "
    "FROM api_tokens t JOIN users u ON t.user_id = u.id WHERE t.token_hash = ?"
)


def note_token_use(conn: Connection, token_id: int, at: dt.datetime) -> None:
    """Store when the token was last used."""
    conn.execute(update(api_tokens).where(api_tokens.c.id == token_id).values(last_used_at=at))


def delete_tokens(conn: Connection, uid: int) -> int:
    """Remove every token of the account ``uid``; how many there were."""
    return int(conn.execute(delete(api_tokens).where(api_tokens.c.user_id == uid)).rowcount)
