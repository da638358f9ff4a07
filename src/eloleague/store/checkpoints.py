"""Resumable engine states: where a recompute starts instead of the first game.

A checkpoint at date ``D`` is the engine state (:class:`eloleague.engine.EngineState`) after every
game dated before ``D``; it is only taken where no update batch straddles ``D`` (docs/rule-sets.md: an
event with games on both sides, a calendar period that began before ``D``), so that replaying the
games dated on or after ``D`` from it gives exactly what a full replay gives. States are stored
with player ids (a rename changes nothing) as compressed msgpack.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import msgspec
from sqlalchemy import Connection, and_, delete, insert, select

from eloleague.engine import EngineState
from eloleague.records import GameRecord, PoolKey, PoolState, field_names
from eloleague.rules.model import RuleSet
from eloleague.store.bulk import date_param, run
from eloleague.store.tables import checkpoints

# A checkpoint every this many games: an import at the end of a long history replays at most
# about this many games again (docs/formats.md order), while a full replay stores few states.
CHECKPOINT_EVERY = 20_000


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The state after every game dated before ``date``, and where the ledger stood."""

    date: dt.date
    games_before: int
    ledger_pos: int
    state: EngineState


class _State(msgspec.Struct, array_like=True):
    pools: list[tuple[int, str, str, float, int]]
    season_end: dt.date | None
    eligible: int
    active: list[tuple[dt.date, list[int]]]
    started: bool
    last_played: list[tuple[int, str, str, dt.date]]
    decay_spells: list[tuple[int, str, str, float, float]]
    pool_extra: list[list[float]] = []  # each pool's PoolState.extra, in the order of ``pools``
    periods: int = 0
    decay_steps: list[tuple[int, str, str, int]] = []  # EngineState.decay_steps


# The fields of EngineState this module knows how to store: a new engine field must be added here
# (a checkpoint that silently dropped it would make incremental recomputes differ from a replay).
KNOWN_FIELDS = frozenset(
    {
        "pools",
        "season_end",
        "eligible",
        "active",
        "started",
        "last_played",
        "decay_spells",
        "periods",
        "decay_steps",
    }
)


# The fields of a pool's state stored for each pool, likewise.
KNOWN_POOL_FIELDS = frozenset({"rating", "games", "extra"})


def _check_fields(state: EngineState) -> None:
    fields = {f.name for f in dataclasses.fields(EngineState)}
    if fields != KNOWN_FIELDS:
        raise RuntimeError(
            "eloleague.store.checkpoints does not know the engine state fields "
            f"{sorted(fields ^ KNOWN_FIELDS)}: update encode_state/decode_state"
        )
    for pool in state.pools.values():
        pool_fields = set(field_names(type(pool)))
        if pool_fields != KNOWN_POOL_FIELDS:
            raise RuntimeError(
                "eloleague.store.checkpoints does not know the pool state fields "
                f"{sorted(pool_fields ^ KNOWN_POOL_FIELDS)}: update encode_state/decode_state"
            )
        break  # every pool of a state has the same fields


def encode_state(state: EngineState, ids: Mapping[str, int]) -> bytes:
    """The state as bytes, players by id."""
    _check_fields(state)
    raw = _State(
        pools=[(ids[k.player], k.mode, k.role, p.rating, p.games) for k, p in state.pools.items()],
        season_end=state.season_end,
        eligible=state.eligible,
        active=[(day, sorted(ids[n] for n in names)) for day, names in state.active.items()],
        started=state.started,
        last_played=[(ids[k.player], k.mode, k.role, d) for k, d in state.last_played.items()],
        decay_spells=[
            (ids[k.player], k.mode, k.role, a, b) for k, (a, b) in state.decay_spells.items()
        ],
        pool_extra=(
            [list(p.extra) for p in state.pools.values()]
            if any(p.extra for p in state.pools.values())
            else []
        ),
        periods=state.periods,
        decay_steps=[(ids[k.player], k.mode, k.role, n) for k, n in state.decay_steps.items()],
    )
    return zlib.compress(msgspec.msgpack.encode(raw), 1)


def decode_state(data: bytes, names: Mapping[int, str]) -> EngineState:
    """The state written by :func:`encode_state`, players by their current names."""
    raw = msgspec.msgpack.decode(zlib.decompress(data), type=_State)
    extras = [tuple(e) for e in raw.pool_extra] or [()] * len(raw.pools)
    return EngineState(
        pools={
            PoolKey(names[p], mode, role): PoolState(r, g, extra)
            for (p, mode, role, r, g), extra in zip(raw.pools, extras, strict=True)
        },
        season_end=raw.season_end,
        eligible=raw.eligible,
        active={day: frozenset(names[i] for i in ids) for day, ids in raw.active},
        started=raw.started,
        last_played={PoolKey(names[p], m, r): d for p, m, r, d in raw.last_played},
        decay_spells={PoolKey(names[p], m, r): (a, b) for p, m, r, a, b in raw.decay_spells},
        periods=raw.periods,
        decay_steps={PoolKey(names[p], m, r): n for p, m, r, n in raw.decay_steps},
    )


def _period_start(rules: RuleSet, day: dt.date) -> dt.date:
    if rules.updates != "per_period" or rules.period == "day":
        return day
    if rules.period == "week":
        return day - dt.timedelta(days=day.weekday())
    return day.replace(day=1)


def touched_from(rules: RuleSet, day: dt.date, event_start: dt.date | None = None) -> dt.date:
    """The earliest date a change dated ``day`` can alter: the start of its batch."""
    start = day if event_start is None else min(day, event_start)
    return _period_start(rules, start)


def cut_points(
    rules: RuleSet, ordered: Sequence[GameRecord], every: int = CHECKPOINT_EVERY
) -> list[int]:
    """Positions ``i`` (in date order) before which a checkpoint may be taken, about ``every``
    games apart: the date changes at ``i``, no event of an earlier game goes on at or after it,
    and (per-period updates) a new period begins there.
    """
    if not ordered:
        return []
    last_day: dict[str, dt.date] = {}
    for g in ordered:
        if g.event and rules.updates == "per_event":
            last_day[g.event] = max(last_day.get(g.event, g.date), g.date)
    cuts = []
    open_until = ordered[0].date
    since = 0
    for i, g in enumerate(ordered):
        if (
            i
            and since >= every
            and g.date > ordered[i - 1].date
            and open_until < g.date
            and (rules.updates != "per_period" or _period_start(rules, g.date) == g.date)
        ):
            cuts.append(i)
            since = 0
        since += 1
        if g.event and g.event in last_day:
            open_until = max(open_until, last_day[g.event])
    return cuts


def load_checkpoint(
    conn: Connection,
    league_id: int,
    day: dt.date | None,
    names: Mapping[int, str],
    rules: RuleSet,
) -> Checkpoint | None:
    """The latest checkpoint dated on or before ``day``, its state decoded (``None`` when there
    is none)."""
    query = select(checkpoints).where(checkpoints.c.league_id == league_id)
    if day is not None:
        query = query.where(checkpoints.c.date <= day)
    row = conn.execute(query.order_by(checkpoints.c.date.desc()).limit(1)).first()
    if row is None:
        return None
    return Checkpoint(row.date, row.games_before, row.ledger_pos, decode_state(row.state, names))


def drop_from(conn: Connection, league_id: int, day: dt.date | None) -> None:
    """Forget the checkpoints dated after ``day`` (all when ``None``)."""
    if day is None:
        run(conn, "DELETE FROM checkpoints WHERE league_id = ?", (league_id,))
    else:
        run(
            conn,
            "DELETE FROM checkpoints WHERE league_id = ? AND date > ?",
            (league_id, date_param(conn)(day)),
        )


def thin(conn: Connection, league_id: int, every: int = CHECKPOINT_EVERY) -> None:
    """Keep the newest checkpoint and, before it, only checkpoints at least ``every`` games apart
    (each recompute adds one after its last game: a league fed event by event keeps few)."""
    rows = conn.execute(
        select(checkpoints.c.date, checkpoints.c.games_before)
        .where(checkpoints.c.league_id == league_id)
        .order_by(checkpoints.c.date)
    ).all()
    kept_at = 0
    dropped = []
    for day, before in rows[:-1]:
        if before - kept_at >= every:
            kept_at = before
        else:
            dropped.append(day)
    if dropped:
        conn.execute(
            delete(checkpoints).where(
                and_(checkpoints.c.league_id == league_id, checkpoints.c.date.in_(dropped))
            )
        )


def save(conn: Connection, league_id: int, point: Checkpoint, ids: Mapping[str, int]) -> None:
    """Store a checkpoint."""
    conn.execute(
        insert(checkpoints),
        {
            "league_id": league_id,
            "date": point.date,
            "games_before": point.games_before,
            "ledger_pos": point.ledger_pos,
            "state": encode_state(point.state, ids),
        },
    )
