"""Games and a starting state turned into the flat arrays the kernel reads (docs/formats.md).

Players, modes and roles become integer ids, pools ``(player, mode, role)`` too; the processing
order, the update batches and the seasons to close are worked out here with the reference path's
own functions (``season_end``, ``unrated_reason``) so that only the arithmetic is left to the kernel.
:func:`encode` returns ``None`` for input the fast path does not take (a duel game without exactly
two sides, an empty side, an unknown outcome...): the reference path then does what it does.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from eloleague.engine.fast import layout as K
from eloleague.engine.fast.extract import extract
from eloleague.engine.fast.support import scaled
from eloleague.engine.formulas import ROUNDING_CODES, ffa_weight
from eloleague.engine.seasons import next_season_end, season_end
from eloleague.engine.validate import unrated_reason
from eloleague.i18n import Text
from eloleague.memory import no_gc
from eloleague.records import GameRecord, PoolKey
from eloleague.rules.model import RuleSet

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

# Positions, in ``Encoded.kernel_args``, of the pools' arrays the kernel updates in place.
STATE_ARGUMENTS = range(20, 26)


@dataclass
class Encoded:
    """Everything the kernel needs, plus what turns its output back into records."""

    games: Sequence[GameRecord]
    kernel_args: tuple[Any, ...]
    pool_keys: list[PoolKey]
    players: list[str]
    outcome_labels: list[str]
    unrated: list[tuple[int, Text]]
    season_end: dt.date | None
    active: dict[dt.date, frozenset[str]]
    initial_pools: int
    as_of: dt.date
    float_columns: int
    capacity: int
    batch_capacity: int
    batches: int

    def arguments(self, ledger: bool, capacity: int | None = None) -> tuple[Any, ...]:
        """The kernel's arguments for one run (it updates the pools' arrays: fresh copies), with
        room for the whole ledger or, when only the ratings are wanted, for one batch."""
        args = list(self.kernel_args)
        for i in STATE_ARGUMENTS:
            args[i] = args[i].copy()
        size = capacity or (self.capacity if ledger else self.batch_capacity)
        floats = np.empty((self.float_columns, size), np.float64)
        ints = np.empty((K.N_INT_COLUMNS, size), np.int32)
        return (*args, floats, ints, ledger)


def _offsets(counts: list[int] | Ints) -> Ints:
    out = np.zeros(len(counts) + 1, np.int64)
    np.cumsum(counts, out=out[1:])
    return out


def _index(values: Any) -> dict[Any, int]:
    return {v: i for i, v in enumerate(dict.fromkeys(values))}


class _Numbering(dict[str, int]):
    """Numbers names in order of first appearance as they are looked up (one pass, in C)."""

    def __missing__(self, key: str) -> int:
        self[key] = number = len(self)
        return number


def _whole_numbers(values: list[int | None]) -> Ints:
    """``value or 0`` for each value (the rounds of docs/formats.md's processing order)."""
    if values.count(None) == len(values):
        return np.zeros(len(values), np.int64)
    return np.array([v or 0 for v in values], np.int64)


def _processing_order(days: Ints, rounds: Ints) -> Ints:
    """``replay.processing_order`` on arrays: stable by ``(date, round or 0)``."""
    key = days * (2**32) + (rounds + 2**31)
    if key.size < 2 or bool(np.all(key[1:] >= key[:-1])):
        return np.arange(key.size, dtype=np.int64)
    return np.argsort(key, kind="stable").astype(np.int64)


def _batches(rules: RuleSet, events: list[str | None], rated: Ints) -> tuple[Ints, Ints]:
    """``replay.batches``: the rated games in batch order, and the batch offsets."""
    if rules.updates == "per_game" or rated.size == 0:
        return rated, np.arange(rated.size + 1, dtype=np.int64)
    ids = _index(e for e in events if e)
    n_events = len(ids)
    key = np.fromiter(
        (ids[events[i]] if events[i] else n_events + i for i in rated.tolist()),
        np.int64,
        rated.size,
    )
    # Groups in order of first appearance; games of one group keep processing order. The batches
    # are then in order of their first game, whose dates never decrease (processing order).
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    rank = np.empty(first.size, np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(first.size)
    batch_of = rank[inverse]
    order = rated[np.argsort(batch_of, kind="stable")]
    return order.astype(np.int64), _offsets(np.bincount(batch_of, minlength=first.size))


def _k_arrays(rules: RuleSet) -> tuple[Floats, Ints, Floats, Ints, int]:
    """K tiers as arrays (``KTier.limits``: absent bounds always hold) and exact numerators."""
    k_rule = rules.k
    assert k_rule is not None  # the kernel's methods require [k]
    tiers = k_rule.tiers
    tiers_k = np.array([t.k for t in tiers] + [0.0], np.float64)
    tiers_i = np.array([t.limits[:2] for t in tiers] + [(0, 0)], np.int64)
    tiers_r = np.array([t.limits[2:] for t in tiers] + [(0.0, 0.0)], np.float64)
    values = [scaled(t.k) for t in tiers] + [scaled(k_rule.default or 0.0)]
    a = max(d for _, d in values)
    numerators = np.array([v * 10 ** (a - d) for v, d in values], np.int64)
    return tiers_k, tiers_i, tiers_r, numerators, a


def _ffa_weights(side_counts: Ints, rules: RuleSet) -> tuple[Floats, Floats]:
    """``methods.ffa_performances``'s weights and their sum, per number of players."""
    top = int(side_counts.max()) if side_counts.size else 2
    weights = np.zeros((top + 1, top + 1), np.float64)
    totals = np.ones(top + 1, np.float64)
    alpha = rules.ffa.alpha
    for n in np.unique(side_counts).tolist():
        row = [ffa_weight(alpha, n, r) for r in range(1, n + 1)]
        weights[n, :n] = row
        totals[n] = sum(row)
    return weights, totals


def encode(
    rules: RuleSet,
    games: Sequence[GameRecord],
    pools: dict[PoolKey, tuple[float, int]],
    last_played: dict[PoolKey, dt.date],
    state_active: dict[dt.date, frozenset[str]],
    started: bool,
    state_season_end: dt.date | None,
    state_eligible: int,
    as_of: dt.date | None,
) -> Encoded | None:
    """The kernel's arguments for replaying ``games`` from the given state, or ``None``."""
    ffa = K.KERNEL_METHODS[rules.method] == K.METHOD_FFA
    n_games = len(games)
    need_roles = ffa or rules.pools.by_role
    with no_gc():
        columns = extract(
            games,
            scores=ffa,
            roles=need_roles,
            events=rules.updates == "per_event",
            modes=rules.pools.by_mode,
        )
        days = columns.days()
        rounds = columns.rounds()
        rated_flag = columns.rated()
    if as_of is None:
        as_of = dt.date.fromordinal(int(days.max()))
    modes = columns.modes() if rules.pools.by_mode else None
    roles = columns.roles
    side_counts, player_counts = columns.side_counts, columns.player_counts
    if side_counts.size and (
        int(side_counts.min()) < 2 or (not ffa and int(side_counts.max()) != 2)
    ):
        return None
    if player_counts.size and (
        int(player_counts.min()) < 1 or (ffa and int(player_counts.max()) != 1)
    ):
        return None
    if int(np.abs(rounds).max()) >= 2**31 - 1:
        return None
    game_sides = _offsets(side_counts)
    side_players = _offsets(player_counts)

    # Outcomes (or scores) per side.
    labels = list(rules.outcomes)
    if ffa:
        results = columns.results()
        if any(v is None for v in results):
            results = [0.0 if v is None else v for v in results]
        side_values = np.array(results, np.float64)
        side_numerators = np.zeros(1, np.int64)
        side_codes = np.zeros(0, np.int64)
        score_scale = 0
    else:
        codes = {label: i for i, label in enumerate(labels)}
        try:
            side_codes = columns.result_codes(codes.__getitem__)
        except KeyError:
            return None  # an unknown outcome, or none: the reference path says what it does
        values = [scaled(o.score) for o in rules.outcomes.values()]
        score_scale = max(d for _, d in values)
        side_values = np.array([o.score for o in rules.outcomes.values()], np.float64)
        side_numerators = np.array([v * 10 ** (score_scale - d) for v, d in values], np.int64)

    # Players, then pools (player, mode, role): initial pools keep their own mode and role.
    initial_keys = list(pools)
    player_index = _Numbering()
    for name in chain((k.player for k in initial_keys), *state_active.values()):
        player_index[name]  # numbers it
    player_ids = columns.name_ids(player_index.__getitem__)
    players = list(player_index)
    per_game_players = np.add.reduceat(player_counts, game_sides[:-1]) if n_games else player_counts
    mode_index = _index(chain(("",), (k.mode for k in initial_keys), modes or ()))
    role_index = _index(
        chain(("",), (k.role for k in initial_keys), roles if rules.pools.by_role else ())
    )
    n_modes, n_roles = len(mode_index), len(role_index)
    init_composite = np.array(
        [
            (player_index[k.player] * n_modes + mode_index[k.mode]) * n_roles + role_index[k.role]
            for k in initial_keys
        ],
        np.int64,
    )
    composite = player_ids * (n_modes * n_roles)
    if modes is not None:
        game_modes = np.fromiter(map(mode_index.__getitem__, modes), np.int64, n_games)
        composite += np.repeat(game_modes, per_game_players) * n_roles
    if rules.pools.by_role:
        composite += np.fromiter(map(role_index.__getitem__, roles), np.int64, len(roles))
    if n_modes * n_roles == 1:  # pools are players: no need to sort the keys
        unique = np.arange(len(players), dtype=np.int64)
        init_pools = init_composite
        player_pools = player_ids
    else:
        unique, inverse = np.unique(
            np.concatenate((init_composite, composite)), return_inverse=True
        )
        inverse = inverse.astype(np.int64)
        init_pools = inverse[: len(initial_keys)]
        player_pools = inverse[len(initial_keys) :]
    n_pools = unique.size
    pool_players = unique // (n_modes * n_roles)
    modes_by_id, roles_by_id = list(mode_index), list(role_index)
    pool_keys: list[PoolKey | None] = [None] * n_pools
    for key, pool in zip(initial_keys, init_pools.tolist(), strict=True):
        pool_keys[pool] = key
    for pool, code in enumerate(unique.tolist()):
        if pool_keys[pool] is None:
            rest = code % (n_modes * n_roles)
            pool_keys[pool] = PoolKey(
                players[code // (n_modes * n_roles)],
                modes_by_id[rest // n_roles],
                roles_by_id[rest % n_roles],
            )

    # Processing order, unrated games, batches.
    order = _processing_order(days, rounds)
    candidates = ~rated_flag
    if ffa and rules.roles:
        wanted = {role: 1 << i for i, role in enumerate(rules.roles)}
        bits = np.fromiter((wanted.get(r, 0) for r in roles), np.int64, len(roles))
        held = np.bitwise_or.reduceat(bits, game_sides[:-1]) if n_games else bits
        candidates |= held != (1 << len(rules.roles)) - 1
    unrated: list[tuple[int, Text]] = []
    is_rated = np.ones(n_games, np.bool_)
    for i in order[candidates[order]].tolist():
        reason = unrated_reason(rules, games[i])
        if reason is None:
            return None  # the quick test and the reference disagree: let the reference decide
        unrated.append((i, reason))
        is_rated[i] = False
    rated = order[is_rated[order]]
    batch_order, batch_offsets = _batches(rules, columns.events(), rated)
    if rules.updates == "per_game":
        batch_days = days[batch_order]
    else:
        batch_days = days[batch_order[batch_offsets[:-1]]]

    # Seasons: the ends to close, each rated game's season among them.
    first_day = dt.date.fromordinal(int(days[order[0]]))
    end = state_season_end if started else season_end(rules.season, first_day)
    eligible = state_eligible if started else len(initial_keys)
    chain_ends: list[dt.date] = []
    while end is not None and end < as_of:
        chain_ends.append(end)
        end = next_season_end(rules.season, end)
    position = {e: i for i, e in enumerate(chain_ends)}
    rated_days = days[rated]  # in processing order: sorted
    distinct = rated_days[np.flatnonzero(np.diff(rated_days, prepend=-1))]
    ends_of = [season_end(rules.season, dt.date.fromordinal(d)) for d in distinct.tolist()]
    game_seasons = np.full(n_games, -1, np.int64)
    if rated.size:
        season_of_day = np.full(int(distinct[-1] - distinct[0]) + 1, -1, np.int64)
        season_of_day[distinct - distinct[0]] = [position.get(e, -1) for e in ends_of]  # type: ignore[arg-type]
        game_seasons[rated] = season_of_day[days[rated] - distinct[0]]
    # Seasons left open keep their players for a later replay (EngineState.active).
    by_end: dict[dt.date, list[int]] = {}
    for e, d in zip(ends_of, distinct.tolist(), strict=True):
        if e is not None and e not in position:
            by_end.setdefault(e, []).append(d)
    final_active = {e: set(v) for e, v in state_active.items() if e not in position}
    if by_end:
        game_of = np.repeat(np.arange(n_games, dtype=np.int64), per_game_players)
        for e in sorted(by_end):
            in_season = is_rated & np.isin(days, by_end[e])
            ids = np.unique(player_ids[in_season[game_of]]).tolist()
            final_active.setdefault(e, set()).update(players[i] for i in ids)
    active_lists = [[player_index[name] for name in state_active.get(e, ())] for e in chain_ends]
    active_offsets = _offsets([len(a) for a in active_lists])
    active_ids = np.array(list(chain.from_iterable(active_lists)), np.int64)

    # Parameters.
    tiers_k, tiers_i, tiers_r, k_numerators, k_scale = _k_arrays(rules)
    k_rule = rules.k
    assert k_rule is not None
    ip = np.zeros(K.N_IP, np.int64)
    fp = np.zeros(K.N_FP, np.float64)
    method = K.KERNEL_METHODS[rules.method]
    prob = rules.probability_decimals
    ip[K.P_METHOD] = method
    ip[K.P_PROB_DECIMALS] = -1 if prob is None or method != K.METHOD_DUEL else prob
    ip[K.P_ROUND_MODE] = ROUNDING_CODES[rules.delta_rounding.mode]
    ip[K.P_ROUND_DECIMALS] = rules.delta_rounding.decimals
    cap = rules.gain_cap
    ip[K.P_CAP] = 0 if cap is None or ffa else (1 if cap.inclusive else 2)
    fp[K.F_CAP_LEAD] = cap.lead if cap is not None else 0.0
    ip[K.P_FLOOR] = rules.rating_floor is not None
    fp[K.F_FLOOR] = rules.rating_floor or 0.0
    ip[K.P_TIERS] = len(k_rule.tiers)
    linear = k_rule.linear
    ip[K.P_LINEAR] = linear is not None
    if linear is not None:
        fp[K.F_LIN_START], fp[K.F_LIN_PER], fp[K.F_LIN_MIN] = (
            linear.start,
            linear.per_games,
            linear.minimum,
        )
    fp[K.F_K_DEFAULT] = k_rule.default or 0.0
    ip[K.P_COUNT_CURRENT] = k_rule.count_current_game
    season = rules.season
    ip[K.P_SEASON_TIERS] = len(season.inactivity)
    season_tiers = np.array([[t.above, t.penalty] for t in season.inactivity] + [[0.0, 0.0]])
    ip[K.P_SEASON_FLOOR] = season.floor is not None
    fp[K.F_SEASON_FLOOR] = season.floor or 0.0
    ip[K.P_SCORE_SCALE] = score_scale
    ip[K.P_DEN_EXP] = k_scale + score_scale + (prob or 0)
    ip[K.P_RENORMALISE] = rules.ffa.renormalise
    fp[K.F_SCALE] = rules.scale
    weights, weight_totals = _ffa_weights(side_counts if ffa else np.zeros(0, np.int64), rules)

    # The starting pools.
    rating = np.full(n_pools, float(rules.start_rating), np.float64)
    played = np.zeros(n_pools, np.int64)
    exists = np.zeros(n_pools, np.bool_)
    appear = np.empty(n_pools, np.int64)
    last_day = np.full(n_pools, -1, np.int64)
    for j, (key, pool) in enumerate(zip(initial_keys, init_pools.tolist(), strict=True)):
        rating[pool], played[pool] = pools[key]
        exists[pool] = True
        appear[j] = pool
        if key in last_played:
            last_day[pool] = last_played[key].toordinal()
    # Room for every game entry and, at most, one season entry per pool and season closed; or
    # (ratings only) for the largest batch.
    entries = int(side_players[-1])
    seasons = len(chain_ends) if season.inactivity else 0
    capacity = entries + min(seasons * n_pools, entries) + 1024
    if batch_order.size:
        per_batch = np.add.reduceat(per_game_players[batch_order], batch_offsets[:-1])
        batch_capacity = int(per_batch.max()) + 1
    else:
        batch_capacity = 1

    args = (
        ip,
        fp,
        tiers_k,
        tiers_i,
        tiers_r,
        k_numerators,
        season_tiers,
        batch_order,
        batch_offsets,
        batch_days,
        days,
        game_seasons,
        game_sides,
        side_players,
        side_values,
        side_numerators,
        side_codes,
        player_pools,
        player_ids,
        pool_players.astype(np.int64),
        rating,
        played,
        exists,
        appear,
        last_day,
        np.full(n_pools, -1, np.int64),
        len(initial_keys),
        eligible,
        np.array([e.toordinal() for e in chain_ends], np.int64),
        active_offsets,
        active_ids,
        len(players),
        weights,
        weight_totals,
    )
    return Encoded(
        games=games,
        kernel_args=args,
        pool_keys=cast(list[PoolKey], pool_keys),
        players=players,
        outcome_labels=labels,
        unrated=unrated,
        season_end=end,
        active={e: frozenset(v) for e, v in final_active.items()},
        initial_pools=len(initial_keys),
        as_of=as_of,
        float_columns=K.N_FLOAT_COLUMNS + (method == K.METHOD_TEAMS),
        capacity=capacity,
        batch_capacity=batch_capacity,
        batches=int(batch_offsets.size - 1),
    )
