"""What the three Elo methods share: rounding, gain cap and floor of a change, and the batch.

Each Elo method rates one game from pre-game pools (``rate_game``); :class:`EloMethod` turns that
into a batch (docs/rule-sets.md, "Update timing": every game of a batch from the ratings as they stood when it began,
the games counts frozen or growing) and applies the deltas.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from eloleague.engine.formulas import cap_reached, expected_capped, floored
from eloleague.engine.ledger import CAP, FLOOR, ROUNDING, LedgerEntry
from eloleague.engine.maths import exact, expected, round_decimal, snap
from eloleague.engine.methods.base import Batch, Lookup, Rated, Shape, pool_key
from eloleague.i18n import Text
from eloleague.records import GameRecord, PoolKey, PoolState, Side
from eloleague.rules.model import Rounding, RuleSet

RateGame = Callable[[RuleSet, GameRecord, str, Lookup], list[LedgerEntry]]


@dataclass(frozen=True, slots=True)
class EloMethod:
    """An Elo method: a pool is a rating and a games count; one game is rated by ``rate_game``."""

    name: str
    shape: Shape
    summary: str
    rate_game: RateGame
    check_side_of: Callable[[RuleSet, Side, int], list[Text]]
    check_rules_of: Callable[[RuleSet], Text | None]
    pool_fields: tuple[str, ...] = ()
    shown_fields: tuple[str, ...] = ()
    game_features: bool = False  # home advantage, lead_cap, k_multiplier, score_value

    def check_rules(self, rules: RuleSet) -> Text | None:
        if rules.k is None:
            return Text.of("a {method} rule set needs a [k] table", method=repr(self.name))
        if not self.game_features and rules.game_keys:
            return Text.of(
                "{keys}: only the 'duel' method uses these keys",
                keys=", ".join(rules.game_keys),
            )
        return self.check_rules_of(rules)

    def check_side(self, rules: RuleSet, side: Side, number: int) -> list[Text]:
        return self.check_side_of(rules, side, number)

    def new_pool(self, rules: RuleSet) -> PoolState:
        return PoolState(rules.start_rating, 0)

    def expected(self, rules: RuleSet, a: PoolState, b: PoolState) -> float:
        if rules.lead_cap is not None:  # the difference capped, as the duel method rates
            return expected_capped(a.rating, b.rating, rules.scale, rules.lead_cap)
        return expected(a.rating, b.rating, rules.scale)

    def settle(
        self, rules: RuleSet, pools: dict[PoolKey, PoolState], periods: int
    ) -> dict[PoolKey, PoolState]:
        return pools

    def rate(self, rules: RuleSet, batch: Batch, lookup: Lookup, period: int = 0) -> Rated:
        if len(batch) == 1:
            game, label = batch[0]
            entries = self.rate_game(rules, game, label, lookup)
        else:
            entries = []
            grows = rules.updates == "per_period" and rules.period_games_count == "grows"
            played: dict[PoolKey, int] = {}

            def frozen(key: PoolKey) -> PoolState:
                pool = lookup(key)
                if grows and key in played:
                    return PoolState(pool.rating, pool.games + played[key])
                return pool

            for game, label in batch:
                rated = self.rate_game(rules, game, label, frozen)
                for entry in rated:
                    played[entry.key] = played.get(entry.key, 0) + 1
                entries.extend(rated)
        pools: dict[PoolKey, PoolState] = {}
        single = len(batch) == 1  # the players of one game are distinct pools
        for entry in entries:
            key = entry.key
            pool = None if single else pools.get(key)
            if pool is None:
                pool = lookup(key)
            pools[key] = PoolState(snap(rules, pool.rating + entry.delta), pool.games + 1)
        return Rated(entries, pools)


@lru_cache(maxsize=4096)
def exact_delta(k: float, score: Decimal, p: Decimal, rounding: Rounding) -> tuple[float, float]:
    """``K * (S - P)`` in exact decimals, then rounded: (raw, rounded)."""
    raw = exact(k) * (score - p)
    return float(raw), float(round_decimal(raw, rounding))


def finish(
    rules: RuleSet,
    label: str,
    date: dt.date,
    key: PoolKey,
    before: float,
    exp: float,
    k: float,
    score: float,
    raw: float,
    rounded: float,
    *,
    lead: float | None = None,
    opponent: float | None = None,
    team_expected: float | None = None,
    rank: int | None = None,
    points: float | None = None,
    outcome: str | None = None,
    warning: str = "",
    extra: tuple[float, ...] = (),
) -> LedgerEntry:
    """Rounding already done; apply the gain cap and the floor, and build the entry."""
    fired: list[str] = []
    if rounded != raw:
        fired.append(ROUNDING)
    delta = rounded
    cap = rules.gain_cap
    if (
        cap is not None
        and lead is not None
        and delta > 0
        and cap_reached(lead, cap.lead, cap.inclusive)
    ):
        delta = 0.0
        fired.append(CAP)
    if rules.rating_floor is not None:
        delta, fell = floored(before, delta, rules.rating_floor)
        if fell:
            fired.append(FLOOR)
    return LedgerEntry(
        game=label,
        date=date,
        key=key,
        before=before,
        expected=exp,
        k=k,
        score=score,
        delta=delta,
        after=snap(rules, before + delta),
        warning=warning,
        fired=tuple(fired),
        raw_delta=raw,
        opponent=opponent,
        team_expected=team_expected,
        rank=rank,
        points=points,
        outcome=outcome,
        extra=extra,
    )


def side_means(
    rules: RuleSet, game: GameRecord, lookup: Lookup
) -> tuple[list[list[tuple[PoolKey, PoolState]]], list[float]]:
    """Each side's pools with their states, and each side's mean rating."""
    states = [
        [(key, lookup(key)) for key in (pool_key(rules, game, p) for p in side.players)]
        for side in game.sides
    ]
    means = [sum(pool.rating for _, pool in side) / len(side) for side in states]
    return states, means
