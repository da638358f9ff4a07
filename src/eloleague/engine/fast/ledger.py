"""The fast path's ledger: a read-only sequence of :class:`LedgerEntry` over columns.

Building two million entry objects costs seconds, so the fast path keeps the ledger as arrays and
makes each entry when it is read; the entries are equal to the reference path's, field by field.
Writers that only need the numbers (``eloleague rate --ledger``) read the columns directly.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, overload

from eloleague.engine.fast import layout as K
from eloleague.engine.ledger import (
    CAP,
    FLOOR,
    INACTIVITY,
    LOSER_GAIN,
    ROUNDING,
    VALUE_FIELDS,
    WINNER_LOSS,
    LedgerEntry,
    game_label,
)
from eloleague.records import GameRecord, PoolKey

if TYPE_CHECKING:  # numpy is only needed once the columns exist
    import numpy as np
    import numpy.typing as npt

    Floats = npt.NDArray[np.float64]
    Int32s = npt.NDArray[np.int32]
WARNINGS = ("", LOSER_GAIN, WINNER_LOSS, INACTIVITY)
_CHUNK = 1 << 16
_GAME_ONLY = frozenset(
    ("expected", "k", "score", "opponent", "team_expected", "rank", "points", "outcome")
)
# The entry fields :meth:`ColumnarLedger.columns` decodes: the fast path declines when the
# entries have one it does not know.
DECODED_FIELDS = frozenset(
    (
        *("before", "expected", "k", "score", "delta", "after", "warning", "fired"),
        *("raw_delta", "opponent", "team_expected", "rank", "points", "outcome", "extra"),
    )
)


@lru_cache(maxsize=16)
def fired_names(flags: int) -> tuple[str, ...]:
    """The rules named by the ``fired`` bits, in the reference's order."""
    bits = ((K.FIRED_ROUNDING, ROUNDING), (K.FIRED_CAP, CAP), (K.FIRED_FLOOR, FLOOR))
    if flags & K.FIRED_INACTIVITY:
        return (INACTIVITY,)
    return tuple(name for bit, name in bits if flags & bit)


@lru_cache(maxsize=4096)
def _day(ordinal: int) -> dt.date:
    return dt.date.fromordinal(ordinal)


class ColumnarLedger(Sequence[LedgerEntry]):
    """Ledger entries in processing order, kept as the kernel's columns.

    The columns are computed when first read (``compute``: the ratings alone are quicker and
    need far less memory; the kernel's input is kept until then, about 100 bytes a game); ``floats`` and ``ints`` are then the kernel's column blocks
    (``kernel.C_*`` and ``kernel.I_*``). ``method`` is a code of ``layout.KERNEL_METHODS``.
    """

    def __init__(
        self,
        method: int,
        size: int,
        compute: Callable[[], tuple[Floats, Int32s]],
        games: Sequence[GameRecord],
        pool_keys: Sequence[PoolKey],
        outcome_labels: Sequence[str],
    ) -> None:
        self.method = method
        self.games = games
        self.pool_keys = pool_keys
        self.outcome_labels = outcome_labels
        self._size = size
        self._compute: Callable[[], tuple[Floats, Int32s]] | None = compute
        self._columns: tuple[Floats, Int32s] | None = None

    def _load(self) -> tuple[Floats, Int32s]:
        if self._columns is None:
            assert self._compute is not None
            self._columns = self._compute()
            self._compute = None
        return self._columns

    @property
    def floats(self) -> Floats:
        """The float columns, one row per ``kernel.C_*``."""
        return self._load()[0]

    @property
    def ints(self) -> Int32s:
        """The integer columns, one row per ``kernel.I_*``."""
        return self._load()[1]

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> LedgerEntry: ...

    @overload
    def __getitem__(self, index: slice) -> list[LedgerEntry]: ...

    def __getitem__(self, index: int | slice) -> LedgerEntry | list[LedgerEntry]:
        if isinstance(index, slice):
            return [self._entry(i) for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("ledger index out of range")
        return self._entry(index)

    def _entry(self, i: int) -> LedgerEntry:
        return next(self._entries(i, i + 1))

    def __iter__(self) -> Iterator[LedgerEntry]:
        n = len(self)
        for start in range(0, n, _CHUNK):
            yield from self._entries(start, min(n, start + _CHUNK))

    def _entries(self, start: int, stop: int) -> Iterator[LedgerEntry]:
        columns = self.columns(start, stop)
        positions = columns.pop("position")
        days = columns.pop("day")
        pools = columns.pop("pool")
        assert positions is not None and days is not None and pools is not None
        keys = self.pool_keys
        games = self.games
        nothing = [None] * len(positions)
        no_extra = [()] * len(positions)  # the kernel's methods publish no pool field
        values = [
            columns[name] or (no_extra if name == "extra" else nothing) for name in VALUE_FIELDS
        ]
        for position, day, pool, *row in zip(positions, days, pools, *values, strict=True):
            if position < 0:
                yield LedgerEntry("", _day(day), keys[pool], *row)
            else:
                game = games[position]
                yield LedgerEntry(game_label(game, position), game.date, keys[pool], *row)

    def labels(self) -> list[str]:
        """Each game's ledger label by position, then ``""`` (position -1: a season entry)."""
        out = [game_label(g, i) for i, g in enumerate(self.games)]
        out.append("")
        return out

    def columns(self, start: int = 0, stop: int | None = None) -> dict[str, list[Any] | None]:
        """Entries ``start:stop`` decoded, one list per field: ``position`` (the game's position
        in the input, -1 for a season entry), ``pool`` (an index of ``pool_keys``), ``day`` (an
        ordinal), then every field of :data:`~eloleague.engine.ledger.VALUE_FIELDS` as the
        entries hold it (``None`` instead of a list: empty on every row of this ledger).

        The one reader of the kernel's column layout: the entries, the store and the ledger CSV
        all take their values from here.
        """
        stop = len(self) if stop is None else min(stop, len(self))
        floats, ints = self._load()
        f = floats[:, start:stop].tolist()
        i = ints[:, start:stop].tolist()
        ffa, teams = self.method == K.METHOD_FFA, self.method == K.METHOD_TEAMS
        positions = i[K.I_GAME]
        codes = i[K.I_CODE]
        texts = {c: (WARNINGS[(c >> K.WARN_SHIFT) & 3], fired_names(c & 15)) for c in set(codes)}
        values = [c >> K.VALUE_SHIFT for c in codes]
        other = f[K.C_OTHER]
        labels = self.outcome_labels
        out: dict[str, list[Any] | None] = {
            "position": positions,
            "pool": i[K.I_POOL],
            "day": i[K.I_DAY],
            "before": f[K.C_BEFORE],
            "expected": f[K.C_EXPECTED],
            "k": f[K.C_K],
            "score": f[K.C_SCORE],
            "delta": f[K.C_DELTA],
            "after": f[K.C_AFTER],
            "warning": [texts[c][0] for c in codes],
            "fired": [texts[c][1] for c in codes],
            "raw_delta": f[K.C_RAW],
            "opponent": None if ffa else other,
            "team_expected": f[K.C_TEAM] if teams else None,
            "rank": values if ffa else None,
            "points": other if ffa else None,
            "outcome": None if ffa else [labels[v] for v in values],
            "extra": None,
        }
        # Season adjustments (no game): no P, K, S, opponent, rank or outcome.
        if any(p < 0 for p in positions):
            blanks = [c for name, c in out.items() if name in _GAME_ONLY and c is not None]
            for row, p in enumerate(positions):
                if p < 0:
                    for column in blanks:
                        column[row] = None
        return out

    def outside_games(self) -> dict[PoolKey, float]:
        """Each pool's sum of the entries made outside games (position -1: season adjustments),
        read from the columns without making an entry per row."""
        floats, ints = self._load()
        outside = (ints[K.I_GAME] < 0).nonzero()[0].tolist()
        pools, deltas = ints[K.I_POOL].tolist(), floats[K.C_DELTA].tolist()
        out: dict[PoolKey, float] = {}
        for row in outside:
            key = self.pool_keys[pools[row]]
            out[key] = out.get(key, 0.0) + deltas[row]
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<ColumnarLedger of {len(self)} entries>"
