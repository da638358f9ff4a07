"""Whether a league's derived tables are what a full replay of its games gives (docs/league.md,
"Checking a league").

Games are the source of truth and every stored rating is derived from them: the ledger, the
current ratings and the state kept after the last game for games posted live
(:mod:`eloleague.store.tail`) must equal, value for value, what the engine computes when it
replays every game from the start, and each checkpoint (:mod:`eloleague.store.checkpoints`) the
state a replay of the games before it gives. Every path that writes them (a recompute from a checkpoint,
the append path, the compiled engine) is held to that by the property tests; this module lets an
officer check it on the league itself, after an upgrade of eloleague, a restore, or a hand edit
of the database, and :meth:`eloleague.league.League.recompute` rewrites whatever differs.

The comparison reads the stored rows through the driver and the replay's as rows of the same
columns, built by the code that writes them (:func:`eloleague.store.derived.ledger_rows`), so a
million games are compared without making an object per ledger entry.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import Any

from sqlalchemy import Connection, select

from eloleague.engine import EngineState, ReplayResult
from eloleague.records import GameRecord, PoolKey, PoolState
from eloleague.store import tail as live_tail
from eloleague.store.bulk import cursor, date_param, run, to_date
from eloleague.store.checkpoints import decode_state
from eloleague.store.derived import LEDGER_FIELDS, ledger_rows
from eloleague.store.tables import checkpoints as cps_table

SHOWN = 20
"""The most differences of the ledger a verification describes one by one (it counts them all),
and the most differing ratings the command line and the officers' page list."""

_READ_LEDGER = (
    "SELECT "
    + ", ".join(f'"{column}"' for column in LEDGER_FIELDS)
    + " FROM ledger WHERE league_id = ? ORDER BY seq"
)
_READ_RATINGS = (
    "SELECT player_id, mode, role, rating, games, extra, last_played FROM ratings "
    "WHERE league_id = ? ORDER BY position"
)
_FETCH = 10_000  # ledger rows read at a time: the whole ledger is never held in memory


@dataclass(frozen=True)
class PoolDifference:
    """A pool whose stored current rating is not the replay's (``None``: absent on that side)."""

    key: PoolKey
    stored: PoolState | None
    replayed: PoolState | None
    stored_last: dt.date | None = None
    replayed_last: dt.date | None = None


@dataclass(frozen=True)
class LedgerDifference:
    """A ledger entry (its place in processing order, from 0) that is not the replay's:
    ``fields`` names the columns that differ, or is ``("missing",)`` (the replay has an entry
    the ledger lacks) or ``("extra",)`` (the ledger has one the replay does not).
    ``game``: the game's label (empty for an adjustment outside games), ``key``: the pool."""

    position: int
    game: str
    key: PoolKey | None
    fields: tuple[str, ...]
    stored: Mapping[str, Any]
    replayed: Mapping[str, Any]


@dataclass(frozen=True)
class Verification:
    """What :func:`verify` found: how much it compared and every difference (the ledger's
    counted, the first :data:`SHOWN` described; the checkpoints by their dates)."""

    games: int
    ledger_entries: int
    pools: int
    pool_differences: list[PoolDifference]
    ledger_differences: int
    first_ledger_differences: list[LedgerDifference]
    tail_differences: list[str]
    checkpoints: int = 0
    checkpoint_differences: list[dt.date] = field(default_factory=list)

    @property
    def agrees(self) -> bool:
        """Whether the stored tables are exactly the replay's."""
        return not (
            self.pool_differences
            or self.ledger_differences
            or self.tail_differences
            or self.checkpoint_differences
        )


def verify(
    conn: Connection,
    league_id: int,
    result: ReplayResult,
    games: int,
    game_pks: Mapping[str, int],
    names: Mapping[int, str],
    resume: Resume | None = None,
) -> Verification:
    """Compare the league's stored ledger, ratings and tail with ``result``, the full replay of
    its ``games`` games (``game_pks``: each game's row id by its label, ``names``: the players'
    names by id), read in the caller's transaction (one snapshot: a write made meanwhile by
    another process is not half seen); with ``resume``, the stored checkpoints too
    (:func:`checkpoints_differing`)."""
    ids = {name: pid for pid, name in names.items()}
    count, shown, labels = _ledger(conn, league_id, result, game_pks, ids)
    checked, differing = (
        (0, []) if resume is None else checkpoints_differing(conn, league_id, names, resume)
    )
    pools, out_of_order = _pools(conn, league_id, result, names)
    return Verification(
        games=games,
        ledger_entries=len(result.ledger),
        pools=len(result.pools),
        pool_differences=pools,
        ledger_differences=count,
        first_ledger_differences=[_described(d, labels, names) for d in shown],
        tail_differences=_tail(conn, league_id, result, games, names)
        + (["order"] if out_of_order else []),
        checkpoints=checked,
        checkpoint_differences=differing,
    )


@dataclass(frozen=True)
class Resume:
    """What checking the checkpoints needs of the engine: the league's games in processing
    order, its state before the first, and the replay of some games from a state, giving the
    state after them and how many ledger entries they made (as a recompute runs it, chunk after
    chunk: :func:`eloleague.store.recompute.recompute`)."""

    ordered: Sequence[GameRecord]
    start: EngineState
    replay: Callable[[Sequence[GameRecord], EngineState], tuple[EngineState, int]]


def checkpoints_differing(
    conn: Connection, league_id: int, names: Mapping[int, str], resume: Resume
) -> tuple[int, list[dt.date]]:
    """How many checkpoints the league stores, and the dates of those whose state is not the one
    a replay of the games before them gives (``resume``, game after game in processing order, as
    a recompute made them), or whose place in the games or the ledger is not theirs. A
    checkpoint is where a later change's recompute begins: a wrong one would make the ratings
    after the next back-dated game wrong."""
    columns = cps_table.c
    query = select(columns.date, columns.games_before, columns.ledger_pos, columns.state)
    rows = list(conn.execute(query.where(columns.league_id == league_id).order_by(columns.date)))
    if not rows:
        return 0, []
    ordered = resume.ordered
    state = resume.start
    done = ledger = 0
    differing = []
    for day, before, position, blob in rows:
        if before < done or before > len(ordered):
            differing.append(to_date(day))
            continue
        if before > done:
            state, entries = resume.replay(ordered[done:before], state)
            done, ledger = before, ledger + entries
        kept = decode_state(blob, names)
        if position != ledger or _comparable(kept) != _comparable(state):
            differing.append(to_date(day))
    return len(rows), differing


def _comparable(state: EngineState) -> tuple[Any, ...]:
    """What of an engine state a checkpoint must hold, in a form both sides share: the pools in
    their order, the active players of each season end that has some."""
    return (
        list(state.pools.items()),
        state.season_end,
        state.eligible,
        _active(state),
        state.started,
        dict(state.last_played),
        dict(state.decay_spells),
        state.periods,
        dict(state.decay_steps),
    )


def _active(state: EngineState) -> dict[dt.date, Any]:
    """The players marked active by each season end, for the season ends that have some (a
    season end with none may be stored or not: the same state)."""
    return {end: names for end, names in state.active.items() if names}


_Raw = tuple[int, tuple[Any, ...] | None, tuple[Any, ...] | None]


def _ledger(
    conn: Connection,
    league_id: int,
    result: ReplayResult,
    game_pks: Mapping[str, int],
    ids: Mapping[str, int],
) -> tuple[int, list[_Raw], dict[int, str]]:
    """How many ledger entries differ from the replay's, the first :data:`SHOWN` of them as
    (position, stored row, replayed row), and the labels of their games by row id."""
    replayed = ledger_rows(result.ledger, 0, game_pks, ids, date_param(conn))
    count = 0
    shown: list[_Raw] = []
    for n, (stored, mine) in enumerate(zip_longest(_stored_ledger(conn, league_id), replayed)):
        if stored == mine:  # equal as the driver gives them back: no common form needed
            continue
        a = None if stored is None else _normal(stored)
        b = None if mine is None else _normal(mine)
        if a != b:
            count += 1
            if len(shown) < SHOWN:
                shown.append((n, a, b))
    labels = {pk: label for label, pk in game_pks.items()}
    return count, shown, labels


def _stored_ledger(conn: Connection, league_id: int) -> Iterator[tuple[Any, ...]]:
    """The league's ledger rows in processing order, read a batch at a time."""
    sql = _READ_LEDGER
    if conn.dialect.name == "postgresql":  # a server-side cursor: the rows come as they are read
        cur = conn.connection.driver_connection.cursor(name="eloleague_verify")  # type: ignore[union-attr]
        sql = sql.replace("?", "%s")
    else:
        cur = cursor(conn)
    try:
        cur.execute(sql, (league_id,))
        while batch := cur.fetchmany(_FETCH):
            yield from batch
    finally:
        cur.close()


_FIRED = LEDGER_FIELDS.index("fired")
_EXTRA = LEDGER_FIELDS.index("extra")
_DATE = LEDGER_FIELDS.index("date")
_GAME = LEDGER_FIELDS.index("game_id")
_PLAYER = LEDGER_FIELDS.index("player_id")
_MODE = LEDGER_FIELDS.index("mode")
_ROLE = LEDGER_FIELDS.index("role")


def _normal(row: Sequence[Any]) -> tuple[Any, ...]:
    """A ledger row in a form both sides share: the date as a date, the rules fired and the
    method's fields as tuples (text written by different paths may space them differently)."""
    out = list(row)
    out[_DATE] = to_date(out[_DATE])
    out[_FIRED] = tuple(f for f in (out[_FIRED] or "").split(",") if f)
    out[_EXTRA] = tuple(json.loads(out[_EXTRA])) if out[_EXTRA] else ()
    return tuple(out)


def _described(raw: _Raw, labels: Mapping[int, str], names: Mapping[int, str]) -> LedgerDifference:
    position, stored, mine = raw
    either = stored if stored is not None else mine
    assert either is not None
    game_pk = either[_GAME]
    player = names.get(either[_PLAYER])
    mode, role = either[_MODE], either[_ROLE]
    if stored is None:
        fields: tuple[str, ...] = ("missing",)
    elif mine is None:
        fields = ("extra",)
    else:
        fields = tuple(f for f, x, y in zip(LEDGER_FIELDS, stored, mine, strict=True) if x != y)
    return LedgerDifference(
        position=position,
        game=labels.get(game_pk, "") if game_pk is not None else "",
        key=None if player is None else PoolKey(player, mode, role),
        fields=fields,
        stored={} if stored is None else dict(zip(LEDGER_FIELDS, stored, strict=True)),
        replayed={} if mine is None else dict(zip(LEDGER_FIELDS, mine, strict=True)),
    )


def _pools(
    conn: Connection, league_id: int, result: ReplayResult, names: Mapping[int, str]
) -> tuple[list[PoolDifference], bool]:
    """The pools whose stored rating, games, method fields or last game differ from the
    replay's, or that only one side has; and, when they all agree, whether their order does not
    (the order of first appearance, which ties in the ranking follow)."""
    stored: dict[PoolKey, tuple[PoolState, dt.date | None]] = {}
    for pid, mode, role, rating, games, extra, played in (
        run(conn, _READ_RATINGS, (league_id,)) or []
    ):
        key = PoolKey(names.get(pid, f"#{pid}"), mode, role)
        state = PoolState(rating, games, tuple(json.loads(extra)) if extra else ())
        stored[key] = (state, None if played is None else to_date(played))
    last = result.state.last_played
    out = []
    for key, pool in result.pools.items():
        kept, kept_last = stored.get(key, (None, None))
        if kept != pool or kept_last != last.get(key):
            out.append(PoolDifference(key, kept, pool, kept_last, last.get(key)))
    out += [
        PoolDifference(key, kept, None, kept_last)
        for key, (kept, kept_last) in stored.items()
        if key not in result.pools
    ]
    return out, not out and list(stored) != list(result.pools)


def _tail(
    conn: Connection, league_id: int, result: ReplayResult, games: int, names: Mapping[int, str]
) -> list[str]:
    """The parts of the state kept after the last game (:mod:`eloleague.store.tail`) that are
    not the replay's: each by the name of its field."""
    end = live_tail.read(conn, league_id)
    if end is None:
        return [] if games == 0 else ["tail"]
    if games == 0:
        return ["tail"]
    state = live_tail.full_state(conn, league_id, end, names)
    full = result.state
    wanted: Iterable[tuple[str, object, object]] = (
        ("last_game", (end.last_date, end.last_round), live_tail.last_key(conn, league_id)),
        ("games", end.games, games),
        ("ledger_next", end.ledger_next, len(result.ledger)),
        ("pools", end.pools, len(result.pools)),
        ("as_of", end.as_of, result.as_of),
        ("season_end", state.season_end, full.season_end),
        ("eligible", state.eligible, full.eligible),
        ("started", state.started, full.started),
        ("periods", state.periods, full.periods),
        ("active", _active(state), _active(full)),
    )
    return [name for name, kept, replayed in wanted if kept != replayed]
