"""Expected scores and rounding (docs/rule-sets.md).

Decimal rounding works on the shortest decimal that round-trips the float (``repr``), which is the
number an officer sees and what the communities' own spreadsheets and scripts round.
"""

from __future__ import annotations

import math
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from functools import lru_cache

from eloleague.engine.formulas import ROUNDING_CODES, expected, round_whole
from eloleague.rules.model import Rounding, RuleSet

__all__ = [
    "clean_loss",
    "exact",
    "expected",
    "on_grid",
    "round_decimal",
    "round_float",
    "round_probability",
    "snap",
]

_DECIMAL_MODES = {"half_up": ROUND_HALF_UP, "trunc": ROUND_DOWN, "half_even": ROUND_HALF_EVEN}


@lru_cache(maxsize=16)
def _quantum(decimals: int) -> Decimal:
    return Decimal(1).scaleb(-decimals)


def round_decimal(value: Decimal, rounding: Rounding) -> Decimal:
    """Round an exact decimal as the rule says (``none`` returns it unchanged)."""
    if rounding.mode == "none":
        return value
    return value.quantize(_quantum(rounding.decimals), rounding=_DECIMAL_MODES[rounding.mode])


def round_float(value: float, rounding: Rounding) -> float:
    """Round a float as the rule says, through its shortest decimal form (see module doc)."""
    if rounding.mode == "none":
        return value
    if rounding.decimals == 0:
        return round_whole(value, ROUNDING_CODES[rounding.mode])
    return float(round_decimal(Decimal(repr(value)), rounding))


def round_probability(p: float, decimals: int) -> Decimal:
    """P rounded half-up to ``decimals`` (the percentage the seeds print, docs/rule-sets.md step 2)."""
    scaled = p * 10**decimals
    # Far from a half, the float answer is exact; near one, decide on the decimal form.
    if abs(scaled - math.floor(scaled) - 0.5) > 1e-9:
        return Decimal(math.floor(scaled + 0.5)).scaleb(-decimals)
    return round_decimal(Decimal(repr(p)), Rounding(mode="half_up", decimals=decimals))


def exact(value: float) -> Decimal:
    """The decimal a rule file's number stands for (``1.1`` is 1.1, not its binary neighbour)."""
    return Decimal(repr(value))


def snap(rules: RuleSet, rating: float) -> float:
    """Keep a rating on the grid of its rounded deltas (0.1 when deltas round to 0.1), so that
    float sums never drift below a displayed digit ("rounding to a precision"); with
    ``rating_storage = "sum"`` the rating is the raw float sum of the rounded deltas.
    """
    rounding = rules.delta_rounding
    if rounding.mode == "none" or rounding.decimals == 0 or rules.rating_storage == "sum":
        return rating
    return round(rating, rounding.decimals)


def on_grid(rules: RuleSet) -> int | None:
    """The decimals of the grid ratings are kept on, or ``None`` (see :func:`snap`)."""
    rounding = rules.delta_rounding
    if rounding.mode == "none" or rounding.decimals == 0 or rules.rating_storage == "sum":
        return None
    return rounding.decimals


def clean_loss(rules: RuleSet, loss: Decimal) -> Decimal:
    """A decay loss as taken: cut down to the ratings' grid (so that a cap is never exceeded)."""
    decimals = on_grid(rules)
    if decimals is None:
        return loss
    return loss.quantize(_quantum(decimals), rounding=ROUND_DOWN)
