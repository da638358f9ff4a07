"""The derived tables: the ledger and the current ratings, written from engine results."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, and_, delete, insert, select

from eloleague.engine import LedgerEntry
from eloleague.records import PoolKey, PoolState
from eloleague.store.bulk import date_param, insert_rows
from eloleague.store.tables import ledger, ratings

LEDGER_FIELDS = (
    "seq",
    "game_id",
    "date",
    "player_id",
    "mode",
    "role",
    "before",
    "expected",
    "k",
    "score",
    "delta",
    "after",
    "warning",
    "fired",
    "raw_delta",
    "opponent",
    "team_expected",
    "rank",
    "points",
    "outcome",
)


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


def write_ledger(
    conn: Connection,
    league_id: int,
    start: int,
    entries: Sequence[LedgerEntry],
    game_pks: Mapping[str, int],
    player_ids: Mapping[str, int],
) -> None:
    """Append ledger entries numbered from ``start``; games and players by id (RULES §6 fields).

    The engine's fast path hands its ledger over as columns: those are turned into rows column by
    column (:func:`_columnar_rows`), without making one :class:`LedgerEntry` per row.
    """
    columnar = _columnar_rows(start, entries, game_pks, player_ids, date_param(conn))
    if columnar is None:
        rows = _entry_rows(start, entries, game_pks, player_ids, date_param(conn))
        insert_rows(conn, ledger, LEDGER_FIELDS, rows, {"league_id": league_id})
    else:
        columns, rows, empty = columnar
        fixed: dict[str, int | None] = {"league_id": league_id}
        fixed.update(dict.fromkeys(empty))
        insert_rows(conn, ledger, columns, rows, fixed)


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
        )
        for n, e in enumerate(entries)
    ]


Columnar = tuple[list[str], list[tuple[Any, ...]], list[str]]


def _columnar_rows(
    start: int,
    entries: Sequence[LedgerEntry],
    game_pks: Mapping[str, int],
    player_ids: Mapping[str, int],
    day: Callable[[dt.date], Any],
) -> Columnar | None:
    """A ledger kept as columns by the engine's fast path, as (the columns given, their rows, the
    columns empty on every row); ``None`` for any other ledger, or one whose columns this version
    does not know (the entries are then written one by one by :func:`_entry_rows`, whose rows hold
    the same values). The tests compare the stored ledger with the reference engine's.
    """
    try:
        from eloleague.engine.fast.ledger import ColumnarLedger
    except ImportError:  # pragma: no cover - an engine without the fast path
        return None
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
) -> Columnar:
    from eloleague.engine.fast import layout as K  # the fast path's array layout (no numba)
    from eloleague.engine.fast.ledger import WARNINGS, fired_names
    from eloleague.engine.ledger import INACTIVITY

    n = len(entries)
    floats, ints = entries.floats, entries.ints
    ffa, teams = entries.method == 2, entries.method == 1
    positions = ints[K.I_GAME].tolist()
    # Per game position: its row id and stored date; per pool: player id, mode and role.
    game_pk = [game_pks[g.id or f"#{i + 1}"] for i, g in enumerate(entries.games)]
    game_day = [day(g.date) for g in entries.games]
    pool_cols = [(player_ids[k.player], k.mode, k.role) for k in entries.pool_keys]
    pool_of = [pool_cols[p] for p in ints[K.I_POOL].tolist()]
    codes = ints[K.I_CODE].tolist()
    flag_text = {
        c: (WARNINGS[(c >> K.WARN_SHIFT) & 3], ",".join(fired_names(c & 15))) for c in set(codes)
    }
    values = [c >> K.VALUE_SHIFT for c in codes]
    labels = entries.outcome_labels
    other = floats[K.C_OTHER].tolist()
    nothing: list[Any] = [None] * n  # a column empty on every row: written as NULL once
    columns: dict[str, list[Any]] = {
        "seq": list(range(start, start + n)),
        "game_id": [game_pk[p] if p >= 0 else None for p in positions],
        "date": [game_day[p] if p >= 0 else None for p in positions],
        "player_id": [c[0] for c in pool_of],
        "mode": [c[1] for c in pool_of],
        "role": [c[2] for c in pool_of],
        "before": floats[K.C_BEFORE].tolist(),
        "expected": floats[K.C_EXPECTED].tolist(),
        "k": floats[K.C_K].tolist(),
        "score": floats[K.C_SCORE].tolist(),
        "delta": floats[K.C_DELTA].tolist(),
        "after": floats[K.C_AFTER].tolist(),
        "warning": [flag_text[c][0] for c in codes],
        "fired": [flag_text[c][1] for c in codes],
        "raw_delta": floats[K.C_RAW].tolist(),
        "opponent": nothing if ffa else other,
        "team_expected": floats[K.C_TEAM].tolist() if teams else nothing,
        "rank": values if ffa else nothing,
        "points": other if ffa else nothing,
        "outcome": nothing
        if ffa
        else [labels[v] if p >= 0 else None for v, p in zip(values, positions, strict=True)],
    }
    # Season adjustments (no game): dated by the engine, without P, K, S or opponent.
    days = None
    for i, p in enumerate(positions):
        if p < 0:
            if days is None:
                days = ints[K.I_DAY].tolist()
            columns["date"][i] = day(dt.date.fromordinal(days[i]))
            columns["warning"][i] = columns["fired"][i] = INACTIVITY
            for name in ("expected", "k", "score", "opponent", "team_expected", "rank", "points"):
                if columns[name] is not nothing:
                    columns[name][i] = None
    given = [name for name in LEDGER_FIELDS if columns[name] is not nothing]
    empty = [name for name in LEDGER_FIELDS if columns[name] is nothing]
    return given, list(zip(*(columns[name] for name in given), strict=True)), empty


def read_ledger(
    conn: Connection,
    league_id: int,
    names: Mapping[int, str],
    labels: Mapping[int, str],
    *,
    player_id: int | None = None,
    game_id: int | None = None,
    until: dt.date | None = None,
) -> list[LedgerEntry]:
    """Ledger entries in processing order, optionally one player's or one game's."""
    query = select(ledger).where(ledger.c.league_id == league_id)
    if player_id is not None:
        query = query.where(ledger.c.player_id == player_id)
    if game_id is not None:
        query = query.where(ledger.c.game_id == game_id)
    if until is not None:
        query = query.where(ledger.c.date <= until)
    out = []
    for r in conn.execute(query.order_by(ledger.c.seq)):
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
            )
        )
    return out


def write_ratings(
    conn: Connection,
    league_id: int,
    pools: Mapping[PoolKey, PoolState],
    player_ids: Mapping[str, int],
) -> None:
    """Replace the league's current ratings with ``pools`` (kept in order of first appearance)."""
    conn.execute(delete(ratings).where(ratings.c.league_id == league_id))
    rows = [
        {
            "league_id": league_id,
            "player_id": player_ids[k.player],
            "mode": k.mode,
            "role": k.role,
            "rating": p.rating,
            "games": p.games,
            "position": n,
        }
        for n, (k, p) in enumerate(pools.items())
    ]
    if rows:
        conn.execute(insert(ratings), rows)


def read_ratings(
    conn: Connection, league_id: int, names: Mapping[int, str], player_id: int | None = None
) -> dict[PoolKey, PoolState]:
    """The current ratings, in order of first appearance (of one player's pools only, with
    ``player_id``)."""
    query = (
        select(
            ratings.c.player_id, ratings.c.mode, ratings.c.role, ratings.c.rating, ratings.c.games
        )
        .where(ratings.c.league_id == league_id)
        .order_by(ratings.c.position)
    )
    if player_id is not None:
        query = query.where(ratings.c.player_id == player_id)
    return {
        PoolKey(names[pid], mode, role): PoolState(rating, games)
        for pid, mode, role, rating, games in conn.execute(query)
    }
