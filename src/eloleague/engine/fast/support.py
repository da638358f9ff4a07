"""Which rule sets the fast path computes, checked key by key (the reference path takes the rest).

The check is an allow-list: every key of the rule-set model (and of its parts) that the fast path
does not know must hold its default value, so a feature added to the reference path later (a new
key) sends rule sets that use it to the reference path until the fast path learns it.
"""

from __future__ import annotations

from decimal import Decimal

from pydantic import BaseModel

from eloleague.engine.fast.layout import KERNEL_METHODS, METHOD_DUEL, METHOD_FFA
from eloleague.rules.model import RuleSet

# Keys the fast path implements, or that the replay never reads (names, wording, titles, team
# sizes and ``display`` only concern validation and output, which both paths share).
_KNOWN: dict[str, frozenset[str]] = {
    "RuleSet": frozenset(
        [
            "name",
            "description",
            "seed",
            "method",
            "start_rating",
            "scale",
            "outcomes",
            "k",
            "probability_decimals",
            "delta_rounding",
            "display",
            "gain_cap",
            "rating_floor",
            "updates",
            "period",
            "period_games_count",
            "teams",
            "pools",
            "roles",
            "season",
            "decay",
            "titles",
            "ffa",
            "labels",  # names in each language: shown, never rated
            "role_heading",  # what the roles are called: shown, never rated
        ]
    ),
    "Outcome": frozenset(("score", "against", "fr", "en")),
    "KRule": frozenset(("tiers", "default", "linear", "count_current_game")),
    "KTier": frozenset(("k", "games_below", "games_at_least", "rating_below", "rating_at_least")),
    "KLinear": frozenset(("start", "per_games", "minimum")),
    "Rounding": frozenset(("mode", "decimals")),
    "GainCap": frozenset(("lead", "inclusive")),
    "Pools": frozenset(("by_mode", "by_role")),
    "Season": frozenset(("year_end", "ends", "inactivity", "floor")),
    "InactivityTier": frozenset(("above", "penalty")),
    "FreeForAll": frozenset(("alpha", "renormalise")),
}
# Integers the exact-decimal kernel multiplies must stay exact in a float64 (and an int64).
_EXACT_LIMIT = 2**53


def _unknown_key(model: BaseModel) -> str | None:
    """The first key of ``model`` unknown to the fast path and not at its default, if any."""
    known = _KNOWN.get(type(model).__name__)
    if known is None:
        return type(model).__name__
    for name, info in type(model).model_fields.items():
        if name not in known and getattr(model, name) != info.get_default(
            call_default_factory=True
        ):
            return f"{type(model).__name__}.{name}"
    return None


def scaled(value: float) -> tuple[int, int]:
    """``value`` as written in the rule file (``repr``), as ``(numerator, decimals)``."""
    exact = Decimal(repr(value)).normalize()
    sign, digits, exponent = exact.as_tuple()
    assert isinstance(exponent, int)
    numerator = int("".join(map(str, digits)) or "0") * (-1 if sign else 1)
    if exponent >= 0:
        return numerator * 10**exponent, 0
    return numerator, -exponent


def unsupported(rules: RuleSet) -> str | None:
    """Why the fast path cannot compute ``rules`` (``None``: it can)."""
    method = KERNEL_METHODS.get(rules.method)
    if method is None:
        return f"method = {rules.method!r}"
    k_rule = rules.k
    assert k_rule is not None  # the kernel's methods require [k]
    parts: list[BaseModel] = [rules, k_rule, rules.delta_rounding, rules.pools, rules.season]
    parts += [*rules.outcomes.values(), *k_rule.tiers, *rules.season.inactivity, rules.ffa]
    parts += [p for p in (k_rule.linear, rules.gain_cap) if p is not None]
    for part in parts:
        key = _unknown_key(part)
        if key is not None:
            return f"rule-set key {key}"
    if rules.decay is not None:
        return "time-based decay"
    if rules.updates not in ("per_game", "per_event"):
        return f"updates = {rules.updates!r}"
    rounding = rules.delta_rounding
    if rounding.mode != "none" and rounding.decimals != 0:
        return "deltas rounded to decimals (ratings snapped to a grid)"
    if method == METHOD_FFA and len(rules.roles) > 62:
        return "more than 62 roles"
    if method == METHOD_DUEL and rules.probability_decimals is not None:
        return _exact_unsupported(rules)
    return None


def _exact_unsupported(rules: RuleSet) -> str | None:
    """The integer arithmetic of rounded probabilities must stay exact (see ``kernel``)."""
    k_rule = rules.k
    assert k_rule is not None
    if k_rule.linear is not None:
        return "a linear K with rounded probabilities"
    n = rules.probability_decimals or 0
    ks = [scaled(t.k) for t in k_rule.tiers] + [scaled(k_rule.default or 0.0)]
    scores = [scaled(o.score) for o in rules.outcomes.values()]
    a = max(d for _, d in ks)
    b = max(d for _, d in scores)
    if a + b + n > 22:
        return "too many decimals in K, the outcome scores and P"
    k_max = max(abs(v) * 10 ** (a - d) for v, d in ks)
    s_max = max(abs(v) * 10 ** (b - d) for v, d in scores)
    if k_max * (s_max * 10**n + 10 ** (n + b)) >= _EXACT_LIMIT:
        return "K or outcome scores too large for exact integers"
    return None
