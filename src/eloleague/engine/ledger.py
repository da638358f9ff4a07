"""The ledger: one entry per rating change, with every input needed to explain it (RULES.md §1, §6)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from eloleague.records import PoolKey

# Names of the rules that can change a raw delta; they appear in LedgerEntry.fired.
ROUNDING = "rounding"
CAP = "cap"
FLOOR = "floor"
INACTIVITY = "inactivity"

# Sanity warnings of the free-for-all method (RULES §3.3 step 8) and the season warning.
LOSER_GAIN = "loser_gain"
WINNER_LOSS = "winner_loss"


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One rating change: a player in a game, or a season adjustment (``game == ""``).

    ``expected`` is P (duel), the personal term's p (team_and_personal) or E_i (ffa_rank);
    ``score`` is S, W or the performance. ``raw_delta`` is the change before rounding, cap and
    floor; ``fired`` names the rules that changed it. ``opponent`` is the rating the player was
    measured against (the opposing side's mean), ``team_expected`` the team term's p
    (team_and_personal), ``rank`` and ``points`` the place and score in a free-for-all game,
    ``outcome`` the side's outcome label.
    """

    game: str
    date: dt.date
    key: PoolKey
    before: float
    expected: float | None
    k: float | None
    score: float | None
    delta: float
    after: float
    warning: str = ""
    fired: tuple[str, ...] = ()
    raw_delta: float | None = None
    opponent: float | None = None
    team_expected: float | None = None
    rank: int | None = None
    points: float | None = None
    outcome: str | None = None

    @property
    def is_season(self) -> bool:
        """Whether this entry is a season adjustment rather than a game's change."""
        return self.game == "" and INACTIVITY in self.fired
