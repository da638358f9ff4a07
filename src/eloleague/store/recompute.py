"""Recompute the derived tables from the games, starting from the latest safe checkpoint.

Games are the source of truth: after any change dated ``D`` (new games, a corrected
or deleted game, a merge, a rule change, a season closing), the ledger from the last checkpoint
before ``D`` on, the current ratings and the later checkpoints are rewritten by replaying the games
from that checkpoint (docs/formats.md order). The result equals a full replay:
tests check it on every change.

Besides the checkpoints every :data:`~eloleague.store.checkpoints.CHECKPOINT_EVERY` games, each
recompute leaves one after its last game (when no closed season lies beyond it), so that the usual
import, an event dated after everything else, replays only its own games; and it writes the state
after the last game as tables (:mod:`~eloleague.store.tail`), from which games appended after
everything else are rated without replaying anything (:mod:`~eloleague.store.live`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, and_, func, select

from eloleague.engine import EngineState, Unrated, replay
from eloleague.engine.replay import processing_order
from eloleague.errors import InputError
from eloleague.io.ratings_csv import parse_initial
from eloleague.records import GameRecord, PoolKey, PoolState
from eloleague.rules.model import RuleSet
from eloleague.store import checkpoints as cps
from eloleague.store import tail as live_tail
from eloleague.store.derived import drop_ledger_from, write_ledger, write_ratings
from eloleague.store.games import StoredGame, load_games
from eloleague.store.tables import events, games, leagues, season_closings

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Recomputed:
    """What a recompute produced: the final pools, the unrated games it met, games replayed."""

    pools: Mapping[PoolKey, PoolState]
    unrated: list[Unrated]
    replayed: int
    as_of: dt.date | None


def closings(conn: Connection, league_id: int) -> list[dt.date]:
    """The season ends the officer closed explicitly, oldest first."""
    return list(
        conn.execute(
            select(season_closings.c.end_date)
            .where(season_closings.c.league_id == league_id)
            .order_by(season_closings.c.end_date)
        ).scalars()
    )


def last_game_date(conn: Connection, league_id: int) -> dt.date | None:
    """The date of the league's latest game."""
    value: dt.date | None = conn.execute(
        select(func.max(games.c.date)).where(games.c.league_id == league_id)
    ).scalar()
    return value


def initial_pools(conn: Connection, league_id: int, rules: RuleSet) -> dict[PoolKey, PoolState]:
    """The published ratings the league started from (empty when it started from nothing),
    read with ``rules`` (they decide which pools a row names)."""
    text = conn.execute(select(leagues.c.initial_text).where(leagues.c.id == league_id)).scalar()
    if not text:
        return {}
    pools, problems = parse_initial(text, rules)
    if problems:  # checked when the league was created and at each rule change
        raise InputError(problems, "initial ratings")
    from eloleague.store.players import name_index, player_names

    names = player_names(conn, league_id)
    current = set(names.values())
    if all(key.player in current for key in pools):
        return pools
    # A player renamed since (told apart from a namesake, a spelling fixed, merged): the file's
    # name is an alias of hers now.
    index = name_index(conn, league_id)
    out: dict[PoolKey, PoolState] = {}
    for key, pool in pools.items():
        pid = index.get(key.player)
        moved = key if pid is None else PoolKey(names[pid], key.mode, key.role)
        out.setdefault(moved, pool)
    return out


def effective_as_of(conn: Connection, league_id: int) -> dt.date | None:
    """The date the stored ratings are "as of": the last game's date, or the day after the latest
    explicit season closing when that is later (so the closed season's adjustments apply).
    """
    last = last_game_date(conn, league_id)
    closed = closings(conn, league_id)
    after_close = closed[-1] + dt.timedelta(days=1) if closed and closed[-1] < dt.date.max else None
    candidates = [d for d in (last, after_close) if d is not None]
    return max(candidates) if candidates else None


def event_starts(
    conn: Connection, league_id: int, rules: RuleSet, names: set[str]
) -> dict[str, dt.date]:
    """The first date of each named event among the stored games (per-event updates only)."""
    if not names or rules.updates != "per_event":
        return {}
    out: dict[str, dt.date] = {}
    ordered = sorted(names)
    for i in range(0, len(ordered), 500):
        query = (
            select(events.c.name, func.min(games.c.date))
            .select_from(games.join(events, games.c.event_id == events.c.id))
            .where(and_(events.c.league_id == league_id, events.c.name.in_(ordered[i : i + 500])))
            .group_by(events.c.name)
        )
        out.update({k: v for k, v in conn.execute(query).all()})
    return out


def touched_date(
    conn: Connection, league_id: int, rules: RuleSet, dated: Sequence[GameRecord]
) -> dt.date | None:
    """The earliest date a change of these games (added, replaced, deleted, moved) can alter:
    the start of their batches, ``None`` for no game."""
    if not dated:
        return None
    first: dict[str | None, dt.date] = {}  # each event's earliest game among these
    for g in dated:
        day = first.get(g.event)
        if day is None or g.date < day:
            first[g.event] = g.date
    starts = event_starts(conn, league_id, rules, {e for e in first if e})
    return min(
        cps.touched_from(rules, day, starts.get(event) if event else None)
        for event, day in first.items()
    )


def starting_point(
    conn: Connection,
    league_id: int,
    since: dt.date | None,
    names: Mapping[int, str],
    rules: RuleSet,
) -> cps.Checkpoint | None:
    """The checkpoint a recompute of changes dated on or after ``since`` starts from."""
    if since is None:
        return None
    return cps.load_checkpoint(conn, league_id, since, names, rules)


def recompute(
    conn: Connection,
    league_id: int,
    rules: RuleSet,
    names: Mapping[int, str],
    *,
    since: dt.date | None,
    progress: Progress | None = None,
    every: int | None = None,
    preloaded: tuple[cps.Checkpoint | None, list[StoredGame]] | None = None,
) -> Recomputed:
    """Rewrite ledger, ratings and checkpoints for every change dated on or after ``since``
    (``None``: everything, from the first game).

    ``preloaded``: the starting checkpoint and every game dated on or after it, when the caller
    has them already (an import has its new games in memory: no need to read them back).
    """
    ids = {name: pk for pk, name in names.items()}
    if preloaded is not None:
        point = preloaded[0]
    else:
        point = starting_point(conn, league_id, since, names, rules)
    initial = initial_pools(conn, league_id, rules)
    if point is not None:
        start_state = point.state
    else:
        start_state = EngineState.from_pools(initial) if initial else EngineState()
    ledger_pos = point.ledger_pos if point is not None else 0
    games_before = point.games_before if point is not None else 0
    drop_ledger_from(conn, league_id, ledger_pos)
    cps.drop_from(conn, league_id, point.date if point is not None else None)

    if preloaded is not None:
        stored = preloaded[1]
    else:
        stored = load_games(conn, league_id, names, since=point.date if point else None)
    records = [g.record for g in stored]
    pks = {g.record.id or "": g.pk for g in stored}
    order = [records[i] for i in processing_order(records)]
    cuts = cps.cut_points(rules, order, every or cps.CHECKPOINT_EVERY)
    bounds = [0, *cuts, len(order)]
    as_of = effective_as_of(conn, league_id)

    state = start_state
    unrated: list[Unrated] = []
    total = len(order)
    if progress is not None:
        progress(0, total)
    if as_of is None:  # no game at all: the published ratings it started from, if any
        write_ratings(conn, league_id, initial, ids)
        live_tail.drop(conn, league_id)
        return Recomputed(initial, [], 0, None)
    for n in range(len(bounds) - 1):
        chunk = order[bounds[n] : bounds[n + 1]]
        last = n == len(bounds) - 2
        result = replay(rules, chunk, initial=state, as_of=as_of if last else None)
        write_ledger(conn, league_id, ledger_pos, result.ledger, pks, ids)
        ledger_pos += len(result.ledger)
        games_before += len(chunk)
        unrated.extend(result.unrated)
        state = result.state
        if not last:
            cps.save(
                conn,
                league_id,
                cps.Checkpoint(order[bounds[n + 1]].date, games_before, ledger_pos, state),
                ids,
            )
        if progress is not None:
            progress(bounds[n + 1], total)
    write_ratings(conn, league_id, state.pools, ids, state.last_played)
    live_tail.save(
        conn, league_id, state, ids, as_of=as_of, games_count=games_before, ledger_next=ledger_pos
    )
    if order and as_of == order[-1].date and as_of < dt.date.max:
        # The state after the last game: the next import of later games replays only itself.
        tail = cps.Checkpoint(as_of + dt.timedelta(days=1), games_before, ledger_pos, state)
        cps.save(conn, league_id, tail, ids)
        cps.thin(conn, league_id, every or cps.CHECKPOINT_EVERY)
    return Recomputed(state.pools, unrated, total, as_of)
