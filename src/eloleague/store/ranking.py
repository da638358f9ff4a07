"""The ranking's queries: the league's stored current ratings, paginated in SQL, with each row's
competition rank (ties share a rank, as :func:`eloleague.engine.standings.competition_ranks`;
counted here in SQL over the same groups, see :func:`_places`), and a player's rank in each of her
pools.

The ranking is read from the ``ratings`` table the recompute keeps current (ratings are derived
and materialised), never by replaying: a page of a 10,000-player league is one indexed query.
Rows and their order are those of ``eloleague rate`` (docs/formats.md: rating descending, then
player, mode and role by code point); for rule sets pooled by role, each player's global row per mode (role ``*``) is the
mean over the rule set's roles with the start rating standing in for roles never played
(docs/rule-sets.md), computed here with the same formula and order of evaluation as
:func:`eloleague.engine.standings`, so that values equal ``eloleague ranking --format csv``.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    ColumnElement,
    CompoundSelect,
    Connection,
    Select,
    String,
    and_,
    cast,
    exists,
    func,
    literal,
    select,
    union_all,
)

from eloleague.engine.methods import shown_values
from eloleague.engine.replay import dated_in_order
from eloleague.engine.standings import GLOBAL_ROLE
from eloleague.records import PoolState
from eloleague.rules.model import RuleSet
from eloleague.store.by_player import in_ledger, ledger_generations_since
from eloleague.store.derived import played_since, rating_rows
from eloleague.store.identity import player_ids_in
from eloleague.store.players import search_players
from eloleague.store.recompute import effective_as_of
from eloleague.store.tables import games, ledger, players, ratings


@dataclass(frozen=True, slots=True)
class RankingRow:
    """One ranking row with its place, and its change since the last event began."""

    rank: int  # standard competition rank within the row's mode and role (1, 2, 2, 4)
    player: str
    mode: str
    role: str
    rating: float
    games: int
    title: str
    trend: float | None
    shown: tuple[float, ...] = ()  # the method's published pool fields (Glicko-2's deviation...)


@dataclass(frozen=True, slots=True)
class RankingPage:
    """One page of a ranking, with the total count of rows the filters keep."""

    rows: list[RankingRow]
    total: int
    page: int
    per_page: int
    trend_since: dt.date | None  # trends are the change from this day on (see trend_start)
    trend_by_event: bool  # trend_since is the first day of the latest event
    as_of: dt.date | None  # the date the ratings stand at (last game, or after the last closing)


@dataclass(frozen=True, slots=True)
class RankingFilter:
    """What a visitor asked for: a pool (mode, role or ``*``), a name search, active players,
    a club or a region.

    Ranks are counted among the rows the pool and activity filters keep; the name search only
    picks rows, so a player found by name keeps her rank."""

    mode: str | None = None
    role: str | None = None
    search: str | None = None
    active_since: dt.date | None = None
    # One club's or one region's players, ranked among themselves (docs/league.md).
    club: str | None = None
    region: str | None = None


def _collate(conn: Connection, column: ColumnElement[str]) -> ColumnElement[str]:
    """Compare by code point: SQLite's default (binary), PostgreSQL's ``"C"`` collation."""
    if conn.dialect.name == "postgresql":
        return column.collate("C")
    return column


def _pool_rows(league_id: int) -> Select[tuple[int, str, str, str, float, int]]:
    return select(
        ratings.c.player_id.label("player_id"),
        ratings.c.mode.label("mode"),
        ratings.c.role.label("role"),
        ratings.c.rating.label("rating"),
        ratings.c.games.label("games"),
    ).where(ratings.c.league_id == league_id)


def _global_rows(rules: RuleSet, league_id: int) -> Select[tuple[int, str, str, float, int]]:
    n = len(rules.roles)
    mean = (func.sum(ratings.c.rating) + (n - func.count()) * rules.start_rating) / float(n)
    return (
        select(
            ratings.c.player_id.label("player_id"),
            ratings.c.mode.label("mode"),
            cast(literal(GLOBAL_ROLE), String).label("role"),
            mean.label("rating"),
            func.sum(ratings.c.games).label("games"),
        )
        .where(and_(ratings.c.league_id == league_id, ratings.c.role.in_(rules.roles)))
        .group_by(ratings.c.player_id, ratings.c.mode)
    )


def ranking_page(
    conn: Connection,
    league_id: int,
    rules: RuleSet,
    wanted: RankingFilter,
    page: int = 1,
    per_page: int = 50,
) -> RankingPage:
    """One page of the league's ranking (docs/formats.md order), with titles and trends."""
    source: Select[Any] | CompoundSelect[Any]
    if rules.pools.by_role and wanted.role == GLOBAL_ROLE:
        source = _global_rows(rules, league_id)
    elif rules.pools.by_role and wanted.role is None:
        source = union_all(_pool_rows(league_id), _global_rows(rules, league_id))
    else:
        source = _pool_rows(league_id)
    rows = source.subquery("rows")
    cond: list[ColumnElement[bool]] = []
    if wanted.mode is not None:
        cond.append(rows.c.mode == wanted.mode)
    if wanted.role is not None and wanted.role != GLOBAL_ROLE:
        cond.append(rows.c.role == wanted.role)
    if wanted.active_since is not None:
        # a pool of hers last played on or after that day: one seek of her ratings
        played = ratings.alias("played")
        cond.append(
            exists().where(
                played_since(played, league_id, wanted.active_since),
                played.c.player_id == rows.c.player_id,
            )
        )
    members = player_ids_in(conn, league_id, wanted.club, wanted.region)
    if members is not None:  # a club's players are few: their ids, not a join
        cond.append(rows.c.player_id.in_(sorted(members)))
    kept = and_(True, *cond)
    found_ids: list[int] | None = None
    if wanted.search:
        found_ids = search_players(conn, league_id, wanted.search)
    counted = select(func.count()).select_from(rows).where(kept)
    if found_ids is not None:
        counted = counted.where(rows.c.player_id.in_(found_ids))
    total = int(conn.execute(counted).scalar() or 0)
    joined = rows.join(players, players.c.id == rows.c.player_id)
    where = kept
    if found_ids is not None:
        where = and_(kept, rows.c.player_id.in_(found_ids))
    page = max(1, page)
    query = (
        select(
            rows.c.player_id,
            players.c.name,
            rows.c.mode,
            rows.c.role,
            rows.c.rating,
            rows.c.games,
        )
        .select_from(joined)
        .where(where)
        .order_by(
            rows.c.rating.desc(),
            _collate(conn, players.c.name),
            _collate(conn, rows.c.mode),
            _collate(conn, rows.c.role),
        )
        .limit(per_page)
        .offset((page - 1) * per_page)
    )
    found = list(conn.execute(query))
    places = _places(conn, rows, kept, found, contiguous=found_ids is None)
    ids = sorted({r.player_id for r in found})
    pools = _pools_of(conn, league_id, ids)
    as_of = effective_as_of(conn, league_id)
    event_start = last_event_start(conn, league_id)
    start = trend_start(event_start, as_of)
    moved = (
        _moves_since(conn, league_id, ids, start, dated_in_order(rules))
        if start is not None
        else {}
    )
    out = []
    for r, place in zip(found, places, strict=True):
        mine = pools[r.player_id]
        total_games = sum(g for (_m, _r), (_x, g, _e) in mine.items())
        extra: tuple[float, ...] = ()
        if r.role == GLOBAL_ROLE:
            roles = {
                role: value for (mode, role), (value, _g, _e) in mine.items() if mode == r.mode
            }
            rating = sum(roles.get(x, rules.start_rating) for x in rules.roles) / len(rules.roles)
            trend = sum(
                d for (mode, _role), d in moved.get(r.player_id, {}).items() if mode == r.mode
            ) / len(rules.roles)
        else:
            rating, _, extra = mine[r.mode, r.role]
            trend = moved.get(r.player_id, {}).get((r.mode, r.role), 0.0)
        out.append(
            RankingRow(
                rank=place,
                player=r.name,
                mode=r.mode,
                role=r.role,
                rating=rating,
                games=int(r.games),
                title=rules.title_for(rating, total_games),
                trend=trend if start is not None else None,
                shown=shown_values(rules, PoolState(rating, 0, extra)) if extra else (),
            )
        )
    return RankingPage(out, total, page, per_page, start, event_start is not None, as_of)


def _places(
    conn: Connection,
    rows: Any,
    kept: ColumnElement[bool],
    found: Sequence[Any],
    *,
    contiguous: bool,
) -> list[int]:
    """The competition rank of each row of a page (rows in ranking order), among the rows the
    filters keep: 1 + the rows of its mode and role with a strictly higher rating. A page without
    a name search holds, for each mode and role, consecutive rows of that ranking: one count gives
    its first row's rank and place, the others follow; a searched row is counted alone."""

    def count(*where: ColumnElement[bool], by_name: bool = False) -> int:
        source = rows.join(players, players.c.id == rows.c.player_id) if by_name else rows
        query = select(func.count()).select_from(source).where(and_(kept, *where))
        return int(conn.execute(query).scalar() or 0)

    out: list[int] = []
    state: dict[tuple[str, str], tuple[float, int, int]] = {}  # group: rating, rank, place
    for r in found:
        key = (r.mode, r.role)
        if not contiguous or key not in state:
            # (the conditions built only for a counted row: fifty pairs of them made a tenth of
            # a page computed again after a live post, docs/benchmarks.md "Live results")
            group = (rows.c.mode == r.mode, rows.c.role == r.role)
            rank = 1 + count(*group, rows.c.rating > r.rating)
            place = rank
            if contiguous:  # rows tied with it and listed before it (on earlier pages)
                place += count(
                    *group,
                    rows.c.rating == r.rating,
                    _collate(conn, players.c.name) < r.name,
                    by_name=True,
                )
        else:
            rating, last_rank, last_place = state[key]
            place = last_place + 1
            rank = last_rank if r.rating == rating else place
        state[key] = (r.rating, rank, place)
        out.append(rank)
    return out


def _pools_of(
    conn: Connection, league_id: int, ids: Sequence[int]
) -> dict[int, dict[tuple[str, str], tuple[float, int, tuple[float, ...]]]]:
    out: dict[int, dict[tuple[str, str], tuple[float, int, tuple[float, ...]]]] = defaultdict(dict)
    if ids:
        for pid, mode, role, rating, count, extra in rating_rows(conn, league_id, ids):
            out[pid][mode, role] = (rating, count, extra)
    return out


TREND_DAYS = 30  # leagues without events: the trend is the change over the last 30 days


def trend_start(event_start: dt.date | None, as_of: dt.date | None) -> dt.date | None:
    """The day trends count from: the first day of the league's latest event, or for a league
    whose games have no events, :data:`TREND_DAYS` days before the ranking's date."""
    if event_start is None and as_of is not None:
        return as_of - dt.timedelta(days=TREND_DAYS - 1)
    return event_start


def last_event_start(conn: Connection, league_id: int) -> dt.date | None:
    """The first day of the league's most recent event (the one with the latest game)."""
    latest = conn.execute(
        select(games.c.event_id)
        .where(and_(games.c.league_id == league_id, games.c.event_id.is_not(None)))
        .order_by(games.c.date.desc())
        .limit(1)
    ).scalar()
    if latest is None:
        return None
    value: dt.date | None = conn.execute(
        select(func.min(games.c.date)).where(games.c.event_id == latest)
    ).scalar()
    return value


def _moves_since(
    conn: Connection, league_id: int, ids: Sequence[int], since: dt.date, in_order: bool
) -> dict[int, dict[tuple[str, str], float]]:
    """Each pool's total change from ``since`` on (games and season adjustments); ``in_order``:
    the ledger is in date order (:func:`~eloleague.engine.replay.dated_in_order`), so only its
    newest generations hold such entries (read in all of them, they were a fifth of a ranking
    page computed again after a live post: docs/league.md, "Live results")."""
    out: dict[int, dict[tuple[str, str], float]] = defaultdict(dict)
    if not ids:
        return out
    generations = ledger_generations_since(conn, league_id, since) if in_order else None
    if generations == []:
        return out
    for pid, mode, role, moved in conn.execute(
        select(ledger.c.player_id, ledger.c.mode, ledger.c.role, func.sum(ledger.c.delta))
        .where(
            and_(
                in_ledger(conn, league_id, generations),
                ledger.c.player_id.in_(ids),
                ledger.c.date >= since,
            )
        )
        .group_by(ledger.c.player_id, ledger.c.mode, ledger.c.role)
    ):
        out[pid][mode, role] = float(moved)
    return out


@dataclass(frozen=True, slots=True)
class PlaceInPool:
    """A player's competition rank in one of her pools (or global rows) and how many rows the
    pool's ranking has."""

    rank: int
    of: int


def player_places(
    conn: Connection, league_id: int, rules: RuleSet, player_id: int
) -> dict[tuple[str, str], PlaceInPool]:
    """The player's rank in each ranking she is in: ``{(mode, role): place}``, global rows under
    role ``*`` for rule sets pooled by role. Counted over the stored ratings: for each pool, one
    more than the rows of the same mode and role with a strictly higher rating."""
    out: dict[tuple[str, str], PlaceInPool] = {}
    sources: list[Select[Any]] = [_pool_rows(league_id)]
    if rules.pools.by_role:
        sources.append(_global_rows(rules, league_id))
    for source in sources:
        rows = source.subquery("rows")
        mine = (
            select(rows.c.mode, rows.c.role, rows.c.rating)
            .where(rows.c.player_id == player_id)
            .subquery("mine")
        )
        query = (
            select(
                mine.c.mode,
                mine.c.role,
                func.count().filter(rows.c.rating > mine.c.rating),
                func.count(),
            )
            .select_from(
                mine.join(rows, and_(rows.c.mode == mine.c.mode, rows.c.role == mine.c.role))
            )
            .group_by(mine.c.mode, mine.c.role)
        )
        for mode, role, higher, count in conn.execute(query):
            out[mode, role] = PlaceInPool(int(higher) + 1, int(count))
    return out


def present_pools(conn: Connection, league_id: int) -> dict[tuple[str, str], int]:
    """Each pool (mode, role) that has ratings, with how many players it ranks."""
    return {
        (mode, role): int(count)
        for mode, role, count in conn.execute(
            select(ratings.c.mode, ratings.c.role, func.count())
            .where(ratings.c.league_id == league_id)
            .group_by(ratings.c.mode, ratings.c.role)
        )
    }


def game_span(conn: Connection, league_id: int) -> tuple[dt.date | None, dt.date | None]:
    """The dates of the league's first and last games."""
    first, last = conn.execute(
        select(func.min(games.c.date), func.max(games.c.date)).where(games.c.league_id == league_id)
    ).one()
    return first, last
