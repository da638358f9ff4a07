"""A league's events as its pages and commands list them (first and last day, games, players),
and the games of one event. Imports create events (:func:`eloleague.store.games.event_ids`);
where one was played is :mod:`eloleague.store.event_places`."""

from __future__ import annotations

from sqlalchemy import Connection, and_, func, select

from eloleague.store.bulk import to_date
from eloleague.store.reports import EventSummary
from eloleague.store.tables import events, games, side_players


def event_summaries(
    conn: Connection,
    league_id: int,
    *,
    newest_first: bool = False,
    limit: int | None = None,
    offset: int = 0,
) -> list[EventSummary]:
    """The events that hold games, with their first and last date, games and players, oldest
    first, then by name (``newest_first``: the reverse), ``limit`` of them from ``offset``.

    Each event's first day is one seek of ``ix_games_event`` (its games by date); the last day,
    the games and the players are counted for the events listed only (a page of a long history,
    the home page's latest event). Grouping every game of the league by event cost the home page
    260 ms on a million games (docs/benchmarks.md, "Web site")."""
    first_day = (
        select(func.min(games.c.date)).where(games.c.event_id == events.c.id).scalar_subquery()
    )
    listed = (
        select(
            events.c.id,
            events.c.name,
            first_day.label("first"),
            events.c.place,
            events.c.referee,
        )
        .where(events.c.league_id == league_id)
        .subquery()
    )
    order = (
        (listed.c.first.desc(), listed.c.name.desc())
        if newest_first
        else (listed.c.first, listed.c.name)
    )
    query = select(listed).where(listed.c.first.is_not(None)).order_by(*order).offset(offset)
    if limit is not None:
        query = query.limit(limit)
    rows = conn.execute(query).all()
    if not rows:
        return []
    ids = [r[0] for r in rows]
    spans = {
        eid: (last, count)
        for eid, last, count in conn.execute(
            select(games.c.event_id, func.max(games.c.date), func.count())
            .where(games.c.event_id.in_(ids))
            .group_by(games.c.event_id)
        )
    }
    counted = (
        select(games.c.event_id, func.count(func.distinct(side_players.c.player_id)))
        .select_from(games.join(side_players, side_players.c.game_id == games.c.id))
        .where(games.c.event_id.in_(ids))
        .group_by(games.c.event_id)
    )
    players = {eid: n for eid, n in conn.execute(counted)}
    return [
        EventSummary(
            name,
            to_date(first),
            to_date(spans[eid][0]),
            spans[eid][1],
            players.get(eid, 0),
            place,
            referee,
        )
        for eid, name, first, place, referee in rows
    ]


def event_count(conn: Connection, league_id: int) -> int:
    """How many of the league's events hold at least one game (a seek of each event's games)."""
    held = select(games.c.id).where(games.c.event_id == events.c.id).exists()
    query = select(func.count()).select_from(events).where(events.c.league_id == league_id, held)
    return int(conn.execute(query).scalar() or 0)


def event_named(conn: Connection, league_id: int, name: str) -> int | None:
    """The id of the league's event named ``name``, if any."""
    found = conn.execute(
        select(events.c.id).where(and_(events.c.league_id == league_id, events.c.name == name))
    ).scalar()
    return None if found is None else int(found)


def event_game_ids(conn: Connection, event_id: int) -> list[int]:
    """The row ids of an event's games, in the order the database gives them."""
    return list(conn.execute(select(games.c.id).where(games.c.event_id == event_id)).scalars())
