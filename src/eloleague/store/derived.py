"""The derived tables: the ledger and the current ratings, written from engine results."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import repeat
from operator import itemgetter
from typing import Any

from sqlalchemy import Connection, FromClause, and_, delete, func, insert, select
from sqlalchemy.sql.elements import ColumnElement

from eloleague.engine import LedgerEntry
from eloleague.engine.fast.ledger import ColumnarLedger
from eloleague.engine.ledger import VALUE_FIELDS
from eloleague.records import PoolKey, PoolState
from eloleague.store.bulk import date_param, insert_rows, run
from eloleague.store.by_player import in_ledger
from eloleague.store.tables import ledger, ratings

LEDGER_FIELDS = ("seq", "game_id", "date", "player_id", "mode", "role", *VALUE_FIELDS)


def drop_ledger_from(conn: Connection, league_id: int, position: int) -> None:
    """Forget the ledger entries from ``position`` (0-based processing order) on.

    On SQLite, the whole ledger of the only league with one is emptied at once (a ``DELETE``
    without ``WHERE`` frees whole pages instead of removing millions of rows one by one).
    """
    if position == 0 and conn.dialect.name == "sqlite":
        others = [
            conn.execute(select(ledger.c.seq).where(cond).limit(1)).first()
            for cond in (ledger.c.league_id < league_id, ledger.c.league_id > league_id)
        ]
        if others == [None, None]:
            conn.exec_driver_sql("DELETE FROM ledger")
            return
    conn.execute(
        delete(ledger).where(and_(ledger.c.league_id == league_id, ledger.c.seq >= position))
    )


def adjustments_from(
    conn: Connection, league_id: int, position: int, names: Mapping[int, str]
) -> dict[PoolKey, float]:
    """Each pool's sum of the ledger's entries outside games (season adjustments, decays,
    reversions) from ``position`` (0-based processing order) on: read before and after a
    recompute, what it changed of them (:func:`eloleague.store.imports.changes`)."""
    found = conn.execute(
        select(ledger.c.player_id, ledger.c.mode, ledger.c.role, func.sum(ledger.c.delta))
        .where(
            ledger.c.league_id == league_id,
            ledger.c.seq >= position,
            ledger.c.game_id.is_(None),
        )
        .group_by(ledger.c.player_id, ledger.c.mode, ledger.c.role)
    )
    return {PoolKey(names[pid], mode, role): float(total) for pid, mode, role, total in found}


def outside_games(entries: Sequence[LedgerEntry]) -> dict[PoolKey, float]:
    """Each pool's sum of ``entries`` made outside games (season adjustments, decays,
    reversions): an append's, kept as columns by the engine's fast path for many games."""
    if isinstance(entries, ColumnarLedger):
        return entries.outside_games()
    out: dict[PoolKey, float] = {}
    for e in entries:
        if not e.game:
            out[e.key] = out.get(e.key, 0.0) + e.delta
    return out


def write_ledger(
    conn: Connection,
    league_id: int,
    start: int,
    entries: Sequence[LedgerEntry],
    game_pks: Mapping[str, int],
    player_ids: Mapping[str, int],
) -> None:
    """Append ledger entries numbered from ``start``; games and players by id (docs/formats.md fields).

    The engine's fast path hands its ledger over as columns: those are turned into rows column by
    column (:func:`_ledger_columns`), without making one :class:`LedgerEntry` per row.
    """
    columns = _ledger_columns(start, entries, game_pks, player_ids, date_param(conn))
    if columns is None:
        rows = _entry_rows(start, entries, game_pks, player_ids, date_param(conn))
        insert_rows(conn, ledger, LEDGER_FIELDS, rows, {"league_id": league_id})
    else:
        given = [name for name in LEDGER_FIELDS if columns[name] is not None]
        fixed: dict[str, int | None] = {"league_id": league_id}
        fixed.update(dict.fromkeys(name for name in LEDGER_FIELDS if columns[name] is None))
        rows = list(zip(*(columns[name] or () for name in given), strict=True))
        insert_rows(conn, ledger, given, rows, fixed)


def ledger_rows(
    entries: Sequence[LedgerEntry],
    start: int,
    game_pks: Mapping[str, int],
    player_ids: Mapping[str, int],
    day: Callable[[dt.date], Any],
) -> Iterable[tuple[Any, ...]]:
    """The rows :func:`write_ledger` stores for ``entries``, every column of
    :data:`LEDGER_FIELDS` in order (``day``: a date as the driver stores it,
    :func:`~eloleague.store.bulk.date_param`); a ledger kept as columns gives them one at a time
    (what :mod:`eloleague.store.verify` compares with the stored ledger)."""
    columns = _ledger_columns(start, entries, game_pks, player_ids, day)
    if columns is None:
        return _entry_rows(start, entries, game_pks, player_ids, day)
    size = len(entries)
    return zip(
        *(repeat(None, size) if columns[name] is None else columns[name] for name in LEDGER_FIELDS),
        strict=True,
    )


def _entry_rows(
    start: int,
    entries: Sequence[LedgerEntry],
    game_pks: Mapping[str, int],
    player_ids: Mapping[str, int],
    day: Callable[[dt.date], Any],
) -> list[tuple[Any, ...]]:
    return [
        (
            start + n,
            game_pks[e.game] if e.game else None,
            day(e.date),
            player_ids[e.key.player],
            e.key.mode,
            e.key.role,
            e.before,
            e.expected,
            e.k,
            e.score,
            e.delta,
            e.after,
            e.warning,
            ",".join(e.fired),
            e.raw_delta,
            e.opponent,
            e.team_expected,
            e.rank,
            e.points,
            e.outcome,
            json.dumps(e.extra) if e.extra else None,
        )
        for n, e in enumerate(entries)
    ]


LedgerColumns = dict[str, list[Any] | None]
"""A ledger as columns: each of :data:`LEDGER_FIELDS`, or ``None`` when empty on every row."""


def _ledger_columns(
    start: int,
    entries: Sequence[LedgerEntry],
    game_pks: Mapping[str, int],
    player_ids: Mapping[str, int],
    day: Callable[[dt.date], Any],
) -> LedgerColumns | None:
    """A ledger kept as columns by the engine's fast path, as the columns the store writes;
    ``None`` for any other ledger, or one whose columns this version does not know (the entries
    are then written one by one by :func:`_entry_rows`, whose rows hold the same values). The
    tests compare the stored ledger with the reference engine's.
    """
    if not isinstance(entries, ColumnarLedger):
        return None
    try:
        return _read_columns(start, entries, game_pks, player_ids, day)
    except (AttributeError, ImportError, IndexError, KeyError, TypeError, ValueError):
        return None


def _read_columns(
    start: int,
    entries: Any,
    game_pks: Mapping[str, int],
    player_ids: Mapping[str, int],
    day: Callable[[dt.date], Any],
) -> LedgerColumns:
    decoded = entries.columns()
    positions = decoded.pop("position")
    days = decoded.pop("day")
    # Per game position: its row id and stored date; per pool: player id, mode and role.
    labels = entries.labels()
    game_pk = [game_pks[label] for label in labels[:-1]]
    game_day = [day(g.date) for g in entries.games]
    pool_cols = [(player_ids[k.player], k.mode, k.role) for k in entries.pool_keys]
    pool_of = [pool_cols[p] for p in decoded.pop("pool")]
    fired = decoded["fired"]
    assert fired is not None
    decoded["fired"] = [",".join(f) for f in fired]
    columns: LedgerColumns = {
        "seq": list(range(start, start + len(positions))),
        "game_id": [game_pk[p] if p >= 0 else None for p in positions],
        "date": [
            game_day[p] if p >= 0 else day(dt.date.fromordinal(d))
            for p, d in zip(positions, days, strict=True)
        ],
        "player_id": [c[0] for c in pool_of],
        "mode": [c[1] for c in pool_of],
        "role": [c[2] for c in pool_of],
        **decoded,
    }
    if not set(LEDGER_FIELDS) <= set(columns) or any(
        column is not None and len(column) != len(positions) for column in columns.values()
    ):
        raise ValueError("the fast path's ledger columns are not the store's")
    return columns


IN_CHUNK = 500
"""The most ids one ``IN (...)`` list holds (:func:`read_ledger`'s games, :func:`rating_rows`'
players): a database's bound on parameters (SQLite's is 32,766)."""


def read_ledger(
    conn: Connection,
    league_id: int,
    names: Mapping[int, str],
    labels: Mapping[int, str],
    *,
    player_id: int | None = None,
    game_id: int | None = None,
    game_ids: Sequence[int] | None = None,
    until: dt.date | None = None,
    on: dt.date | None = None,
    seasons_only: bool = False,
) -> list[LedgerEntry]:
    """Ledger entries in processing order, optionally one player's, one game's or those of the
    games ``game_ids`` (an event's: a read per :data:`IN_CHUNK` games, not one a game), those
    dated ``on`` that day, or only the season adjustments (the rows without a game)."""
    # one player's: every generation of the index by player named (store/by_player.py)
    league = ledger.c.league_id == league_id if player_id is None else in_ledger(conn, league_id)
    query = select(ledger).where(league)
    if on is not None:
        query = query.where(ledger.c.date == on)
    if seasons_only:
        query = query.where(ledger.c.game_id.is_(None))
    if player_id is not None:
        query = query.where(ledger.c.player_id == player_id)
    if game_id is not None:
        query = query.where(ledger.c.game_id == game_id)
    if until is not None:
        query = query.where(ledger.c.date <= until)
    query = query.order_by(ledger.c.seq)
    if game_ids is None:
        rows = list(conn.execute(query))
    else:
        wanted = list(game_ids)
        rows = []
        for i in range(0, len(wanted), IN_CHUNK):
            chunk = wanted[i : i + IN_CHUNK]
            rows += conn.execute(query.where(ledger.c.game_id.in_(chunk)))
        if len(wanted) > IN_CHUNK:
            rows.sort(key=lambda r: r.seq)  # each read in order, not the reads together
    out = []
    for r in rows:
        out.append(
            LedgerEntry(
                game=labels[r.game_id] if r.game_id is not None else "",
                date=r.date,
                key=PoolKey(names[r.player_id], r.mode, r.role),
                before=r.before,
                expected=r.expected,
                k=r.k,
                score=r.score,
                delta=r.delta,
                after=r.after,
                warning=r.warning,
                fired=tuple(f for f in r.fired.split(",") if f),
                raw_delta=r.raw_delta,
                opponent=r.opponent,
                team_expected=r.team_expected,
                rank=r.rank,
                points=r.points,
                outcome=r.outcome,
                extra=tuple(json.loads(r.extra)) if r.extra else (),
            )
        )
    return out


def write_ratings(
    conn: Connection,
    league_id: int,
    pools: Mapping[PoolKey, PoolState],
    player_ids: Mapping[str, int],
    last_played: Mapping[PoolKey, dt.date] | None = None,
) -> None:
    """Replace the league's current ratings with ``pools`` (kept in order of first appearance),
    with each pool's last rated game (``last_played``)."""
    conn.execute(delete(ratings).where(ratings.c.league_id == league_id))
    played = last_played or {}
    rows = [
        {
            "league_id": league_id,
            "player_id": player_ids[k.player],
            "mode": k.mode,
            "role": k.role,
            "rating": p.rating,
            "games": p.games,
            "position": n,
            "extra": json.dumps(p.extra) if p.extra else None,
            "last_played": played.get(k),
        }
        for n, (k, p) in enumerate(pools.items())
    ]
    if rows:
        conn.execute(insert(ratings), rows)


def played_since(pools: FromClause, league_id: int, since: dt.date) -> ColumnElement[bool]:
    """The league's pools (``ratings`` rows, or an alias of them) whose last rated game is dated
    on or after ``since``: how the current ranking tells its active players, as the engine's
    standings do (``last_played``; the ledger has no index by date)."""
    return and_(pools.c.league_id == league_id, pools.c.last_played >= since)


def active_player_ids(
    conn: Connection, league_id: int, since: dt.date, until: dt.date | None
) -> list[int]:
    """The ids of the players with a rated game dated on or after ``since`` (and on or before
    ``until``, when given): today's from their pools (:func:`played_since`), a past day's from
    the ledger's entries of games (not a season's adjustments)."""
    if until is None:
        current = select(func.distinct(ratings.c.player_id)).where(
            played_since(ratings, league_id, since)
        )
        return list(conn.execute(current).scalars())
    query = select(func.distinct(ledger.c.player_id)).where(
        ledger.c.league_id == league_id,
        ledger.c.date >= since,
        ledger.c.date <= until,
        ledger.c.game_id.is_not(None),
    )
    return list(conn.execute(query).scalars())


def rating_rows(
    conn: Connection, league_id: int, player_ids: Sequence[int] | None = None
) -> Iterator[tuple[int, str, str, float, int, tuple[float, ...]]]:
    """The stored current ratings as ``(player id, mode, role, rating, games, method fields)``,
    in order of first appearance (only those players' with ``player_ids``). Read through the
    driver's cursor (:func:`~eloleague.store.bulk.run`): SQLAlchemy's work on each row was a
    quarter of reading the 10,000 pools of a league (14–16 ms, 11–12 through the driver), which
    the titles' page and the ranking read again after every result an online game posts
    (docs/benchmarks.md, "Web site")."""
    head = (
        "SELECT player_id, mode, role, rating, games, extra, position FROM ratings "
        "WHERE league_id = ?"
    )
    if player_ids is None:
        found = run(conn, head + " ORDER BY position", (league_id,)) or []
    else:
        found = []
        wanted = list(player_ids)
        for i in range(0, len(wanted), IN_CHUNK):
            chunk = wanted[i : i + IN_CHUNK]
            marks = ",".join("?" * len(chunk))
            found += run(conn, f"{head} AND player_id IN ({marks})", (league_id, *chunk)) or []
        found.sort(key=itemgetter(6))
    for pid, mode, role, rating, games, extra, _position in found:
        yield pid, mode, role, rating, games, tuple(json.loads(extra)) if extra else ()


def read_ratings(
    conn: Connection,
    league_id: int,
    names: Mapping[int, str],
    player_id: int | None = None,
    *,
    of_names: bool = False,
) -> dict[PoolKey, PoolState]:
    """The current ratings, in order of first appearance (of one player's pools only, with
    ``player_id``; with ``of_names``, those of the players ``names`` holds only)."""
    wanted = list(names) if of_names else None if player_id is None else [player_id]
    return {
        PoolKey(names[pid], mode, role): PoolState(rating, games, extra)
        for pid, mode, role, rating, games, extra in rating_rows(conn, league_id, wanted)
    }
