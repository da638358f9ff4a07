"""Reversion toward the mean between seasons (docs/rule-sets.md, "season").

At a pool's first rated game of a new season (its last rated game was in an earlier season of
``[season]``), before that game is rated: ``R <- mean + fraction * (R - mean)``, or the value of
``[season.reversion] formula``. Pools that do not play are not reverted until they play; a pool
reverts once however many seasons it sat out. The change is a ledger row of its own (warning
``reversion``), dated the day of that game.
"""

from __future__ import annotations

from eloleague.engine.maths import snap
from eloleague.engine.rule_formulas import evaluated
from eloleague.records import PoolState
from eloleague.rules.model import RuleSet

REVERSION = "reversion"


def reverted(rules: RuleSet, pool: PoolState, game: str) -> float:
    """The pool's rating after the reversion of ``rules`` (its first game of the season:
    ``game``, named in errors)."""
    rule = rules.season.reversion
    assert rule is not None
    mean = rules.start_rating if rule.mean is None else rule.mean
    formula = rules.reversion_formula
    if formula is None:
        assert rule.fraction is not None  # the model asks for a fraction or a formula
        value = mean + rule.fraction * (pool.rating - mean)
    else:
        values = {
            "rating": pool.rating,
            "mean": mean,
            "fraction": rule.fraction if rule.fraction is not None else 0.0,
            "games": float(pool.games),
        }
        value = evaluated(rules, "season.reversion.formula", formula, values, game)
    return snap(rules, value)
