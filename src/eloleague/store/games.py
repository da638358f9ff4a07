"""Games in the database: content hashes, bulk inserts and loading them back as records.

A game is stored as one ``games`` row and one ``side_players`` row per participant (with its side's
outcome or score), players by id (so renaming a player rewrites nothing). Bulk paths use the
driver's cursor with plain tuples (:mod:`eloleague.store.bulk`, no ORM objects): a million games
go in and come out in seconds.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec
from sqlalchemy import Connection, and_, delete, func, insert, select, update

from eloleague.records import GameRecord, Participant, Side, replace
from eloleague.store.bulk import (
    date_param,
    fetch_all,
    insert_rows,
    keep_ahead,
    one_row,
    placeholder,
    run,
    run_together,
    to_date,
)
from eloleague.store.by_player import games_of
from eloleague.store.tables import events, games, players, side_players


class StoredGame(msgspec.Struct, frozen=True, gc=False):
    """A game as read back from the database: its row id, arrival order and the record (a
    struct, as :mod:`eloleague.records` says why: a recompute reads a million of them).

    ``record.id`` is the game's label in the ledger: the source id, or ``#SEQ`` when the source
    gave none (``ext_id`` is then ``None``).
    """

    pk: int
    seq: int
    ext_id: str | None
    record: GameRecord


def label(ext_id: str | None, seq: int) -> str:
    """How the ledger names a game: its source id, or ``#SEQ`` (its arrival number)."""
    return ext_id if ext_id is not None else f"#{seq}"


def content_hash(game: GameRecord, player_ids: Mapping[str, int]) -> str:
    """A digest of everything a game says except its id, players by id (stable across renames)."""
    payload: tuple[Any, ...] = (
        game.date.isoformat(),
        game.event or "",
        game.round,
        game.mode,
        game.rated,
        [
            (
                [(player_ids[p.name], p.role) for p in side.players],
                side.outcome,
                None if side.score is None else float(side.score),
            )
            for side in game.sides
        ],
    )
    if game.home is not None or game.neutral:  # games without a venue keep their old hash
        payload = (*payload, game.home, game.neutral)
    return hashlib.blake2b(msgspec.json.encode(payload), digest_size=16).hexdigest()


def event_ids(conn: Connection, league_id: int, names: Iterable[str]) -> dict[str, int]:
    """Ids of the named events, creating the missing ones (reads only those events: a league of
    ten thousand events is not read whole for each import)."""
    wanted = sorted(set(names))
    if not wanted:
        return {}
    found: dict[str, int] = {}
    for i in range(0, len(wanted), 500):
        query = select(events.c.name, events.c.id).where(
            events.c.league_id == league_id, events.c.name.in_(wanted[i : i + 500])
        )
        found.update({name: pk for name, pk in conn.execute(query)})
    missing = [n for n in wanted if n not in found]
    if missing:
        conn.execute(insert(events), [{"league_id": league_id, "name": n} for n in missing])
        return event_ids(conn, league_id, wanted)
    return found


def next_seq(conn: Connection, league_id: int) -> int:
    """The arrival number the next new game gets."""
    return seq_after(run(conn, LAST_SEQ, (league_id,)))


LAST_SEQ = one_row("SELECT max(seq) FROM games WHERE league_id = ?")
"""The statement reading a league's last arrival number (parameter: its id); :func:`seq_after`."""


def seq_after(rows: Sequence[Sequence[Any]]) -> int:
    """The arrival number after the one in the rows of :data:`LAST_SEQ`."""
    ((value,),) = rows
    return int(value or 0) + 1


class NewGame(msgspec.Struct, frozen=True, gc=False):
    """A game about to be written: its record, arrival number and content hash (a struct, as
    :mod:`eloleague.records` says why)."""

    record: GameRecord
    seq: int
    content_hash: str


GAME_COLUMNS = (
    "seq",
    "ext_id",
    "date",
    "event_id",
    "round",
    "mode",
    "rated",
    "content_hash",
    "home",
    "neutral",
)
PLAYER_COLUMNS = ("game_id", "side_no", "position", "player_id", "role", "outcome", "score")


Statement = tuple[str, Sequence[Any]]


def insert_games(
    conn: Connection,
    league_id: int,
    new: Sequence[NewGame],
    player_ids: Mapping[str, int],
    batch_id: int | Sequence[int] | None,
    *,
    batch: Statement | None = None,
    along: Sequence[Statement] = (),
    row_ids: Sequence[int] | None = None,
) -> list[StoredGame]:
    """Write ``new`` games with their players (and their sides' results); returns them as stored
    (row ids, labels). ``batch_id``: the import batch of every game, or of each game in turn
    (the imports of several writes at once). On SQLite the row ids are given (the write lock is
    held), so nothing is read back; PostgreSQL numbers them itself (a few games and their
    players in one statement: one round trip).

    ``batch``: instead of ``batch_id``, the statement recording the import batch and returning
    its id (:func:`eloleague.store.imports.new_batch`); on PostgreSQL a few games' statement
    records it too. ``along``: reads the caller makes next, sent in the round trip of that
    statement (or of the batch's) and kept for it (:func:`~eloleague.store.bulk.keep_ahead`; the
    caller drops what it does not read, :func:`~eloleague.store.bulk.drop_ahead`); without
    ``batch``, on PostgreSQL with more than a few games, the caller's own reads ask.

    ``row_ids``: the games' row ids, reserved before (PostgreSQL's ``nextval``, see
    :class:`~eloleague.store.live.Early`; at least one a game): nothing is read back, so the
    statements may go with the commit (:func:`~eloleague.store.bulk.hold_for_commit`)."""
    if not new:
        return []
    few = conn.dialect.name == "postgresql" and len(new) <= FEW
    if batch is not None and not few:  # the batch first (with the reads): its id on every game
        ((batch_id,),), *found = run_together(conn, [batch, *along])
        keep_ahead(conn, along, found)
        batch, along = None, ()
    ev = event_ids(conn, league_id, {g.record.event for g in new if g.record.event})
    day = date_param(conn)
    batches = [batch_id] * len(new) if batch_id is None or isinstance(batch_id, int) else batch_id
    one_batch = len(set(batches)) == 1
    fixed = (
        {"league_id": league_id, "batch_id": batches[0]} if one_batch else {"league_id": league_id}
    )
    rows: list[tuple[Any, ...]] = [
        (
            g.seq,
            g.record.id,
            day(g.record.date),
            ev[g.record.event] if g.record.event else None,
            g.record.round,
            g.record.mode,
            g.record.rated,
            g.content_hash,
            g.record.home,
            g.record.neutral,
        )
        for g in new
    ]
    if not one_batch:  # each game's batch, first
        rows = [(batch, *row) for batch, row in zip(batches, rows, strict=True)]
    columns = GAME_COLUMNS if one_batch else ("batch_id", *GAME_COLUMNS)
    if row_ids is not None or conn.dialect.name == "sqlite":  # the row ids known beforehand
        if row_ids is not None:
            pk_list = list(row_ids[: len(new)])
        else:  # SQLite: the write lock is held, the next ids are ours
            ((last,),) = run(conn, "SELECT max(id) FROM games")
            first = (last or 0) + 1
            pk_list = list(range(first, first + len(new)))
        # The batch bound, not written into the statement as a constant: one statement for every
        # post. A new batch's id in its text made the driver prepare the statement again for each
        # post (about 16 µs of a live game's on SQLite; docs/benchmarks.md, "Live results").
        batched = [(batches[0], *row) for row in rows] if one_batch else rows
        insert_rows(
            conn,
            games,
            ("id", "batch_id", *GAME_COLUMNS),
            [(pk, *row) for pk, row in zip(pk_list, batched, strict=True)],
            {"league_id": league_id},
        )
    elif few:  # a live post: one statement writes the games and their players (and the batch)
        sides = _player_rows(new, [g.seq for g in new], player_ids)  # joined by arrival number
        params = [] if batch is None else list(batch[1])
        params.extend(
            x
            for row in rows
            for x in (
                (league_id, *row)
                if batch is not None or not one_batch
                else (league_id, batches[0], *row)
            )
        )
        params.extend(x for side in sides for x in side)
        sql = _few_games_sql(len(rows), len(sides), None if batch is None else batch[0])
        if along:
            *found, written = run_together(conn, [*along, (sql, params)])
            keep_ahead(conn, along, found)
        else:
            written = run(conn, sql, params)
        by_seq = dict(written)
        return _stored(new, [by_seq[g.seq] for g in new])
    else:
        insert_rows(conn, games, columns, rows, fixed)
        pk_list = _row_ids(conn, league_id, [g.seq for g in new])
    insert_rows(conn, side_players, PLAYER_COLUMNS, _player_rows(new, pk_list, player_ids))
    return _stored(new, pk_list)


def _stored(new: Sequence[NewGame], pks: Sequence[int]) -> list[StoredGame]:
    """The games just written, as stored: row ids, labels."""
    stored = []
    for g, pk in zip(new, pks, strict=True):
        name = label(g.record.id, g.seq)
        record = g.record if g.record.id == name else replace(g.record, id=name)
        stored.append(StoredGame(pk, g.seq, g.record.id, record))
    return stored


def _player_rows(
    new: Sequence[NewGame], keys: Sequence[int], player_ids: Mapping[str, int]
) -> list[tuple[Any, ...]]:
    """The rows of the games' players (:data:`PLAYER_COLUMNS`, with their sides' results), each
    game's under its key: its row id, or its arrival number."""
    return [
        (key, s, n, player_ids[p.name], p.role, side.outcome, side.score)
        for key, g in zip(keys, new, strict=True)
        for s, side in enumerate(g.record.sides, start=1)
        for n, p in enumerate(side.players, start=1)
    ]


FEW = 100  # games written by one statement on PostgreSQL (more: COPY, then read their ids back)


def _few_games_sql(games_count: int, players_count: int, batch: str | None = None) -> str:
    """PostgreSQL: insert games and their players in one statement (the players' rows join
    their game's row id by its arrival number) and return each game's ``(seq, id)``. ``batch``:
    the statement recording their import batch (``INSERT ... RETURNING id``), made first, its id
    on every game (otherwise each game's row gives it)."""
    cols = ", ".join(("league_id", "batch_id", *GAME_COLUMNS))
    batch_id = "?" if batch is None else "(SELECT id FROM b)"
    one_game = f"(?, {batch_id}, " + ", ".join("?" * len(GAME_COLUMNS)) + ")"
    # Typed: a column of NULLs (no scores, say) has no type of its own in VALUES.
    one_player = (
        "(?::integer, ?::integer, ?::integer, ?::integer, ?::varchar, ?::varchar, "
        "?::double precision)"
    )
    return (
        "WITH "
        + ("" if batch is None else f"b AS ({batch}), ")
        + f"g AS (INSERT INTO games ({cols}) VALUES {', '.join([one_game] * games_count)} "
        "RETURNING seq, id), "
        "p AS (INSERT INTO side_players (game_id, side_no, position, player_id, role, outcome, "
        "score) SELECT g.id, v.side_no, v.position, v.player_id, v.role, v.outcome, v.score "
        f"FROM (VALUES {', '.join([one_player] * players_count)}) "
        "AS v (seq, side_no, position, player_id, role, outcome, score) JOIN g ON g.seq = v.seq) "
        "SELECT seq, id FROM g"
    )


def _row_ids(conn: Connection, league_id: int, seqs: Sequence[int]) -> list[int]:
    """The row ids of the league's games with these arrival numbers, in that order. New games'
    numbers follow each other: read as a range (a list of a thousand numbers cost PostgreSQL
    4.4 ms, planned afresh each time); others as a list, or every game from the first."""
    query = select(games.c.seq, games.c.id).where(games.c.league_id == league_id)
    first, last = min(seqs), max(seqs)
    if last - first + 1 == len(seqs):
        query = query.where(games.c.seq.between(first, last))
    elif len(seqs) <= 1000:
        query = query.where(games.c.seq.in_(seqs))
    else:
        query = query.where(games.c.seq >= first)
    by_seq: dict[int, int] = {seq: pk for seq, pk in conn.execute(query)}
    return [by_seq[seq] for seq in seqs]


def totals(conn: Connection, league_id: int) -> tuple[int, int, dt.date | None]:
    """How many games and registered players the league holds, and its last game's date."""
    count, last = conn.execute(
        select(func.count(), func.max(games.c.date)).where(games.c.league_id == league_id)
    ).one()
    people = conn.execute(
        select(func.count()).select_from(players).where(players.c.league_id == league_id)
    ).scalar_one()
    return int(count), int(people), None if last is None else to_date(last)


def game_by_id(conn: Connection, league_id: int, ext_id: str) -> tuple[int, int, str | None] | None:
    """``(row id, seq, ext id)`` of the league's game whose source id is ``ext_id``, if any."""
    row = conn.execute(
        select(games.c.id, games.c.seq, games.c.ext_id).where(
            and_(games.c.league_id == league_id, games.c.ext_id == ext_id)
        )
    ).first()
    return None if row is None else (row.id, row.seq, row.ext_id)


def game_by_number(
    conn: Connection, league_id: int, seq: int
) -> tuple[int, int, str | None] | None:
    """``(row id, seq, ext id)`` of the league's game without a source id whose arrival number
    is ``seq`` (its label ``#SEQ``), if any."""
    row = conn.execute(
        select(games.c.id, games.c.seq, games.c.ext_id).where(
            and_(
                games.c.league_id == league_id,
                games.c.seq == seq,
                games.c.ext_id.is_(None),
            )
        )
    ).first()
    return None if row is None else (row.id, row.seq, row.ext_id)


def game_labels(conn: Connection, league_id: int) -> dict[int, str]:
    """``{row id: label}`` (:func:`label`) of every game of the league."""
    return {
        pk: label(ext, seq)
        for pk, seq, ext in conn.execute(
            select(games.c.id, games.c.seq, games.c.ext_id).where(games.c.league_id == league_id)
        )
    }


def label_of(conn: Connection, game_id: int) -> str:
    """The label (:func:`label`) of the game whose row id is ``game_id`` (it must exist)."""
    row = conn.execute(select(games.c.seq, games.c.ext_id).where(games.c.id == game_id)).one()
    return label(row.ext_id, row.seq)


def player_game_labels(conn: Connection, player_id: int) -> dict[int, str]:
    """``{row id: label}`` (:func:`label`) of the games a player played."""
    query = select(games.c.id, games.c.seq, games.c.ext_id).where(
        games.c.id.in_(games_of(conn, player_id))
    )
    return {pk: label(ext, seq) for pk, seq, ext in conn.execute(query)}


def player_game_ids(conn: Connection, player_id: int) -> set[int]:
    """The row ids of the games a player played."""
    return set(conn.execute(games_of(conn, player_id)).scalars())


def game_ids(
    conn: Connection,
    league_id: int,
    *,
    event: str | None = None,
    player_id: int | None = None,
    last: int | None = None,
) -> list[int]:
    """The row ids of the league's games of the event named ``event`` (when given) that player
    ``player_id`` played (when given), in the order the database gives them; with ``last``, only
    the last ``last`` of them in arrival order (read by the unique index on arrival order: a
    million-game league's last fifty are a seek)."""
    query = select(games.c.id).where(games.c.league_id == league_id)
    if last is not None:
        query = query.order_by(games.c.seq.desc()).limit(last)
    if event is not None:
        query = query.where(
            games.c.event_id.in_(
                select(events.c.id).where(
                    and_(events.c.league_id == league_id, events.c.name == event)
                )
            )
        )
    if player_id is not None:
        query = query.where(games.c.id.in_(games_of(conn, player_id)))
    return list(conn.execute(query).scalars())


def set_content_hash(conn: Connection, game_id: int, digest: str) -> None:
    """Store a game's new content hash (:func:`content_hash`: its players' ids changed)."""
    conn.execute(update(games).where(games.c.id == game_id).values(content_hash=digest))


def delete_games(conn: Connection, pks: Sequence[int]) -> None:
    """Remove games with their players."""
    for start in range(0, len(pks), 500):
        chunk = list(pks[start : start + 500])
        conn.execute(delete(side_players).where(side_players.c.game_id.in_(chunk)))
        conn.execute(delete(games).where(games.c.id.in_(chunk)))


def _sides(rows: Sequence[Any], names: Mapping[int, str]) -> dict[int, tuple[Side, ...]]:
    """Each game's sides from its player rows ``(game, side, outcome, score, player, role)``
    ordered by game, side and position. Records are immutable, so equal participants and equal
    one-player sides are shared: a duel league has few distinct ones."""
    people: dict[tuple[int, str], Participant] = {}
    singles: dict[tuple[int, str, str | None, float | None], Side] = {}

    def person(player_id: int, role: str) -> Participant:
        found = people.get((player_id, role))
        if found is None:
            found = people[player_id, role] = Participant(names[player_id], role)
        return found

    out: dict[int, tuple[Side, ...]] = {}
    game_sides: list[Side] = []
    i, n = 0, len(rows)
    while i < n:
        game_id, side_no, outcome, score, player_id, role = rows[i]
        j = i + 1
        while j < n and rows[j][1] == side_no and rows[j][0] == game_id:
            j += 1
        if j == i + 1:
            key = (player_id, role, outcome, score)
            side = singles.get(key)
            if side is None:
                side = singles[key] = Side((person(player_id, role),), outcome, score)
        else:
            side = Side(tuple(person(r[4], r[5]) for r in rows[i:j]), outcome, score)
        game_sides.append(side)
        if j == n or rows[j][0] != game_id:
            out[game_id] = tuple(game_sides)
            game_sides = []
        i = j
    return out


def load_games(
    conn: Connection,
    league_id: int,
    names: Mapping[int, str],
    *,
    since: dt.date | None = None,
    until: dt.date | None = None,
    pks: Sequence[int] | None = None,
) -> list[StoredGame]:
    """The league's games (dated on/after ``since``, on/before ``until``), in arrival order.

    Two queries read straight from the driver's cursor (a million games in seconds): the sides
    with their players, then the games.
    """
    if pks is not None and not pks:
        return []
    day = date_param(conn)
    mark = placeholder(conn)
    where = [f"g.league_id = {mark}"]
    params: list[Any] = [league_id]
    if since is not None:
        where.append(f"g.date >= {mark}")
        params.append(day(since))
    if until is not None:
        where.append(f"g.date <= {mark}")
        params.append(day(until))
    if pks is not None:
        where.append(f"g.id IN ({', '.join(str(int(pk)) for pk in pks)})")
    cond = " AND ".join(where)

    rows = fetch_all(
        conn,
        "SELECT p.game_id, p.side_no, p.outcome, p.score, p.player_id, p.role "
        "FROM games g JOIN side_players p ON p.game_id = g.id "
        f"WHERE {cond} ORDER BY p.game_id, p.side_no, p.position",
        params,
    )
    sides = _sides(rows, names)
    del rows

    event_names = dict(
        fetch_all(
            conn,
            f"SELECT id, name FROM events WHERE id IN (SELECT g.event_id FROM games g WHERE {cond})",
            params,
        )
    )
    out = []
    dates: dict[Any, dt.date] = {}
    for pk, seq, ext_id, date, event_id, rnd, mode, rated, home, neutral in fetch_all(
        conn,
        "SELECT g.id, g.seq, g.ext_id, g.date, g.event_id, g.round, g.mode, g.rated, "
        "g.home, g.neutral "
        f"FROM games g WHERE {cond} ORDER BY g.seq",
        params,
    ):
        name = label(ext_id, seq)
        when = dates.get(date)
        if when is None:
            when = dates[date] = to_date(date)
        record = GameRecord(
            date=when,
            sides=sides[pk],
            id=name,
            event=event_names.get(event_id) if event_id is not None else None,
            round=rnd,
            mode=mode,
            rated=bool(rated),
            home=home,
            neutral=bool(neutral),
        )
        out.append(StoredGame(pk, seq, ext_id, record))
    return out
