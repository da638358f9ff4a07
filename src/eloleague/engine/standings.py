"""Ranking rows from a final state: pools, global ratings across roles, titles (docs/rule-sets.md)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from eloleague.engine.methods import shown_values
from eloleague.records import PoolKey, PoolState
from eloleague.rules.model import RuleSet

GLOBAL_ROLE = "*"


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of a ranking: a pool, or (role ``*``) a player's global rating in a mode."""

    player: str
    mode: str
    role: str
    rating: float
    games: int
    title: str
    shown: tuple[float, ...] = ()  # the method's shown pool fields (Glicko-2's deviation...)


def pool_order(row: Standing) -> tuple[str, bool, int, str]:
    """A player's pools as her page on the site and ``eloleague player`` list them: by mode, the
    global row first, then the most played role."""
    return (row.mode, row.role != GLOBAL_ROLE, -row.games, row.role)


def standings(
    rules: RuleSet,
    pools: Mapping[PoolKey, PoolState],
    *,
    last_played: Mapping[PoolKey, dt.date] | None = None,
    active_since: dt.date | None = None,
) -> list[Standing]:
    """Every pool's row and, for rule sets pooled by role, each player's global row per mode.

    A global rating is the mean over the rule set's roles of the player's role ratings, the start
    rating standing in for roles never played; its games are the player's total in that mode.
    Titles use the player's rated games over all pools. Sorted by rating descending, then
    player, mode and role by code point.

    With ``active_since`` (and the pools' ``last_played`` dates), players whose last rated game is
    older are left out (``--active-days``).
    """
    if active_since is not None:
        last: dict[str, dt.date] = {}
        for key, day in (last_played or {}).items():
            if key.player not in last or day > last[key.player]:
                last[key.player] = day
        pools = {
            k: v for k, v in pools.items() if k.player in last and last[k.player] >= active_since
        }
    total_games: dict[str, int] = defaultdict(int)
    for key, pool in pools.items():
        total_games[key.player] += pool.games
    rows = [
        Standing(
            key.player,
            key.mode,
            key.role,
            pool.rating,
            pool.games,
            rules.title_for(pool.rating, total_games[key.player]),
            shown_values(rules, pool),
        )
        for key, pool in pools.items()
    ]
    if rules.pools.by_role:
        per_mode: dict[tuple[str, str], dict[str, PoolState]] = defaultdict(dict)
        for key, pool in pools.items():
            per_mode[key.player, key.mode][key.role] = pool
        for (player, mode), roles in per_mode.items():
            rating = sum(
                roles[r].rating if r in roles else rules.start_rating for r in rules.roles
            ) / len(rules.roles)
            games = sum(p.games for p in roles.values())
            rows.append(
                Standing(
                    player,
                    mode,
                    GLOBAL_ROLE,
                    rating,
                    games,
                    rules.title_for(rating, total_games[player]),
                )
            )
    rows.sort(key=lambda r: (-r.rating, r.player, r.mode, r.role))
    return rows


def ranking_group(row: Standing) -> tuple[str, str]:
    """The ranking a row belongs to: its mode and its role (the global ``*`` rows of a mode form
    their own ranking). Ranks are counted within a group, never across modes or roles."""
    return row.mode, row.role


def mode_order(players: Mapping[tuple[str, str], int]) -> list[str]:
    """The modes as the site offers them and the command line prints their rankings: the one
    whose pools rank the most players first, then by name. ``players``: (mode, role) -> how
    many players the pool ranks."""
    per_mode: dict[str, int] = defaultdict(int)
    for (mode, _role), count in players.items():
        per_mode[mode] += count
    return sorted(per_mode, key=lambda m: (-per_mode[m], m))


def rankings(
    rules: RuleSet, rows: Sequence[Standing], modes: Sequence[str] = ()
) -> list[list[Standing]]:
    """``rows`` split into their rankings (:func:`ranking_group`), each in the rows' order: by
    mode in the order of ``modes`` (:func:`mode_order`; by the rows' own count without it), in
    each mode the global rows first, then the roles in the rule file's order (Diplomacy's
    Austria to Turkey). One list for a league of one pool a player."""
    by_group: dict[tuple[str, str], list[Standing]] = defaultdict(list)
    for r in rows:
        by_group[ranking_group(r)].append(r)
    counted: dict[tuple[str, str], int] = {g: len(found) for g, found in by_group.items()}
    first: dict[str, int] = {}
    for n, mode in enumerate([*modes, *mode_order(counted)]):  # modes missing from ``modes`` last
        first.setdefault(mode, n)
    roles = {role: n for n, role in enumerate(rules.roles)}

    def place(group: tuple[str, str]) -> tuple[int, bool, int, str]:
        mode, role = group
        return first[mode], role != GLOBAL_ROLE, roles.get(role, len(roles)), role

    return [by_group[g] for g in sorted(by_group, key=place)]


def first_of_each(rows: Sequence[Standing], top: int) -> list[Standing]:
    """The first ``top`` rows of each ranking (``--top 10``: each mode's ten first, each
    country's), in the rows' order."""
    seen: dict[tuple[str, str], int] = defaultdict(int)
    kept = []
    for r in rows:
        group = ranking_group(r)
        if seen[group] < top:
            seen[group] += 1
            kept.append(r)
    return kept


def competition_ranks(rows: Sequence[Standing]) -> list[int]:
    """Each row's rank in its group (:func:`ranking_group`), standard competition ranking
    ("1224"): one more than the number of rows of the group with a strictly higher rating, so
    that players with equal ratings share a rank and the next rank is skipped (docs/league.md,
    "Ranks"). ``rows`` may be in any order and hold several groups; the answer is in their order.
    """
    by_group: dict[tuple[str, str], list[float]] = defaultdict(list)
    for r in rows:
        by_group[ranking_group(r)].append(r.rating)
    first: dict[tuple[str, str], dict[float, int]] = {}
    for key, values in by_group.items():
        values.sort(reverse=True)
        places: dict[float, int] = {}
        for n, value in enumerate(values, start=1):
            places.setdefault(value, n)
        first[key] = places
    return [first[ranking_group(r)][r.rating] for r in rows]
