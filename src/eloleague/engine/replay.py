"""Replay a stream of games under a rule set: order, batches, seasons, ledger (docs/formats.md).

:func:`replay` is pure: it takes records and returns a :class:`ReplayResult` (final pools, ledger,
games left unrated, and an :class:`EngineState` from which a later replay can resume).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence

from eloleague.engine.decay import DECAY, Decayer
from eloleague.engine.fast import try_replay
from eloleague.engine.ledger import INACTIVITY, LedgerEntry, game_label
from eloleague.engine.maths import exact, on_grid
from eloleague.engine.methods import method_of, pool_key
from eloleague.engine.reversion import REVERSION, reverted
from eloleague.engine.seasons import inactivity_rating, next_season_end, season_end
from eloleague.engine.state import EngineState, ReplayResult, Unrated
from eloleague.engine.validate import unrated_reason
from eloleague.records import GameRecord, PoolKey, PoolState, replace
from eloleague.rules.model import RuleSet

__all__ = [
    "EngineState",
    "ReplayResult",
    "Unrated",
    "batches",
    "processing_order",
    "replay",
]


def processing_order(games: Sequence[GameRecord]) -> list[int]:
    """Positions of ``games`` sorted by ``(date, round or 0)``, ties in input order."""
    return sorted(range(len(games)), key=lambda i: (games[i].date, games[i].round or 0))


def _period_key(rules: RuleSet, day: dt.date) -> object:
    if rules.period == "day":
        return day
    if rules.period == "week":
        return day.isocalendar()[:2]
    return (day.year, day.month)


def batches(rules: RuleSet, games: Sequence[GameRecord], order: Iterable[int]) -> list[list[int]]:
    """Group game positions into update batches, in processing order.

    ``per_game``: one game a batch. ``per_event``: the rated games of one event; events in the
    order of their earliest game's date, ties by first appearance in processing order; a game
    without an event is a batch of its own. ``per_period``: the games of one calendar day, week
    (ISO) or month, across events.
    """
    if rules.updates == "per_game":
        return [[i] for i in order]
    groups: dict[object, list[int]] = {}
    for i in order:
        game = games[i]
        if rules.updates == "per_event":
            key: object = ("event", game.event) if game.event else ("game", i)
        else:
            key = _period_key(rules, game.date)
        groups.setdefault(key, []).append(i)
    # Dicts keep first appearance; a stable sort on the earliest date does the rest.
    return sorted(groups.values(), key=lambda batch: games[batch[0]].date)


def dated_in_order(rules: RuleSet) -> bool:
    """Whether the ledger of a replay under ``rules`` is in date order, each entry dated on or
    after the one before (tests/engine/test_ledger_order.py): games are rated in ``(date,
    round)`` order, one at a time or a calendar period at a time (:func:`batches`), and a
    season's end and a reversion are dated on or before the next game. Not under per-event
    updates: events are rated in the order of their first day, so the last days of an event come
    before the games of one begun meanwhile. Not with a decay beside periods longer than a day
    either: a period's games are rated together, and a loss dated within the period comes after
    them. The ranking's trends read only the newest part of a ledger in date order
    (docs/league.md, "Live results")."""
    if rules.updates == "per_event":
        return False
    return rules.decay is None or rules.updates == "per_game" or rules.period == "day"


class _Replayer:
    """The mutable machinery behind :func:`replay` (kept private: the API is pure)."""

    def __init__(self, rules: RuleSet, state: EngineState, as_of: dt.date | None) -> None:
        self.rules = rules
        self.pools: dict[PoolKey, PoolState] = dict(state.pools)
        self.season_end = state.season_end
        self.eligible = state.eligible
        self.active: dict[dt.date, set[str]] = {k: set(v) for k, v in state.active.items()}
        self.started = state.started
        self.last_played: dict[PoolKey, dt.date] = dict(state.last_played)
        self.decay = Decayer(rules, self.last_played, state.decay_spells, state.decay_steps)
        self.as_of = as_of
        self.ledger: list[LedgerEntry] = []
        self.periods = state.periods
        self.method = method_of(rules)
        self.new_pool = self.method.new_pool(rules)

    def lookup(self, key: PoolKey) -> PoolState:
        pool = self.pools.get(key)
        return self.new_pool if pool is None else pool

    def adjust(self, key: PoolKey, date: dt.date, after: float, delta: float, kind: str) -> None:
        """A pool's rating moved outside a game (``kind``: a season's inactivity, a decay loss,
        a reversion toward the mean): its ledger entry, warned and fired as ``kind``, then the
        pool at its new rating."""
        pool = self.pools[key]
        self.ledger.append(
            LedgerEntry.outside_game(
                key, date, pool.rating, delta, after, warning=kind, fired=(kind,), raw_delta=delta
            )
        )
        self.pools[key] = replace(pool, rating=after)

    def mark_active(self, game: GameRecord) -> None:
        end = season_end(self.rules.season, game.date)
        if end is not None:
            self.active.setdefault(end, set()).update(p.name for p in game.participants)

    def start(self, first_day: dt.date) -> None:
        if not self.started:
            self.started = True
            self.season_end = season_end(self.rules.season, first_day)
            self.eligible = len(self.pools)

    def advance_before(self, day: dt.date | None) -> None:
        """Apply what is dated before ``day`` (or up to the as-of date), in date order: each
        season whose last day is before both, after the decay losses dated up to that last day,
        then the losses since. A season's inactivity is judged on the rating its last day left,
        never on one a later loss lowered (docs/rule-sets.md, ``[decay]``)."""
        while (
            self.season_end is not None
            and (day is None or self.season_end < day)
            and (self.as_of is None or self.season_end < self.as_of)
        ):
            self._decay_until(self.season_end, inclusive=True)
            self.close_season(self.season_end)
            self.season_end = next_season_end(self.rules.season, self.season_end)
        self.decay_before(day)

    def close_season(self, end: dt.date) -> None:
        """Inactivity adjustments at the end of a season."""
        active = self.active.pop(end, set())
        season = self.rules.season
        if season.inactivity:
            for key in list(self.pools)[: self.eligible]:
                if key.player in active:
                    continue
                pool = self.pools[key]
                new = inactivity_rating(season, pool.rating)
                if new != pool.rating:
                    self.adjust(key, end, new, new - pool.rating, INACTIVITY)
        self.eligible = len(self.pools)

    def decay_before(self, day: dt.date | None) -> None:
        """Apply the decay losses dated before ``day`` (or up to the as-of date)."""
        if self.as_of is not None and (day is None or self.as_of < day):
            self._decay_until(self.as_of, inclusive=True)  # the as-of date's losses included
        elif day is not None:
            self._decay_until(day, inclusive=False)

    def _decay_until(self, limit: dt.date, *, inclusive: bool) -> None:
        """Apply the decay losses dated before ``limit`` (``inclusive``: that day's too)."""
        if self.rules.decay is None:
            return
        grid = on_grid(self.rules) is not None
        for when, key, loss in self.decay.due(limit, inclusive, self.pools):
            pool = self.pools[key]
            # On the grid, the exact decimal difference (the loss was cut down to the grid).
            after = float(exact(pool.rating) - loss) if grid else pool.rating - float(loss)
            self.adjust(key, when, after, float(-loss), DECAY)

    def revert_new_seasons(self, games: Sequence[GameRecord], batch: list[int]) -> None:
        """Reversion toward the mean (``[season.reversion]``): each pool of the batch whose last
        rated game was in an earlier season is reverted before its first game of this one."""
        rules = self.rules
        season = rules.season
        if season.reversion is None:
            return
        seen: set[PoolKey] = set()
        for i in batch:
            game = games[i]
            this_season = season_end(season, game.date)
            for participant in game.participants:
                key = pool_key(rules, game, participant)
                last = self.last_played.get(key)
                if key in seen or last is None or key not in self.pools:
                    continue
                seen.add(key)
                if season_end(season, last) == this_season:
                    continue
                pool = self.pools[key]
                new = reverted(rules, pool, game_label(game, i))
                if new != pool.rating:
                    self.adjust(key, game.date, new, new - pool.rating, REVERSION)

    def run_batch(self, games: Sequence[GameRecord], batch: list[int]) -> None:
        """Rate one batch from the pools as they stood when it began."""
        rated = self.method.rate(
            self.rules,
            [(games[i], game_label(games[i], i)) for i in batch],
            self.lookup,
            self.periods,
        )
        self.periods += 1
        self.ledger.extend(rated.entries)
        self.pools.update(rated.pools)
        for entry in rated.entries:
            self.last_played[entry.key] = entry.date
            self.decay.played(entry.key, entry.date)


def replay(
    rules: RuleSet,
    games: Sequence[GameRecord],
    *,
    initial: EngineState | Mapping[PoolKey, PoolState] | None = None,
    as_of: dt.date | None = None,
    reference: bool = False,
) -> ReplayResult:
    """Rate ``games`` (already validated) under ``rules`` and return the ledger and final state.

    ``initial`` is the state before the first game: a previous :attr:`ReplayResult.state` to go
    on from, or plain pools (``--initial``). ``as_of`` (default: the date of the last game) bounds
    the season adjustments: a season is applied when its last day is strictly before it.
    Inputs are never modified. Large inputs go through the compiled fast path
    (:mod:`eloleague.engine.fast`, same results); ``reference=True`` forces this code.
    """
    if initial is None:
        state = EngineState()
    elif isinstance(initial, EngineState):
        state = initial
    else:
        state = EngineState.from_pools(initial)
    if not reference and (fast := try_replay(rules, games, state, as_of)) is not None:
        return fast
    if as_of is None and games:
        as_of = max(g.date for g in games)

    order = processing_order(games)
    unrated: list[Unrated] = []
    rated: list[int] = []
    for i in order:
        reason = unrated_reason(rules, games[i])
        if reason is None:
            rated.append(i)
        else:
            unrated.append(Unrated(games[i], i, reason))

    engine = _Replayer(rules, state, as_of)
    if order:
        engine.start(games[order[0]].date)
    for i in rated:
        engine.mark_active(games[i])
    for batch in batches(rules, games, rated):
        engine.advance_before(games[batch[0]].date)
        engine.revert_new_seasons(games, batch)
        engine.run_batch(games, batch)
    engine.advance_before(None)
    engine.pools = engine.method.settle(rules, engine.pools, engine.periods)

    final = EngineState(
        pools=dict(engine.pools),
        season_end=engine.season_end,
        eligible=engine.eligible,
        active={k: frozenset(v) for k, v in engine.active.items()},
        started=engine.started,
        last_played=dict(engine.last_played),
        decay_spells=engine.decay.spells(),
        periods=engine.periods,
        decay_steps=engine.decay.steps(),
    )
    return ReplayResult(rules, final.pools, engine.ledger, unrated, final, as_of)
