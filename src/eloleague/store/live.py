"""The append path: games that sort after every stored game, rated at the cost of the games
(docs/league.md, "Live results").

Such games need nothing of the league but their players' pools and the league-wide values of the
tail (:mod:`eloleague.store.tail`): the engine resumes from a state holding only those pools,
rates the new games, and the store writes their ledger rows, updates their players' ``ratings``
rows and moves the tail. That is exactly what a full replay gives when nothing else can change:

- the new games sort after every stored one (date, then round; ties go by arrival, and they
  arrive last), on or after the day the ratings are as of;
- no season ends before the new as-of date (a season's end adjusts every pool), and the rule set
  has no decay (idle pools lose points as days pass) and no pool fields that change between
  games (Glicko-2's deviations grow while a pool sits out): those pass through the general path;
- under per-event updates every new game's event is new (a game joining a stored event reopens
  that batch), under per-period updates the new games begin a later period.

Anything else (back-dated games, corrections, deletions, merges, rule changes, season closings)
takes the general recompute of :mod:`eloleague.store.recompute`, which rewrites the tail.
Checkpoints stay cheap: the tail is the checkpoint after the last game, a stored checkpoint the
new games make stale is dropped, and about every
:data:`~eloleague.store.checkpoints.CHECKPOINT_EVERY` appended games, on the first game of a new
day, the tail is saved as a regular checkpoint (so a later back-dated game replays little).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Connection

from eloleague.engine import EngineState, Unrated, replay
from eloleague.engine.fast import try_replay
from eloleague.engine.methods import method_of
from eloleague.engine.seasons import season_end
from eloleague.records import GameRecord, PoolKey, PoolState
from eloleague.rules.model import RuleSet
from eloleague.store import checkpoints as cps
from eloleague.store import tail as live_tail
from eloleague.store.bulk import (
    date_param,
    hold_for_commit,
    insert_rows,
    many_rows,
    one_of,
    one_row,
    run,
    taken_ahead,
    to_date,
    update_rows,
)
from eloleague.store.derived import outside_games, write_ledger
from eloleague.store.games import FEW, StoredGame
from eloleague.store.players import player_names
from eloleague.store.recompute import event_starts
from eloleague.store.tables import ratings

# From this many appended games at once, the engine's compiled path rates them (it is exactly the
# reference path's result; below this its setup costs more than it saves).
FAST_FROM = 200


@dataclass(frozen=True)
class Appended:
    """What the append path did: the touched pools before and after, the unrated games, and the
    part of each pool's change made outside the games (a reversion toward the mean)."""

    before: Mapping[PoolKey, PoolState]
    after: Mapping[PoolKey, PoolState]
    unrated: list[Unrated]
    replayed: int
    adjusted: Mapping[PoolKey, float]


def _key(game: GameRecord) -> tuple[dt.date, int]:
    return game.date, game.round or 0


def appends(rules: RuleSet) -> bool:
    """Whether a rule set's games can take the append path at all: not with decay (idle pools
    lose points as days pass) nor with pool fields that change between games (Glicko-2)."""
    return rules.decay is None and not method_of(rules).pool_fields


def appendable(
    conn: Connection,
    league_id: int,
    rules: RuleSet,
    tail: live_tail.Tail | None,
    records: Sequence[GameRecord],
) -> bool:
    """Whether ``records`` (new games, none replacing a stored one) can take the append path."""
    if tail is None or not records or not tail.started or not appends(rules):
        return False
    first = min(_key(g) for g in records)
    if first < (tail.last_date, tail.last_round) or first[0] < tail.as_of:
        return False
    as_of = max(tail.as_of, max(g.date for g in records))
    if tail.season_end is not None and as_of > tail.season_end:
        return False
    if rules.updates == "per_event":
        named = {g.event for g in records if g.event}
        if named and event_starts(conn, league_id, rules, named):
            return False
    if rules.updates == "per_period":
        return cps.touched_from(rules, first[0]) > tail.last_date
    return True


def out_of_turn(
    conn: Connection,
    league_id: int,
    rules: RuleSet,
    tail: live_tail.Tail | None,
    writes: Sequence[Sequence[GameRecord]],
) -> int | None:
    """The first of several writes whose games cannot take the append path after those of the
    writes before it (:func:`append_writes`), or ``None`` when all can: each :func:`appendable`,
    each after the first beginning on the day the one before it ended, after its last game (a
    new day may save a checkpoint in between)."""
    last = None
    for n, games in enumerate(writes):
        if last is not None and (
            min(_key(g) for g in games) < last or min(g.date for g in games) > last[0]
        ):
            return n
        if not appendable(conn, league_id, rules, tail, games):
            return n
        last = max(_key(g) for g in games) if last is None else max(last, *map(_key, games))
    return None


def players_of(records: Sequence[GameRecord], ids: Mapping[str, int]) -> list[int]:
    """The ids of the players of ``records`` (whose pools :func:`append` reads), in order."""
    return sorted({ids[p.name] for g in records for p in g.participants})


def pools_read(
    conn: Connection, league_id: int, player_ids: Sequence[int]
) -> tuple[str, tuple[Any, ...]]:
    """The statement reading the stored pools of some players (:func:`append` runs it; a caller
    may read it ahead, :func:`~eloleague.store.bulk.kept_ahead`)."""
    listed, values = one_of(conn, player_ids)
    return (
        "SELECT player_id, mode, role, rating, games, extra, last_played FROM ratings "
        f"WHERE league_id = ? AND player_id {listed} ORDER BY position",
        (league_id, *values),
    )


def pools_ahead(
    conn: Connection, league_id: int, records: Sequence[GameRecord], ids: Mapping[str, int]
) -> list[tuple[str, tuple[Any, ...]]]:
    """On PostgreSQL, the read of the players' pools :func:`append` is about to make, for a
    caller to send in another statement's round trip (the games' insert,
    :func:`~eloleague.store.games.insert_games`); elsewhere none (a read costs no round trip)."""
    if conn.dialect.name != "postgresql":
        return []
    return [pools_read(conn, league_id, players_of(records, ids))]


@dataclass(frozen=True)
class Early:
    """What a post of a few games read with the league's lock, on PostgreSQL (docs/league.md,
    "Live results"), so that its writes all go with the commit, in one round trip more: row ids
    reserved for its games and its import batch (posts written together: a batch each), and the
    pools of the players its names name.

    ``covered``: the players whose pools ``pools`` holds every one of (those its names name, and
    the players the post registers, who have none yet)."""

    game_ids: list[int]
    batch_ids: list[int]
    pools: list[tuple[Any, ...]]
    covered: frozenset[int]

    @property
    def batch_id(self) -> int:
        """The import batch of a post alone."""
        return self.batch_ids[0]

    def with_new(self, new_ids: Iterable[int]) -> Early:
        """The same, the players just registered counted as covered (they have no pools)."""
        return replace(self, covered=self.covered | frozenset(new_ids))


def early_reads(
    conn: Connection,
    league_id: int,
    records: Sequence[GameRecord],
    names: Sequence[str],
    batches: int = 1,
) -> list[tuple[str, tuple[Any, ...]]]:
    """The reads of :class:`Early` for a post of ``records`` naming ``names`` (PostgreSQL, a few
    games: none elsewhere), sent with the league's lock (:func:`~eloleague.store.imports.
    reads_ahead`) and taken by :func:`early`; ``batches``: the import batches to reserve (posts
    written together: one each, :mod:`~eloleague.store.imports_together`). Ids come from the
    tables' sequences (``nextval``: a post that does not use them leaves a gap, as a rolled-back
    insert does)."""
    if conn.dialect.name != "postgresql" or not records or len(records) > FEW or not names:
        return []
    _, values = one_of(conn, names)
    return [
        (_ONE_OF_EACH, ())
        if len(records) == batches == 1
        else (_IDS, (len(records), batches, max(len(records), batches))),
        (_POOLS_BY_NAME, (league_id, *values, league_id, *values, league_id)),
    ]


_IDS = many_rows(
    "SELECT CASE WHEN n <= ? THEN nextval(pg_get_serial_sequence('games', 'id')) END, "
    "CASE WHEN n <= ? THEN nextval(pg_get_serial_sequence('import_batches', 'id')) END "
    "FROM generate_series(1, ?) AS n ORDER BY n",
    2,
)
"""Row ids for a post's games and batches (parameters: how many of each, then the larger)."""


_POOLS_BY_NAME = many_rows(
    "SELECT w.id, r.mode, r.role, r.rating, r.games, r.extra, r.last_played "
    "FROM (SELECT id FROM players WHERE league_id = ? AND name = ANY(%b) "
    "UNION SELECT player_id FROM player_aliases WHERE league_id = ? AND alias = ANY(%b)) "
    "AS w LEFT JOIN LATERAL (SELECT * FROM ratings WHERE league_id = ? AND player_id = w.id "
    "OFFSET 0) AS r ON true ORDER BY r.position",
    7,
)
"""The pools of the players a post names (PostgreSQL: its names as one array, :func:`~eloleague.
store.bulk.one_of`); a player without pools gives one row of ``NULL`` pools. Each player's pools
are looked up by the ratings' key: ``OFFSET 0`` keeps the planner from making it a join, which
may read every rating of the league."""


_ONE_OF_EACH = one_row(
    "SELECT nextval(pg_get_serial_sequence('games', 'id')), "
    "nextval(pg_get_serial_sequence('import_batches', 'id'))"
)
"""The ids of a post of one game: a read of one row, joined with the others of the lock's
round trip (:func:`~eloleague.store.bulk.run_generic`)."""


def early(conn: Connection, reads: Sequence[tuple[str, tuple[Any, ...]]]) -> Early | None:
    """The :class:`Early` of :func:`early_reads` if they were read with the lock, else None."""
    found = taken_ahead(conn, reads)
    if found is None:
        return None
    reserved, pools = found
    return Early(
        [game_id for game_id, _ in reserved if game_id is not None],
        [batch_id for _, batch_id in reserved if batch_id is not None],
        [row for row in pools if row[1] is not None],  # a player without pools: no row
        frozenset(row[0] for row in pools),
    )


def _pool_rows(
    conn: Connection,
    league_id: int,
    player_ids: Sequence[int],
    names: Mapping[int, str],
    ahead: Early | None = None,
) -> tuple[dict[PoolKey, PoolState], dict[PoolKey, dt.date], set[PoolKey]]:
    """The stored pools of some players, in order of first appearance, with their last game
    (from ``ahead`` when it holds them all)."""
    pools: dict[PoolKey, PoolState] = {}
    played: dict[PoolKey, dt.date] = {}
    if ahead is not None and ahead.covered.issuperset(player_ids):
        wanted = set(player_ids)
        rows = [row for row in ahead.pools if row[0] in wanted]
    else:
        rows = run(conn, *pools_read(conn, league_id, player_ids))
    for pid, mode, role, rating, count, extra, last in rows:
        key = PoolKey(names[pid], mode, role)
        # (a rating with no fraction, read joined as JSON, comes as an int)
        pools[key] = PoolState(float(rating), count, tuple(json.loads(extra)) if extra else ())
        if last is not None:
            played[key] = to_date(last)
    return pools, played, set(pools)


def newly_active(
    rules: RuleSet,
    active: Mapping[dt.date, AbstractSet[str]],
    played: Mapping[PoolKey, dt.date],
) -> dict[dt.date, set[str]]:
    """The players of ``active`` (by the end of the season they played in) not marked active in
    that season yet, given their pools' last rated games before the new ones (``played``): a
    pool's last game is a rated game's, and every rated game marks its players active in its
    season (:meth:`eloleague.engine.replay._Replayer.mark_active`), so a player whose pool last
    played in the same season has her ``live_active`` row already. A post of 1,000 games wrote
    an ``INSERT ... ON CONFLICT DO NOTHING`` row for each of its 2,000 players, nearly all there
    (docs/benchmarks.md, "Live results")."""
    ends: dict[dt.date, dt.date | None] = {}
    marked: set[tuple[dt.date | None, str]] = set()
    for key, day in played.items():
        if day not in ends:
            ends[day] = season_end(rules.season, day)
        marked.add((ends[day], key.player))
    return {
        end: fresh
        for end, names in active.items()
        if (fresh := {name for name in names if (end, name) not in marked})
    }


def _checkpoint_due(
    conn: Connection, league_id: int, rules: RuleSet, tail: live_tail.Tail, day: dt.date
) -> bool:
    """Whether to save the tail as a regular checkpoint dated ``day`` (the first new game's day,
    after the last stored game's): enough games since the latest one, ratings as of the last
    game (no closed season beyond it), ``day`` the start of a batch period. Under per-event or
    per-period updates, every new day's first batch is worth one: a later game joining that batch
    (an event's next round) replays the batch only, from there."""
    if day <= tail.last_date or tail.as_of != tail.last_date:
        return False
    if cps.touched_from(rules, day) != day:
        return False
    rows = run(
        conn,
        "SELECT date, games_before FROM checkpoints WHERE league_id = ? AND date <= ? "
        "ORDER BY date DESC LIMIT 1",
        (league_id, date_param(conn)(day)),
    )
    if rows and to_date(rows[0][0]) == day:  # a recompute left it there already
        return False
    if rules.updates != "per_game":
        return True
    return tail.games - int(rows[0][1] if rows else 0) >= cps.CHECKPOINT_EVERY


def _save_checkpoint(
    conn: Connection, league_id: int, tail: live_tail.Tail, day: dt.date, every: int
) -> None:
    names = player_names(conn, league_id)
    ids = {name: pk for pk, name in names.items()}
    state = live_tail.full_state(conn, league_id, tail, names)
    cps.save(conn, league_id, cps.Checkpoint(day, tail.games, tail.ledger_next, state), ids)
    cps.thin(conn, league_id, every)


def append(
    conn: Connection,
    league_id: int,
    rules: RuleSet,
    tail: live_tail.Tail,
    stored: Sequence[StoredGame],
    ids: Mapping[str, int],
    ahead: Early | None = None,
) -> Appended:
    """Rate ``stored`` (just inserted, in arrival order, :func:`appendable`) from the tail and
    write their ledger, their players' pools and the new tail, in the caller's transaction.
    ``ids``: player id by name, for every player of these games; ``ahead``: their pools as read
    with the lock (:class:`Early`)."""
    (appended,) = append_writes(conn, league_id, rules, tail, [stored], ids, ahead)
    return appended


def append_writes(
    conn: Connection,
    league_id: int,
    rules: RuleSet,
    tail: live_tail.Tail,
    writes: Sequence[Sequence[StoredGame]],
    ids: Mapping[str, int],
    ahead: Early | None = None,
) -> list[Appended]:
    """:func:`append` of the games of several writes, as if each were appended after the one
    before it (each its own :class:`Appended`: its players' pools before and after its games),
    with the ledger, the pools and the tail written once for them all (docs/league.md, "Live
    results"). Each write after the first must be in turn (:func:`out_of_turn`). ``ahead``: the
    players' pools as read with the lock (:class:`Early`)."""
    everything = [g.record for games in writes for g in games]
    first_day = min(g.date for g in everything)
    if _checkpoint_due(conn, league_id, rules, tail, first_day):
        _save_checkpoint(conn, league_id, tail, first_day, cps.CHECKPOINT_EVERY)

    names = {ids[p.name]: p.name for g in everything for p in g.participants}
    stored, stored_played, known = _pool_rows(
        conn, league_id, players_of(everything, ids), names, ahead
    )
    # as each write leaves them (new dicts each time, never changed)
    pools: Mapping[PoolKey, PoolState] = stored
    played: Mapping[PoolKey, dt.date] = stored_played
    as_of, periods = tail.as_of, tail.periods
    last_key = (tail.last_date, tail.last_round)
    ledger: list[Any] = []
    active: Mapping[dt.date, AbstractSet[str]] = {}
    done: list[Appended] = []
    for games in writes:
        records = [g.record for g in games]
        before, before_played = pools, played
        if len(writes) > 1:  # its own players' pools only, as alone
            own = {p.name for g in records for p in g.participants}
            before = {k: v for k, v in pools.items() if k.player in own}
            before_played = {k: v for k, v in played.items() if k.player in own}
        state = EngineState(
            pools=before,
            season_end=tail.season_end,
            eligible=min(tail.eligible, len(before)),  # read only when a season ends: never here
            active={},
            started=True,
            last_played=before_played,
            periods=periods,
        )
        as_of = max(as_of, max(g.date for g in records))
        # The compiled engine pays off from fewer games here than for a whole history (below
        # that, the reference code: replay() would only ask the compiled engine again).
        result = try_replay(rules, records, state, as_of, min_games=FAST_FROM) or replay(
            rules, records, initial=state, as_of=as_of, reference=True
        )
        after = result.state.pools
        ledger.append(result.ledger)
        if len(writes) == 1:
            pools, played, active = after, result.state.last_played, result.state.active
        else:  # a new pool comes last, as its position does
            pools, played = {**pools, **after}, {**played, **result.state.last_played}
            now = result.state.active
            active = {end: {*active.get(end, ()), *now.get(end, ())} for end in {*active, *now}}
        periods = result.state.periods
        last_key = max(last_key, *(_key(g) for g in records))
        done.append(
            Appended(
                before,
                dict(after),
                list(result.unrated),
                len(records),
                outside_games(result.ledger),
            )
        )

    pks = {g.record.id or "": g.pk for games in writes for g in games}
    entries = ledger[0] if len(ledger) == 1 else [e for part in ledger for e in part]
    # PostgreSQL: the writes sent with the commit, in its round trip (their results are not read)
    hold_for_commit(conn)
    cps.drop_from(conn, league_id, first_day)  # those dated after it lack the new games
    write_ledger(conn, league_id, tail.ledger_next, entries, pks, ids)

    day = date_param(conn)

    def when(key: PoolKey) -> object:
        found = played.get(key)
        return None if found is None else day(found)

    def extra(pool: PoolState) -> str | None:
        return json.dumps(pool.extra) if pool.extra else None

    changed = []
    for k, p in pools.items():  # a post of 1,000 games changes about 2,000 pools
        old = stored.get(k)
        if old is None:  # a new pool (below)
            continue
        last = played.get(k)
        if p != old or last != stored_played.get(k):
            on = None if last is None else day(last)
            changed.append((p.rating, p.games, extra(p), on, ids[k.player], k.mode, k.role))
    update_rows(
        conn,
        ratings,
        ("rating", "games", "extra", "last_played"),
        ("player_id", "mode", "role"),
        changed,
        {"league_id": league_id},
    )
    fresh = [k for k in pools if k not in known]  # new pools, in order of first appearance
    insert_rows(
        conn,
        ratings,
        ("player_id", "mode", "role", "rating", "games", "position", "extra", "last_played"),
        [
            (
                ids[k.player],
                k.mode,
                k.role,
                pools[k].rating,
                pools[k].games,
                tail.pools + n,
                extra(pools[k]),
                when(k),
            )
            for n, k in enumerate(fresh)
        ],
        {"league_id": league_id},
    )
    live_tail.add_active(conn, league_id, newly_active(rules, active, stored_played), ids)
    run(
        conn,
        "UPDATE live_tails SET as_of = ?, last_date = ?, last_round = ?, games = ?, "
        "ledger_next = ?, pools = ?, periods = ? WHERE league_id = ?",
        (
            day(as_of),
            day(last_key[0]),
            last_key[1],
            tail.games + len(everything),
            tail.ledger_next + len(entries),
            tail.pools + len(fresh),
            periods,
            league_id,
        ),
    )
    return done
