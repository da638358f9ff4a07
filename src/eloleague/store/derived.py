"""The derived tables: the ledger and the current ratings, written from engine results."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence

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
    """Forget the ledger entries from ``position`` (0-based processing order) on."""
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
    """Append ledger entries numbered from ``start``; games and players by id."""
    day = date_param(conn)
    rows = [
        (
            league_id,
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
    insert_rows(conn, ledger, ("league_id", *LEDGER_FIELDS), rows)


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
    conn: Connection, league_id: int, names: Mapping[int, str]
) -> dict[PoolKey, PoolState]:
    """The current ratings, in order of first appearance."""
    query = (
        select(
            ratings.c.player_id, ratings.c.mode, ratings.c.role, ratings.c.rating, ratings.c.games
        )
        .where(ratings.c.league_id == league_id)
        .order_by(ratings.c.position)
    )
    return {
        PoolKey(names[pid], mode, role): PoolState(rating, games)
        for pid, mode, role, rating, games in conn.execute(query)
    }
