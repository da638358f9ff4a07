"""The ledger: one entry per rating change, with every input needed to explain it (docs/rule-sets.md)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, fields

from eloleague.records import GameRecord, PoolKey

# Names of the rules that can change a raw delta; they appear in LedgerEntry.fired.
ROUNDING = "rounding"
CAP = "cap"
FLOOR = "floor"
INACTIVITY = "inactivity"

# Sanity warnings of the free-for-all method (docs/rule-sets.md step 8) and the season warning.
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
    ``outcome`` the side's outcome label. ``extra`` holds the pool fields the method publishes
    (``RatingMethod.shown_fields``: Glicko-2's deviation and volatility) after the change, for the
    methods that have any.
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
    extra: tuple[float, ...] = ()

    @classmethod
    def outside_game(
        cls,
        key: PoolKey,
        date: dt.date,
        before: float,
        delta: float,
        after: float,
        *,
        warning: str = "",
        fired: tuple[str, ...] = (),
        raw_delta: float | None = None,
    ) -> LedgerEntry:
        """A pool's rating set outside any game (a season's adjustment, a decay, a starting
        rating): no expectation, K or score."""
        return cls(
            game="",
            date=date,
            key=key,
            before=before,
            expected=None,
            k=None,
            score=None,
            delta=delta,
            after=after,
            warning=warning,
            fired=fired,
            raw_delta=raw_delta,
        )

    @property
    def is_season(self) -> bool:
        """Whether this entry is a season adjustment rather than a game's change."""
        return self.game == "" and INACTIVITY in self.fired


# The fields of an entry after its game, date and pool: what the store, the CSV writers and the
# fast path's columns carry for each entry, in this order.
VALUE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(LedgerEntry))[3:]


def game_label(game: GameRecord, position: int) -> str:
    """How the ledger names a game: its id, or ``#N`` for the N-th game of the input."""
    return game.id if game.id is not None else f"#{position + 1}"


def running_ratings(entries: Sequence[LedgerEntry], batched: bool) -> list[float]:
    """The pool's rating after each of ``entries`` (one player's history, in ledger order).

    Under per-game updates it is each entry's ``after``. Under batched updates (per event or per
    period, docs/rule-sets.md) every game of a batch starts from the batch's ``before`` and its
    ``after`` is that game's delta alone; the running rating adds the deltas of the batch's
    earlier games too, so a history chart climbs game by game to the rating the batch ends on.
    """
    last: dict[PoolKey, tuple[float, float]] = {}  # pool -> (its batch's before, running rating)
    out: list[float] = []
    for e in entries:
        seen = last.get(e.key)
        if batched and e.game and seen is not None and seen[0] == e.before:
            value = seen[1] + e.delta
        else:
            value = e.after
        last[e.key] = (e.before, value) if e.game else (float("nan"), value)
        out.append(value)
    return out
