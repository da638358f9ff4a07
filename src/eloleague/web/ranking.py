"""The ranking page's query: the league's stored current ratings, paginated in SQL.

The ranking is read from the ``ratings`` table the recompute keeps current (DESIGN.md: ratings are
derived and materialised), never by replaying: a page of a 10,000-player league is one indexed
query. Rows and their order are those of RULES §6 (rating descending, then player, mode and role
by code point); for rule sets pooled by role, each player's global row per mode (role ``*``) is the
mean over the rule set's roles with the start rating standing in for roles never played (RULES
§3.3), computed here with the same formula and order of evaluation as
:func:`eloleague.engine.standings`, so that values equal ``eloleague ranking --format csv``.
"""

from __future__ import annotations

import datetime as dt
import json
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
from eloleague.engine.standings import GLOBAL_ROLE
from eloleague.records import PoolState
from eloleague.rules.model import RuleSet
from eloleague.store.tables import games, ledger, players, ratings


@dataclass(frozen=True, slots=True)
class RankingRow:
    """One ranking row with its place, and its change since the last event began."""

    rank: int
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
    last_event_start: dt.date | None


@dataclass(frozen=True, slots=True)
class RankingFilter:
    """What a visitor asked for: a pool (mode, role or ``*``), a name search, active players."""

    mode: str | None = None
    role: str | None = None
    search: str | None = None
    active_since: dt.date | None = None


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
    """One page of the league's ranking (RULES §6 order), with titles and trends."""
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
    if wanted.search:
        pattern = (
            "%" + wanted.search.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        )
        cond.append(players.c.name.ilike(pattern, escape="\\"))
    if wanted.active_since is not None:
        cond.append(
            exists().where(
                and_(
                    ledger.c.league_id == league_id,
                    ledger.c.player_id == rows.c.player_id,
                    ledger.c.game_id.is_not(None),
                    ledger.c.date >= wanted.active_since,
                )
            )
        )
    joined = rows.join(players, players.c.id == rows.c.player_id)
    where = and_(True, *cond)
    total = int(conn.execute(select(func.count()).select_from(joined).where(where)).scalar() or 0)
    page = max(1, page)
    query = (
        select(
            rows.c.player_id, players.c.name, rows.c.mode, rows.c.role, rows.c.rating, rows.c.games
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
    ids = sorted({r.player_id for r in found})
    pools = _pools_of(conn, league_id, ids)
    start = last_event_start(conn, league_id)
    moved = _moves_since(conn, league_id, ids, start) if start is not None else {}
    out = []
    for n, r in enumerate(found):
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
                rank=(page - 1) * per_page + n + 1,
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
    return RankingPage(out, total, page, per_page, start)


def _pools_of(
    conn: Connection, league_id: int, ids: Sequence[int]
) -> dict[int, dict[tuple[str, str], tuple[float, int, tuple[float, ...]]]]:
    out: dict[int, dict[tuple[str, str], tuple[float, int, tuple[float, ...]]]] = defaultdict(dict)
    if not ids:
        return out
    for pid, mode, role, rating, count, extra in conn.execute(
        select(
            ratings.c.player_id,
            ratings.c.mode,
            ratings.c.role,
            ratings.c.rating,
            ratings.c.games,
            ratings.c.extra,
        )
        .where(and_(ratings.c.league_id == league_id, ratings.c.player_id.in_(ids)))
        .order_by(ratings.c.position)
    ):
        out[pid][mode, role] = (rating, count, tuple(json.loads(extra)) if extra else ())
    return out


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
    conn: Connection, league_id: int, ids: Sequence[int], since: dt.date
) -> dict[int, dict[tuple[str, str], float]]:
    """Each pool's total change from ``since`` on (games and season adjustments)."""
    out: dict[int, dict[tuple[str, str], float]] = defaultdict(dict)
    if not ids:
        return out
    for pid, mode, role, moved in conn.execute(
        select(ledger.c.player_id, ledger.c.mode, ledger.c.role, func.sum(ledger.c.delta))
        .where(
            and_(
                ledger.c.league_id == league_id,
                ledger.c.player_id.in_(ids),
                ledger.c.date >= since,
            )
        )
        .group_by(ledger.c.player_id, ledger.c.mode, ledger.c.role)
    ):
        out[pid][mode, role] = float(moved)
    return out
