"""One player's rows of ``side_players`` and ``ledger``, read through their indexes by player.

Those indexes are led by a generation of the rows (:data:`~eloleague.store.tables.GAMES_SHIFT`,
:data:`~eloleague.store.tables.LEDGER_SHIFT`): a post of many games writes its entries into the
newest generation's pages, not onto a page of each of its players' among the whole league's (a
post of 1,000 games touched about 3,500 pages of these two indexes on a league of a million games,
docs/benchmarks.md "Live results"). A read by player names every generation there is, so that the
database seeks the player's entries in each (a few dozen seeks on a league of a million games); a
condition on the player alone would read the whole table. Every read of these tables by player goes
through this module.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from sqlalchemy import Connection, Select, and_, func, select
from sqlalchemy.sql.elements import ColumnElement

from eloleague.store.bulk import to_date
from eloleague.store.tables import (
    GAMES_SHIFT,
    LEDGER_SHIFT,
    games,
    generation,
    ledger,
    side_players,
)


def _up_to(last: int | None, shift: int) -> list[int]:
    return list(range(((last or 0) >> shift) + 1))


def game_generations(conn: Connection) -> list[int]:
    """Every generation of ``side_players`` (row ids are the whole database's: one seek)."""
    return _up_to(conn.execute(select(func.max(games.c.id))).scalar(), GAMES_SHIFT)


def ledger_generations(conn: Connection, league_id: int) -> list[int]:
    """Every generation of the league's ledger (its last processing number: one seek)."""
    last = conn.execute(select(func.max(ledger.c.seq)).where(ledger.c.league_id == league_id))
    return _up_to(last.scalar(), LEDGER_SHIFT)


def played_by(conn: Connection, player_id: int) -> ColumnElement[bool]:
    """``side_players`` rows of a player, as the index finds them."""
    return and_(
        generation(side_players.c.game_id, GAMES_SHIFT).in_(game_generations(conn)),
        side_players.c.player_id == player_id,
    )


def games_of(conn: Connection, player_id: int) -> Select[int]:
    """The row ids of the games a player played."""
    return select(side_players.c.game_id).where(played_by(conn, player_id))


def ledger_generations_since(conn: Connection, league_id: int, since: dt.date) -> list[int]:
    """The generations of the league's ledger that may hold entries dated on or after ``since``,
    for a ledger in date order (:func:`eloleague.engine.replay.dated_in_order`): the newest
    ones, down to the first whose last entry is dated before ``since`` (one seek each: that one
    and every generation below hold older entries only). A ranking's trends over the last month
    of a million-game league seek their players' entries in 4 generations of 62, not in all of
    them (docs/league.md, "Live results")."""
    out: list[int] = []
    below = None  # the entries below this processing number are left to look at
    while True:
        query = select(ledger.c.seq, ledger.c.date).where(ledger.c.league_id == league_id)
        if below is not None:
            query = query.where(ledger.c.seq < below)
        last = conn.execute(query.order_by(ledger.c.seq.desc()).limit(1)).first()
        if last is None or to_date(last.date) < since:
            return out  # (the rest is older: dated before the last entry)
        out.append(last.seq >> LEDGER_SHIFT)
        below = out[-1] << LEDGER_SHIFT


def in_ledger(
    conn: Connection, league_id: int, generations: Sequence[int] | None = None
) -> ColumnElement[bool]:
    """The league's ledger entries, every generation named (or those of ``generations``): and-ed
    with a condition on the player (one, several, or a correlated one), the index by player finds
    them."""
    if generations is None:
        generations = ledger_generations(conn, league_id)
    return and_(
        ledger.c.league_id == league_id,
        generation(ledger.c.seq, LEDGER_SHIFT).in_(generations),
    )
