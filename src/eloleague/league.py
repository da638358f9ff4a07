"""The league service: what a ranking officer runs a community with.

A :class:`League` lives in a database (a SQLite file by default, or PostgreSQL) next to other
leagues, with its rule set stored as TOML text. Games are the source of truth; every change
(imported games, a corrected or deleted game, merged players, a rule change, a season closing)
is written and followed, in the same transaction, by a recompute of the ledger and the ratings from
the earliest date it touches (:mod:`eloleague.store.recompute`), whose result equals a full replay.

>>> league = League.create("club.db", "Bataille Empire", "bataille-empire")  # doctest: +SKIP
>>> league.import_file("austerlitz.jsonl").summary()  # doctest: +SKIP
>>> league.ranking(top=10)  # doctest: +SKIP

The command line (``eloleague init/import/ranking/...``) and the web site are thin shells over this.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol, TextIO, TypeVar, cast

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError

from eloleague.batch import read_initial
from eloleague.engine import (
    GLOBAL_ROLE,
    EngineState,
    LedgerEntry,
    ReplayResult,
    Standing,
    replay,
    running_ratings,
    standings,
)
from eloleague.engine.methods import by_place
from eloleague.engine.replay import processing_order
from eloleague.engine.seasons import season_end
from eloleague.engine.standings import first_of_each
from eloleague.engine.validate import unrated_reason
from eloleague.errors import EloleagueError, InputError, LeagueExists, LookAlike, Problem
from eloleague.i18n import Text
from eloleague.io.games import (
    by_line,
    duplicate_ids,
    read_games,
    rule_problems,
    told_apart,
    unplayed,
    validate_games,
)
from eloleague.io.limits import ID_MAX, NAME_MAX, ROUND_MAX, game_number, storable, text_problem
from eloleague.io.ratings_csv import parse_identities, parse_initial
from eloleague.memory import no_gc
from eloleague.records import GameRecord, PoolKey, PoolState, normalise_name
from eloleague.rules import load_rules, parse_rules, preset_names
from eloleague.rules.model import RuleSet
from eloleague.store import checkpoints as cps
from eloleague.store import closings, exports, imports, imports_together, pending
from eloleague.store import db as store_db
from eloleague.store import journal as store_journal
from eloleague.store.bulk import (
    all_kept,
    deferred_indexes,
    drop_ahead,
    hold_for_commit,
    keep_ahead,
    read_ahead,
    refresh_statistics,
    to_date,
)
from eloleague.store.derived import active_player_ids, read_ledger, read_ratings, write_ratings
from eloleague.store.event_places import (
    EventPlace,
    EventSheet,
    from_sheets,
    place_of,
    set_places,
)
from eloleague.store.events import event_count, event_game_ids, event_named, event_summaries
from eloleague.store.faces import Face, league_names, league_rows, read_face, read_logo, write_face
from eloleague.store.games import (
    StoredGame,
    content_hash,
    delete_games,
    game_by_id,
    game_by_number,
    game_ids,
    game_labels,
    label,
    label_of,
    load_games,
    next_seq,
    player_game_ids,
    player_game_labels,
    set_content_hash,
)
from eloleague.store.games import (
    totals as game_totals,
)
from eloleague.store.group_commit import (
    NotTogether,
    Queued,
    Reads,
    Together,
    Write,
    group_of,
    run_now,
)
from eloleague.store.identity import (
    Identity,
    ambiguous,
    by_federation_id,
    clubs_and_regions,
    identities,
    identities_by_name,
    namesakes_of,
    player_ids_in,
    register,
    set_identity,
)
from eloleague.store.imports_together import Post
from eloleague.store.leagues import RULES_READ, add_league, read_rules, set_rules, starting_list
from eloleague.store.messages import engine_text, msg, msg_plural
from eloleague.store.players import (
    add_alias,
    alias_rows,
    aliases_of,
    create_players,
    delete_player,
    forget_folded,
    lookup_names,
    move_player,
    name_index,
    names_in_games,
    player_named,
    player_names,
    rename_player,
    similar_names,
)
from eloleague.store.ranking import (
    PlaceInPool,
    RankingFilter,
    RankingPage,
    game_span,
    player_places,
    present_pools,
    ranking_page,
)
from eloleague.store.recompute import (
    Progress,
    Recomputed,
    effective_as_of,
    initial_pools,
    last_game_date,
    recompute,
    touched_date,
)
from eloleague.store.reports import (
    STARTING,
    EventReport,
    EventSummary,
    GameExplanation,
    ImportReport,
    PlayerReport,
    RatingChange,
)
from eloleague.store.revisions import bump_revision, revision_of
from eloleague.store.verify import Resume, Verification
from eloleague.store.verify import verify as store_verify
from eloleague.store.wal import LogCopier, copy_in_background
from eloleague.store.writer_turn import WriterTurn

__all__ = [
    "EventReport",
    "EventSummary",
    "GameExplanation",
    "ImportReport",
    "League",
    "PlayerReport",
    "Queued",
    "RatingChange",
    "WriterTurn",
    "write_now",
]

_ENGINES: dict[str, Engine] = {}

T = TypeVar("T")


class Notes(Protocol):
    """Writes of an import whose answers nobody reads (its journal entry, its kept answer);
    ``journal=False``: the kept answer only, the caller noting the import in the journal
    (imports written together: :meth:`League._import_together`)."""

    def __call__(self, conn: Connection, report: ImportReport, journal: bool = True) -> None: ...


_KEPT_ANSWERS = 64  # questions a League object keeps the answers of (League._remembered)
_RULES_READ = "eloleague.rules_read"  # conn.info: the league whose rules its transaction read


def engine_for(db: str | Engine | None) -> Engine:
    """The engine of ``db`` (a URL, a file path, ``None`` for the default, or an engine), with its
    schema migrated to the newest version. Engines are shared per URL within a process.
    """
    if isinstance(db, Engine):
        store_db.migrate(db)
        return db
    url = store_db.database_url(db)
    engine = _ENGINES.get(url)
    if engine is None:
        engine = store_db.connect(url)
        store_db.migrate(engine)
        _ENGINES[url] = engine
    return engine


def copy_log_in_background(engine: Engine) -> LogCopier | None:
    """SQLite's log of ``engine`` copied into its database by a thread of this process, for a
    server that keeps it open (``eloleague serve``, :meth:`League.copy_log_in_background`):
    docs/league.md, "Live results". ``None`` on PostgreSQL."""
    return copy_in_background(engine)


def write_now(imports: Sequence[Queued[Any]]) -> bool:
    """Run imports made ready (:meth:`League.import_later`) in this thread at once, one
    transaction per database (SQLite) or league (PostgreSQL), where that needs no wait: no other
    write of the process running or queued, the lock had at once. Whether all of them ran; the
    others run when their ``result()`` is asked. A server's event loop writes small posts so
    (docs/league.md, "Live results")."""
    return run_now(imports)


def _guard_reads(
    guards: Sequence[Callable[[Connection], None] | None],
) -> list[tuple[str, Sequence[Any]]]:
    """The reads the guards of imports make (``guard.reads``, see :meth:`League.import_games`)."""
    return [read for guard in guards for read in getattr(guard, "reads", ())]


def _existing(db: str | Engine | None) -> str | Engine | None:
    """``db``, when it is an engine, a server URL or a SQLite file that exists."""
    if not isinstance(db, Engine):
        missing = store_db.missing_sqlite_file(db)
        if missing is not None:
            raise EloleagueError(
                msg(
                    "{file}: no such database; check --db, or create a league there with "
                    "eloleague init --rules PRESET_OR_FILE --db {file}",
                    file=str(missing),
                )
            )
    return db


def backup_database(db: str | Engine | None, path: str | Path) -> Path:
    """Copy the whole database (every league, the accounts) into a new SQLite file at
    ``path``: a consistent snapshot, safe while the database is in use."""
    return exports.backup(engine_for(_existing(db)), Path(path))


def _rules_source(rules: str | Path) -> tuple[str, str]:
    """(TOML text, where it came from) of a preset name or a rule file path."""
    path = Path(rules)
    if path.suffix == ".toml" or path.is_file():
        load_rules(path)  # validates, with the file's name in errors
        return path.read_text("utf-8"), str(path)
    from eloleague.rules import preset_text

    return preset_text(str(rules)), f"preset {rules}"


def utc_today() -> dt.date:
    """Today's date in UTC (the date games are checked against: :func:`~eloleague.io.games.
    unplayed`)."""
    return dt.datetime.now(dt.UTC).date()


def utc_now() -> dt.datetime:
    """The time now, in UTC (what the journal's entries of imports are stamped with)."""
    return dt.datetime.now(dt.UTC)


def _players_changed(report: ImportReport) -> int:
    """How many players' ratings an import (or a correction) changed, for the journal."""
    return len({c.key.player for c in report.rating_changes})


class League:
    """One league of a database: its rule set, players, events, games and derived ratings."""

    def __init__(self, engine: Engine, league_id: int, name: str, rules_text: str) -> None:
        self.engine = engine
        self.id = league_id
        self.name = name
        self.rules_text = rules_text
        self.rules: RuleSet = parse_rules(rules_text, f"league {name}")
        # Called as progress(done, total) while a recompute replays games (the CLI's bar).
        self.progress: Progress | None = None
        # Seconds a write waits for another write to the league before giving up with
        # BusyError (None: SQLite's busy timeout, a minute; no bound on PostgreSQL). The web
        # site bounds it.
        self.write_wait: float | None = None
        # What reads computed, by question, with the league's revision they were computed at.
        self._kept: dict[Hashable, tuple[int, object]] = {}
        # The date of today (UTC): games dated after tomorrow are refused (io.games.unplayed).
        self.today: Callable[[], dt.date] = utc_today
        # The time now (UTC): an import's journal entry, and the run it joins, go by it.
        self.now: Callable[[], dt.datetime] = utc_now

    def __repr__(self) -> str:
        return f"League({self.name!r}, rules={self.rules.name!r})"

    # Opening ---------------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        db: str | Engine | None,
        name: str,
        rules: str | Path,
        *,
        user: str | None = None,
        initial: str | Path | None = None,
        initial_text: str | None = None,
        initial_source: str | None = None,
    ) -> League:
        """Create a league named ``name`` with a preset or a rule file (stored as its text).

        ``initial``: the ratings CSV a federation publishes (the columns of ``eloleague rate``'s
        output, read as ``rate --initial`` reads it): the league starts from those ratings and
        games counts, and every replay from its first game starts from them. ``initial_text``
        (and the name of its file, ``initial_source``): the same CSV as text (an upload).
        """
        name = name.strip()
        if not name:
            raise EloleagueError(msg("a league needs a name"))
        text, source = _rules_source(rules)
        rule_set = parse_rules(text, source)
        start: dict[PoolKey, PoolState] = {}
        if initial is not None:
            path = Path(initial)
            start = read_initial(path, rule_set)
            initial_text, initial_source = path.read_text("utf-8"), path.name
        elif initial_text is not None:
            initial_text = initial_text.removeprefix("\ufeff")
            initial_source = initial_source or "initial.csv"
            start, problems = parse_initial(initial_text, rule_set)
            if problems:
                raise InputError(problems, initial_source)
            if not start:
                raise InputError([Problem("", msg("the file holds no rating"))], initial_source)
        engine = engine_for(db)
        try:
            with store_db.write(engine) as conn:
                league_id = add_league(
                    conn,
                    name,
                    text,
                    source,
                    initial_text=initial_text,
                    initial_source=initial_source,
                )
                league = cls(engine, league_id, name, text)
                store_journal.note(conn, league_id, "create", user, rules=league.rules.name)
                if start:
                    ids = create_players(conn, league_id, [key.player for key in start])
                    write_ratings(conn, league_id, start, ids)
                    for who, (fid, club, region) in parse_identities(initial_text or "").items():
                        if who in ids:
                            set_identity(
                                conn,
                                league_id,
                                ids[who],
                                federation_id=fid,
                                club=club,
                                region=region,
                            )
                    store_journal.note(
                        conn,
                        league_id,
                        "initial",
                        user,
                        players=len(ids),
                        pools=len(start),
                        source=initial_source,
                    )
        except IntegrityError:
            raise LeagueExists(
                msg("a league named {name!r} already exists in this database", name=name), name
            ) from None
        return league

    @classmethod
    def open(cls, db: str | Engine | None = None, name: str | None = None) -> League:
        """Open the league ``name`` (optional when the database holds exactly one league).

        A SQLite file that does not exist is an error (a mistyped ``--db`` must not silently
        create an empty database); :meth:`create` makes it.
        """
        engine = engine_for(_existing(db))
        with store_db.read(engine) as conn:
            rows = league_rows(conn)
        if not rows:
            raise EloleagueError(
                msg(
                    "this database holds no league yet: create one with "
                    "eloleague init --rules PRESET_OR_FILE [--league NAME] (presets: {presets})",
                    presets=", ".join(preset_names()),
                )
            )
        if name is None:
            if len(rows) > 1:
                raise EloleagueError(
                    msg(
                        "this database holds several leagues: choose one with --league ({leagues})",
                        leagues=", ".join(title for _, title, _ in rows),
                    )
                )
            row = rows[0]
        else:
            found = [r for r in rows if r[1] == name.strip()]
            if not found:
                raise EloleagueError(
                    msg(
                        "no league named {name!r} in this database (leagues: {leagues})",
                        name=name,
                        leagues=", ".join(title for _, title, _ in rows),
                    )
                )
            row = found[0]
        return cls(engine, *row)

    @staticmethod
    def names(db: str | Engine | None = None) -> list[str]:
        """The names of the leagues in the database, sorted."""
        engine = engine_for(_existing(db))
        with store_db.read(engine) as conn:
            return league_names(conn)

    @staticmethod
    def rows(engine: Engine, name: str | None = None) -> list[tuple[int, str, str]]:
        """``(id, name, rules text)`` of every league, by name (or of the league ``name``), read
        in one transaction: what a server opens a League with (``League(engine, *row)``). The
        engine is used as it is (a server migrated its schema once, when it started)."""
        with store_db.read(engine) as conn:
            return League.rows_in(conn, name)

    @staticmethod
    def rows_in(conn: Connection, name: str | None = None) -> list[tuple[int, str, str]]:
        """:meth:`rows` in the caller's transaction (a game server's post reads its token's
        account in the same one: :func:`eloleague.accounts.user_for_token_and`)."""
        if name is not None and not storable(name):  # no league has it (NUL: a PostgreSQL error)
            return []
        return league_rows(conn, name)

    # Transactions ----------------------------------------------------------------------------

    @contextmanager
    def _writing(self, *, commit: bool = True) -> Iterator[Connection]:
        """A write transaction holding the league's lock (SQLite: the database's write lock;
        PostgreSQL: the league's advisory lock), rules reloaded (another process may have changed
        them). Waits at most :attr:`write_wait` for another write, then raises BusyError."""
        with (
            store_db.queued(self.engine, self.id, self.write_wait) as wait,
            self._transaction(wait, commit=commit) as conn,
        ):
            yield conn

    @contextmanager
    def _transaction(
        self,
        wait: float | None,
        *,
        commit: bool = True,
        bump: bool = True,
        ahead: Reads | None = None,
    ) -> Iterator[Connection]:
        """The write transaction of :meth:`_writing`, once the process's turn has come.
        ``bump``: change the league's revision at the end (else each write does it).
        ``ahead(conn)``: reads the first write of the transaction makes before it writes
        anything, run with the lock (on PostgreSQL in its round trip) and kept for that write
        (:func:`~eloleague.store.bulk.kept_ahead`)."""
        with no_gc(), store_db.write(self.engine, commit=commit, wait=wait) as conn:
            reads = ahead(conn) if ahead is not None else []
            # The rules are read once the lock is had (on PostgreSQL in the same round trip).
            rules, *found = store_db.lock_league(
                conn, self.id, wait, then=[(RULES_READ, (self.id,)), *reads]
            )
            self._take_rules(rules)
            conn.info[_RULES_READ] = self.id
            keep_ahead(conn, reads, found)
            try:
                yield conn
            finally:
                conn.info.pop(_RULES_READ, None)
                drop_ahead(conn)
            if commit:
                if bump:
                    bump_revision(conn, self.id)  # what processes kept of the league is stale
                refresh_statistics(conn)  # query plans for a grown league

    def _refresh_rules(self, conn: Connection) -> None:
        """The league's rules as stored, read again unless this transaction began with them
        (another process may have changed them meanwhile)."""
        if conn.info.get(_RULES_READ) != self.id:  # on SQLite, another league's transaction
            self._take_rules(read_rules(conn, self.id))

    def _take_rules(self, rows: Sequence[Any]) -> None:
        if not rows:
            raise EloleagueError(msg("the league {name!r} no longer exists", name=self.name))
        if rows[0][0] != self.rules_text:
            self.rules_text = rows[0][0]
            self.rules = parse_rules(self.rules_text, f"league {self.name}")

    def _write_grouped(
        self,
        body: Callable[[Connection], T],
        games: int,
        notes: Callable[[Connection, T], None] | None = None,
        ahead: Reads | None = None,
        together: Together[T] | None = None,
    ) -> T:
        """``body(conn)`` in a write transaction shared with the other writes of this process
        queued for the league meanwhile (:mod:`eloleague.store.group_commit`); its result once
        that transaction committed. Raises what ``body`` raised (its write alone undone), or
        what made the transaction fail (:class:`~eloleague.errors.BusyError` past
        :attr:`write_wait`). ``notes(conn, result)``: writes whose answers nobody reads (the
        journal's entry), sent with the league's revision (on PostgreSQL in one round trip).
        ``ahead(conn)``: reads ``body`` begins with (see :meth:`_transaction`), made with the
        lock when this write is the transaction's first. ``together``: how it may be applied
        with the writes of its kind queued next to it (:class:`~eloleague.store.group_commit.
        Together`)."""
        return self._queued(body, games, notes, ahead, together).result()

    def _queued(
        self,
        body: Callable[[Connection], T],
        games: int,
        notes: Callable[[Connection, T], None] | None = None,
        ahead: Reads | None = None,
        together: Together[T] | None = None,
        then: Callable[[T], T] | None = None,
    ) -> Queued[T]:
        """The write of :meth:`_write_grouped`, made ready, not run yet."""

        def alone(conn: Connection) -> T:
            self._refresh_rules(conn)
            try:
                done = body(conn)
            finally:  # the reads made ahead for it were its own: none reaches the next write
                drop_ahead(conn)
            hold_for_commit(conn)  # PostgreSQL: the notes in the commit's round trip
            if notes is not None:
                notes(conn, done)
            # Each write its own league's: on SQLite the writes of every league of the
            # database queue together (one write lock), and share another league's transaction.
            bump_revision(conn, self.id)
            return done

        def transaction(
            wait: float | None, ahead: Reads | None
        ) -> AbstractContextManager[Connection]:
            return self._transaction(wait, bump=False, ahead=ahead)

        group = group_of(store_db.group_key(self.engine, self.id))
        write = Write(alone, games, ahead, together)
        return Queued(group, write, transaction, self.write_wait, then)

    @property
    def writers_turn(self) -> WriterTurn | None:
        """The writers' turn of the league's SQLite file, which every process writing to it
        takes (docs/league.md, "Writers in several processes"), for a thread that must not wait
        for it (:meth:`WriterTurn.ask`); ``None`` on PostgreSQL."""
        return store_db.writer_turn(self.engine)

    @property
    def writes_here(self) -> bool:
        """Whether a write is this process's own work (SQLite: the file is written by this
        process) rather than round trips to a server (PostgreSQL)."""
        return store_db.is_sqlite(self.engine)

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        with no_gc(), store_db.read(self.engine) as conn:
            yield conn

    def kept(self, question: Hashable, answer: Callable[[], T]) -> T:
        """``answer()`` (what a shell computes from the league, e.g. a page of the ranking as the
        site shows it), computed again only when the league changed since it was last asked.
        The revision is read before ``answer`` reads: a write in between only makes the next
        question compute again. The answer is shared: callers must not change it."""
        with self._reading() as conn:
            revision = revision_of(conn, self.id)
        found = self._kept.get(question)
        if found is not None and found[0] == revision:
            return cast(T, found[1])
        value = answer()
        self._keep(question, revision, value)
        return value

    def _keep(self, question: Hashable, revision: int, value: object) -> None:
        if len(self._kept) >= _KEPT_ANSWERS:
            self._kept.pop(next(iter(self._kept)), None)  # the oldest question
        self._kept[question] = (revision, value)

    def _remembered(self, question: Hashable, answer: Callable[[Connection], T]) -> T:
        """``answer(conn)``, computed again only when the league changed since it was last
        asked: the league's revision is read in the same snapshot as the answer. A server keeps
        its League objects, so a page of the ranking read a thousand times between two results
        is computed once; every write (in any process) raises the revision."""
        with self._reading() as conn:
            revision = revision_of(conn, self.id)
            kept = self._kept.get(question)
            if kept is not None and kept[0] == revision:
                return cast(T, kept[1])
            value = answer(conn)
        self._keep(question, revision, value)
        return value

    def _recompute(self, conn: Connection, since: dt.date | None) -> Recomputed:
        # A full recompute rewrites the whole ledger: its indexes are rebuilt once, at the end.
        count = next_seq(conn, self.id) - 1 if since is None else 0
        with deferred_indexes(conn, ("ledger",), count):
            return recompute(
                conn,
                self.id,
                self.rules,
                player_names(conn, self.id),
                since=since,
                progress=self.progress,
            )

    def _recompute_noted(
        self,
        conn: Connection,
        since: dt.date | None,
        before: Mapping[PoolKey, PoolState],
        action: str,
        user: str | None,
        *,
        games: int = 0,
        **detail: object,
    ) -> Recomputed:
        """Recompute from ``since`` and note the change in the journal, with how many players'
        ratings it changed from ``before`` (the ratings read when the transaction began)."""
        result = self._recompute(conn, since)
        changed = store_journal.players_changed(before, result.pools)
        store_journal.note(conn, self.id, action, user, games=games, players=changed, **detail)
        return result

    def _map_names(self, conn: Connection, mapping: Mapping[str, str], source: str) -> None:
        """Make each mapped spelling an alias of its registered player (refused, with every
        problem, when a target is not a registered player or a spelling already names another)."""
        index = name_index(conn, self.id)
        problems = []
        for spelling, target in mapping.items():
            where = f"--map {spelling}={target}"
            if target not in index:
                problems.append(
                    Problem(where, msg("no player named {name!r} to map to", name=target))
                )
            elif spelling in index and index[spelling] != index[target]:
                problems.append(
                    Problem(
                        where,
                        msg(
                            "{spelling!r} is already another player: to make them one, use "
                            "eloleague player merge",
                            spelling=spelling,
                        ),
                    )
                )
        if problems:
            raise InputError(problems, source)
        for spelling, target in mapping.items():
            if spelling not in index:
                add_alias(conn, self.id, spelling, index[target])

    def _note_change(
        self,
        conn: Connection,
        report: ImportReport,
        action: str,
        user: str | None,
        **detail: object,
    ) -> None:
        if report.changed and not report.dry_run:
            store_journal.note(
                conn,
                self.id,
                action,
                user,
                games=report.added + report.replaced,
                players=_players_changed(report),
                **detail,
            )

    def _note_import(
        self, conn: Connection, report: ImportReport, user: str | None, source: str
    ) -> None:
        """Note an import that changed something: in the run of the user's imports from the
        source this hour when it replaced nothing (a game server's posts: docs/league.md,
        "The journal")."""
        if report.changed and not report.dry_run:
            store_journal.note_import(
                conn,
                self.id,
                user,
                source,
                added=report.added,
                replaced=report.replaced,
                players=_players_changed(report),
                at=self.now(),
            )

    def journal(self, limit: int = 100) -> list[store_journal.JournalEntry]:
        """The newest ``limit`` changes made to the league, newest first (who, when, what, how
        many games and players' ratings each changed)."""
        with self._reading() as conn:
            return store_journal.entries(conn, self.id, limit)

    def _touch(self, conn: Connection, dated: Sequence[GameRecord]) -> dt.date | None:
        return touched_date(conn, self.id, self.rules, dated)

    # Imports ---------------------------------------------------------------------------------

    def import_file(
        self,
        path: str | Path,
        *,
        dry_run: bool = False,
        update: bool = False,
        user: str | None = None,
        names: Mapping[str, str] | None = None,
    ) -> ImportReport:
        """Import a games file (any format :func:`eloleague.io.read_games` reads); ``names``
        maps spellings of the file to registered players (see :meth:`import_games`).

        Raises :class:`InputError` with every problem (nothing stored) when the file is bad.
        """
        path = Path(path)
        places: list[EventPlace] = []
        records, warnings = self.read_file(path, events=places)
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        return self.import_games(
            records,
            source=path.name,
            content_hash=digest,
            dry_run=dry_run,
            update=update,
            user=user,
            file_warnings=warnings,
            names=names,
            event_places=places,
            _checked=True,  # read_games ran the rule set's checks
        )

    def read_file(
        self,
        path: str | Path,
        *,
        lang: str | None = None,
        events: list[EventPlace] | None = None,
    ) -> tuple[list[GameRecord], list[Problem]]:
        """Read and check a games file against the league's rules (and its date: no game dated
        after tomorrow): its games, and the file's warnings (a workbook's: names that look like
        a registered player's, located by sheet, row and column, in ``lang`` or the workbook's
        language). Raises :class:`InputError`.
        """

        def registered() -> Iterator[str]:  # read from the database only for a workbook
            yield from self.players()

        warnings: list[Problem] = []
        sheets: list[EventSheet] = []
        with no_gc():
            records = read_games(
                path,
                self.rules,
                lang=lang,
                warnings=warnings,
                known_players=registered(),
                events=sheets,
                today=self.today(),
            )
        if events is not None:  # a workbook's event sheet: its place and referee
            events.extend(from_sheets(sheets))
        return records, warnings

    def import_games(
        self,
        games_in: Sequence[GameRecord],
        *,
        source: str,
        content_hash: str | None = None,
        dry_run: bool = False,
        update: bool = False,
        user: str | None = None,
        file_warnings: Sequence[Problem] = (),
        names: Mapping[str, str] | None = None,
        answer: Callable[[ImportReport], str] | None = None,
        event_places: Sequence[EventPlace] = (),
        guard: Callable[[Connection], None] | None = None,
        _checked: bool = False,
    ) -> ImportReport:
        """Add games to the league in one transaction, then recompute from the earliest date they
        touch. Idempotent: a game already stored (same id and content, or same content without
        id) is counted as unchanged. A game whose id exists with other content is refused unless
        ``update`` (then it replaces the stored one, keeping its place in the order). With
        ``dry_run`` everything is computed and reported, then rolled back. ``file_warnings``
        (from :meth:`read_file`) go into the report; a new name a file warning already located
        is not reported twice.

        ``names`` maps names as the input spells them to registered players (``{"Sophie
        Girad": "Sophie Girard"}``): those games are imported under the registered name, and
        the spelling becomes an alias of that player, so the next file that uses it is
        recognised (a dry run shows the same and stores nothing). ``event_places``: the place
        and referee of the events, as a workbook's event sheet gives them (:meth:`read_file`).

        ``answer``: for a program that answers the import to a client (the API), the text to
        keep with it, in the same transaction, under ``content_hash`` (:meth:`posted_answer`
        gives it to a retry of the same request).

        ``guard(conn)``: a check made in the import's transaction before anything is stored;
        what it raises refuses the import, nothing stored (the API checks there that a token
        this process knows is still its officer's: :func:`eloleague.accounts.known_officer`).
        A guard may list the reads it makes as ``guard.reads`` (``(sql, parameters)`` pairs):
        they are made with the league's lock, on PostgreSQL in its round trip.

        Games that sort after every stored game take the append path (docs/league.md, "Live
        results"): their cost is that of the games, not of the league.

        Raises :class:`InputError` (every problem, nothing stored) on bad input, and
        :class:`~eloleague.errors.BusyError` when another write held the league longer than
        :attr:`write_wait` (nothing stored: the same call can be made again).
        """
        return self.import_later(
            games_in,
            source=source,
            content_hash=content_hash,
            dry_run=dry_run,
            update=update,
            user=user,
            file_warnings=file_warnings,
            names=names,
            answer=answer,
            event_places=event_places,
            guard=guard,
            _checked=_checked,
        ).result()

    def _refusals(self, records: Sequence[GameRecord], *, checked: bool = False) -> list[Problem]:
        """Every problem that refuses ``records``, line after line: the rules' checks (only the
        ids used twice, when a reader checked the rest: validate_games finds those too, a
        workbook's reader does not), and each game dated after tomorrow (:func:`~eloleague.io.
        games.unplayed`, by :attr:`today`)."""
        found = duplicate_ids(records) if checked else validate_games(self.rules, records)
        return by_line([*found, *unplayed(records, self.today())])

    def import_later(
        self,
        games_in: Sequence[GameRecord],
        *,
        source: str,
        content_hash: str | None = None,
        dry_run: bool = False,
        update: bool = False,
        user: str | None = None,
        file_warnings: Sequence[Problem] = (),
        names: Mapping[str, str] | None = None,
        answer: Callable[[ImportReport], str] | None = None,
        event_places: Sequence[EventPlace] = (),
        guard: Callable[[Connection], None] | None = None,
        _checked: bool = False,
    ) -> Queued[ImportReport]:
        """:meth:`import_games` checked and made ready, not run yet (:class:`InputError` at
        once; a dry run is made at once): its ``result()`` is the report, waiting for it if
        needed. A server's event loop runs several at once with :func:`write_now`, when that
        needs no wait (docs/league.md, "Live results")."""
        records, mapping = _mapped(games_in, names)
        _checked = _checked and not mapping  # a mapped name may now meet itself in a game
        problems = self._refusals(records, checked=_checked)
        if problems:
            raise InputError(problems, source)

        def with_warnings(report: ImportReport) -> ImportReport:
            if not file_warnings:
                return report
            located = {normalise_name(w.name) for w in file_warnings if isinstance(w, LookAlike)}
            return replace(
                report,
                file_warnings=list(file_warnings),
                name_warnings=[w for w in report.name_warnings if w.name not in located],
            )

        def body(conn: Connection) -> ImportReport:
            if guard is not None:
                guard(conn)
            if mapping:
                self._map_names(conn, mapping, source)
            report = imports.apply(
                conn,
                self.id,
                self.rules,
                records,
                source=source,
                digest=content_hash,
                dry_run=dry_run,
                update=update,
                user=user,
                progress=self.progress,
            )
            set_places(conn, self.id, event_places)
            return report

        def notes(conn: Connection, report: ImportReport, journal: bool = True) -> None:
            if journal:
                self._note_import(conn, report, user, source)
            if answer is not None and content_hash is not None and report.changed:
                imports.keep_answer(conn, self.id, content_hash, answer(report))

        if dry_run:  # rolled back: alone (and nothing noted: a dry run changes nothing)
            with self._writing(commit=False) as conn:
                report = body(conn)
        else:  # games posted at once by several clients commit together
            # The import's first reads go with the lock (PostgreSQL: one round trip less), unless
            # names are mapped first: their aliases are written before the reads.
            def ahead(conn: Connection) -> list[tuple[str, Sequence[Any]]]:
                if mapping:
                    return []
                return imports.reads_ahead(
                    conn, self.id, records, content_hash, also=_guard_reads([guard])
                )

            # Plain imports queued together are applied as one (store/imports_together.py).
            together = (
                None
                if mapping or update or event_places
                else Together(
                    ("import", self.id),
                    (Post(records, source, content_hash, user), notes, guard),
                    self._import_together,
                    self._together_reads,
                )
            )
            return self._queued(body, len(records), notes, ahead, together, with_warnings)
        return Queued.answered(with_warnings(report))

    def _import_together(
        self,
        conn: Connection,
        parts: list[tuple[Post, Notes, Callable[[Connection], None] | None]],
    ) -> list[ImportReport]:
        """The imports of several writes applied as one (:meth:`import_games` queued together):
        each one's report, each noted as it would have been alone. A write whose guard refuses
        it cannot join: it is applied alone, and refused there."""
        self._refresh_rules(conn)
        guards = [guard for _, _, guard in parts]
        reads = self._together_reads(conn, parts)
        if not reads or not all_kept(conn, reads):  # kept for the first write alone: read again
            drop_ahead(conn)
        # PostgreSQL: read with the lock when these writes opened the transaction, else now, in
        # one round trip
        with read_ahead(conn, reads):
            for n, guard in enumerate(guards):
                try:
                    if guard is not None:
                        guard(conn)
                except Exception:
                    raise NotTogether(n) from None
            posts = [post for post, _, _ in parts]
            reports = imports_together.apply_writes(conn, self.id, self.rules, posts)
        hold_for_commit(conn)
        done = []
        for (post, notes, _), report in zip(parts, reports, strict=True):
            notes(conn, report, journal=False)
            done.append((post, report))
        self._note_imports(conn, done)
        bump_revision(conn, self.id)
        return reports

    def _note_imports(self, conn: Connection, done: Sequence[tuple[Post, ImportReport]]) -> None:
        """The journal's notes of imports written together, as each would have been noted in
        turn: those of one user from one source (a game server's posts) in one statement, their
        run counting each of them (docs/league.md, "The journal"); an import that replaced games
        has an entry of its own, noted in turn as alone."""
        if any(report.replaced for _, report in done):
            for post, report in done:
                self._note_import(conn, report, post.user, post.source)
            return
        runs: dict[tuple[str | None, str], list[ImportReport]] = {}
        for post, report in done:
            if report.changed and not report.dry_run:
                runs.setdefault((post.user, post.source), []).append(report)
        for (user, source), reports in runs.items():
            store_journal.note_import(
                conn,
                self.id,
                user,
                source,
                added=sum(r.added for r in reports),
                replaced=0,
                players=sum(_players_changed(r) for r in reports),
                at=self.now(),
                imports=len(reports),
            )

    def _together_reads(
        self,
        conn: Connection,
        parts: list[tuple[Post, Notes, Callable[[Connection], None] | None]],
    ) -> list[tuple[str, Sequence[Any]]]:
        """The reads :meth:`_import_together` begins with: its guards' and its imports'."""
        posts = [post for post, _, _ in parts]
        guards = [guard for _, _, guard in parts]
        return [*_guard_reads(guards), *imports_together.reads(conn, self.id, posts)]

    def copy_log_in_background(self) -> LogCopier | None:
        """For a program that keeps the league open and posts results as they come: SQLite's
        log is copied into the database by a thread of this process instead of by one write in
        a few hundred (docs/league.md, "Live results"). Once per database and process; ``close()``
        on what it returns stops it. ``None`` on PostgreSQL (nothing to do)."""
        return copy_log_in_background(self.engine)

    def posted_answer(self, content_hash: str) -> str | None:
        """The answer kept by the :meth:`import_games` that stored a request of this digest."""
        with self._reading() as conn:
            return imports.kept_answer(conn, self.id, content_hash)

    # Uploads waiting for an officer ------------------------------------------------------------

    def hold_upload(self, user_id: int, filename: str, content: bytes) -> int:
        """Keep a checked result file until an officer confirms it; its number (the same file
        sent again by the same user while it waits is the same upload)."""
        with store_db.write(self.engine) as conn:
            return pending.hold(conn, self.id, user_id, filename, content)

    def pending_uploads(self) -> list[pending.Pending]:
        """The uploads waiting for an officer, oldest first."""
        with self._reading() as conn:
            return pending.waiting(conn, self.id)

    def pending_upload(self, upload_id: int) -> tuple[pending.Pending, bytes]:
        """An upload of this league and its bytes (or :class:`EloleagueError`)."""
        with self._reading() as conn:
            return self._upload(conn, upload_id)

    def _upload(self, conn: Connection, upload_id: int) -> tuple[pending.Pending, bytes]:
        found = pending.load(conn, self.id, upload_id)
        if found is None:
            raise EloleagueError(msg("no upload number {n} in this league", n=upload_id))
        return found

    def confirm_upload(
        self,
        upload_id: int,
        records: Sequence[GameRecord],
        *,
        content_hash: str | None = None,
        user: str | None = None,
        names: Mapping[str, str] | None = None,
        event_places: Sequence[EventPlace] = (),
    ) -> ImportReport:
        """Import the games of a waiting upload (read from its bytes by the caller) and mark it
        imported, in one transaction: a crash leaves it waiting and the league unchanged.
        ``names`` maps spellings to registered players, as in :meth:`import_games`."""
        records, mapping = _mapped(records, names)
        problems = self._refusals(records)
        if problems:
            raise InputError(problems, msg("upload {upload}", upload=upload_id))
        with self._writing() as conn:
            if mapping:
                self._map_names(conn, mapping, msg("upload {upload}", upload=upload_id))
            item, _ = self._upload(conn, upload_id)
            if item.status != pending.PENDING:
                raise EloleagueError(
                    msg("upload {n} was already {status}", n=upload_id, status=item.status)
                )
            report = imports.apply(
                conn,
                self.id,
                self.rules,
                list(records),
                source=item.filename,
                digest=content_hash,
                dry_run=False,
                update=False,
                user=user,
                progress=self.progress,
            )
            set_places(conn, self.id, event_places)
            pending.set_status(conn, upload_id, pending.IMPORTED)
            self._note_import(conn, report, user, item.filename)
        return report

    def reject_upload(self, upload_id: int) -> None:
        """Drop a waiting upload (an upload already imported or rejected stays as it is)."""
        with self._writing() as conn:
            if self._upload(conn, upload_id)[0].status == pending.PENDING:
                pending.set_status(conn, upload_id, pending.REJECTED)

    # Queries ---------------------------------------------------------------------------------

    def ranking(
        self,
        *,
        mode: str | None = None,
        role: str | None = None,
        as_of: dt.date | None = None,
        top: int | None = None,
        active_since: dt.date | None = None,
        club: str | None = None,
        region: str | None = None,
    ) -> list[Standing]:
        """The ranking rows of docs/formats.md (titles included), current or as of a date.

        ``as_of``: the ranking as it stood then: the games dated on or before it, seasons ending
        before it applied (equal to ``eloleague rate`` of those games with ``--as-of``).
        ``active_since``: only players with a rated game dated on or after that day.
        ``club``, ``region``: only that club's or region's players (case ignored).
        ``top``: the first rows of each ranking (each mode's, each role's: ranks count in one).
        """
        with self._reading() as conn:
            names = player_names(conn, self.id)
            if as_of is None:
                pools = read_ratings(conn, self.id, names)
            else:
                pools = self._pools_as_of(conn, names, as_of)
            rows = standings(self.rules, pools)
            if active_since is not None:
                active = _active_players(conn, self.id, names, active_since, as_of)
                rows = [r for r in rows if r.player in active]
            members = player_ids_in(conn, self.id, club, region)
            if members is not None:  # one club's, one region's players (docs/league.md)
                kept = {names[pid] for pid in members}
                rows = [r for r in rows if r.player in kept]
        if mode is not None:
            rows = [r for r in rows if r.mode == mode]
        if role is not None and not (role == GLOBAL_ROLE and not self.rules.pools.by_role):
            rows = [r for r in rows if r.role == role]  # "*" without roles: every row, as the site
        if top is not None:
            rows = first_of_each(rows, top)
        return rows

    def _pools_as_of(
        self, conn: Connection, names: dict[int, str], as_of: dt.date
    ) -> dict[PoolKey, PoolState]:
        point = cps.load_checkpoint(conn, self.id, as_of, names, self.rules)
        tail = load_games(conn, self.id, names, since=point.date if point else None, until=as_of)
        result = replay(
            self.rules,
            [g.record for g in tail],
            initial=point.state if point else initial_pools(conn, self.id, self.rules),
            as_of=as_of,
        )
        return dict(result.pools)

    def replay_result(
        self, *, as_of: dt.date | None = None, rules: RuleSet | None = None
    ) -> ReplayResult:
        """A full engine replay of the league's games (dated on or before ``as_of``), with the
        league's rules or ``rules`` (to compare rule sets: raises :class:`InputError` when a game
        does not fit them).
        """
        with self._reading() as conn:
            result, _, _, _ = self._full_replay(
                conn, rules or self.rules, as_of=as_of, checked=rules is None
            )
        return result

    def _full_replay(
        self,
        conn: Connection,
        rules: RuleSet,
        *,
        as_of: dt.date | None = None,
        checked: bool = True,
        reference: bool = False,
    ) -> tuple[ReplayResult, list[StoredGame], dict[int, str], dict[PoolKey, PoolState]]:
        """The replay of :meth:`replay_result`, the games it replayed, the players' names by id
        and the ratings the league started from, read in ``conn``'s snapshot (``checked``: the
        games fit ``rules``, the league's own; ``reference``: the engine's reference code, not
        its compiled path)."""
        names = player_names(conn, self.id)
        stored = load_games(conn, self.id, names, until=as_of)
        when = as_of or effective_as_of(conn, self.id)
        start = initial_pools(conn, self.id, rules)
        records = [g.record for g in stored]
        if not checked:
            problems = validate_games(rules, records)
            if problems:
                raise InputError(
                    problems,
                    msg("league {league} under {rules}", league=self.name, rules=rules.name),
                )
        result = replay(rules, records, initial=start or None, as_of=when, reference=reference)
        return result, stored, names, start

    def verify(self, *, reference: bool = False) -> Verification:
        """Whether the stored ledger, current ratings and the state kept for live results are
        exactly what a full replay of the league's games gives (docs/league.md, "Checking a
        league"): every difference, all read in one snapshot (a write made meanwhile is not half
        seen). ``reference``: replay with the engine's reference code instead of its compiled
        path (slower; the two give the same results). Nothing is written: :meth:`recompute`
        repairs what differs."""
        with self._reading() as conn:
            self._refresh_rules(conn)
            rules = self.rules
            result, stored, names, start = self._full_replay(conn, rules, reference=reference)
            pks = {g.record.id or "": g.pk for g in stored}
            records = [g.record for g in stored]

            def resumed(games: Sequence[GameRecord], state: EngineState) -> tuple[EngineState, int]:
                done = replay(rules, games, initial=state, reference=reference)
                return done.state, len(done.ledger)

            resume = Resume(
                [records[i] for i in processing_order(records)],
                EngineState.from_pools(start) if start else EngineState(),
                resumed,
            )
            return store_verify(conn, self.id, result, len(stored), pks, names, resume)

    def ranking_page(
        self, wanted: RankingFilter | None = None, page: int = 1, per_page: int = 50
    ) -> RankingPage:
        """One page of the current ranking read from the stored ratings (the site and the API):
        rows with their competition rank, title and trend since the last event began."""
        wanted = wanted or RankingFilter()
        return self._remembered(
            ("ranking", wanted, page, per_page),
            lambda conn: ranking_page(conn, self.id, self.rules, wanted, page, per_page),
        )

    def face(self) -> Face:
        """The league's display name, description, colour and whether it has a logo."""
        with self._reading() as conn:
            return read_face(conn, self.id)

    def logo(self) -> tuple[bytes, str] | None:
        """The league's logo and its media type (PNG or JPEG), if it has one."""
        with self._reading() as conn:
            return read_logo(conn, self.id)

    def set_face(self, face: Face, logo: bytes | None = None, *, keep_logo: bool = True) -> None:
        """Set what the public site shows of the league (docs/web.md, "The league's face"); a
        logo must be a PNG or JPEG image of at most 256 KB, the colour one of
        :data:`eloleague.store.faces.COLOURS`. Without ``logo``, the stored one stays unless
        ``keep_logo`` is false."""
        with self._writing() as conn:
            write_face(conn, self.id, face, logo, keep_logo=keep_logo)

    def current_pools(self) -> dict[PoolKey, PoolState]:
        """Every pool's stored current rating and games."""
        with self._reading() as conn:
            return read_ratings(conn, self.id, player_names(conn, self.id))

    def pools_of(self, names: Iterable[str]) -> tuple[dict[PoolKey, PoolState], dict[str, str]]:
        """The stored current pools of the players ``names`` spell (as the league writes names:
        :func:`~eloleague.records.normalise_name`), an alias giving its player's, and the aliases
        among ``names`` with the name of the player each stands for. What a prediction for a few
        players needs, read for them alone: :meth:`current_pools` reads every pool of the league
        (23 ms among 10,000 players, docs/benchmarks.md, "Web site"). A name that is not
        the league's is simply absent."""
        aliased: dict[str, str] = {}
        with self._reading() as conn:
            ids = lookup_names(conn, self.id, list(dict.fromkeys(names)), aliased)
            named = {pk: aliased.get(name, name) for name, pk in ids.items()}
            return read_ratings(conn, self.id, named, of_names=True), aliased

    def rated_as_of(self) -> dt.date | None:
        """The day the stored ratings stand at: the last game's, or the day after the latest
        closed season when that is later."""
        with self._reading() as conn:
            return effective_as_of(conn, self.id)

    def game_span(self) -> tuple[dt.date | None, dt.date | None]:
        """The dates of the league's first and last games (``None`` without games)."""
        with self._reading() as conn:
            return game_span(conn, self.id)

    def present_pools(self) -> dict[tuple[str, str], int]:
        """The pools (mode, role) that have ratings, with how many players each ranks."""
        return dict(self._remembered(("pools",), lambda conn: present_pools(conn, self.id)))

    def ranks(self, name: str) -> dict[tuple[str, str], PlaceInPool]:
        """The player's competition rank in each of her pools and global rows, in the whole
        current ranking (``{(mode, role): place}``)."""
        with self._reading() as conn:
            return player_places(conn, self.id, self.rules, self._player_id(conn, name))

    def players(self) -> list[str]:
        """The registered players' names, sorted."""
        with self._reading() as conn:
            return sorted(player_names(conn, self.id).values())

    # Player identity (docs/league.md, "Player identity") -----------------------------------------

    def identity(self, name: str) -> Identity:
        """A player's federation id, club and region (each ``None`` when unknown)."""
        with self._reading() as conn:
            pid = self._player_id(conn, name)
            return identities(conn, self.id, [pid]).get(pid, Identity())

    def identities(self, names: Sequence[str] | None = None) -> dict[str, Identity]:
        """``{player name: identity}`` of the players who have an id, a club or a region (of
        ``names`` only, when given: a page's players)."""
        key = None if names is None else tuple(names)
        return dict(
            self._remembered(
                ("identities", key), lambda conn: identities_by_name(conn, self.id, names)
            )
        )

    def clubs_and_regions(self) -> tuple[list[str], list[str]]:
        """The league's clubs and regions, sorted (empty lists when no player has one)."""
        clubs, regions = self._remembered(
            ("clubs and regions",), lambda conn: clubs_and_regions(conn, self.id)
        )
        return list(clubs), list(regions)

    def add_player(
        self,
        name: str,
        *,
        federation_id: str | None = None,
        club: str | None = None,
        region: str | None = None,
        user: str | None = None,
    ) -> str:
        """Register a player before her first game (a federation's member list); returns her
        name in the league: ``"name (id)"`` when another player has the same name
        (docs/league.md, "Player identity"). A federation id another player holds is refused;
        a name already registered without an id gets the id."""
        name = normalise_name(name)
        who = Identity(
            *(_identity_text(v, what) for v, what in _identity_fields(federation_id, club, region))
        )
        wrong = text_problem(Text.in_domain("messages", "the name"), name) if name else None
        if not name:
            raise EloleagueError(msg("a player needs a name"))
        if wrong is not None:
            raise EloleagueError(engine_text(wrong))
        with self._writing() as conn:
            if who.federation_id is None and name in name_index(conn, self.id):
                raise EloleagueError(
                    msg(
                        "{name!r} is already a player of league {league!r}",
                        name=name,
                        league=self.name,
                    )
                )
            shared = namesakes_of(conn, self.id, [name]).get(name)
            if who.federation_id is None and shared:
                raise ambiguous(name, shared)
            if who.federation_id is not None:
                holder = by_federation_id(conn, self.id, who.federation_id)
                if holder is not None:
                    raise EloleagueError(
                        msg(
                            "the id {id!r} is already {name!r}'s",
                            id=who.federation_id,
                            name=player_names(conn, self.id)[holder],
                        )
                    )
            _pid, label, _new = register(conn, self.id, name, who)
            forget_folded()
            store_journal.note(conn, self.id, "player_add", user, name=label)
            return label

    def edit_player(
        self,
        name: str,
        *,
        federation_id: str | None = None,
        club: str | None = None,
        region: str | None = None,
        clear: Sequence[str] = (),
        user: str | None = None,
    ) -> Identity:
        """Set a player's federation id, club or region (what is given; ``clear`` names the
        fields to empty: ``"federation_id"``, ``"club"``, ``"region"``). Ratings do not change.
        Returns her identity after the change."""
        unknown = [c for c in clear if c not in ("federation_id", "club", "region")]
        if unknown:
            raise EloleagueError(msg("unknown field {field!r}", field=unknown[0]))
        values = [
            _identity_text(v, what) for v, what in _identity_fields(federation_id, club, region)
        ]
        with self._writing() as conn:
            pid = self._player_id(conn, name)
            set_identity(
                conn,
                self.id,
                pid,
                federation_id=values[0],
                club=values[1],
                region=values[2],
                clear=clear,
            )
            store_journal.note(
                conn, self.id, "player_edit", user, name=player_names(conn, self.id)[pid]
            )
            return identities(conn, self.id, [pid]).get(pid, Identity())

    def _event_id(self, conn: Connection, name: str) -> int:
        event_id = event_named(conn, self.id, name.strip()) if storable(name.strip()) else None
        if event_id is None:
            raise EloleagueError(
                msg("no event named {name!r} in league {league!r}", name=name, league=self.name)
            )
        return event_id

    def _player_id(self, conn: Connection, name: str) -> int:
        wanted = normalise_name(name)
        if not storable(wanted):  # no player has it (a NUL would be a PostgreSQL error)
            raise EloleagueError(
                msg("no player named {name!r} in league {league!r}", name=wanted, league=self.name)
            )
        exact = player_named(conn, self.id, wanted)  # the usual case: the player's own name
        if exact is not None:
            return exact
        shared = namesakes_of(conn, self.id, [wanted]).get(wanted)
        if shared:  # a plain name two players share: say which ones
            raise ambiguous(wanted, shared)
        by_id = by_federation_id(conn, self.id, wanted)  # a licence number names her too
        if by_id is not None:
            return by_id
        index = name_index(conn, self.id)
        if wanted in index:
            return index[wanted]
        hints = similar_names([wanted], player_names(conn, self.id).values())
        if hints:
            raise EloleagueError(
                msg(
                    'no player named {name!r} in league {league!r} (did you mean "{likely}"?)',
                    name=wanted,
                    league=self.name,
                    likely=hints[0].likely,
                )
            )
        raise EloleagueError(
            msg("no player named {name!r} in league {league!r}", name=wanted, league=self.name)
        )

    def _find_game(self, conn: Connection, game_id: str) -> tuple[int, int, str | None]:
        """(row id, seq, ext id) of the game named ``game_id`` (its id, or ``#SEQ``)."""
        found = None
        if storable(game_id):  # an id no game can have is not looked for (NUL on PostgreSQL)
            found = game_by_id(conn, self.id, game_id)
        number = game_number(game_id)
        if found is None and number is not None and number <= ROUND_MAX:
            found = game_by_number(conn, self.id, number)
        if found is None:
            raise EloleagueError(
                msg("no game {id!r} in league {league!r}", id=game_id, league=self.name)
            )
        return found

    def _labels(self, conn: Connection) -> dict[int, str]:
        return game_labels(conn, self.id)

    def ledger(self, *, player: str | None = None, game: str | None = None) -> list[LedgerEntry]:
        """Ledger entries in processing order: all, one player's, or one game's."""
        with self._reading() as conn:
            names = player_names(conn, self.id)
            pid = self._player_id(conn, player) if player is not None else None
            gid = self._find_game(conn, game)[0] if game is not None else None
            labels = self._game_labels(conn, pid, gid)
            return read_ledger(conn, self.id, names, labels, player_id=pid, game_id=gid)

    def _game_labels(self, conn: Connection, pid: int | None, gid: int | None) -> dict[int, str]:
        if gid is not None:
            return {gid: label_of(conn, gid)}
        if pid is not None:
            return player_game_labels(conn, pid)
        return self._labels(conn)

    def explain(self, game_id: str) -> GameExplanation:
        """A game and its ledger entries: each player's rating before, P, K, S, delta, rules fired
        (in the order its sides are shown: by place under a rule set that ranks by score)."""
        with self._reading() as conn:
            names = player_names(conn, self.id)
            pk, seq, ext = self._find_game(conn, game_id)
            stored = load_games(conn, self.id, names, pks=[pk])[0]
            entries = read_ledger(conn, self.id, names, {pk: label(ext, seq)}, game_id=pk)
        reason = unrated_reason(self.rules, stored.record)
        return GameExplanation(
            stored.record,
            by_place(self.rules, stored.record, entries),
            engine_text(reason) if reason else None,
        )

    def player(self, name: str) -> PlayerReport:
        """A player's pools, title, aliases, ledger history and games (newest last)."""
        with self._reading() as conn:
            pid = self._player_id(conn, name)
            labels = self._game_labels(conn, pid, None)
            names = names_in_games(conn, self.id, list(labels), also=pid)  # not all the league's
            canonical = names[pid]
            aliases = aliases_of(conn, pid)
            pools = read_ratings(conn, self.id, names, player_id=pid)  # hers: titles, rows
            history = read_ledger(conn, self.id, names, labels, player_id=pid)
            played = load_games(conn, self.id, names, pks=list(labels))
            start, source = self._starting_entries(conn, canonical)
            history = start + history
        rows = [r for r in standings(self.rules, pools) if r.player == canonical]
        title = rows[0].title if rows else ""
        running = running_ratings(history, self.rules.updates != "per_game")
        return PlayerReport(
            canonical,
            aliases,
            rows,
            title,
            history,
            [g.record for g in played],
            running,
            source if start else None,
        )

    def _starting_entries(
        self, conn: Connection, name: str
    ) -> tuple[list[LedgerEntry], str | None]:
        """The player's starting ratings (docs/league.md, "Starting from published ratings") as
        history entries, the day before the league's first game (or the day the league was
        created), marked ``fired == ("initial",)``; and the list's file name. Read from the
        stored list, so corrections and recomputes keep them."""
        source, created = starting_list(conn, self.id)
        if source is None:
            return [], None
        pools = initial_pools(conn, self.id, self.rules)
        mine = [(key, pool) for key, pool in pools.items() if key.player == name]
        if not mine:
            return [], source
        first, _last = game_span(conn, self.id)
        if first is not None:
            day = to_date(first) - dt.timedelta(days=1)
        else:
            day = created.date() if isinstance(created, dt.datetime) else to_date(created)
        return [
            LedgerEntry.outside_game(key, day, pool.rating, 0.0, pool.rating, fired=(STARTING,))
            for key, pool in mine
        ], source

    def events(
        self, *, newest_first: bool = False, limit: int | None = None, offset: int = 0
    ) -> list[EventSummary]:
        """Events with their first and last date, games and players, oldest first (or newest
        first), ``limit`` of them from ``offset``: a page of a long history counts the players
        of its own events only."""
        with self._reading() as conn:
            return event_summaries(
                conn, self.id, newest_first=newest_first, limit=limit, offset=offset
            )

    def totals(self) -> tuple[int, int, dt.date | None]:
        """How many games and registered players the league holds, and its last game's date
        (``eloleague leagues``)."""
        with self._reading() as conn:
            return game_totals(conn, self.id)

    def event_count(self) -> int:
        """How many events hold at least one game."""
        with self._reading() as conn:
            return event_count(conn, self.id)

    def event(self, name: str) -> EventReport:
        """An event's games in arrival order, each with its ledger entries (in the order of
        :meth:`explain`)."""
        with self._reading() as conn:
            names = player_names(conn, self.id)
            event_id = self._event_id(conn, name)
            pks = event_game_ids(conn, event_id)
            place, referee = place_of(conn, event_id)
            stored = load_games(conn, self.id, names, pks=pks)
            labels = {g.pk: g.record.id or "" for g in stored}
            by_game: dict[str, list[LedgerEntry]] = defaultdict(list)
            for e in read_ledger(conn, self.id, names, labels, game_ids=pks):
                by_game[e.game].append(e)
        out = []
        for g in stored:
            reason = unrated_reason(self.rules, g.record)
            out.append(
                GameExplanation(
                    g.record,
                    by_place(self.rules, g.record, by_game.get(g.record.id or "", [])),
                    engine_text(reason) if reason else None,
                )
            )
        return EventReport(name.strip(), out, place, referee)

    def games(
        self, *, event: str | None = None, player: str | None = None, last: int | None = None
    ) -> list[GameRecord]:
        """The league's games in arrival order (optionally one event's, or one player's; with
        ``last``, the last ``last`` of them, read without the others).

        Each record's ``id`` is its id in the league: the source id, or ``#N`` (arrival number).
        An event or a player the league does not know is an :class:`EloleagueError`, as in
        :meth:`event` and :meth:`player` (a mistyped event listed no games, as if it had none).
        """
        with self._reading() as conn:
            names = player_names(conn, self.id)
            if event is not None:
                self._event_id(conn, event)
            pid = self._player_id(conn, player) if player is not None else None
            if event is None and player is None and last is None:
                stored = load_games(conn, self.id, names)
            else:
                wanted = event.strip() if event is not None else None
                pks = game_ids(conn, self.id, event=wanted, player_id=pid, last=last)
                stored = load_games(conn, self.id, names, pks=pks)
        return [g.record for g in stored]

    def closings(self) -> list[dt.date]:
        """The season ends closed explicitly, oldest first."""
        from eloleague.store.recompute import closings

        with self._reading() as conn:
            return closings(conn, self.id)

    def closings_after_last_game(self) -> list[dt.date]:
        """The closings no game file can carry: those of seasons with no game after them (an
        earlier closing is applied again by the next season's first game, docs/rule-sets.md)."""
        from eloleague.store.recompute import closings, last_game_date

        with self._reading() as conn:
            last = last_game_date(conn, self.id)
            return [d for d in closings(conn, self.id) if last is None or d >= last]

    def aliases(self) -> dict[str, str]:
        """Every alias (a name merged into another) and the player it names."""
        with self._reading() as conn:
            names = player_names(conn, self.id)
            rows = alias_rows(conn, self.id)
        return {alias: names[pid] for alias, pid in rows}

    # Corrections -----------------------------------------------------------------------------

    def correct_game(
        self, game_id: str, record: GameRecord, *, user: str | None = None
    ) -> ImportReport:
        """Replace the stored game ``game_id`` (its id, or ``#N``) by its corrected version, in
        one transaction: the league is seen before or after the correction, never between.

        A game with an id must keep it (deleting a game is :meth:`delete_game`); a game known
        only by its arrival number keeps that number. Ratings are recomputed from the earliest
        date the old or the new version touches. Raises :class:`InputError` on a bad game and
        :class:`EloleagueError` when ``game_id`` names no game.
        """
        source = msg("correction of {game}", game=game_id)  # translated where it is shown
        problems = self._refusals([record])
        if problems:
            raise InputError(problems, source)
        with self._writing() as conn:
            pk, _, ext_id = self._find_game(conn, game_id)
            if ext_id is not None and record.id != ext_id:
                raise EloleagueError(
                    msg(
                        'the corrected game must keep its id "{id}" (delete the game to remove it)',
                        id=ext_id,
                    )
                )
            report = imports.apply(
                conn,
                self.id,
                self.rules,
                [record],
                source=source,
                digest=None,
                dry_run=False,
                update=True,
                user=user,
                progress=self.progress,
                replacing=pk,
            )
            self._note_change(conn, report, "correct", user, game=game_id)
            return report

    def delete_game(self, game_id: str, *, user: str | None = None) -> None:
        """Delete a game and recompute from the start of its batch."""
        with self._writing() as conn:
            names = player_names(conn, self.id)
            before = read_ratings(conn, self.id, names)
            pk, _, _ = self._find_game(conn, game_id)
            old = load_games(conn, self.id, names, pks=[pk])
            touched = self._touch(conn, [g.record for g in old])
            delete_games(conn, [pk])
            self._recompute_noted(conn, touched, before, "delete", user, games=1, game=game_id)

    def rename_player(self, old: str, new: str, *, user: str | None = None) -> None:
        """Correct a player's name everywhere; the old spelling becomes an alias (later files
        that still use it go to the same player). Ratings do not change.
        """
        new = normalise_name(new)
        if not new:
            raise EloleagueError(msg("the new name is empty"))
        wrong = text_problem(Text.in_domain("messages", "the new name"), new)
        if wrong is not None:
            raise EloleagueError(engine_text(wrong))
        with self._writing() as conn:
            pid = self._player_id(conn, old)
            index = name_index(conn, self.id)
            if new in index and index[new] != pid:
                raise EloleagueError(
                    msg(
                        "{new!r} is already a player (or an alias of one) in league {league!r}: "
                        "to make them one player, use: `eloleague player merge {old!r} {new!r}`",
                        new=new,
                        old=old,
                        league=self.name,
                    )
                )
            current = player_names(conn, self.id)[pid]
            if current == new:
                return
            rename_player(conn, self.id, pid, new)
            add_alias(conn, self.id, current, pid)
            store_journal.note(conn, self.id, "rename", user, old=current, new=new)

    def merge_players(self, alias: str, into: str, *, user: str | None = None) -> None:
        """Make ``alias`` (a misspelling) the same player as ``into``: its games go to ``into``,
        its name becomes an alias, and ratings are recomputed from its first game.
        """
        with self._writing() as conn:
            names = player_names(conn, self.id)
            src = self._player_id(conn, alias)
            dst = self._player_id(conn, into)
            if src == dst:
                raise EloleagueError(
                    msg(
                        "{alias!r} and {into!r} are already the same player", alias=alias, into=into
                    )
                )
            before = read_ratings(conn, self.id, names)
            src_games = player_game_ids(conn, src)
            dst_games = player_game_ids(conn, dst)
            both = src_games & dst_games
            if both:
                labels = self._labels(conn)
                shown = ", ".join(sorted(labels[g] for g in both)[:10])
                raise EloleagueError(
                    msg_plural(
                        "cannot merge {alias!r} into {into!r}: they played in the same game "
                        "{games}, so they are two different players",
                        "cannot merge {alias!r} into {into!r}: they played in the same games "
                        "{games}, so they are two different players",
                        len(both),
                        alias=names[src],
                        into=names[dst],
                        games=shown,
                    )
                )
            moved = load_games(conn, self.id, names, pks=sorted(src_games))
            touched = self._touch(conn, [g.record for g in moved])
            move_player(conn, src, dst)
            # Content hashes name players by id: refresh those of the moved games.
            ids = {name: pk for pk, name in names.items()}
            for g in moved:
                record = imports.rename(g.record, {names[src]: names[dst]})
                set_content_hash(conn, g.pk, content_hash(record, ids))
            kept = _merged_identity(conn, self.id, src, dst, names)
            delete_player(conn, src)
            if kept:
                set_identity(
                    conn,
                    self.id,
                    dst,
                    federation_id=kept.federation_id,
                    club=kept.club,
                    region=kept.region,
                )
            add_alias(conn, self.id, names[src], dst)
            self._recompute_noted(
                conn,
                touched,
                before,
                "merge",
                user,
                games=len(moved),
                alias=names[src],
                into=names[dst],
            )

    def close_season(
        self,
        end: dt.date,
        *,
        user: str | None = None,
        today: dt.date | None = None,
        dry_run: bool = False,
    ) -> list[LedgerEntry]:
        """Declare the season ending on ``end`` closed: its inactivity adjustments
        apply to the stored ratings now, before a game of the next season arrives. Returns those
        adjustments (player, before, after, the rule that fired); with ``dry_run`` they are
        computed the same way and nothing is stored, so a closing applies exactly the list its
        dry run showed. :meth:`reopen_season` undoes it.

        A season that has not ended yet (``end`` after ``today``) cannot be closed: a mistyped
        year would otherwise apply decades of penalties at once.
        """
        today = today or dt.date.today()
        if end > today:
            raise EloleagueError(
                msg(
                    "the season ending {end} has not ended yet (today is {today})",
                    end=end.isoformat(),
                    today=today.isoformat(),
                )
            )
        expected_end = season_end(self.rules.season, end)
        if expected_end != end:
            if expected_end is None:
                raise EloleagueError(
                    msg(
                        "{end} is not the last day of a season of rule set {rules!r}",
                        end=end.isoformat(),
                        rules=self.rules.name,
                    )
                )
            raise EloleagueError(
                msg(
                    "{end} is not the last day of a season of rule set {rules!r} (that season "
                    "ends on {season_end})",
                    end=end.isoformat(),
                    rules=self.rules.name,
                    season_end=expected_end.isoformat(),
                )
            )
        with self._writing(commit=not dry_run) as conn:
            last = last_game_date(conn, self.id)
            if last is not None and last > end:
                raise EloleagueError(
                    msg(
                        "the season ending {end} is already applied: the league has games after "
                        "it (the latest on {last})",
                        end=end.isoformat(),
                        last=last.isoformat(),
                    )
                )
            if not closings.add(conn, self.id, end, user):
                raise EloleagueError(
                    msg("the season ending {end} is already closed", end=end.isoformat())
                )
            self._recompute(conn, last or end)
            applied = closings.adjustments(conn, self.id, player_names(conn, self.id), end)
            if not dry_run:
                store_journal.note(
                    conn,
                    self.id,
                    "close",
                    user,
                    players=len({e.key.player for e in applied}),
                    end=end.isoformat(),
                )
            return applied

    def reopen_season(self, end: dt.date, *, user: str | None = None) -> list[LedgerEntry]:
        """Undo the closing of the season ending ``end``: its adjustments are removed and the
        ratings recomputed (games are the source of truth; the closing was only a date). Returns
        the adjustments taken back. A season with games after it cannot be reopened: the first
        game of the next season applies its adjustments anyway.
        """
        with self._writing() as conn:
            last = last_game_date(conn, self.id)
            if last is not None and last > end:
                raise EloleagueError(
                    msg(
                        "the season ending {end} cannot be reopened: the league has games after "
                        "it (the latest on {last}), which apply its adjustments anyway",
                        end=end.isoformat(),
                        last=last.isoformat(),
                    )
                )
            names = player_names(conn, self.id)
            undone = closings.adjustments(conn, self.id, names, end)
            if not closings.remove(conn, self.id, end):
                raise EloleagueError(
                    msg("the season ending {end} is not closed", end=end.isoformat())
                )
            cps.drop_from(conn, self.id, end)
            self._recompute(conn, last or end)
            store_journal.note(
                conn,
                self.id,
                "reopen",
                user,
                players=len({e.key.player for e in undone}),
                end=end.isoformat(),
            )
            return undone

    def change_rules(self, rules: str | Path, *, user: str | None = None) -> None:
        """Replace the league's rule set and recompute everything (refused, with every problem,
        when a stored game does not fit the new rules).
        """
        text, source = _rules_source(rules)
        new_rules = parse_rules(text, source)
        with self._writing() as conn:
            names = player_names(conn, self.id)
            stored = load_games(conn, self.id, names)
            problems = rule_problems(new_rules, [g.record for g in stored])
            try:
                initial_pools(conn, self.id, new_rules)
            except InputError as exc:  # the published ratings must name the new rules' pools
                problems += exc.problems
            if problems:
                raise InputError(
                    problems,
                    msg("league {league} under {rules}", league=self.name, rules=new_rules.name),
                )
            set_rules(conn, self.id, text, source)
            old = self.rules.name
            before = read_ratings(conn, self.id, names)
            self.rules, self.rules_text = new_rules, text
            cps.drop_from(conn, self.id, None)
            self._recompute_noted(
                conn, None, before, "rules", user, games=len(stored), old=old, new=new_rules.name
            )

    def recompute(self, *, user: str | None = None) -> int:
        """Rebuild every derived table from the first game: the ledger, the current ratings,
        the checkpoints and the state kept for live results (a repair: never needed in normal
        use; what :meth:`verify` finds different becomes the replay's). Noted in the journal
        with how many players' ratings it changed, which it returns."""
        with self._writing() as conn:
            before = read_ratings(conn, self.id, player_names(conn, self.id))
            cps.drop_from(conn, self.id, None)
            result = self._recompute_noted(conn, None, before, "recompute", user)
        return store_journal.players_changed(before, result.pools)

    # Exports ---------------------------------------------------------------------------------

    def export_jsonl(self, out: TextIO) -> int:
        """Write every game as interchange JSON Lines (lossless; re-importing it into an empty
        league gives the same ratings). Returns the number of games."""
        with self._reading() as conn:
            stored = load_games(conn, self.id, player_names(conn, self.id))
            people = identities_by_name(conn, self.id)
        return exports.write_jsonl(stored, out, people)

    def export_csv(self, out: TextIO) -> int:
        """Write every game in the CSV long format. Returns the number of games."""
        with self._reading() as conn:
            stored = load_games(conn, self.id, player_names(conn, self.id))
            people = identities_by_name(conn, self.id)
        return exports.write_long_csv(stored, out, people)

    def backup(self, path: str | Path) -> Path:
        """Copy the whole database (every league) into a new SQLite file at ``path``."""
        return backup_database(self.engine, path)


# Helpers ----------------------------------------------------------------------------------------


def _mapped(
    records: Sequence[GameRecord], names: Mapping[str, str] | None
) -> tuple[list[GameRecord], dict[str, str]]:
    """The games with the names of ``names`` (a spelling to a registered player's name, as
    ``--map`` gives them) replaced, and the mapping, names normalised."""
    mapping = {normalise_name(k): normalise_name(v) for k, v in (names or {}).items()}
    records = told_apart(records)  # two players of one name, told apart by their ids
    if not mapping:
        return records, mapping
    return [imports.rename(g, mapping) for g in records], mapping


def _merged_identity(
    conn: Connection, league_id: int, src: int, dst: int, names: Mapping[int, str]
) -> Identity:
    """What a merge keeps of two players' identities: ``dst``'s, completed by ``src``'s. Two
    different federation ids are two people: the merge is refused."""
    found = identities(conn, league_id, [src, dst])
    a, b = found.get(src, Identity()), found.get(dst, Identity())
    if a.federation_id and b.federation_id and a.federation_id != b.federation_id:
        raise EloleagueError(
            msg(
                "cannot merge {alias!r} into {into!r}: their ids differ ({id_alias}, {id_into}), "
                "so they are two different players",
                alias=names[src],
                into=names[dst],
                id_alias=a.federation_id,
                id_into=b.federation_id,
            )
        )
    return Identity(b.federation_id or a.federation_id, b.club or a.club, b.region or a.region)


def _identity_fields(
    federation_id: str | None, club: str | None, region: str | None
) -> list[tuple[str | None, str]]:
    return [(federation_id, "the id"), (club, "the club"), (region, "the region")]


def _identity_text(value: str | None, what: str) -> str | None:
    """A federation id, club or region as given to ``player add/edit``: spaces tidied, refused
    when too long or holding a control character."""
    if value is None:
        return None
    value = " ".join(normalise_name(value).split())
    if not value:
        return None
    wrong = text_problem(
        Text.in_domain("messages", what), value, ID_MAX if what == "the id" else NAME_MAX
    )
    if wrong is not None:
        raise EloleagueError(engine_text(wrong))
    return value


def _active_players(
    conn: Connection,
    league_id: int,
    names: dict[int, str],
    since: dt.date,
    until: dt.date | None,
) -> set[str]:
    return {names[pid] for pid in active_player_ids(conn, league_id, since, until)}
