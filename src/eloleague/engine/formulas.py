"""Each rating formula once, as a plain function over numbers (docs/rule-sets.md).

The reference path (``engine/methods/``, ``engine/replay.py``, ``kfactor.py``, ``seasons.py``,
``decay.py``) calls these functions; the compiled kernel (``engine/fast/kernel.py``) compiles the
very same functions with ``numba.njit`` and keeps only its loops over arrays. They therefore use
only what both Python and numba compute alike: float arithmetic, ``math``, indexing.

Where the reference works in exact decimals (P rounded to hundredths, then ``K * (S - P)``; deltas
rounded to decimals), ``engine/maths.py`` keeps the exact form and the kernel a scaled-integer
form; property tests (``tests/engine/test_fast_path.py``) hold the two equal.
"""

from __future__ import annotations

import math
from typing import Any

# Rounding modes by code (the kernel's integer parameters use the same codes).
ROUND_NONE, ROUND_HALF_UP, ROUND_TRUNC, ROUND_HALF_EVEN = range(4)
ROUNDING_CODES = {
    "none": ROUND_NONE,
    "half_up": ROUND_HALF_UP,
    "trunc": ROUND_TRUNC,
    "half_even": ROUND_HALF_EVEN,
}


def expected(a: float, b: float, scale: float) -> float:
    """``E(a, b) = 1 / (1 + 10 ** ((b - a) / D))``: the expected score of ``a`` against ``b``.

    In Python a power too large raises ``OverflowError``; compiled, it is ``inf`` and the result
    exactly ``0.0``, which no finite power gives (the kernel then hands over to the reference).
    """
    return 1.0 / (1.0 + float(10.0 ** ((b - a) / scale)))


def expected_capped(a: float, b: float, scale: float, cap: float) -> float:
    """:func:`expected` with the rating difference capped to ``cap`` either way (FIDE's
    400-point rule, ``lead_cap``)."""
    gap = b - a
    if gap > cap:
        gap = cap
    elif gap < -cap:
        gap = -cap
    return 1.0 / (1.0 + float(10.0 ** (gap / scale)))


def in_tier(
    rating: float,
    games: int,
    games_below: int,
    games_at_least: int,
    rating_below: float,
    rating_at_least: float,
) -> bool:
    """Whether a K tier's conditions all hold (absent bounds are limits that always hold)."""
    return (
        games < games_below
        and games >= games_at_least
        and rating < rating_below
        and rating >= rating_at_least
    )


def k_linear(start: float, per_games: float, minimum: float, games: int) -> float:
    """``max(minimum, start - games / per_games)``: K when no tier matched."""
    value = start - games / per_games
    return value if value > minimum else minimum


def elo_delta(k: float, score: float, p: float) -> float:
    """``K * (S - P)``."""
    return k * (score - p)


def team_delta(k: float, w: float, p_team: float, p_personal: float) -> float:
    """``K * (W - p_team) + K * (W - p_personal)``: team term plus personal term."""
    return k * (w - p_team) + k * (w - p_personal)


def ffa_delta(k: float, pairs: float, performance: float, expected_share: float) -> float:
    """``K * N(N-1)/2 * (perf_i - E_i)``."""
    return k * pairs * (performance - expected_share)


def round_whole(value: float, mode: int) -> float:
    """``value`` rounded to a whole number by mode code (``ROUND_*``), as the exact decimal
    rounding of its shortest form gives it: ``m + 0.5`` is exact in binary, so the halves the
    float sees are the halves its decimal form shows. ``trunc`` gives no negative zero."""
    if mode == ROUND_NONE:
        return value
    magnitude = abs(value)
    whole = float(math.floor(magnitude))
    if mode == ROUND_TRUNC:
        if whole == 0.0:
            return 0.0
        return whole if value > 0 else -whole
    frac = magnitude - whole
    if mode == ROUND_HALF_UP:
        if frac >= 0.5:
            whole += 1.0
    elif frac > 0.5 or (frac == 0.5 and whole % 2.0 == 1.0):
        whole += 1.0
    return math.copysign(whole, value)


def cap_reached(lead: float, cap: float, inclusive: bool) -> bool:
    """Whether a lead reaches the gain cap: ``>=`` when inclusive, ``>`` otherwise."""
    return lead >= cap if inclusive else lead > cap


def floored(before: float, delta: float, floor: float) -> tuple[float, bool]:
    """``max(floor, before + delta)`` as a change, and whether it fired."""
    if before + delta < floor:
        return floor - before, True
    return delta, False


def inactivity_penalty(rating: float, penalty: float, has_floor: bool, floor: float) -> float:
    """A season's penalty taken from ``rating``, never below the season floor nor above the
    rating."""
    new = rating - penalty
    if has_floor:
        new = new if new > floor else floor
    return rating if rating < new else new


def ffa_weight(alpha: float, n: int, rank: int) -> float:
    """``w(r) = alpha ** (N + 1 - r) - 1``: the weight of rank ``r`` among ``n``."""
    return alpha ** (n + 1 - rank) - 1


def ffa_performances(
    scores: Any, n: int, weights: Any, total: float, renormalise: bool, out: Any
) -> None:
    """Each of ``n`` players' performance from the scores alone, into ``out``: the weights of the
    ranks a group of tied players spans, shared, divided by ``total``
    (the weights' sum); a score of zero or less performs 0; ``renormalise`` rescales the
    performances to sum to 1."""
    for i in range(n):
        x = scores[i]
        out[i] = 0.0
        if x <= 0:
            continue
        rank = 1
        ties = 0
        for j in range(n):
            y = scores[j]
            if y > x:
                rank += 1
            elif y == x:
                ties += 1
        acc = 0.0
        for r in range(rank - 1, rank - 1 + ties):
            acc += weights[r]
        out[i] = acc / ties / total
    if renormalise:
        positive = 0.0
        for i in range(n):
            positive += out[i]
        if positive > 0:
            for i in range(n):
                out[i] = out[i] / positive
