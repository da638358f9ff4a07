"""Rating methods are plug-ins: a method registered from outside the engine is rated by
``replay()`` on any input size (the compiled path declines it), and every layer asks the registry."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from eloleague.engine import methods, replay
from eloleague.engine.fast import MIN_GAMES, unsupported
from eloleague.engine.ledger import LedgerEntry
from eloleague.engine.methods import TWO_SIDES, Batch, Lookup, Rated
from eloleague.engine.methods.base import check_outcome_side, check_outcomes, pool_key
from eloleague.errors import RuleSetError
from eloleague.i18n import Text
from eloleague.records import PoolKey, PoolState, Side
from eloleague.rules import parse_rules
from eloleague.rules.model import RuleSet
from tests.engine.helpers import duel

TOY_RULES = """
name = "toy"
method = "toy_points"
start_rating = 100
scale = 400
[outcomes]
win = { score = 1, against = ["loss"] }
loss = { score = 0, against = ["win"] }
[k]
default = 10
"""


@dataclass(frozen=True)
class ToyPoints:
    """Ten points for a win, minus ten for a loss, whatever the ratings."""

    name: str = "toy_points"
    shape: methods.Shape = TWO_SIDES
    pool_fields: tuple[str, ...] = ()
    shown_fields: tuple[str, ...] = ()
    summary: str = "ten points a win"

    def check_rules(self, rules: RuleSet) -> Text | None:
        return check_outcomes(rules)

    def check_side(self, rules: RuleSet, side: Side, number: int) -> list[Text]:
        return check_outcome_side(rules, side, number)

    def new_pool(self, rules: RuleSet) -> PoolState:
        return PoolState(rules.start_rating, 0)

    def expected(self, rules: RuleSet, a: PoolState, b: PoolState) -> float:
        return 0.5

    def settle(
        self, rules: RuleSet, pools: dict[PoolKey, PoolState], periods: int
    ) -> dict[PoolKey, PoolState]:
        return pools

    def rate(self, rules: RuleSet, batch: Batch, lookup: Lookup, period: int = 0) -> Rated:
        entries: list[LedgerEntry] = []
        pools: dict[PoolKey, PoolState] = {}
        for game, label in batch:
            for side in game.sides:
                assert side.outcome is not None
                score = rules.outcomes[side.outcome].score
                for player in side.players:
                    key = pool_key(rules, game, player)
                    pool = pools.get(key) or lookup(key)
                    delta = 20 * (score - 0.5)
                    entries.append(
                        LedgerEntry(
                            label, game.date, key, pool.rating, 0.5, 10, score, delta,
                            pool.rating + delta,
                        )
                    )  # fmt: skip
                    pools[key] = PoolState(pool.rating + delta, pool.games + 1)
        return Rated(entries, pools)


@pytest.fixture
def toy() -> Iterator[RuleSet]:
    methods.register(ToyPoints())
    try:
        yield parse_rules(TOY_RULES)
    finally:
        methods.unregister("toy_points")


def test_a_registered_method_replays_5000_games_through_replay(toy: RuleSet) -> None:
    rng = random.Random(12)
    names = [f"P{i}" for i in range(40)]
    games = []
    points: dict[str, float] = {}
    day = dt.date(2024, 1, 1)
    for n in range(5000):
        a, b = rng.sample(names, 2)
        win = rng.random() < 0.5
        games.append(
            duel(
                (day + dt.timedelta(days=n // 50)).isoformat(),
                a,
                "win" if win else "loss",
                b,
                "loss" if win else "win",
            )
        )
        points[a] = points.get(a, 100.0) + (10 if win else -10)
        points[b] = points.get(b, 100.0) + (-10 if win else 10)
    assert len(games) > MIN_GAMES
    assert unsupported(toy) == "method = 'toy_points'"
    result = replay(toy, games)
    assert {k.player: p.rating for k, p in result.pools.items()} == points
    assert len(result.ledger) == 10_000
    assert result.standings()[0].rating == max(points.values())
    reference = replay(toy, games, reference=True)
    assert result.ledger == reference.ledger and result.state == reference.state


def test_the_rule_set_model_allows_the_registered_methods() -> None:
    with pytest.raises(RuleSetError) as caught:
        parse_rules(TOY_RULES, "club.toml")
    message = str(caught.value)
    assert "club.toml, line 3: key method: allowed: " in message
    assert "'duel', 'team_and_personal'" in message and "toy_points" not in message


def test_the_registry_lists_the_shipped_methods() -> None:
    assert {"duel", "team_and_personal", "ffa_rank"} <= set(methods.names())
    for name in methods.names():
        method = methods.get(name)
        assert method.name == name and method.shape in (methods.TWO_SIDES, methods.RANKED)
    with pytest.raises(ValueError, match="already registered"):
        methods.register(ToyPoints(name="duel"))
