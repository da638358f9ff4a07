"""Officers' and referees' accounts and the API tokens of programs ("officers and referees").

The rows belong to the store (``users``, ``api_tokens``: :mod:`eloleague.store.accounts`); the
logic is here. Passwords are hashed with argon2id (argon2-cffi); API tokens are random 256-bit
strings shown once and stored as their SHA-256 digest (a token is as strong as a key, so a fast
digest is enough and lets a request find its token by an indexed lookup).

Roles: ``officer`` may do everything; ``referee`` may upload results, which wait for an officer's
review before they count.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeVar, get_args

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError

from eloleague.errors import BusyError, EloleagueError
from eloleague.i18n import Text
from eloleague.io.limits import NAME_MAX, storable
from eloleague.store import accounts as account_rows
from eloleague.store import sessions
from eloleague.store.bulk import to_stamp
from eloleague.store.db import read, write

Role = Literal["officer", "referee"]
ROLES: tuple[str, ...] = get_args(Role)
T = TypeVar("T")


def _t(template: str, /, **params: object) -> Text:
    """A message of the accounts, translated where it is shown (catalogue ``web``)."""
    return Text.in_domain("web", template, **params)


MIN_PASSWORD_LENGTH = 8
TOKEN_PREFIX = "elo_"

_hasher = PasswordHasher()
# Verifying against this hash when the user does not exist keeps the timing of a failed login
# the same whether the name exists or not.
_DUMMY_HASH = _hasher.hash("not a password of anyone")


@dataclass(frozen=True, slots=True)
class User:
    """An account: its id, name and role."""

    id: int
    name: str
    role: str

    @property
    def is_officer(self) -> bool:
        """Officers may do everything (publish, correct, delete, close seasons)."""
        return self.role == "officer"


def hash_password(password: str) -> str:
    """An argon2id hash of ``password`` (salted, with argon2-cffi's current parameters)."""
    return _hasher.hash(password)


def check_password_rules(password: str) -> None:
    """Refuse passwords that are too short, with a message saying what is needed."""
    if len(password) < MIN_PASSWORD_LENGTH:
        raise EloleagueError(
            _t("the password is too short: use at least {n} characters", n=MIN_PASSWORD_LENGTH)
        )


def check_new_user(engine: Engine, name: str, role: str) -> None:
    """Raise the :class:`EloleagueError` :func:`add_user` would raise for ``name`` and ``role``
    (an empty, too long or taken name, an unknown role): the command line checks them before it
    asks for a password."""
    _check_name_and_role(name.strip(), role)
    if find_user(engine, name) is not None:
        raise EloleagueError(_taken(name.strip()))


def _check_name_and_role(name: str, role: str) -> None:
    if not name:
        raise EloleagueError(_t("the user name is empty"))
    if not storable(name):
        raise EloleagueError(
            _t(
                "a user name has at most {max} characters and no control character",
                max=NAME_MAX,
            )
        )
    if role not in ROLES:
        raise EloleagueError(
            _t(
                "unknown role {role!r}: expected one of {roles}",
                role=role,
                roles=", ".join(ROLES),
            )
        )


def _taken(name: str) -> Text:
    return _t("a user named {name!r} already exists", name=name)


def _unknown(name: str) -> Text:
    return _t("no user named {name!r}", name=name)


def add_user(engine: Engine, name: str, password: str, role: str) -> User:
    """Create an account; raises :class:`EloleagueError` for a taken name, bad role or password."""
    name = name.strip()
    _check_name_and_role(name, role)
    check_password_rules(password)
    try:
        with write(engine) as conn:
            pk = account_rows.insert_user(
                conn, name, hash_password(password), role, dt.datetime.now(dt.UTC)
            )
    except IntegrityError:
        raise EloleagueError(_taken(name)) from None
    return User(pk, name, role)


def check_user(engine: Engine, name: str) -> None:
    """Raise the :class:`EloleagueError` of an account that does not exist (the command line
    says it before it asks for a new password)."""
    if find_user(engine, name) is None:
        raise EloleagueError(_unknown(name.strip()))


def set_password(engine: Engine, name: str, password: str) -> None:
    """Give ``name`` a new password; every browser session of the account ends with the old one."""
    check_password_rules(password)
    with write(engine) as conn:
        uid = _user_id(conn, name.strip())
        account_rows.set_password_hash(conn, uid, hash_password(password))
        sessions.end_user_sessions(conn, uid)


def signed_out_text(name: str, count: int) -> Text:
    """What :func:`sign_out_everywhere` did, as the site and the command line say it."""
    return Text.plural_in_domain(
        "web",
        "{name} signed out everywhere ({count} session ended)",
        "{name} signed out everywhere ({count} sessions ended)",
        count,
        name=name,
    )


def sign_out_everywhere(engine: Engine, name: str) -> int:
    """End every browser session of ``name`` at once (on every worker); how many there were."""
    with write(engine) as conn:
        return sessions.end_user_sessions(conn, _user_id(conn, name.strip()))


def _user_id(conn: Connection, name: str) -> int:
    """The id of the account ``name`` (or :class:`EloleagueError`)."""
    # A name no account can have is not looked for (NUL: an error on PostgreSQL).
    uid = account_rows.user_id(conn, name) if storable(name) else None
    if uid is None:
        raise EloleagueError(_unknown(name))
    return uid


def find_user(engine: Engine, name: str) -> User | None:
    """The account named ``name``."""
    if not storable(name.strip()):
        return None
    with read(engine) as conn:
        row = account_rows.user_row(conn, name.strip())
    return User(*row) if row else None


def list_users(engine: Engine) -> list[User]:
    """Every account, by name."""
    with read(engine) as conn:
        return [User(*row) for row in account_rows.all_users(conn)]


def authenticate(engine: Engine, name: str, password: str) -> User | None:
    """The account if ``password`` is right, else ``None`` (same work whether the name exists)."""
    found = None
    if storable(name.strip()):  # else no account has it: the same work, no database error
        with read(engine) as conn:
            found = account_rows.user_and_hash(conn, name.strip())
    stored = found[1] if found else _DUMMY_HASH
    try:
        _hasher.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return None
    if found is None:
        return None
    user = User(*found[0])
    if _hasher.check_needs_rehash(stored):
        with write(engine) as conn:
            account_rows.set_password_hash(conn, user.id, hash_password(password))
    return user


# API tokens -------------------------------------------------------------------------------------


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def create_token(engine: Engine, user_name: str, label: str = "") -> str:
    """A new API token for ``user_name``: returned once, only its digest is stored."""
    user = find_user(engine, user_name)
    if user is None:
        raise EloleagueError(
            _t("no user named {name!r}: create it with `eloleague user add`", name=user_name)
        )
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    with write(engine) as conn:
        account_rows.insert_token(conn, user.id, _digest(token), label, dt.datetime.now(dt.UTC))
    return token


def user_for_token(engine: Engine, token: str) -> User | None:
    """The account a bearer token belongs to (and note when it was used), or ``None``."""
    return user_for_token_and(engine, token, _nothing)[0]


def user_for_token_and(
    engine: Engine, token: str, also: Callable[[Connection], T]
) -> tuple[User | None, T]:
    """:func:`user_for_token`, and ``also(conn)`` read in the same transaction: a game server
    posts a result with its token to a league, and both are looked up in one transaction
    instead of two (docs/benchmarks.md, "Live results")."""
    digest = _digest(token) if token.startswith(TOKEN_PREFIX) else None
    with read(engine) as conn:
        holder = account_rows.token_holder(conn, digest) if digest is not None else None
        found = also(conn)
    if digest is None or holder is None or not hmac.compare_digest(holder[1], digest):
        return None, found
    token_id, _, user_id, name, role, used = holder
    now = dt.datetime.now(dt.UTC)
    if used is None or now - to_stamp(used) >= TOKEN_USE_EVERY:
        try:  # bookkeeping only: never make a game server wait behind a league's writes
            with write(engine, wait=TOKEN_USE_WAIT) as conn:
                account_rows.note_token_use(conn, token_id, now)
        except BusyError:
            pass
    return User(user_id, name, role), found


class TokenChanged(Exception):
    """A token this process knew as an officer's is no longer that officer's (revoked, its
    account gone or no longer an officer): the write it guarded stored nothing; look the token
    up again (:func:`user_for_token_and`)."""


# Officers' tokens this process found lately, by digest: a game server posts with one token
# hundreds of times a second, and each post's write checks it in its own transaction
# (:func:`known_officer`) instead of reading it in one more (docs/web.md, "Posting results from a
# game server"). Looked up again after TOKEN_USE_EVERY, which also notes the token's use.
_KNOWN: dict[tuple[Engine, str], tuple[User, float]] = {}


def remember_officer(engine: Engine, token: str, user: User) -> None:
    """Keep that ``token`` is the officer ``user``'s, as :func:`user_for_token_and` just found."""
    if user.is_officer and token.startswith(TOKEN_PREFIX):
        now = time.monotonic()
        for key, (_, since) in list(_KNOWN.items()):  # those no longer used are forgotten
            if now - since >= TOKEN_USE_EVERY.total_seconds():
                _KNOWN.pop(key, None)
        _KNOWN[engine, _digest(token)] = (user, now)


def known_officer(engine: Engine, token: str) -> tuple[User, Callable[[Connection], None]] | None:
    """The officer this process found ``token`` to be, less than TOKEN_USE_EVERY ago, and the
    check a write of his makes in its transaction before it stores anything: it raises
    :class:`TokenChanged` when the token is no longer that officer's. ``None``: not known (look
    it up: :func:`user_for_token_and`)."""
    if not token.startswith(TOKEN_PREFIX):
        return None
    key = (engine, _digest(token))
    known = _KNOWN.get(key)
    if known is None or time.monotonic() - known[1] >= TOKEN_USE_EVERY.total_seconds():
        return None
    return known[0], StillHis(key, known[0])


class StillHis:
    """The check of :func:`known_officer`: raises :class:`TokenChanged` when the token is no
    longer the officer's. ``reads``: the statement it makes, which the write may read with the
    league's lock (on PostgreSQL in its round trip, not one of its own)."""

    __slots__ = ("_key", "_user", "reads")

    def __init__(self, key: tuple[Engine, str], user: User) -> None:
        self._key = key
        self._user = user
        self.reads = [account_rows.token_holder_read(key[1])]

    def __call__(self, conn: Connection) -> None:
        holder = account_rows.token_holder(conn, self._key[1])
        if holder is None or (holder[2], holder[4]) != (self._user.id, self._user.role):
            _KNOWN.pop(self._key, None)
            raise TokenChanged


def _nothing(_conn: Connection) -> None:
    return None


# A token's last use is written at most this often (a game server posting every few
# milliseconds would otherwise add a write per result), waiting at most TOKEN_USE_WAIT seconds.
TOKEN_USE_EVERY = dt.timedelta(minutes=1)
TOKEN_USE_WAIT = 0.5


def revoke_tokens(engine: Engine, user_name: str) -> int:
    """Remove every token of ``user_name``; returns how many there were."""
    user = find_user(engine, user_name)
    if user is None:
        raise EloleagueError(_unknown(user_name))
    with write(engine) as conn:
        return account_rows.delete_tokens(conn, user.id)
