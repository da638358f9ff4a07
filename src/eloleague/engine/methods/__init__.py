"""Rating methods as plug-ins, and their registry (docs/rule-sets.md, "Rating methods").

Each method is one module of this package behind the :class:`RatingMethod` protocol; the registry
lists them by the name a rule file gives as ``method``, much as openskill lists its models. The
rule-set model takes its allowed methods from here, and every layer asks a rule set's method
(:func:`method_of`) what it needs (the shape of its games, its pool fields, its expected score)
instead of comparing names. Adding a method is one module, one line below, its tests and docs.
"""

from __future__ import annotations

from collections.abc import Sequence

from eloleague.engine.ledger import LedgerEntry
from eloleague.engine.methods.base import (
    RANKED,
    TWO_SIDES,
    Batch,
    Lookup,
    Rated,
    RatingMethod,
    Shape,
    pool_key,
)
from eloleague.engine.methods.duel import DUEL, venue_points
from eloleague.engine.methods.ffa_rank import FFA_RANK, ffa_performances, places
from eloleague.engine.methods.glicko2 import GLICKO2
from eloleague.engine.methods.team_and_personal import TEAM_AND_PERSONAL
from eloleague.records import GameRecord, PoolState, replace
from eloleague.rules.model import RuleSet

__all__ = [
    "RANKED",
    "TWO_SIDES",
    "Batch",
    "Lookup",
    "Rated",
    "RatingMethod",
    "Shape",
    "by_place",
    "expected_score",
    "ffa_performances",
    "get",
    "ledger_fields",
    "method_of",
    "names",
    "pool_key",
    "ranked",
    "register",
    "shown_values",
    "side_places",
    "unregister",
    "venue_points",
    "with_shown",
]

_REGISTRY: dict[str, RatingMethod] = {}


def register(method: RatingMethod) -> RatingMethod:
    """Make ``method`` available to rule files under its name (a name taken is an error)."""
    if method.name in _REGISTRY and _REGISTRY[method.name] is not method:
        raise ValueError(f"a rating method named {method.name!r} is already registered")
    _REGISTRY[method.name] = method
    return method


def unregister(name: str) -> None:
    """Forget a method registered by :func:`register` (tests that register a toy method)."""
    _REGISTRY.pop(name, None)


def names() -> tuple[str, ...]:
    """The registered methods' names, in registration order."""
    return tuple(_REGISTRY)


def get(name: str) -> RatingMethod:
    """The method registered as ``name`` (``KeyError`` when none is)."""
    return _REGISTRY[name]


def method_of(rules: RuleSet) -> RatingMethod:
    """The rating method of a rule set."""
    return _REGISTRY[rules.method]


def expected_score(rules: RuleSet, a: float, b: float) -> float:
    """The rule set's expected score of a player (or a side's mean) rated ``a`` against one
    rated ``b``, other pool fields as a new pool has them (``balance``, ``predict``). For a game
    with a venue, add each side's :func:`venue_points` to ``a`` and ``b`` first, as the duel
    method does (docs/rule-sets.md, "Home advantage and margins")."""
    method = method_of(rules)
    new = method.new_pool(rules)
    return method.expected(rules, replace(new, rating=a), replace(new, rating=b))


def shown_values(rules: RuleSet, pool: PoolState) -> tuple[float, ...]:
    """The values of the method's :attr:`~RatingMethod.shown_fields` in ``pool``."""
    method = method_of(rules)
    if not method.shown_fields:
        return ()
    return tuple(pool.extra[method.pool_fields.index(name)] for name in method.shown_fields)


def with_shown(rules: RuleSet, pool: PoolState, values: dict[str, float]) -> PoolState:
    """``pool`` with the shown fields of ``values`` set (the others: as a new pool has them)."""
    method = method_of(rules)
    extra = list(pool.extra or method.new_pool(rules).extra)
    for name, value in values.items():
        extra[method.pool_fields.index(name)] = value
    return replace(pool, extra=tuple(extra))


def ledger_fields(rules: RuleSet) -> tuple[str, ...]:
    """What a ledger entry's ``extra`` holds, in order: the method's shown pool fields, then the
    home advantage the player's side had (``home_advantage``: +H at home, -H away) and the K
    multiplier of the game (``k_multiplier``), when the rule set uses them."""
    fields = method_of(rules).shown_fields
    if rules.home_advantage:
        fields += ("home_advantage",)
    if rules.k_multiplier is not None:
        fields += ("k_multiplier",)
    return fields


def ranked(rules: RuleSet) -> bool:
    """Whether the rule set's games are free-for-all games ranked by score (one player a side)."""
    return _REGISTRY[rules.method].shape == RANKED


def side_places(rules: RuleSet, game: GameRecord) -> list[int] | None:
    """Each side's place by its score, tied sides sharing the better one, under a rule set that
    ranks by score (a Diplomacy game): the order a game's page and the command line list its
    sides in, since sides numbered in the order they were given read as places they were not.
    ``None`` under other rule sets, and for a game with a side without a score."""
    scores = [side.score for side in game.sides]
    if not ranked(rules) or any(x is None for x in scores):
        return None
    return places([float(x) for x in scores if x is not None])


def by_place(rules: RuleSet, game: GameRecord, entries: Sequence[LedgerEntry]) -> list[LedgerEntry]:
    """A game's ledger entries in the order its sides are shown (:func:`side_places`): by place
    (the ledger's ``rank``) under a rule set that ranks by score, tied ones in the order given;
    else as they were written."""
    if side_places(rules, game) is None:
        return list(entries)
    return sorted(entries, key=lambda e: e.rank or 0)


for _method in (DUEL, TEAM_AND_PERSONAL, FFA_RANK, GLICKO2):
    register(_method)
