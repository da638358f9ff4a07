"""Seasons an officer closed (``season_closings``) and the adjustments a closing applied
(docs/league.md, "Closing a season"). The statements run in the caller's transaction."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

from sqlalchemy import Connection, and_, delete, insert, select
from sqlalchemy.exc import IntegrityError

from eloleague.engine import LedgerEntry
from eloleague.store.derived import read_ledger
from eloleague.store.tables import season_closings


def add(conn: Connection, league_id: int, end: dt.date, user: str | None) -> bool:
    """Record the closing of the season ending ``end``; false when it was already closed."""
    try:
        with conn.begin_nested():
            conn.execute(
                insert(season_closings),
                {
                    "league_id": league_id,
                    "end_date": end,
                    "user_name": user,
                    "created_at": dt.datetime.now(dt.UTC),
                },
            )
    except IntegrityError:
        return False
    return True


def remove(conn: Connection, league_id: int, end: dt.date) -> bool:
    """Forget the closing of the season ending ``end``; false when it was not closed."""
    done = conn.execute(
        delete(season_closings).where(
            and_(season_closings.c.league_id == league_id, season_closings.c.end_date == end)
        )
    )
    return bool(done.rowcount)


def adjustments(
    conn: Connection, league_id: int, names: Mapping[int, str], end: dt.date
) -> list[LedgerEntry]:
    """The season adjustments dated ``end`` (the ledger's rows without a game), in ledger order."""
    return read_ledger(conn, league_id, names, {}, on=end, seasons_only=True)


def is_closed(conn: Connection, league_id: int, end: dt.date) -> bool:
    """Whether the season ending ``end`` was closed by an officer."""
    found = conn.execute(
        select(season_closings.c.id).where(
            and_(season_closings.c.league_id == league_id, season_closings.c.end_date == end)
        )
    ).first()
    return found is not None
