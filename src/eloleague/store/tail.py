"""The engine state after the league's last game, stored as tables an appended game updates row by
row: the tail checkpoint (docs/league.md, "Live results").

An :class:`~eloleague.engine.EngineState` is its pools plus a few league-wide values. Here the
pools are the current ``ratings`` rows (with each pool's ``last_played``), the players active in
each season not yet applied are ``live_active`` rows, and the rest is the one ``live_tails`` row
of the league. Every recompute rewrites the three (:func:`save`); an appended game reads and
writes only its players' rows (:mod:`eloleague.store.live`). :func:`full_state` reads them back
as one state, which is exactly the state a full replay ends with (tests compare them).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select

from eloleague.engine import EngineState
from eloleague.records import PoolKey, PoolState
from eloleague.store.bulk import date_param, insert_rows, one_row, run, to_date
from eloleague.store.tables import games, live_active, live_tails, ratings


@dataclass(frozen=True, slots=True)
class Tail:
    """The league-wide part of the state after the last game (one ``live_tails`` row)."""

    as_of: dt.date
    last_date: dt.date
    last_round: int
    games: int
    ledger_next: int
    pools: int
    season_end: dt.date | None
    eligible: int
    started: bool
    periods: int


READ = one_row(
    "SELECT as_of, last_date, last_round, games, ledger_next, pools, season_end, eligible, "
    "started, periods FROM live_tails WHERE league_id = ?"
)
"""The statement reading a league's tail (parameter: the league's id); :func:`from_rows`."""


def read(conn: Connection, league_id: int) -> Tail | None:
    """The league's tail (``None`` before its first recompute with games)."""
    return from_rows(run(conn, READ, (league_id,)))


def from_rows(rows: Sequence[Sequence[Any]]) -> Tail | None:
    """The tail in the rows of :data:`READ`."""
    if not rows:
        return None
    as_of, last_date, last_round, count, ledger_next, pools, season_end, eligible = rows[0][:8]
    started, periods = rows[0][8:]
    return Tail(
        as_of=to_date(as_of),
        last_date=to_date(last_date),
        last_round=last_round,
        games=count,
        ledger_next=ledger_next,
        pools=pools,
        season_end=None if season_end is None else to_date(season_end),
        eligible=eligible,
        started=bool(started),
        periods=periods,
    )


def drop(conn: Connection, league_id: int) -> None:
    """Forget the tail (the league has no game)."""
    conn.execute(delete(live_tails).where(live_tails.c.league_id == league_id))
    conn.execute(delete(live_active).where(live_active.c.league_id == league_id))


def last_key(conn: Connection, league_id: int) -> tuple[dt.date, int] | None:
    """The processing key ``(date, round or 0)`` of the league's last game."""
    day = conn.execute(
        select(func.max(games.c.date)).where(games.c.league_id == league_id)
    ).scalar()
    if day is None:
        return None
    rnd = conn.execute(
        select(func.max(func.coalesce(games.c.round, 0))).where(
            games.c.league_id == league_id, games.c.date == day
        )
    ).scalar()
    return day, int(rnd or 0)


def save(
    conn: Connection,
    league_id: int,
    state: EngineState,
    ids: Mapping[str, int],
    *,
    as_of: dt.date,
    games_count: int,
    ledger_next: int,
) -> None:
    """Store the league-wide part of ``state`` (the state after every game, ratings as of
    ``as_of``) and its active players; the pools are the ``ratings`` rows the caller wrote."""
    drop(conn, league_id)
    key = last_key(conn, league_id)
    if key is None:
        return
    conn.execute(
        insert(live_tails),
        {
            "league_id": league_id,
            "as_of": as_of,
            "last_date": key[0],
            "last_round": key[1],
            "games": games_count,
            "ledger_next": ledger_next,
            "pools": len(state.pools),
            "season_end": state.season_end,
            "eligible": state.eligible,
            "started": state.started,
            "periods": state.periods,
        },
    )
    rows = [
        {"league_id": league_id, "season_end": end, "player_id": ids[name]}
        for end, names in state.active.items()
        for name in names
    ]
    if rows:
        conn.execute(insert(live_active), rows)


def add_active(
    conn: Connection,
    league_id: int,
    active: Mapping[dt.date, AbstractSet[str]],
    ids: Mapping[str, int],
) -> None:
    """Mark players active in seasons (those already marked stay as they are)."""
    day = date_param(conn)
    rows = [(day(end), ids[name]) for end, names in active.items() for name in names]
    insert_rows(
        conn,
        live_active,
        ("season_end", "player_id"),
        rows,
        {"league_id": league_id},
        keep_existing=True,
    )


def full_state(
    conn: Connection, league_id: int, tail: Tail, names: Mapping[int, str]
) -> EngineState:
    """The whole engine state after the last game, read back from the tables."""
    pools: dict[PoolKey, PoolState] = {}
    last_played: dict[PoolKey, dt.date] = {}
    query = (
        select(
            ratings.c.player_id,
            ratings.c.mode,
            ratings.c.role,
            ratings.c.rating,
            ratings.c.games,
            ratings.c.extra,
            ratings.c.last_played,
        )
        .where(ratings.c.league_id == league_id)
        .order_by(ratings.c.position)
    )
    for pid, mode, role, rating, count, extra, played in conn.execute(query):
        key = PoolKey(names[pid], mode, role)
        pools[key] = PoolState(rating, count, tuple(json.loads(extra)) if extra else ())
        if played is not None:
            last_played[key] = played
    active: dict[dt.date, set[str]] = {}
    for end, pid in conn.execute(
        select(live_active.c.season_end, live_active.c.player_id).where(
            live_active.c.league_id == league_id
        )
    ):
        active.setdefault(end, set()).add(names[pid])
    return EngineState(
        pools=pools,
        season_end=tail.season_end,
        eligible=tail.eligible,
        active={end: frozenset(v) for end, v in active.items()},
        started=tail.started,
        last_played=last_played,
        decay_spells={},
        periods=tail.periods,
    )
