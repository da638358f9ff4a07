"""The fast path's ledger: a read-only sequence of :class:`LedgerEntry` over columns (RULES §6).

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
    WINNER_LOSS,
    LedgerEntry,
)
from eloleague.records import GameRecord, PoolKey

if TYPE_CHECKING:  # numpy is only needed once the columns exist
    import numpy as np
    import numpy.typing as npt

    Floats = npt.NDArray[np.float64]
    Int32s = npt.NDArray[np.int32]
WARNINGS = ("", LOSER_GAIN, WINNER_LOSS, INACTIVITY)
_CHUNK = 1 << 16


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
    (``kernel.C_*`` and ``kernel.I_*``). ``method`` is 0 (duel), 1 (team_and_personal) or
    2 (ffa_rank).
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
        row_f = self.floats[:, i].tolist()
        row_i = self.ints[:, i].tolist()
        return self._make(row_f, row_i)

    def __iter__(self) -> Iterator[LedgerEntry]:
        n = len(self)
        floats, ints = self._load()
        for start in range(0, n, _CHUNK):
            stop = min(n, start + _CHUNK)
            fl = floats[:, start:stop].T.tolist()
            it = ints[:, start:stop].T.tolist()
            make = self._make
            for row_f, row_i in zip(fl, it, strict=True):
                yield make(row_f, row_i)

    def _make(self, f: list[Any], i: list[Any]) -> LedgerEntry:
        key = self.pool_keys[i[K.I_POOL]]
        position = i[K.I_GAME]
        code = i[K.I_CODE]
        if position < 0:
            delta = f[K.C_DELTA]
            return LedgerEntry(
                game="",
                date=_day(i[K.I_DAY]),
                key=key,
                before=f[K.C_BEFORE],
                expected=None,
                k=None,
                score=None,
                delta=delta,
                after=f[K.C_AFTER],
                warning=INACTIVITY,
                fired=(INACTIVITY,),
                raw_delta=f[K.C_RAW],
            )
        game = self.games[position]
        ffa = self.method == 2
        return LedgerEntry(
            game=game.id if game.id is not None else f"#{position + 1}",
            date=game.date,
            key=key,
            before=f[K.C_BEFORE],
            expected=f[K.C_EXPECTED],
            k=f[K.C_K],
            score=f[K.C_SCORE],
            delta=f[K.C_DELTA],
            after=f[K.C_AFTER],
            warning=WARNINGS[(code >> K.WARN_SHIFT) & 3],
            fired=fired_names(code & 15),
            raw_delta=f[K.C_RAW],
            opponent=None if ffa else f[K.C_OTHER],
            team_expected=f[K.C_TEAM] if self.method == 1 else None,
            rank=code >> K.VALUE_SHIFT if ffa else None,
            points=f[K.C_OTHER] if ffa else None,
            outcome=None if ffa else self.outcome_labels[code >> K.VALUE_SHIFT],
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<ColumnarLedger of {len(self)} entries>"
