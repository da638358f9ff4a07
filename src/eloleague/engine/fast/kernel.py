"""The compiled replay loop (numba): docs/rule-sets.md over integer-coded arrays.

The formulas are those of the reference path, compiled from the same source
(``engine/formulas.py``); this module keeps the loops over arrays that call them in the reference's
order, so that the floats come out bit for bit the same (``tests/engine/test_fast_path.py``).
Where the reference rounds through exact decimals (P to ``n`` decimals, then ``K * (S - P)``), the
kernel works in integers: P in units of ``10**-n``, K and the outcome scores scaled to integers
(``_round_probability``, ``_divide_rounded``, tied to ``engine/maths.py`` by property tests).

The arrays are prepared by :mod:`eloleague.engine.fast.encode`; games are addressed by their
position in the input, ``order`` lists the rated ones in processing order, batch by batch.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

from eloleague.engine import formulas
from eloleague.engine.fast.layout import (
    C_AFTER,
    C_BEFORE,
    C_DELTA,
    C_EXPECTED,
    C_K,
    C_OTHER,
    C_RAW,
    C_SCORE,
    C_TEAM,
    F_CAP_LEAD,
    F_FLOOR,
    F_K_DEFAULT,
    F_LIN_MIN,
    F_LIN_PER,
    F_LIN_START,
    F_SCALE,
    F_SEASON_FLOOR,
    FIRED_CAP,
    FIRED_FLOOR,
    FIRED_INACTIVITY,
    FIRED_ROUNDING,
    FULL,
    I_CODE,
    I_DAY,
    I_GAME,
    I_POOL,
    METHOD_FFA,
    METHOD_TEAMS,
    OK,
    OVERFLOW,
    P_CAP,
    P_COUNT_CURRENT,
    P_DEN_EXP,
    P_FLOOR,
    P_LINEAR,
    P_METHOD,
    P_PROB_DECIMALS,
    P_RENORMALISE,
    P_ROUND_DECIMALS,
    P_ROUND_MODE,
    P_SCORE_SCALE,
    P_SEASON_FLOOR,
    P_SEASON_TIERS,
    P_TIERS,
    VALUE_SHIFT,
    WARN_INACTIVITY,
    WARN_LOSER_GAIN,
    WARN_SHIFT,
    WARN_WINNER_LOSS,
)

# The layout's names stay importable from here (readers of the ledger's columns use them).
__all__ = [
    "C_AFTER",
    "C_BEFORE",
    "C_DELTA",
    "C_EXPECTED",
    "C_K",
    "C_OTHER",
    "C_RAW",
    "C_SCORE",
    "C_TEAM",
    "FIRED_CAP",
    "FIRED_FLOOR",
    "FIRED_INACTIVITY",
    "FIRED_ROUNDING",
    "FULL",
    "F_CAP_LEAD",
    "F_FLOOR",
    "F_K_DEFAULT",
    "F_LIN_MIN",
    "F_LIN_PER",
    "F_LIN_START",
    "F_SCALE",
    "F_SEASON_FLOOR",
    "I_CODE",
    "I_DAY",
    "I_GAME",
    "I_POOL",
    "OK",
    "OVERFLOW",
    "P_CAP",
    "P_COUNT_CURRENT",
    "P_DEN_EXP",
    "P_FLOOR",
    "P_LINEAR",
    "P_METHOD",
    "P_PROB_DECIMALS",
    "P_RENORMALISE",
    "P_ROUND_DECIMALS",
    "P_ROUND_MODE",
    "P_SCORE_SCALE",
    "P_SEASON_FLOOR",
    "P_SEASON_TIERS",
    "P_TIERS",
    "VALUE_SHIFT",
    "WARN_INACTIVITY",
    "WARN_LOSER_GAIN",
    "WARN_SHIFT",
    "WARN_WINNER_LOSS",
    "run",
]


def _compiled(function: Any) -> Any:
    """A plain formula of ``engine/formulas.py`` compiled for the kernel (same source)."""
    return njit(cache=True, error_model="numpy")(function)


# ``_expected`` gives exactly 0.0 where the reference's power overflows (see formulas.expected).
_expected = _compiled(formulas.expected)
_in_tier = _compiled(formulas.in_tier)
_k_linear = _compiled(formulas.k_linear)
_elo_delta = _compiled(formulas.elo_delta)
_team_delta = _compiled(formulas.team_delta)
_ffa_delta = _compiled(formulas.ffa_delta)
_round_whole = _compiled(formulas.round_whole)
_cap_reached = _compiled(formulas.cap_reached)
_floored = _compiled(formulas.floored)
_inactivity_penalty = _compiled(formulas.inactivity_penalty)
_ffa_performances = _compiled(formulas.ffa_performances)


@njit(cache=True, error_model="numpy")
def _k_of(
    tier: int,
    n_tiers: int,
    tiers_k: Any,
    linear: bool,
    start: float,
    per: float,
    minimum: float,
    default: float,
    games: int,
) -> float:
    """K of a tier found by :func:`_tier_of`, or the fallback: the linear decay or the default."""
    if tier < n_tiers:
        return float(tiers_k[tier])
    if linear:
        value: float = _k_linear(start, per, minimum, games)
        return value
    return default


@njit(cache=True, error_model="numpy")
def _tier_of(tiers_i: Any, tiers_r: Any, n_tiers: int, rating: float, games: int) -> int:
    """The first K tier whose conditions hold (``kfactor.k_factor``), ``n_tiers`` for none."""
    for t in range(n_tiers):
        if _in_tier(rating, games, tiers_i[t, 0], tiers_i[t, 1], tiers_r[t, 0], tiers_r[t, 1]):
            return t
    return n_tiers


@njit(cache=True, error_model="numpy")
def _divide_rounded(num: int, den: int, mode: int) -> int:
    """``num / den`` rounded to an integer as ``Decimal.quantize`` does for the mode."""
    magnitude = -num if num < 0 else num
    quotient = magnitude // den
    twice = 2 * (magnitude - quotient * den)
    if mode == 1:
        if twice >= den:
            quotient += 1
    elif mode == 3 and (twice > den or (twice == den and quotient % 2 == 1)):
        quotient += 1
    return -quotient if num < 0 else quotient


@njit(cache=True, error_model="numpy")
def _round_probability(p: float, decimals: int, unit: float) -> int:
    """``maths.round_probability``: P half-up to ``decimals``, as an integer of ``10**-decimals``.

    Near a half the reference decides on ``repr(p)``: its shortest decimal is at or above the
    half exactly when ``p`` is at or above the float nearest to the half.
    """
    scaled = p * unit
    low = math.floor(scaled)
    if abs(scaled - low - 0.5) > 1e-9:
        return math.floor(scaled + 0.5)
    half = (2.0 * low + 1.0) / (2.0 * unit)
    return int(low) + 1 if p >= half else int(low)


@njit(cache=True, error_model="numpy")
def run(
    ip: Any,
    fp: Any,
    tiers_k: Any,
    tiers_i: Any,
    tiers_r: Any,
    k_numerators: Any,
    season_tiers: Any,
    order: Any,
    batch_offsets: Any,
    batch_days: Any,
    game_days: Any,
    game_seasons: Any,
    game_sides: Any,
    side_players: Any,
    side_values: Any,
    outcome_numerators: Any,
    side_codes: Any,
    player_pools: Any,
    player_ids: Any,
    pool_players: Any,
    rating: Any,
    played: Any,
    exists: Any,
    appear: Any,
    last_day: Any,
    first_apply: Any,
    n_appear: int,
    eligible: int,
    season_ends: Any,
    state_active_offsets: Any,
    state_active: Any,
    n_players: int,
    weights: Any,
    weight_totals: Any,
    fl: Any,
    it: Any,
    keep: bool,
) -> tuple[int, Any, Any, int, int, int]:
    """Replay every batch; returns (status, float columns, int columns, entries, eligible, pools).

    ``side_values`` holds the sides' scores (ffa), or the outcomes' score values indexed by the
    sides' ``side_codes`` (duel, team); ``outcome_numerators`` the same values as integers.

    ``rating``, ``played``, ``exists``, ``appear``, ``last_day`` (each pool's last rated game) and
    ``first_apply`` (the rank of each pool's first rated game here) are updated in place.
    ``fl`` and ``it`` are the ledger's columns, allocated by the caller (numpy's allocator maps
    large arrays on huge pages; status ``FULL`` asks for larger ones). Without ``keep`` only the
    ratings are wanted: ``fl`` and ``it`` hold one batch at a time.
    """
    method = ip[P_METHOD]
    scale = fp[F_SCALE]
    prob_decimals = ip[P_PROB_DECIMALS]
    unit = 10.0**prob_decimals if prob_decimals >= 0 else 1.0
    unit_int = 10**prob_decimals if prob_decimals >= 0 else 1
    score_unit = 10 ** ip[P_SCORE_SCALE]
    den_exp = ip[P_DEN_EXP]
    round_mode = ip[P_ROUND_MODE]
    round_decimals = ip[P_ROUND_DECIMALS]
    shift = den_exp - round_decimals
    den_float = 10.0**den_exp
    shown_unit = 10.0**round_decimals
    cap = ip[P_CAP]
    cap_lead = fp[F_CAP_LEAD]
    floor_on = ip[P_FLOOR]
    floor = fp[F_FLOOR]
    n_season_tiers = ip[P_SEASON_TIERS]
    season_floor_on = ip[P_SEASON_FLOOR] != 0
    season_floor = fp[F_SEASON_FLOOR]
    count_current = ip[P_COUNT_CURRENT]
    n_tiers = ip[P_TIERS]
    linear = ip[P_LINEAR] != 0
    lin_start, lin_per, lin_min = fp[F_LIN_START], fp[F_LIN_PER], fp[F_LIN_MIN]
    k_default = fp[F_K_DEFAULT]

    e = 0

    # Who played in each season to close: a counting sort of (season, player).
    n_seasons = season_ends.shape[0]
    counts = np.zeros(n_seasons + 1, np.int64)
    for s in range(n_seasons):
        counts[s + 1] += state_active_offsets[s + 1] - state_active_offsets[s]
    for x in range(order.shape[0]):
        g = order[x]
        season = game_seasons[g]
        if season >= 0:
            first = side_players[game_sides[g]]
            last = side_players[game_sides[g + 1]]
            counts[season + 1] += last - first
    for s in range(n_seasons):
        counts[s + 1] += counts[s]
    active = np.empty(counts[n_seasons], np.int64)
    fill = counts[:n_seasons].copy()
    for s in range(n_seasons):
        for j in range(state_active_offsets[s], state_active_offsets[s + 1]):
            active[fill[s]] = state_active[j]
            fill[s] += 1
    for x in range(order.shape[0]):
        g = order[x]
        season = game_seasons[g]
        if season >= 0:
            for j in range(side_players[game_sides[g]], side_players[game_sides[g + 1]]):
                active[fill[season]] = player_ids[j]
                fill[season] += 1
    stamp = np.zeros(n_players, np.int64)

    applied = 0
    next_season = 0
    n_batches = batch_offsets.shape[0] - 1
    ratings_seen = np.empty(weights.shape[0], np.float64)
    performances = np.empty(weights.shape[0], np.float64)
    for b in range(n_batches + 1):
        # Close every season that ends before this batch (after the last one: all of them).
        while next_season < n_seasons and (
            b == n_batches or season_ends[next_season] < batch_days[b]
        ):
            s = next_season
            for j in range(counts[s], counts[s + 1]):
                stamp[active[j]] = s + 1
            if n_season_tiers > 0:
                for j in range(eligible):
                    pool = appear[j]
                    if stamp[pool_players[pool]] == s + 1:
                        continue
                    before = rating[pool]
                    new = before
                    for t in range(n_season_tiers):
                        if before > season_tiers[t, 0]:
                            new = _inactivity_penalty(
                                before, season_tiers[t, 1], season_floor_on, season_floor
                            )
                            break
                    if new != before:
                        if keep:
                            if e >= fl.shape[1]:
                                return FULL, fl, it, e, eligible, n_appear
                            delta = new - before
                            fl[C_BEFORE, e] = before
                            fl[C_DELTA, e] = delta
                            fl[C_RAW, e] = delta
                            fl[C_AFTER, e] = new
                            it[I_GAME, e] = -1
                            it[I_POOL, e] = pool
                            it[I_DAY, e] = season_ends[s]
                            it[I_CODE, e] = FIRED_INACTIVITY | (WARN_INACTIVITY << WARN_SHIFT)
                        e += 1
                        rating[pool] = new
            eligible = n_appear
            next_season += 1
        if b == n_batches:
            break

        # Compute every game of the batch from the ratings as they stood when it began.
        start = e
        base = 0 if keep else start  # rows are e - base
        for x in range(batch_offsets[b], batch_offsets[b + 1]):
            g = order[x]
            first_side = game_sides[g]
            n_sides = game_sides[g + 1] - first_side
            needed = e - base + side_players[first_side + n_sides] - side_players[first_side]
            if needed > fl.shape[1]:
                return FULL, fl, it, e, eligible, n_appear
            if method == METHOD_FFA:
                status = _rate_ffa(
                    ip,
                    fp,
                    tiers_k,
                    tiers_i,
                    tiers_r,
                    g,
                    first_side,
                    n_sides,
                    side_players,
                    side_values,
                    player_pools,
                    rating,
                    played,
                    weights,
                    weight_totals,
                    ratings_seen,
                    performances,
                    game_days[g],
                    fl,
                    it,
                    e - base,
                )
                if status != OK:
                    return status, fl, it, e, eligible, n_appear
                e += n_sides
                continue
            mean_a = 0.0
            mean_b = 0.0
            for s in range(2):
                side = first_side + s
                total = 0.0
                for j in range(side_players[side], side_players[side + 1]):
                    total += rating[player_pools[j]]
                mean = total / (side_players[side + 1] - side_players[side])
                if s == 0:
                    mean_a = mean
                else:
                    mean_b = mean
            for s in range(2):
                side = first_side + s
                own = mean_a if s == 0 else mean_b
                opponent = mean_b if s == 0 else mean_a
                code = side_codes[side]
                value = side_values[code]
                team_p = 0.0
                if method == METHOD_TEAMS:
                    team_p = _expected(own, opponent, scale)
                    if team_p == 0.0:
                        return OVERFLOW, fl, it, e, eligible, n_appear
                for j in range(side_players[side], side_players[side + 1]):
                    pool = player_pools[j]
                    before = rating[pool]
                    p = _expected(before, opponent, scale)
                    if p == 0.0:
                        return OVERFLOW, fl, it, e, eligible, n_appear
                    games = played[pool] + count_current
                    tier = _tier_of(tiers_i, tiers_r, n_tiers, before, games)
                    k = _k_of(
                        tier,
                        n_tiers,
                        tiers_k,
                        linear,
                        lin_start,
                        lin_per,
                        lin_min,
                        k_default,
                        games,
                    )
                    if method == METHOD_TEAMS:
                        raw = _team_delta(k, value, team_p, p)
                        rounded = _round_whole(raw, round_mode)
                    elif prob_decimals >= 0:
                        q = _round_probability(p, prob_decimals, unit)
                        p = q / unit
                        num = k_numerators[tier] * (
                            outcome_numerators[code] * unit_int - q * score_unit
                        )
                        raw = num / den_float
                        if round_mode == 0:
                            rounded = raw
                        else:
                            if shift >= 0:
                                whole = _divide_rounded(num, 10**shift, round_mode)
                            else:
                                whole = num * 10 ** (-shift)
                            rounded = whole / shown_unit
                            if whole == 0 and num < 0:
                                rounded = -0.0
                    else:
                        raw = _elo_delta(k, value, p)
                        rounded = _round_whole(raw, round_mode)
                    flags = FIRED_ROUNDING if rounded != raw else 0
                    delta = rounded
                    if (
                        cap != 0
                        and delta > 0
                        and _cap_reached(before - opponent, cap_lead, cap == 1)
                    ):
                        delta = 0.0
                        flags |= FIRED_CAP
                    if floor_on:
                        delta, fell = _floored(before, delta, floor)
                        if fell:
                            flags |= FIRED_FLOOR
                    row = e - base
                    fl[C_BEFORE, row] = before
                    fl[C_EXPECTED, row] = p
                    fl[C_K, row] = k
                    fl[C_SCORE, row] = value
                    fl[C_DELTA, row] = delta
                    fl[C_AFTER, row] = before + delta
                    fl[C_RAW, row] = raw
                    fl[C_OTHER, row] = opponent
                    if method == METHOD_TEAMS:
                        fl[C_TEAM, row] = team_p
                    it[I_GAME, row] = g
                    it[I_POOL, row] = pool
                    it[I_DAY, row] = game_days[g]
                    it[I_CODE, row] = flags | (code << VALUE_SHIFT)
                    e += 1

        # Apply the batch's deltas together, pools appearing in ledger order.
        for x in range(start - base, e - base):
            pool = it[I_POOL, x]
            if not exists[pool]:
                exists[pool] = True
                appear[n_appear] = pool
                n_appear += 1
            rating[pool] = rating[pool] + fl[C_DELTA, x]
            played[pool] += 1
            last_day[pool] = it[I_DAY, x]
            if first_apply[pool] < 0:
                first_apply[pool] = applied
                applied += 1
    return OK, fl, it, e, eligible, n_appear


@njit(cache=True, error_model="numpy")
def _rate_ffa(
    ip: Any,
    fp: Any,
    tiers_k: Any,
    tiers_i: Any,
    tiers_r: Any,
    g: int,
    first_side: int,
    n: int,
    side_players: Any,
    side_values: Any,
    player_pools: Any,
    rating: Any,
    played: Any,
    weights: Any,
    weight_totals: Any,
    seen: Any,
    perf: Any,
    day: int,
    fl: Any,
    it: Any,
    e: int,
) -> int:
    """``methods.rate_ffa`` for one game, written at ledger row ``e``."""
    scale = fp[F_SCALE]
    pairs = n * (n - 1) / 2
    low = side_values[first_side]
    high = low
    for i in range(n):
        x = side_values[first_side + i]
        low = x if x < low else low
        high = x if x > high else high
        seen[i] = rating[player_pools[side_players[first_side + i]]]
    scores = side_values[first_side : first_side + n]
    _ffa_performances(scores, n, weights[n], weight_totals[n], ip[P_RENORMALISE] != 0, perf)
    floor_on = ip[P_FLOOR]
    floor = fp[F_FLOOR]
    n_tiers = ip[P_TIERS]
    linear = ip[P_LINEAR] != 0
    lin_start, lin_per, lin_min = fp[F_LIN_START], fp[F_LIN_PER], fp[F_LIN_MIN]
    k_default = fp[F_K_DEFAULT]
    for i in range(n):
        pool = player_pools[side_players[first_side + i]]
        before = seen[i]
        total = 0.0
        for j in range(n):
            if j != i:
                p = _expected(before, seen[j], scale)
                if p == 0.0:
                    return OVERFLOW
                total += p
        expected = total / pairs
        games = played[pool] + ip[P_COUNT_CURRENT]
        tier = _tier_of(tiers_i, tiers_r, n_tiers, before, games)
        k = _k_of(tier, n_tiers, tiers_k, linear, lin_start, lin_per, lin_min, k_default, games)
        raw = _ffa_delta(k, pairs, perf[i], expected)
        rounded = _round_whole(raw, ip[P_ROUND_MODE])
        x = side_values[first_side + i]
        warning = 0
        if x == low and raw > 0:
            warning = WARN_LOSER_GAIN
        elif x == high and raw < 0:
            warning = WARN_WINNER_LOSS
        rank = 1
        for j in range(n):
            if side_values[first_side + j] > x:
                rank += 1
        flags = FIRED_ROUNDING if rounded != raw else 0
        delta = rounded
        if floor_on:
            delta, fell = _floored(before, delta, floor)
            if fell:
                flags |= FIRED_FLOOR
        row = e + i
        fl[C_BEFORE, row] = before
        fl[C_EXPECTED, row] = expected
        fl[C_K, row] = k
        fl[C_SCORE, row] = perf[i]
        fl[C_DELTA, row] = delta
        fl[C_AFTER, row] = before + delta
        fl[C_RAW, row] = raw
        fl[C_OTHER, row] = x
        it[I_GAME, row] = g
        it[I_POOL, row] = pool
        it[I_DAY, row] = day
        it[I_CODE, row] = flags | (warning << WARN_SHIFT) | (rank << VALUE_SHIFT)
    return OK
