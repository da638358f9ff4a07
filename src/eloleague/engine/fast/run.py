"""Encode, run the kernel, and give back a :class:`ReplayResult` equal to the reference's."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING

from eloleague.engine.fast import layout as K
from eloleague.engine.fast.encode import STATE_ARGUMENTS, encode
from eloleague.engine.fast.kernel import run
from eloleague.engine.fast.ledger import DECODED_FIELDS, ColumnarLedger
from eloleague.engine.ledger import VALUE_FIELDS
from eloleague.engine.state import EngineState, ReplayResult, Unrated
from eloleague.memory import no_gc
from eloleague.records import GameRecord, PoolState, field_names
from eloleague.rules.model import RuleSet

if TYPE_CHECKING:
    from eloleague.engine.fast.ledger import Floats, Int32s

# The records this module builds, as it knows them: a field added to any of them (a new feature
# of the reference path) makes the fast path decline until it learns the field.
_KNOWN_FIELDS = {
    EngineState: [
        "pools",
        "season_end",
        "eligible",
        "active",
        "started",
        "last_played",
        "decay_spells",
        "periods",
        "decay_steps",
    ],
    ReplayResult: ["rules", "pools", "ledger", "unrated", "state", "as_of"],
}
_POOL_FIELDS = ("rating", "games", "extra")  # PoolState's (a record: records.field_names)


def _shapes_known() -> bool:
    return (
        set(VALUE_FIELDS) <= DECODED_FIELDS
        and field_names(PoolState) == _POOL_FIELDS
        and all(
            [f.name for f in dataclasses.fields(cls)] == names
            for cls, names in _KNOWN_FIELDS.items()
        )
    )


def run_fast(
    rules: RuleSet, games: Sequence[GameRecord], state: EngineState, as_of: dt.date | None
) -> ReplayResult | None:
    """The fast path proper (see :func:`eloleague.engine.fast.try_replay`)."""
    if not _shapes_known() or state.decay_spells or state.decay_steps:
        return None
    if any(pool.extra for pool in state.pools.values()):
        return None  # pool fields of a method the kernel does not implement
    games = list(games)  # the ledger reads labels and dates from them later: a private copy
    pools = {key: (pool.rating, pool.games) for key, pool in state.pools.items()}
    encoded = encode(
        rules,
        games,
        pools,
        dict(state.last_played),
        dict(state.active),
        state.started,
        state.season_end,
        state.eligible,
        as_of,
    )
    if encoded is None:
        return None
    arguments = encoded.arguments(ledger=False)
    status, _, _, n_entries, eligible, n_appear = run(*arguments)
    if status != K.OK:
        return None
    rating, played, _, appear, last_day, first_apply = (arguments[i] for i in STATE_ARGUMENTS)
    keys = encoded.pool_keys
    with no_gc():
        ratings = rating.tolist()
        counts = played.tolist()
        final_pools = {
            keys[p]: PoolState(ratings[p], counts[p]) for p in appear[:n_appear].tolist()
        }
        last_played = dict(state.last_played)
        applied = (first_apply >= 0).nonzero()[0]
        days = last_day.tolist()
        for p in applied[first_apply[applied].argsort()].tolist():
            last_played[keys[p]] = dt.date.fromordinal(days[p])
    method = K.KERNEL_METHODS[rules.method]

    def columns() -> tuple[Floats, Int32s]:
        """The ledger, computed again with its columns kept (only when it is read)."""
        capacity = encoded.capacity
        while True:
            status, floats, ints, n, _, _ = run(*encoded.arguments(True, capacity))
            if status != K.FULL:
                break
            capacity *= 2
        assert status == K.OK and n == n_entries
        return floats[:, :n], ints[:, :n]

    ledger = ColumnarLedger(method, n_entries, columns, games, keys, encoded.outcome_labels)
    final = EngineState(
        pools=final_pools,
        season_end=encoded.season_end,
        eligible=eligible,
        active=encoded.active,
        started=True,
        last_played=last_played,
        decay_spells={},
        periods=state.periods + encoded.batches,
    )
    unrated = [Unrated(games[i], i, reason) for i, reason in encoded.unrated]
    return ReplayResult(rules, final.pools, ledger, unrated, final, encoded.as_of)
