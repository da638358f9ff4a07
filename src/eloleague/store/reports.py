"""What the league service returns: import reports, player and game explanations, events."""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass, field

import msgspec

from eloleague.engine import LedgerEntry, Standing
from eloleague.errors import Problem
from eloleague.i18n import Text, render
from eloleague.records import GameRecord, PoolKey
from eloleague.store.messages import msg
from eloleague.store.players import NameWarning


class RatingChange(msgspec.Struct, frozen=True, gc=False):
    """A pool's rating and games before and after an import (``before`` ``None``: a new pool,
    which started from the rule set's ``start`` rating). ``adjustment``: the part of the change
    made outside the games (docs/league.md, "Dates, seasons and `--as-of`"): a season's inactivity penalty the
    import's first game past the season's end brought, a decay, a reversion toward the mean;
    ``delta - adjustment`` is what the games did. A struct, as :mod:`eloleague.records` says
    why (a post of 1,000 games answers with 2,000 of them)."""

    key: PoolKey
    before: float | None
    after: float
    games_before: int
    games_after: int
    start: float = 0.0
    adjustment: float = 0.0

    @property
    def delta(self) -> float:
        """The change: a new pool's is counted from the start rating."""
        return self.after - (self.before if self.before is not None else self.start)


@dataclass(frozen=True)
class ImportReport:
    """What an import did (or, with ``dry_run``, would do).

    Rejected input raises :class:`eloleague.errors.InputError` (every problem, nothing stored);
    a report always describes an accepted import.
    """

    source: str
    dry_run: bool
    added: int = 0
    unchanged: int = 0
    replaced: int = 0
    new_players: list[str] = field(default_factory=list)
    name_warnings: list[NameWarning] = field(default_factory=list)
    # Every new name that looks like a registered player's, even one a file warning located
    # (what an officer may map with ``--map`` or the preview page's choices).
    look_alikes: list[NameWarning] = field(default_factory=list)
    # The file's own warnings, located (a workbook: sheet, row, column), in its language.
    file_warnings: list[Problem] = field(default_factory=list)
    unrated: list[Text] = field(default_factory=list)
    rating_changes: list[RatingChange] = field(default_factory=list)
    already_imported: dt.datetime | None = None  # when a file with the same bytes came in
    replayed: int = 0  # games replayed by the recompute

    @property
    def changed(self) -> bool:
        """Whether the import changed the league (or would have)."""
        return bool(self.added or self.replaced)

    def summary(self) -> Text:
        """One line for the officer."""
        return _summary(*self._said())

    def summary_in(self, lang: str) -> str:
        """:meth:`summary` in ``lang``. Rendered once for each set of counts: a game server's
        posts of one game are answered with the same line again and again, and rendering it
        (its plurals, French typography) took about a tenth of such a post's time in the server
        (docs/benchmarks.md, "Live results", 2026-12-06 "third")."""
        return _summary_in(lang, *self._said())

    def _said(self) -> tuple[str, bool, int, int, int, int]:
        """What the summary says: the source, whether a dry run, the counts."""
        return (
            self.source,
            self.dry_run,
            self.added,
            self.replaced,
            self.unchanged,
            len(self.new_players),
        )


def _summary(
    source: str, dry_run: bool, added: int, replaced: int, unchanged: int, players: int
) -> Text:
    """:meth:`ImportReport.summary` of these values."""
    if dry_run:
        adds = Text.plural("would add {count} game", "would add {count} games", added)
        replaces = Text.plural("replace {count}", "replace {count}", replaced)
    else:
        adds = Text.plural("added {count} game", "added {count} games", added)
        replaces = Text.plural("replaced {count}", "replaced {count}", replaced)
    return msg(
        "{source}: {added}, {replaced}, {unchanged}; {players}",
        source=source,
        added=adds,
        replaced=replaces,
        unchanged=Text.plural("{count} already there", "{count} already there", unchanged),
        players=Text.plural("{count} new player", "{count} new players", players),
    )


@functools.lru_cache(maxsize=1024)
def _summary_in(
    lang: str, source: str, dry_run: bool, added: int, replaced: int, unchanged: int, players: int
) -> str:
    """:meth:`ImportReport.summary_in`: the line of these values rendered, kept."""
    return render(_summary(source, dry_run, added, replaced, unchanged, players), lang)


@dataclass(frozen=True)
class GameExplanation:
    """A game and the ledger entries it produced (empty when it is not rated, with the reason)."""

    game: GameRecord
    entries: list[LedgerEntry]
    unrated_reason: str | None = None  # translatable (a Text of the engine's catalogue)


STARTING = "initial"
"""What a player's history entry for her starting rating fired (docs/league.md)."""


@dataclass(frozen=True)
class PlayerReport:
    """A player's ratings per pool, title, aliases, full ledger history and games."""

    name: str
    aliases: list[str]
    standings: list[Standing]
    title: str
    history: list[LedgerEntry]
    games: list[GameRecord]
    ratings: list[float]
    """The pool's rating after each history entry (:func:`eloleague.engine.running_ratings`)."""
    starting_source: str | None = None
    """The published list her history starts from (its first entries), if any."""


@dataclass(frozen=True, slots=True)
class EventSummary:
    """An event: first and last date, number of games and of players."""

    name: str
    first: dt.date
    last: dt.date
    games: int
    players: int
    place: str | None = None  # from the referee's workbook (docs/sheets.md)
    referee: str | None = None


@dataclass(frozen=True)
class EventReport:
    """An event's games, each with its ledger entries."""

    name: str
    games: list[GameExplanation]
    place: str | None = None  # from the referee's workbook (docs/sheets.md)
    referee: str | None = None
