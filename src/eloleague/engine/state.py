"""The engine's state and result types: what a replay starts from and what it gives back.

Kept apart from :mod:`eloleague.engine.replay` (the reference path) and
:mod:`eloleague.engine.fast` (the compiled accelerator) so that both build them without importing
each other.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from eloleague.engine.ledger import LedgerEntry
from eloleague.engine.standings import Standing, standings
from eloleague.records import GameRecord, PoolKey, PoolState
from eloleague.rules.model import RuleSet

__all__ = ["EngineState", "ReplayResult", "Unrated"]


@dataclass(frozen=True)
class EngineState:
    """Everything a replay needs to go on from where another stopped.

    ``pools`` in order of first appearance; ``season_end`` is the last day of the season in
    progress (``None`` before any game, or after the last explicit season end);
    ``eligible`` is how many of the pools (in order) existed when that season began;
    ``active`` maps each season end not yet applied to the players with a rated game in it.
    ``last_played`` is each pool's last rated game date (pools of an initial state have none
    until they play); ``decay_spells`` holds, for pools in an idle spell, the rating the spell
    began with and the points lost so far (rule sets with ``[decay]``; with ``cap_scope =
    "career"`` every pool that ever decayed, the career's total), ``decay_steps`` how many losses
    each pool's current idle spell took. ``periods`` counts the
    update batches rated so far (the rating periods of Glicko-2).
    """

    pools: Mapping[PoolKey, PoolState] = field(default_factory=dict)
    season_end: dt.date | None = None
    eligible: int = 0
    active: Mapping[dt.date, frozenset[str]] = field(default_factory=dict)
    started: bool = False
    last_played: Mapping[PoolKey, dt.date] = field(default_factory=dict)
    decay_spells: Mapping[PoolKey, tuple[float, float]] = field(default_factory=dict)
    periods: int = 0
    decay_steps: Mapping[PoolKey, int] = field(default_factory=dict)

    @classmethod
    def from_pools(cls, pools: Mapping[PoolKey, PoolState]) -> EngineState:
        """A state holding only ratings (``--initial``): seasons start with the first game."""
        return cls(pools=dict(pools), eligible=len(pools))


@dataclass(frozen=True)
class Unrated:
    """A valid game that is stored but not rated, and why."""

    game: GameRecord
    position: int
    reason: str


@dataclass(frozen=True)
class ReplayResult:
    """The outcome of a replay: final pools, the ledger in processing order, unrated games."""

    rules: RuleSet
    pools: Mapping[PoolKey, PoolState]
    ledger: Sequence[LedgerEntry]
    unrated: Sequence[Unrated]
    state: EngineState
    as_of: dt.date | None

    def standings(self, *, active_days: int | None = None) -> list[Standing]:
        """The ranking rows of docs/formats.md, titles included; with ``active_days``, only players
        whose last rated game is at most that many days before the as-of date."""
        since = None
        if active_days is not None and self.as_of is not None:
            since = self.as_of - dt.timedelta(days=active_days)
        return standings(
            self.rules, self.pools, last_played=self.state.last_played, active_since=since
        )
