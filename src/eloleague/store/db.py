"""Connecting to the league database and keeping its schema current (Alembic).

``connect(url)`` gives an :class:`~sqlalchemy.engine.Engine`: a SQLite file by default
(``eloleague.db`` in the current folder, ``ELOLEAGUE_DB``, or ``--db URL``), or PostgreSQL through a
``postgresql+psycopg://`` URL. SQLite runs in WAL mode with a busy timeout and foreign keys on;
write transactions take the write lock when they begin (``BEGIN IMMEDIATE``), so two writers queue
instead of failing half-way. :func:`write` opens such a transaction.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, RootTransaction, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DatabaseError, DisconnectionError, OperationalError

from eloleague.errors import BusyError, EloleagueError, UnavailableError
from eloleague.store import after_commit
from eloleague.store.bulk import (
    CACHE_KB,
    database_key,
    drop_held,
    generic_after,
    plan_cache_mode,
    run_generic,
    run_together,
    send_held,
)
from eloleague.store.group_commit import busy_text, group_of
from eloleague.store.messages import msg, msg_plural
from eloleague.store.writer_turn import SUFFIX as WRITER_SUFFIX
from eloleague.store.writer_turn import WriterTurn, turn_of

if TYPE_CHECKING:
    from alembic.config import Config

DEFAULT_DB = "eloleague.db"
BUSY_TIMEOUT_SECONDS = 60.0
_WRITE = "eloleague_write"
_WAIT = "eloleague_wait"  # seconds a write waits for the lock (SQLite: the busy timeout)
_TIMEOUTS: dict[str, float] = {}  # each SQLite URL's busy timeout, restored after a write's own


def database_url(db: str | None = None) -> str:
    """The URL to use: ``db`` (a URL or a file path), else ``ELOLEAGUE_DB``, else ``eloleague.db``."""
    value = db or os.environ.get("ELOLEAGUE_DB") or DEFAULT_DB
    if "://" in value:
        return value
    return f"sqlite:///{Path(value).expanduser()}"


def is_sqlite(engine: Engine | Connection) -> bool:
    """Whether ``engine`` talks to SQLite."""
    return engine.dialect.name == "sqlite"


def connect(url: str | None = None, *, timeout: float = BUSY_TIMEOUT_SECONDS) -> Engine:
    """An engine for ``url`` (see :func:`database_url`); the schema is not touched.

    SQLite: WAL journal, ``synchronous=NORMAL``, busy timeout ``timeout`` seconds, foreign keys on,
    write transactions begin with ``BEGIN IMMEDIATE`` (see :func:`write`).
    """
    full = database_url(url)
    try:
        parsed = make_url(full)
    except ArgumentError:
        raise EloleagueError(
            msg(
                "{url!r} is not a database URL: give a file path, sqlite:///FILE or "
                "postgresql+psycopg://USER@HOST/DB",
                url=full,
            )
        ) from None
    if parsed.get_backend_name() == "sqlite":
        return _sqlite_engine(full, timeout)
    if parsed.get_backend_name() != "postgresql":
        raise EloleagueError(
            msg(
                "{url!r}: eloleague keeps leagues in SQLite or PostgreSQL, not {backend}",
                url=parsed.render_as_string(hide_password=True),
                backend=parsed.get_backend_name(),
            )
        )
    try:
        engine = create_engine(full)
    except (ArgumentError, ImportError) as exc:
        raise EloleagueError(
            msg(
                "{url!r} cannot be used: {detail}",
                url=parsed.render_as_string(hide_password=True),
                detail=str(exc),
            )
        ) from None
    _ping_when_idle(engine)
    _held_statements_first(engine)
    _statements_prepared_by_the_store(engine)
    _writes_read_committed(engine)
    return engine


def _writes_read_committed(engine: Engine) -> None:
    """Each connection begins its transactions at ``READ COMMITTED``, whatever the server's
    default (``default_transaction_isolation``, which a DBA may set stricter): a write takes the
    league's lock first, and its reads must see what the writer it waited for committed; at
    ``REPEATABLE READ`` they would see the league as it was before the lock was had, and rate
    from stale pools (a second migrator would run the migration again). psycopg begins them so
    (``BEGIN ISOLATION LEVEL``: no statement more). A read sets its own level (:func:`read`)."""

    @event.listens_for(engine, "connect")
    def _read_committed(dbapi_conn: Any, _record: Any) -> None:
        from psycopg import IsolationLevel

        dbapi_conn.isolation_level = IsolationLevel.READ_COMMITTED


def _statements_prepared_by_the_store(engine: Engine) -> None:
    """psycopg prepares no statement on these connections (``prepare_threshold = None``): the
    store prepares those that are sent again and again, the reads made with a league's lock and
    the writes held for the commit (:mod:`eloleague.store.pipeline`), and psycopg, once it has
    prepared one of its own, deallocates all of a session's on each rollback, the store's too.
    The others (a page's reads through SQLAlchemy) are planned each time: they took as long in
    pairs with and without psycopg's preparing (docs/benchmarks.md, "Live results", 2026-11-28
    "fifth")."""

    @event.listens_for(engine, "connect")
    def _no_psycopg_prepares(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.prepare_threshold = None


def _held_statements_first(engine: Engine) -> None:
    """Before a statement goes through SQLAlchemy, the statements held for the commit
    (:func:`~eloleague.store.bulk.hold_for_commit`) are sent and answered: the statement may
    read, and a read inside psycopg's pipeline would find no rows yet (the store's own reads,
    :func:`~eloleague.store.bulk.run`, do the same)."""

    @event.listens_for(engine, "before_cursor_execute")
    def _send_first(conn: Connection, *_: Any) -> None:
        send_held(conn)


PING_IDLE_SECONDS = 1.0
"""A pooled PostgreSQL connection unused for longer than this is pinged before it is lent."""

_IDLE_SINCE = "eloleague.idle_since"


def _ping_when_idle(engine: Engine) -> None:
    """Check that a pooled connection still reaches PostgreSQL before lending it, when it has not
    been used for :data:`PING_IDLE_SECONDS` (a dead one is replaced, as SQLAlchemy's
    ``pool_pre_ping`` does on every loan): a server restarted while the site was quiet costs
    nobody an error. A connection back in the pool a moment ago is lent as it is: a ping is a
    round trip, and a game server posting results borrows a connection twice per post (its
    token, then its games), a tenth of a post's time (docs/benchmarks.md, "Live results"). If
    the server went away within that moment, the request that meets the dead connection gets
    the 503 of an unreachable database, and SQLAlchemy replaces every connection of the pool."""

    @event.listens_for(engine, "checkin")
    def _on_checkin(_dbapi_conn: Any, record: Any) -> None:
        if record is not None:
            record.info[_IDLE_SINCE] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _on_checkout(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get(_IDLE_SINCE)
        if since is None or time.monotonic() - since < PING_IDLE_SECONDS:
            return
        try:
            engine.dialect.do_ping(dbapi_conn)
        except Exception as exc:  # the pool connects again (and raises if it cannot)
            raise DisconnectionError(str(exc)) from exc


def missing_sqlite_file(url: str | None) -> Path | None:
    """The SQLite file ``url`` names when it does not exist yet (else ``None``): opening a league
    there would silently create an empty database, so a mistyped ``--db`` is reported instead."""
    parsed = make_url(database_url(url))
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    path = Path(parsed.database).expanduser()
    return None if path.exists() else path


def delete_sqlite_files(path: Path) -> None:
    """Delete a SQLite database and the files beside it (docs/league.md, "Where the data lives"):
    its log (``-wal``), the log's index (``-shm``) and the writers' turn (``-writer``). For a
    database nothing has open (the demo's rebuilt one, a benchmark's copy)."""
    for suffix in ("", "-wal", "-shm", WRITER_SUFFIX):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def _bind_plainly() -> None:
    """Let the ``sqlite3`` driver bind ``None``, ``bool`` and ``bytes`` without its adaptation
    protocol. It binds only ``int``, ``float``, ``str`` and ``bytearray`` at once; any other value
    goes through the protocol, which looks for an adapter, then asks the protocol and the value
    for ``__adapt__`` and ``__conform__``: the first lookup raises an AttributeError (its message
    formatted) before the value is bound as it is. An append writes a few hundred such values a
    post of 1,000 games (the ledger's empty columns, flags): about 3 % of its instructions
    (docs/benchmarks.md, "Live results"). The adapters registered here are C functions that give
    the value the driver would have bound anyway (``None``; ``int(flag)``, which SQLite stores
    as the bool's 0 or 1; the bytes themselves): what is stored does not change. They are the
    ``sqlite3`` module's, for the whole process, and harmless to any other user of it."""
    nothing: set[None] = set()
    sqlite3.register_adapter(type(None), nothing.discard)  # a C method giving None, no side effect
    sqlite3.register_adapter(bool, int)
    sqlite3.register_adapter(bytes, bytes)


def _sqlite_engine(url: str, timeout: float) -> Engine:
    database = make_url(url).database
    if database and database != ":memory:":
        parent = Path(database).expanduser().parent
        if not parent.is_dir():
            raise EloleagueError(
                msg("{file}: the folder {folder} does not exist", file=database, folder=str(parent))
            )
    engine = create_engine(url, connect_args={"timeout": timeout})
    _TIMEOUTS[url] = timeout
    _bind_plainly()

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Let SQLAlchemy's begin() be ours: pysqlite's own transaction handling is turned off.
        dbapi_conn.isolation_level = None
        cursor = dbapi_conn.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        # The WAL is copied back into the database every 10,000 pages (about 40 MB) instead of
        # SQLite's 1,000: live results rewrite the same few pages (the players' ratings, the
        # league's row) game after game, and each copy writes them once (docs/benchmarks.md,
        # "Live results": about 12 % of an appended game's time).
        cursor.execute("PRAGMA wal_autocheckpoint = 10000")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute(f"PRAGMA cache_size = -{CACHE_KB}")  # not more: see CACHE_KB
        cursor.execute("PRAGMA temp_store = MEMORY")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        options = conn.get_execution_options()
        wait = options.get(_WAIT)
        # Through the driver: SQLAlchemy's work around a statement cost more than these two
        # (each write begins so, a game server's post included).
        driver = conn.connection.driver_connection
        if wait is not None:  # this write's own bound on the wait for the lock
            driver.execute(f"PRAGMA busy_timeout = {int(wait * 1000)}")  # type: ignore[union-attr]
        mode = "IMMEDIATE" if options.get(_WRITE) else "DEFERRED"
        driver.execute(f"BEGIN {mode}")  # type: ignore[union-attr]

    return engine


@contextmanager
def write(
    engine: Engine, *, commit: bool = True, wait: float | None = None
) -> Iterator[Connection]:
    """A write transaction: committed when the block ends (rolled back instead when ``commit`` is
    false: a dry run), rolled back on any error. What the write asked to run once committed
    (:mod:`eloleague.store.after_commit`) runs after the commit, and only then.

    SQLite takes the writers' turn of every process (:mod:`eloleague.store.writer_turn`), then
    the write lock at once: a second writer waits up to ``wait`` seconds for both (default: the
    engine's busy timeout), then gets :class:`~eloleague.errors.BusyError`. PostgreSQL
    callers take the league's lock themselves (:func:`lock_league`).
    """
    # SQLite: the writers of every process take turns first (store/writer_turn.py)
    turn = writer_turn(engine)
    if turn is not None:
        started = time.monotonic()
        if not turn.acquire(_sqlite_timeout(engine) if wait is None else wait):
            raise BusyError(busy_text())
        if wait is not None:  # what is left of it, for SQLite's lock
            wait = max(0.05, wait - (time.monotonic() - started))
    options: dict[str, Any] = {_WRITE: True}
    if wait is not None:
        options[_WAIT] = wait
    try:
        with engine.connect() as raw:  # PostgreSQL: at READ COMMITTED (_writes_read_committed)
            conn = raw.execution_options(**options)
            after_commit.drop(conn)
            try:
                trans = conn.begin()
                try:
                    yield conn
                    # PostgreSQL: the statements held for the commit, sent with it (or alone)
                    send_held(conn, commit=commit)
                except BaseException:
                    drop_held(conn)
                    trans.rollback()
                    raise
                if commit:
                    _commit(trans)
                    after_commit.run_actions(conn)
                else:
                    trans.rollback()
            finally:
                after_commit.drop(conn)
                if wait is not None and is_sqlite(engine):  # the pooled connection's default
                    raw.connection.driver_connection.execute(  # type: ignore[union-attr]
                        f"PRAGMA busy_timeout = {int(_sqlite_timeout(engine) * 1000)}"
                    )
    except (OperationalError, sqlite3.OperationalError) as exc:  # the latter: from BEGIN
        raise _busy_or_raise(exc) from None
    finally:
        if turn is not None:
            turn.release()


def writer_turn(engine: Engine) -> WriterTurn | None:
    """The writers' turn of a SQLite file (none for PostgreSQL, whose writers queue on the
    league's lock, nor for a database in memory, which one process sees, nor for a ``file:``
    URI, whose name is not the file's)."""
    if not is_sqlite(engine):
        return None
    database = engine.url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return turn_of(database)


def _sqlite_timeout(engine: Engine) -> float:
    return _TIMEOUTS.get(database_key(engine), BUSY_TIMEOUT_SECONDS)


def group_key(engine: Engine, league_id: int) -> tuple[str, int | None]:
    """What the writes of one process queue on: the SQLite database (its one write lock), or
    the PostgreSQL league (its advisory lock)."""
    return database_key(engine), None if is_sqlite(engine) else league_id


@contextmanager
def queued(engine: Engine, league_id: int, wait: float | None = None) -> Iterator[float | None]:
    """Writers of one process queue here first, in turn (per SQLite database, per PostgreSQL
    league), before they take the database's lock: a writer waiting in SQLite's busy handler
    sleeps and polls, and on PostgreSQL holds a pooled connection. Gives what is left of ``wait``
    (``None``: no bound) for the database's own lock; :class:`~eloleague.errors.BusyError` when
    nothing is."""
    gate = group_of(group_key(engine, league_id)).gate
    started = time.monotonic()
    if not gate.acquire(timeout=-1 if wait is None else wait):
        raise BusyError(busy_text())
    try:
        yield None if wait is None else max(0.05, wait - (time.monotonic() - started))
    finally:
        gate.release()


# Advisory locks of league writes on PostgreSQL: (this namespace, the league's id).
LEAGUE_LOCK = 0x656C6F6C


def lock_league(
    conn: Connection,
    league_id: int,
    wait: float | None = None,
    then: Sequence[tuple[str, Sequence[Any]]] = (),
) -> list[Any]:
    """On PostgreSQL, take the league's write lock for the rest of the transaction (an advisory
    lock: writers from every process and machine queue on it, readers never do), waiting at
    most ``wait`` seconds (then :class:`~eloleague.errors.BusyError`). On SQLite the
    transaction already holds the database's write lock.

    ``then``: statements run once the lock is had (``(sql with ? marks, parameters)``), on
    PostgreSQL in the lock's round trip (:func:`~eloleague.store.bulk.run_together`); their
    results, in order.

    Those statements are the write's first reads, by key (the league's rules, the posted names,
    game ids and pools): on PostgreSQL they are run with generic plans, the plan cache left as
    configured for the rest of the transaction (:func:`~eloleague.store.bulk.run_generic`)."""
    if is_sqlite(conn):
        return run_together(conn, then)
    generic = bool(then) and plan_cache_mode(conn)
    keys: tuple[Any, ...] = (LEAGUE_LOCK, league_id)
    if wait is not None:  # the wait in milliseconds, after the keys (the statement's order)
        keys = (*keys, str(max(1, int(wait * 1000))))
    lock = (locking(wait is not None, generic=generic), keys)
    try:
        done = run_generic(conn, lock, then) if generic else run_together(conn, [lock, *then])
    except Exception as exc:  # the driver's own error: run_together bypasses SQLAlchemy's
        if getattr(exc, "sqlstate", None) == LOCK_NOT_AVAILABLE:
            raise BusyError(busy_text()) from None
        raise
    return done[1 : 1 + len(then)]


def locking(bounded: bool, *, generic: bool) -> str:
    """The one statement that takes a league's lock on PostgreSQL (parameters: the lock's two
    keys, then, when ``bounded``, the wait in milliseconds, as text): with ``bounded``, the
    wait set for the lock alone (``lock_timeout``, back to none once the lock is had); with
    ``generic``, the reads that follow planned generically (:func:`~eloleague.store.bulk.
    generic_after`).

    Each setting reads its row from the one before, a subquery: the server runs a subquery
    that calls a volatile function apart from the query around it, and first. One statement,
    not four: each costs the server and the driver about as much as a small read
    (docs/benchmarks.md, "Live results")."""
    statement = "SELECT pg_advisory_xact_lock(?, ?) AS locked"
    if bounded:
        statement = (
            "SELECT set_config('lock_timeout', '0', true) AS unbounded FROM ("
            f"{statement} FROM (SELECT set_config('lock_timeout', ?, true) AS bounded) AS waits"
            ") AS held"
        )
    if generic:
        statement = generic_after(statement)
    return statement


LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's error code when lock_timeout ran out


def _commit(trans: RootTransaction) -> None:
    trans.commit()


@contextmanager
def read(engine: Engine) -> Iterator[Connection]:
    """A read transaction: every statement of it sees the database as it was at one moment.

    SQLite's transactions are so. PostgreSQL's default isolation (``READ COMMITTED``) takes a new
    snapshot for each statement: a write committed between two reads (a live post while a page
    reads a league's games, then their sides) would be seen by one and not the other. A read
    runs at ``REPEATABLE READ`` there (where a transaction that only reads is never refused); the
    writes at ``READ COMMITTED`` (:func:`_writes_read_committed`)."""
    try:
        with engine.connect() as conn, _one_snapshot(conn), conn.begin():
            try:
                yield conn
            finally:
                after_commit.drop(conn)  # a read stores nothing: nothing to learn from it
    except OperationalError as exc:
        raise _busy_or_raise(exc) from None


@contextmanager
def _one_snapshot(conn: Connection) -> Iterator[None]:
    """On PostgreSQL, the transaction begun within runs at ``REPEATABLE READ`` (psycopg begins it
    so: no statement more); the connection is back at ``READ COMMITTED`` after it
    (:func:`_writes_read_committed`)."""
    if is_sqlite(conn):
        yield
        return
    from psycopg import IsolationLevel

    driver = conn.connection.driver_connection
    driver.isolation_level = IsolationLevel.REPEATABLE_READ  # type: ignore[union-attr]
    try:
        yield
    finally:
        try:
            driver.isolation_level = IsolationLevel.READ_COMMITTED  # type: ignore[union-attr]
        except Exception:  # a connection the server cut: the read's own error is the one to
            # raise (a 503 for the site); the connection is never lent again at that level (a
            # write beginning at REPEATABLE READ would read from before the lock was had)
            with contextlib.suppress(Exception):
                conn.invalidate()


def _busy_or_raise(exc: OperationalError | sqlite3.OperationalError) -> Exception:
    orig = getattr(exc, "orig", None)
    text = str(orig) if orig is not None else str(exc)
    if unreachable(exc):  # by its kind, before the words below
        return UnavailableError(unavailable_text(), text.strip())
    if "locked" in text or "busy" in text or "lock timeout" in text:
        return BusyError(busy_text())
    return EloleagueError(msg("database error: {detail}", detail=text.strip()))


# PostgreSQL's SQLSTATEs of a server that cut or refused the connection: its connection exceptions
# (class 08) and its shutting down or starting up (57P01-57P03).
_GONE = ("08", "57P01", "57P02", "57P03")


def unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` (SQLAlchemy's, or the driver's) says that PostgreSQL could not be reached
    or cut the connection, rather than refusing a statement: what a restart of the server or a
    network cut gives, and sending the request again later cures."""
    if getattr(exc, "connection_invalidated", False):  # SQLAlchemy saw the connection die
        return True
    orig = getattr(exc, "orig", exc)
    if not type(orig).__module__.startswith("psycopg"):  # SQLite: a file, never unreachable
        return False
    import psycopg  # only once PostgreSQL is in use

    if not isinstance(orig, psycopg.OperationalError):
        return False
    return orig.sqlstate is None or orig.sqlstate.startswith(_GONE)


def unavailable_text() -> str:
    """What a request is told when the database cannot be reached."""
    return msg(
        "the database cannot be reached at the moment; nothing was changed: send the request "
        "again in a moment"
    )


# Migrations -------------------------------------------------------------------------------------


# The newest migration in store/migrations/versions (a test holds it equal to Alembic's head): a
# database already at it opens without importing Alembic, which costs every command a second.
HEAD = "0019"  # an event's games by date, by index (0019_event_games_by_date.py)


def _alembic_config() -> Config:
    from alembic.config import Config

    cfg = Config()
    location = resources.files("eloleague.store") / "migrations"
    cfg.set_main_option("script_location", str(location))
    return cfg


def head_revision() -> str:
    """The newest migration shipped with this version of eloleague (read by Alembic)."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(_alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    """The migration the database is at (``None`` for an empty database)."""
    with engine.connect() as conn:
        if not inspect(conn).has_table("alembic_version"):
            return None
        value = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        return str(value) if value is not None else None


# PostgreSQL advisory lock held while migrating ("eloleagu" in ASCII): two first starts at once
# (two `init`, several web workers) migrate one after the other, the second finding it done.
MIGRATION_LOCK = 0x656C6F6C65616775


def migrate(engine: Engine) -> None:
    """Bring the database's schema to the newest migration (a no-op when it is current).

    One process at a time: SQLite's write lock, or PostgreSQL's advisory lock
    :data:`MIGRATION_LOCK` (held until the migration's transaction ends); whoever waited finds
    the schema current and does nothing.
    """
    try:
        if current_revision(engine) == HEAD:
            return
        from alembic import command

        cfg = _alembic_config()
        if is_sqlite(engine):
            _migrate_sqlite(engine, cfg)
            return
        with write(engine) as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
    except EloleagueError:
        raise
    except OperationalError as exc:
        if "not a database" not in str(exc.orig):
            raise _busy_or_raise(exc) from None
        raise _not_ours(engine, exc) from None
    except DatabaseError as exc:  # e.g. SQLite's "file is not a database"
        raise _not_ours(engine, exc) from None


def _migrate_sqlite(engine: Engine, cfg: Config) -> None:
    """SQLite's migrations with its foreign keys off, as SQLite asks for a table rebuilt by a
    migration (a column with a constraint is added by copying the table): with them on,
    dropping the old ``games`` table deleted every game's players (``ON DELETE CASCADE``).
    The keys are checked before the migration commits, and turned on again after."""
    from alembic import command

    with engine.connect() as raw:
        dbapi = raw.connection.dbapi_connection
        assert dbapi is not None
        dbapi.execute("PRAGMA foreign_keys = OFF")  # outside a transaction: inside, a no-op
        try:
            conn = raw.execution_options(**{_WRITE: True})
            with conn.begin():
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
                broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise EloleagueError(
                        msg_plural(
                            "the database could not be brought up to date: {count} row refers "
                            "to a row that does not exist (table {table}); nothing was changed",
                            "the database could not be brought up to date: {count} rows refer "
                            "to rows that do not exist (table {table}); nothing was changed",
                            len(broken),
                            table=broken[0][0],
                        )
                    )
        finally:
            dbapi.execute("PRAGMA foreign_keys = ON")


def _not_ours(engine: Engine, exc: DatabaseError) -> EloleagueError:
    where = engine.url.render_as_string(hide_password=True)
    return EloleagueError(
        msg(
            "{db} is not an eloleague database, or it is damaged ({detail})",
            db=engine.url.database if is_sqlite(engine) else where,
            detail=str(exc.orig) if exc.orig is not None else str(exc),
        )
    )
