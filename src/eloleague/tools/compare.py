"""Replay one history under two rule sets and show what changes ("what if we drop the
500-point cap?"). Both replays are :func:`eloleague.engine.replay` on the same games; nothing is
written anywhere.

Ranks are competition ranks within a ranking (same mode and role; the global ``*`` rows of rule
sets pooled by role form their own ranking): 1 + the number of rows with a strictly higher rating
(:func:`eloleague.engine.standings.competition_ranks`, the ranks of every page and export).
The mean rating per season is, at each season's last day, the mean over the pools that exist by
then of the start rating (or initial rating) plus every ledger change dated on or before that day
(games and inactivity adjustments): the rating inflation, or deflation, of a rule set over time.
Seasons follow the first rule set's season definition, so both columns line up.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from eloleague.engine import ReplayResult, Standing, replay
from eloleague.engine.seasons import next_season_end, season_end
from eloleague.engine.standings import competition_ranks
from eloleague.errors import InputError
from eloleague.i18n import Text
from eloleague.io import validate_games
from eloleague.records import GameRecord, PoolKey, PoolState
from eloleague.rules.model import RuleSet


@dataclass(frozen=True, slots=True)
class CompareRow:
    """One pool (or global row) under both rule sets; ``None`` where one rule set has no such row."""

    player: str
    mode: str
    role: str
    rating_a: float | None
    rank_a: int | None
    games_a: int
    rating_b: float | None
    rank_b: int | None
    games_b: int

    @property
    def delta(self) -> float | None:
        """Rating under B minus rating under A."""
        if self.rating_a is None or self.rating_b is None:
            return None
        return self.rating_b - self.rating_a

    @property
    def rank_change(self) -> int | None:
        """Places gained under B (positive: better ranked under B)."""
        if self.rank_a is None or self.rank_b is None:
            return None
        return self.rank_a - self.rank_b


@dataclass(frozen=True, slots=True)
class SeasonMean:
    """The mean rating over existing pools at a season's last day, under both rule sets."""

    end: dt.date
    mean_a: float | None
    mean_b: float | None
    pools_a: int
    pools_b: int


@dataclass(frozen=True, slots=True)
class Comparison:
    """Two replays of the same games side by side."""

    rules_a: RuleSet
    rules_b: RuleSet
    rows: tuple[CompareRow, ...]
    movers: tuple[CompareRow, ...]
    seasons: tuple[SeasonMean, ...]
    games: int
    changed_entries: int

    @property
    def identical(self) -> bool:
        """Whether every rating and rank is the same under both rule sets."""
        return all(
            r.rating_a is not None
            and r.rating_b is not None
            and abs(r.rating_b - r.rating_a) < 1e-9
            and r.rank_a == r.rank_b
            for r in self.rows
        )


def _ranks(rows: Sequence[Standing]) -> dict[tuple[str, str, str], int]:
    return {
        (r.player, r.mode, r.role): rank
        for r, rank in zip(rows, competition_ranks(rows), strict=True)
    }


def season_means(
    result: ReplayResult,
    rules: RuleSet,
    initial: Mapping[PoolKey, PoolState] | None = None,
    ends: Sequence[dt.date] = (),
) -> list[tuple[dt.date, float | None, int]]:
    """Mean rating over the pools existing at each of ``ends`` (see the module doc)."""
    start = {k: p.rating for k, p in (initial or {}).items()}
    entries = sorted(result.ledger, key=lambda e: e.date)  # stable: ledger order within a day
    out = []
    ratings = dict(start)
    i = 0
    for end in ends:
        while i < len(entries) and entries[i].date <= end:
            e = entries[i]
            ratings[e.key] = ratings.get(e.key, rules.start_rating) + e.delta
            i += 1
        mean = sum(ratings.values()) / len(ratings) if ratings else None
        out.append((end, mean, len(ratings)))
    return out


def _season_ends(rules: RuleSet, games: Sequence[GameRecord]) -> list[dt.date]:
    if not games:
        return []
    first = min(g.date for g in games)
    last = max(g.date for g in games)
    ends: list[dt.date] = []
    end = season_end(rules.season, first)
    while end is not None and end < last:
        ends.append(end)
        end = next_season_end(rules.season, end)
    ends.append(end if end is not None else last)
    return ends


def compare(
    games: Sequence[GameRecord],
    rules_a: RuleSet,
    rules_b: RuleSet,
    *,
    initial: Mapping[PoolKey, PoolState] | None = None,
    as_of: dt.date | None = None,
    movers: int = 10,
) -> Comparison:
    """Replay ``games`` under ``rules_a`` (the league's) and ``rules_b`` and compare the results.

    The games must be valid under both rule sets (the first problems are reported, each with
    the game's origin, as :class:`InputError`).
    """
    problems = validate_games(rules_b, games)
    if problems:
        raise InputError(problems[:20], Text.of("under rule set {name}", name=rules_b.name))
    res_a = replay(rules_a, games, initial=initial, as_of=as_of)
    res_b = replay(rules_b, games, initial=initial, as_of=as_of)
    return compare_results(games, res_a, res_b, initial=initial, movers=movers)


def compare_results(
    games: Sequence[GameRecord],
    res_a: ReplayResult,
    res_b: ReplayResult,
    *,
    initial: Mapping[PoolKey, PoolState] | None = None,
    movers: int = 10,
) -> Comparison:
    """Compare two replays of ``games`` already computed (by :func:`compare`, or by a league)."""
    rules_a, rules_b = res_a.rules, res_b.rules
    st_a, st_b = res_a.standings(), res_b.standings()
    rank_a, rank_b = _ranks(st_a), _ranks(st_b)
    by_a = {(r.player, r.mode, r.role): r for r in st_a}
    by_b = {(r.player, r.mode, r.role): r for r in st_b}
    keys = list(by_a) + [k for k in by_b if k not in by_a]
    rows = []
    for key in keys:
        a, b = by_a.get(key), by_b.get(key)
        rows.append(
            CompareRow(
                key[0],
                key[1],
                key[2],
                a.rating if a else None,
                rank_a.get(key),
                a.games if a else 0,
                b.rating if b else None,
                rank_b.get(key),
                b.games if b else 0,
            )
        )
    moved = [r for r in rows if (r.rank_change or 0) != 0 or abs(r.delta or 0.0) > 1e-9]
    moved.sort(key=lambda r: (-abs(r.rank_change or 0), -abs(r.delta or 0.0), r.player))
    ends = _season_ends(rules_a, games)
    means_a = season_means(res_a, rules_a, initial, ends)
    means_b = season_means(res_b, rules_b, initial, ends)
    seasons = tuple(
        SeasonMean(end, ma, mb, na, nb)
        for (end, ma, na), (_, mb, nb) in zip(means_a, means_b, strict=True)
    )
    changed = sum(
        1
        for x, y in zip(res_a.ledger, res_b.ledger, strict=False)
        if x.key != y.key or abs(x.delta - y.delta) > 1e-9
    ) + abs(len(res_a.ledger) - len(res_b.ledger))
    return Comparison(
        rules_a, rules_b, tuple(rows), tuple(moved[:movers]), seasons, len(games), changed
    )
