"""The K factor (docs/rule-sets.md, the presets' K): tiers on games and rating, or a linear decay."""

from __future__ import annotations

from eloleague.engine.formulas import in_tier, k_linear
from eloleague.rules.model import KRule


def k_factor(rule: KRule | None, rating: float, games_before: int, mode: str = "") -> float:
    """K for a player of ``rating`` who played ``games_before`` rated games in the pool, in a
    game of ``mode`` (``by_mode`` first: K by match type).

    With ``count_current_game`` the game being rated counts too (the Diplomacy site's rules: a first game has
    ``k = 40 - 1 / 2 = 39.5``).
    """
    assert rule is not None  # the Elo methods require [k] (engine/methods/elo.py)
    if rule.by_mode:
        by_mode = rule.by_mode.get(mode)
        if by_mode is not None:
            return by_mode
    games = games_before + 1 if rule.count_current_game else games_before
    for tier in rule.tiers:
        if in_tier(rating, games, *tier.limits):
            return tier.k
    if rule.linear is not None:
        lin = rule.linear
        return k_linear(lin.start, lin.per_games, lin.minimum, games)
    assert rule.default is not None  # the model guarantees one of the two
    return rule.default
