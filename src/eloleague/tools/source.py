"""Where the tools' games and ratings come from: a league database, or files.

A league (``eloleague.league.League``) gives its rule set, its games and its replay; without a
database, a games file (``.jsonl``, ``.csv``, ``.xlsx``, read and checked by
:func:`eloleague.io.read_games`), a rule set and optional initial ratings do the same. With only
initial ratings (no games file) the state is those ratings: enough to predict or balance.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eloleague.batch import read_initial
from eloleague.engine import ReplayResult, replay
from eloleague.i18n import Text
from eloleague.io import read_games
from eloleague.records import GameRecord, PoolKey, PoolState
from eloleague.rules import load_rules
from eloleague.rules.model import RuleSet
from eloleague.tools.players import ToolError

Replayer = Callable[[RuleSet | None, dt.date | None], ReplayResult]
Standing = Callable[[], tuple[Mapping[PoolKey, PoolState], dt.date | None]]


def default_db() -> str:
    """``ELOLEAGUE_DB`` or ``./eloleague.db``."""
    return os.environ.get("ELOLEAGUE_DB") or "eloleague.db"


@dataclass(frozen=True)
class Source:
    """A league's rule set and history, however they were read."""

    name: str
    rules: RuleSet
    games: Sequence[GameRecord]
    initial: Mapping[PoolKey, PoolState] | None = None
    replayer: Replayer | None = field(default=None, compare=False)
    aliases: Mapping[str, str] = field(default_factory=dict)
    """Earlier spellings of renamed or merged players, and the names they now go by."""
    standing: Standing | None = field(default=None, compare=False)
    """A league's ratings as they stand and their day, read rather than replayed."""

    def replay(self, rules: RuleSet | None = None, as_of: dt.date | None = None) -> ReplayResult:
        """The history replayed under ``rules`` (default: the league's own)."""
        if self.replayer is not None:
            return self.replayer(rules, as_of)
        return replay(rules or self.rules, self.games, initial=self.initial, as_of=as_of)

    def ratings(self) -> tuple[Mapping[PoolKey, PoolState], dt.date | None]:
        """The current pools and the day they stand at: a league's stored ratings (what a full
        replay of its games gives, read in milliseconds where the replay of a million games
        takes seconds: a prediction or a balance needs no more), the files' replayed."""
        if self.standing is not None:
            return self.standing()
        result = self.replay()
        return result.pools, result.as_of


def from_files(games: Path | None, rules: str | Path | None, initial: Path | None = None) -> Source:
    """A source from ``--games FILE --rules NAME_OR_PATH [--initial RATINGS.csv]``."""
    if rules is None:
        raise ToolError(
            Text.of("--games and --initial need --rules (a preset name or a .toml file)")
        )
    rule_set = load_rules(rules)
    start = read_initial(initial, rule_set) if initial is not None else None
    records = read_games(games, rule_set) if games is not None else []
    name = str(games) if games is not None else str(initial)
    return Source(name, rule_set, records, start)


def from_league(db: str | None, league: str | None) -> Source:
    """A source from a league database (``--db URL --league NAME``)."""
    url = db or default_db()
    try:
        from eloleague.league import League
    except ImportError:  # pragma: no cover - the league service is another module
        raise ToolError(
            Text.of(
                "this installation has no league database support; use --games FILE --rules NAME"
            )
        ) from None
    if "://" not in url and not Path(url).exists():
        raise ToolError(
            Text.of(
                "no league database at {url}: give --db, set ELOLEAGUE_DB, or use --games FILE "
                "--rules NAME",
                url=url,
            )
        )
    lg = League.open(url, league) if league is not None else League.open(url)

    def replayer(rules: RuleSet | None, as_of: dt.date | None) -> ReplayResult:
        result: ReplayResult = lg.replay_result(as_of=as_of, rules=rules)
        return result

    def standing() -> tuple[Mapping[PoolKey, PoolState], dt.date | None]:
        return lg.current_pools(), lg.rated_as_of()

    return Source(
        str(getattr(lg, "name", league or url)),
        lg.rules,
        LeagueGames(lg.games),
        None,
        replayer,
        lg.aliases(),
        standing,
    )


class LeagueGames(Sequence[GameRecord]):
    """A league's games, read from it the first time they are asked for (a prediction or a
    balance reads the stored ratings and never needs them)."""

    def __init__(self, read: Callable[[], Sequence[GameRecord]]) -> None:
        self._read = read
        self._games: Sequence[GameRecord] | None = None

    def _all(self) -> Sequence[GameRecord]:
        if self._games is None:
            self._games = list(self._read())
        return self._games

    def __len__(self) -> int:
        return len(self._all())

    def __getitem__(self, index: Any) -> Any:
        return self._all()[index]

    def __iter__(self) -> Iterator[GameRecord]:
        return iter(self._all())


def open_source(
    *,
    db: str | None,
    league: str | None,
    games: Path | None,
    rules: str | Path | None,
    initial: Path | None,
) -> Source:
    """Files when ``--games`` or ``--initial`` is given, else the league."""
    if games is not None or initial is not None:
        return from_files(games, rules, initial)
    return from_league(db, league)
