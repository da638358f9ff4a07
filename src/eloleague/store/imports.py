"""Imports into a league: which incoming games are new, already stored, or replace a stored one
(:func:`plan`), then storing them and recomputing (:func:`apply`).

A game with an id is matched by its id: the same content (its :func:`content_hash`) is already
there, other content is a conflict (refused) or, with ``update``, a replacement that keeps the
stored game's place in the arrival order. A game without id is matched by its content: as many
copies as are stored count as already there, the rest are new (the same game twice in a file is
kept twice). Names resolve to players through :func:`~eloleague.store.players.name_index`; an
alias becomes the player's name before hashing. Every lookup is batched: an import of a million
games runs a handful of queries, one of a hundred games reads only what it touches (the games
from the checkpoint it resumes from: usually none but its own, see :mod:`~eloleague.store.recompute`).
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, and_, func, select

from eloleague.engine import Unrated
from eloleague.errors import InputError, Problem, StoredConflict
from eloleague.i18n import Text
from eloleague.records import GameRecord, PoolKey, PoolState, replace
from eloleague.rules.model import RuleSet
from eloleague.store import live
from eloleague.store import tail as live_tail
from eloleague.store.bulk import (
    deferred_indexes,
    drop_ahead,
    each_looked_up,
    hold_for_commit,
    list_size,
    marks,
    one_of,
    one_row,
    read_ahead,
    run,
    stamp_param,
    start_held,
    to_stamp,
)
from eloleague.store.bulk import to_date as day_of
from eloleague.store.derived import adjustments_from, read_ratings
from eloleague.store.games import (
    LAST_SEQ,
    NewGame,
    content_hash,
    delete_games,
    insert_games,
    label,
    load_games,
    seq_after,
)
from eloleague.store.identity import namesakes_reads, resolve
from eloleague.store.messages import engine_text, msg
from eloleague.store.players import (
    NameWarning,
    checked_and_created,
    lookup_names,
    lookup_reads,
    name_index,
    newcomers_read,
    player_names,
)
from eloleague.store.recompute import Progress, recompute, starting_point, touched_date
from eloleague.store.reports import ImportReport, RatingChange
from eloleague.store.tables import games, import_batches

# Above this many incoming ids, one scan of the league's ids beats many ``IN (...)`` queries.
SCAN_FROM = 2000


@dataclass(frozen=True, slots=True)
class Stored:
    """A stored game an incoming one matched: row id, arrival number, date, content hash."""

    pk: int
    seq: int
    date: dt.date
    content_hash: str


@dataclass
class Plan:
    """What an import will do with each incoming game."""

    new: list[tuple[GameRecord, str]] = field(default_factory=list)
    replaced: list[tuple[GameRecord, str, Stored]] = field(default_factory=list)
    unchanged: int = 0
    conflicts: list[Problem] = field(default_factory=list)


def wanted_names(records: Sequence[GameRecord]) -> list[str]:
    """Every name in the games, once, in order of first appearance."""
    seen: dict[str, None] = {}
    for g in records:
        for side in g.sides:
            for p in side.players:
                seen[p.name] = None
    return list(seen)


def canonical_games(
    records: list[GameRecord],
    names: Sequence[str],
    index: Mapping[str, int],
    canonical: Mapping[int, str],
) -> list[GameRecord]:
    """The games with every alias replaced by its player's name (the same list when no game
    uses an alias)."""
    renames = {n: canonical[index[n]] for n in names if canonical[index[n]] != n}
    if not renames:
        return records
    return [
        rename(g, renames) if any(p.name in renames for p in g.participants) else g for g in records
    ]


def rename(game: GameRecord, renames: Mapping[str, str]) -> GameRecord:
    """The game with players renamed (``renames``: old name to new)."""
    if not renames:
        return game
    return game.with_players(lambda p: replace(p, name=renames.get(p.name, p.name)))


def plan(
    conn: Connection,
    league_id: int,
    records: Sequence[GameRecord],
    player_ids: Mapping[str, int],
    update: bool,
) -> Plan:
    """Sort incoming games (players already resolved) into new, unchanged, replaced, conflicts."""
    hashes = [content_hash(g, player_ids) for g in records]
    by_id = _stored_by_ext_id(conn, league_id, [g.id for g in records if g.id is not None])
    by_hash = _stored_by_hash(
        conn, league_id, [h for g, h in zip(records, hashes, strict=True) if g.id is None]
    )
    out = Plan()
    taken: Counter[str] = Counter()
    for g, h in zip(records, hashes, strict=True):
        if g.id is None:
            if taken[h] < by_hash.get(h, 0):
                taken[h] += 1
                out.unchanged += 1
            else:
                out.new.append((g, h))
            continue
        old = by_id.get(g.id)
        if old is None:
            out.new.append((g, h))
        elif old.content_hash == h:
            out.unchanged += 1
        elif update:
            out.replaced.append((g, h, old))
        else:
            out.conflicts.append(
                StoredConflict(
                    g.origin,
                    msg(
                        'game "{id}" is already in the league with different content '
                        "(dated {date})",
                        id=g.id,
                        date=old.date.isoformat(),
                    ),
                    g.id,
                )
            )
    return out


def correction(
    conn: Connection,
    league_id: int,
    record: GameRecord,
    player_ids: Mapping[str, int],
    stored_pk: int,
) -> Plan:
    """The plan of a correction: ``record`` replaces the stored game ``stored_pk`` where it stands
    (its arrival number kept, so ``#N`` still names it), or nothing when the content is the same.
    A game given an id that another stored game has is a conflict."""
    h = content_hash(record, player_ids)
    row = conn.execute(
        select(games.c.id, games.c.seq, games.c.date, games.c.content_hash).where(
            games.c.id == stored_pk
        )
    ).one()
    old = Stored(*row)
    if record.id is not None:
        other = _stored_by_ext_id(conn, league_id, [record.id]).get(record.id)
        if other is not None and other.pk != stored_pk:
            return Plan(
                conflicts=[
                    Problem(
                        record.origin,
                        msg(
                            'the id "{id}" is another game\'s (dated {date}): keep the '
                            "corrected game's own id, or give it one no other game has",
                            id=record.id,
                            date=other.date.isoformat(),
                        ),
                    )
                ]
            )
    if old.content_hash == h:
        return Plan(unchanged=1)
    return Plan(replaced=[(record, h, old)])


def changes(
    before: Mapping[PoolKey, PoolState],
    after: Mapping[PoolKey, PoolState],
    start: float,
    adjusted: Mapping[PoolKey, float] | None = None,
) -> list[RatingChange]:
    """The pools whose rating or games count differ, largest change first (a new pool's change
    counted from the ``start`` rating); ``adjusted``: the part of each pool's change made outside
    the games (:attr:`RatingChange.adjustment`)."""
    out = []
    adjusted = adjusted or {}
    for key, pool in after.items():
        old = before.get(key)
        if old is None or old.rating != pool.rating or old.games != pool.games:
            out.append(
                RatingChange(
                    key,
                    old.rating if old else None,
                    pool.rating,
                    old.games if old else 0,
                    pool.games,
                    start,
                    adjusted.get(key, 0.0),
                )
            )
    out.sort(key=lambda c: (-abs(c.delta), c.key.player))
    return out


def chunks(items: Sequence[str], size: int = 500) -> Iterator[Sequence[str]]:
    """``items`` in slices of ``size`` (bounded ``IN (...)`` lists)."""
    for i in range(0, len(items), size):
        yield items[i : i + size]


def _stored_by_ext_id(conn: Connection, league_id: int, ids: Sequence[str]) -> dict[str, Stored]:
    if not ids:
        return {}
    reads = _ext_id_reads(conn, league_id, ids)
    if reads is None:
        wanted = set(ids)
        cols = (games.c.ext_id, games.c.id, games.c.seq, games.c.date, games.c.content_hash)
        query = select(*cols).where(
            and_(games.c.league_id == league_id, games.c.ext_id.is_not(None))
        )
        rows: list[Any] = [r for r in conn.execute(query) if r[0] in wanted]
    else:
        rows = [
            (ext, pk, seq, day_of(date), digest)
            for sql, params in reads
            for ext, pk, seq, date, digest in run(conn, sql, params)
        ]
    return {ext: Stored(pk, seq, date, digest) for ext, pk, seq, date, digest in rows}


def _ext_id_reads(
    conn: Connection, league_id: int, ids: Sequence[str]
) -> list[tuple[str, tuple[Any, ...]]] | None:
    """The statements :func:`_stored_by_ext_id` runs for ``ids`` (``None``: it reads every
    stored id instead)."""
    if len(ids) > SCAN_FROM:
        return None
    if len(ids) == 1:  # a live game's: a read of one row, joined with the others (bulk.one_row)
        return [(_ONE_EXT_ID, (league_id, ids[0]))]
    if conn.dialect.name == "postgresql":
        return [(_EXT_IDS_PROBED, (list(ids), league_id))]
    reads = []
    for chunk in chunks(ids, list_size(conn)):
        listed, values = one_of(conn, chunk)
        reads.append(
            (
                "SELECT ext_id, id, seq, date, content_hash FROM games WHERE league_id = ? "
                f"AND ext_id {listed}",
                (league_id, *values),
            )
        )
    return reads


_ONE_EXT_ID = one_row(
    "SELECT ext_id, id, seq, date, content_hash FROM games WHERE league_id = ? AND ext_id = ?"
)

_EXT_IDS_PROBED = "SELECT g.ext_id, g.id, g.seq, g.date, g.content_hash FROM " + each_looked_up(
    "games", "ext_id, id, seq, date, content_hash", "ext_id", "g"
)
"""PostgreSQL: the stored games of many ids (an array, then the league), each looked up in the
index of ids: 2.2 ms for 1,000 ids, against 8.6 ms for ``ext_id = ANY(array)``, which read the
whole of a league of 100,000 games (and of any under about 600,000)."""


def _stored_by_hash(conn: Connection, league_id: int, hashes: Sequence[str]) -> Counter[str]:
    """How many id-less stored games have each content hash."""
    out: Counter[str] = Counter()
    for chunk in chunks(sorted(set(hashes))):
        query = (
            select(games.c.content_hash, func.count())
            .where(
                and_(
                    games.c.league_id == league_id,
                    games.c.ext_id.is_(None),
                    games.c.content_hash.in_(chunk),
                )
            )
            .group_by(games.c.content_hash)
        )
        out.update({k: v for k, v in conn.execute(query).all()})
    return out


KEPT_FOR = dt.timedelta(days=1)
"""How long the answer to an API post is kept for its retries. A retry of a lost answer comes
within seconds, or the next day from a game server that was down overnight; kept for good,
the answers of an online game's posts would grow the database as fast as its games (about
600 bytes a single-game post, 250 KB a post of 1,000 games). A retry of an older post still
adds nothing: it is answered as a post of games already there (``200``, counted unchanged)."""


FORGET_EVERY = 64
"""One answer kept in this many (in a process) also forgets the league's answers past
:data:`KEPT_FOR`: the statement cost a single-game post 0.013–0.017 ms on SQLite, 2 %, when
every post made it (docs/benchmarks.md, "Live results")."""

_kept = itertools.count()


def keep_answer(conn: Connection, league_id: int, digest: str, answer: str) -> None:
    """Keep ``answer`` with the batch the post of digest ``digest`` made (its retries get it);
    every :data:`FORGET_EVERY` answers, forget the league's older than :data:`KEPT_FOR` too (by
    their batch's time, found through the index of the batches that hold one), in the same
    transaction."""
    run(
        conn,
        "UPDATE import_batches SET answer = ? WHERE league_id = ? AND content_hash = ?",
        (answer, league_id, digest),
    )
    if next(_kept) % FORGET_EVERY:
        return
    cutoff = dt.datetime.now(dt.UTC) - KEPT_FOR
    run(
        conn,
        "UPDATE import_batches SET answer = NULL WHERE league_id = ? AND answer IS NOT NULL "
        "AND created_at < ?",
        (league_id, stamp_param(conn)(cutoff)),
    )


def kept_answer(conn: Connection, league_id: int, digest: str) -> str | None:
    """The answer kept for a post of digest ``digest`` (the first, if several)."""
    value: str | None = conn.execute(
        select(import_batches.c.answer)
        .where(
            and_(
                import_batches.c.league_id == league_id,
                import_batches.c.content_hash == digest,
                import_batches.c.answer.is_not(None),
            )
        )
        .order_by(import_batches.c.id)
        .limit(1)
    ).scalar()
    return value


@dataclass(frozen=True)
class Players:
    """An import's games with their players resolved (:func:`resolve_players`)."""

    records: list[GameRecord]  # every alias replaced by its player's name
    ids: dict[str, int]  # player id by name
    canonical: Mapping[int, str]  # name by player id: the import's players, or the league's
    small: bool  # only the import's own names were read
    new_names: list[str]  # players the import registered
    warnings: list[NameWarning]  # new names that look like registered players'


def resolve_players(
    conn: Connection,
    league_id: int,
    records: list[GameRecord],
    source: str,
    *,
    register: bool = True,
) -> Players:
    """Resolve the players of ``records``: players with an id (or a club, a region) are found by
    id, then by name, or registered (store/identity.py); then names resolve to players or
    aliases; unknown names become new players. A small import reads only its own names (the
    append path never reads the whole league). Raises :class:`InputError` (located at
    ``source``) when an identity cannot be resolved. Without ``register``, unknown names are
    only reported (``new_names``; nothing else is resolved); players with an id are still found
    or registered, so a caller that must write nothing leaves them out."""
    records, identified, problems = resolve(conn, league_id, records)
    if problems:
        raise InputError(problems, source)
    wanted = wanted_names(records)
    small = len(wanted) <= SCAN_FROM
    aliased: dict[str, str] = {}
    index = lookup_names(conn, league_id, wanted, aliased) if small else name_index(conn, league_id)
    unknown = [n for n in wanted if n not in index]
    if unknown and not register:
        return Players(records, {}, {}, small, identified + unknown, [])
    warnings, created = checked_and_created(conn, league_id, unknown) if unknown else ([], {})
    index.update(created)
    if small:  # a registered or new name is its player's; an alias came with its player's name
        canonical = {index[n]: aliased.get(n, n) for n in wanted}
    else:
        canonical = player_names(conn, league_id)
    records = canonical_games(records, wanted, index, canonical)
    ids = {name: pk for pk, name in canonical.items()}
    return Players(records, ids, canonical, small, identified + unknown, warnings)


_BATCH_COLUMNS = (
    "league_id, source, content_hash, created_at, user_name, added, replaced, unchanged"
)


def new_batch(
    conn: Connection,
    league_id: int,
    source: str,
    digest: str | None,
    user: str | None,
    todo: Plan,
    batch_id: int | None = None,
) -> tuple[str, tuple[Any, ...]]:
    """The statement that records an import (its batch) and returns the batch's id; given its
    id (reserved with the league's lock, :class:`~eloleague.store.live.Early`), the statement
    writing it under that id and returning nothing, which may go with the commit."""
    values = (
        league_id,
        source,
        digest,
        stamp_param(conn)(dt.datetime.now(dt.UTC)),
        user,
        len(todo.new),
        len(todo.replaced),
        todo.unchanged,
    )
    if batch_id is not None:
        return (
            f"INSERT INTO import_batches (id, {_BATCH_COLUMNS}) VALUES ({marks(9)})",
            (batch_id, *values),
        )
    return (
        f"INSERT INTO import_batches ({_BATCH_COLUMNS}) VALUES ({marks(8)}) RETURNING id",
        values,
    )


def apply(
    conn: Connection,
    league_id: int,
    rules: RuleSet,
    records: list[GameRecord],
    *,
    source: str,
    digest: str | None,
    dry_run: bool,
    update: bool,
    user: str | None,
    progress: Progress | None,
    replacing: int | None = None,
) -> ImportReport:
    """Import checked games in the caller's transaction (see :meth:`eloleague.league.League.
    import_games`): new players, then the plan, then the games stored and the ratings recomputed
    from the earliest date they touch. The report says what was done (``dry_run``: the caller
    rolls back). Raises :class:`InputError` when a game conflicts with a stored one.

    ``replacing``: the row id of a stored game that the one game of ``records`` corrects
    (:func:`correction`), whatever its id or content.
    """
    # On PostgreSQL the first reads go together, in one round trip instead of six (in the
    # league's lock's own when the caller read them with it, see reads_ahead).
    with read_ahead(conn, reads_ahead(conn, league_id, records, digest, replacing)):
        # PostgreSQL, a post of a few games: row ids reserved for it and its players' pools, if
        # they were read with the lock (live.Early)
        ahead = (
            live.early(conn, live.early_reads(conn, league_id, records, wanted_names(records)))
            if replacing is None
            else None
        )
        already = None if digest is None else posted_at(conn, league_id, digest)

        found = resolve_players(conn, league_id, records, source)
        records, ids, canonical, small = found.records, found.ids, found.canonical, found.small
        new_names, warnings = found.new_names, found.warnings

        if replacing is None:
            todo = plan(conn, league_id, records, ids, update)
        else:
            (record,) = records
            todo = correction(conn, league_id, record, ids, replacing)
        if todo.conflicts:
            raise InputError(todo.conflicts, source)
        # The tail, the next arrival number (read before a replaced game is deleted: the
        # replaced keep theirs, the new come after all).
        end = live_tail.from_rows(run(conn, live_tail.READ, (league_id,)))
        seq = seq_after(run(conn, LAST_SEQ, (league_id,)))
    new, replaced = todo.new, todo.replaced

    unrated: list[Text] = []
    rating_changes: list[RatingChange] = []
    replayed = 0
    if new or replaced:
        appending = (
            replacing is None
            and not replaced
            and live.appendable(conn, league_id, rules, end, [g for g, _ in new])
        )
        early = ahead if appending else None  # PostgreSQL: every write goes with the commit
        reserved = None if early is None else early.batch_id
        batch = new_batch(conn, league_id, source, digest, user, todo, reserved)
        if appending:
            assert end is not None
            to_insert = [NewGame(g, seq + n, h) for n, (g, h) in enumerate(new)]
            if early is not None:
                hold_for_commit(conn)
                run(conn, *batch)
                stored = insert_games(
                    conn, league_id, to_insert, ids, early.batch_id, row_ids=early.game_ids
                )
                start_held(conn)  # the server stores them while this process rates them
                fresh = early.with_new(ids[name] for name in new_names)
                appended = live.append(conn, league_id, rules, end, stored, ids, fresh)
            else:  # on PostgreSQL the batch, the games and the players' pools in one round trip
                pools = live.pools_ahead(conn, league_id, [g for g, _ in new], ids)
                try:
                    stored = insert_games(
                        conn, league_id, to_insert, ids, None, batch=batch, along=pools
                    )
                    appended = live.append(conn, league_id, rules, end, stored, ids)
                finally:
                    drop_ahead(conn)  # the pools, had the append not read them
            outcome = appended_outcome(appended, to_insert, rules.start_rating)
            return import_report(source, dry_run, todo, new_names, warnings, already, *outcome)
        ((batch_id,),) = run(conn, *batch)
        if small:  # the general path reads the whole league's players
            canonical = player_names(conn, league_id)
            ids = {name: pk for pk, name in canonical.items()}
        old_events = [
            g.record
            for g in load_games(conn, league_id, canonical, pks=[o.pk for _, _, o in replaced])
        ]
        touched = touched_date(
            conn, league_id, rules, [g for g, _ in new] + [g for g, _, _ in replaced] + old_events
        )
        # The games a recompute replays: those stored after its checkpoint, then the new ones.
        point = starting_point(conn, league_id, touched, canonical, rules)
        gone = {o.pk for _, _, o in replaced}
        tail = [
            g
            for g in load_games(conn, league_id, canonical, since=point.date if point else None)
            if g.pk not in gone
        ]
        delete_games(conn, sorted(gone))
        to_insert = [NewGame(g, o.seq, h) for g, h, o in replaced]
        for g, h in new:
            to_insert.append(NewGame(g, seq, h))
            seq += 1
        with deferred_indexes(
            conn, ("games", "side_players", "ledger"), len(to_insert) + len(tail)
        ):
            tail += insert_games(conn, league_id, to_insert, ids, batch_id)
            tail.sort(key=lambda g: g.seq)
            before = read_ratings(conn, league_id, canonical)
            position = point.ledger_pos if point is not None else 0
            adjusted_before = adjustments_from(conn, league_id, position, canonical)
            result = recompute(
                conn,
                league_id,
                rules,
                canonical,
                since=touched,
                progress=progress,
                preloaded=(point, tail),
            )
        replayed = result.replayed
        adjusted = adjustments_from(conn, league_id, position, canonical)
        for key, total in adjusted_before.items():  # what the recompute changed of them
            adjusted[key] = adjusted.get(key, 0.0) - total
        rating_changes = changes(before, result.pools, rules.start_rating, adjusted)
        unrated = unrated_texts(result.unrated, to_insert)
    return import_report(
        source,
        dry_run,
        todo,
        new_names,
        warnings,
        already,
        rating_changes,
        unrated,
        replayed,
    )


_POSTED = one_row(
    "SELECT min(created_at) FROM import_batches WHERE league_id = ? AND content_hash = ?"
)


def posted_read(league_id: int, digest: str) -> tuple[str, tuple[Any, ...]]:
    """The read of when the request ``digest`` was first imported (:func:`posted_at`), for a
    caller to read ahead."""
    return _POSTED, (league_id, digest)


def posted_at(conn: Connection, league_id: int, digest: str) -> dt.datetime | None:
    """When the request ``digest`` (its body's) was first imported into the league, or ``None``:
    a retry of a stored post gets the answer kept for it."""
    ((first,),) = run(conn, *posted_read(league_id, digest))
    return None if first is None else to_stamp(first)


def reads_ahead(
    conn: Connection,
    league_id: int,
    records: Sequence[GameRecord],
    digest: str | None,
    replacing: int | None = None,
    also: Sequence[tuple[str, Sequence[Any]]] = (),
    *,
    early: bool = True,
) -> list[tuple[str, Sequence[Any]]]:
    """The reads :func:`apply` begins with, known before it runs (:func:`~eloleague.store.bulk.
    read_ahead`; PostgreSQL only): whether the request was stored already, the names' namesakes,
    the names and aliases, the games' stored ids, the tail, the last arrival number. None when
    a player is identified (by an id, a club or a region): she may be registered before the
    names are read, which reads made ahead would not see.

    A caller may run them with the league's lock, in its round trip, and keep their rows
    (:func:`~eloleague.store.bulk.kept_ahead`) for the :func:`apply` that follows with nothing
    written in between: :func:`apply` then reads none of them again. ``also``: reads the
    caller makes first (a check of the poster's token), added on PostgreSQL. ``early``: also
    the reads that let a post of a few games send every write with the commit
    (:func:`~eloleague.store.live.early_reads`; not for posts written together)."""
    if conn.dialect.name != "postgresql":
        return []
    reads: list[tuple[str, Sequence[Any]]] = list(also)
    if any(p.identified for g in records for p in g.participants):
        return reads
    if digest is not None:
        reads.append(posted_read(league_id, digest))
    reads += [(live_tail.READ, (league_id,)), (LAST_SEQ, (league_id,))]
    names = wanted_names(records)
    namesakes = namesakes_reads(conn, league_id, names)
    if namesakes is None or len(names) > SCAN_FROM:  # the whole league's names are read
        return reads
    if replacing is None:  # next to the reads of one row above (joined with them: one_row)
        reads += _ext_id_reads(conn, league_id, [g.id for g in records if g.id is not None]) or []
    reads += namesakes
    reads += lookup_reads(conn, league_id, names)
    if replacing is None and early:
        early_ones = live.early_reads(conn, league_id, records, names)
        newcomers = newcomers_read(conn, league_id, names) if early_ones else None
        reads += early_ones + ([newcomers] if newcomers is not None else [])
    return reads


def unrated_texts(found: Sequence[Unrated], inserted: Sequence[NewGame]) -> list[Text]:
    """Why each of the inserted games that the replay did not rate is not rated."""
    labels = {label(g.record.id, g.seq) for g in inserted} if found else set()
    return [
        msg(
            "game {game} is not rated ({reason})",
            game=u.game.id or "?",
            reason=engine_text(u.reason),
        )
        for u in found
        if u.game.id in labels
    ]


def appended_outcome(
    appended: live.Appended, inserted: Sequence[NewGame], start: float
) -> tuple[list[RatingChange], list[Text], int]:
    """What games that took the append path did, as :func:`import_report` takes it: the rating
    changes (a new pool's from the ``start`` rating), why a game is not rated, the games
    replayed."""
    return (
        changes(appended.before, appended.after, start, appended.adjusted),
        unrated_texts(appended.unrated, inserted),
        appended.replayed,
    )


def import_report(
    source: str,
    dry_run: bool,
    todo: Plan,
    new_names: list[str],
    warnings: list[NameWarning],
    already: dt.datetime | None,
    rating_changes: list[RatingChange],
    unrated: list[Text],
    replayed: int,
) -> ImportReport:
    """What an import did, for its caller."""
    return ImportReport(
        source=source,
        dry_run=dry_run,
        added=len(todo.new),
        unchanged=todo.unchanged,
        replaced=len(todo.replaced),
        new_players=new_names,
        name_warnings=warnings,
        look_alikes=list(warnings),
        unrated=unrated,
        rating_changes=rating_changes,
        already_imported=already,
        replayed=replayed,
    )
