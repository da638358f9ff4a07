"""The typed records passed between readers, the engine and the store.

Plain, immutable values. Names are normalised once, when a record is built from outside input
(:func:`normalise_name`, docs/rule-sets.md): every later comparison is a plain string comparison.

They are :class:`msgspec.Struct` classes, not dataclasses: made, hashed and compared in C (a post
of 1,000 games makes some fifteen thousand of them and looks pools up twenty thousand times; a
frozen dataclass costs about 0.4 µs to make, a struct 0.06), and left out of the garbage
collector's walks (``gc=False``: a record holds no reference cycle, only text, numbers, dates and
other records). Copy one with a change with :func:`replace`; list a class's fields with
:func:`field_names`.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections.abc import Callable
from itertools import chain
from typing import Any, TypeVar

import msgspec

_R = TypeVar("_R", bound=msgspec.Struct)


def replace(record: _R, /, **changes: Any) -> _R:
    """A copy of ``record`` with some fields changed (as :func:`dataclasses.replace`)."""
    return msgspec.structs.replace(record, **changes)


def field_names(kind: type[msgspec.Struct]) -> tuple[str, ...]:
    """The names of a record class's fields, in order."""
    return kind.__struct_fields__


def normalise_name(name: str) -> str:
    """A player's name as compared in a league: Unicode NFC, surrounding spaces removed.

    Case and accents stay significant; inner runs of white space are kept as they are.
    """
    return unicodedata.normalize("NFC", name).strip()


class Participant(msgspec.Struct, frozen=True, gc=False):
    """One player in one game, with the role (country, army) played there, or ``""``.

    ``federation_id``, ``club`` and ``region``: who the player is beyond a name, when the file
    says (docs/league.md, "Player identity"). A league import matches a player by her federation
    id first, and keeps her club and region; the engine only sees ``name``.
    """

    name: str
    role: str = ""
    federation_id: str | None = None
    club: str | None = None
    region: str | None = None

    @property
    def identified(self) -> bool:
        """Whether the game says who she is beyond her name (an id, a club or a region)."""
        return self.federation_id is not None or self.club is not None or self.region is not None


def id_label(name: str, federation_id: str) -> str:
    """How two players of the same name are told apart: ``"Jean Dupont (FR-1234)"``."""
    return f"{name} ({federation_id})"


def base_name(name: str, federation_id: str | None) -> str:
    """``name`` without the ``" (id)"`` that :func:`id_label` added, if it did."""
    if federation_id:
        suffix = f" ({federation_id})"
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


class Side(msgspec.Struct, frozen=True, gc=False):
    """Players sharing one result: an outcome label (duel, team) or a numeric score (ffa)."""

    players: tuple[Participant, ...]
    outcome: str | None = None
    score: float | None = None


class GameRecord(msgspec.Struct, frozen=True, gc=False):
    """One game of the interchange format (docs/formats.md).

    ``origin`` says where the record came from ("line 14", "Résultats!B7") for messages; it does
    not take part in equality, so the same game read from two files compares equal. ``home`` is
    the index of the side that plays at home (``None``: neither), ``neutral`` says the site is
    neutral (no home advantage even when ``home`` is given; docs/rule-sets.md).
    """

    date: dt.date
    sides: tuple[Side, ...]
    id: str | None = None
    event: str | None = None
    round: int | None = None
    mode: str = ""
    rated: bool = True
    origin: str = ""
    home: int | None = None
    neutral: bool = False

    def _compared(self) -> tuple[Any, ...]:
        return (
            self.date,
            self.sides,
            self.id,
            self.event,
            self.round,
            self.mode,
            self.rated,
            self.home,
            self.neutral,
        )

    def __eq__(self, other: object) -> bool:  # every field but its origin
        if type(other) is not type(self):
            return NotImplemented
        return self._compared() == other._compared()

    def __hash__(self) -> int:
        return hash(self._compared())

    @property
    def where(self) -> str:
        """Where a message about the game points: its ``origin``, else the game by its id
        (« partie d3 » in French: a game the league stores, or one a program gave the library),
        else nothing."""
        if self.origin or self.id is None:
            return self.origin
        from eloleague.i18n import Text  # not at import: eloleague rate starts without babel

        return Text.in_domain("messages", "game {game}", game=self.id)

    @property
    def participants(self) -> tuple[Participant, ...]:
        """Every participant of the game, side by side, in input order."""
        sides = self.sides
        if len(sides) == 2:  # duels and two teams, most games: read several times each
            return sides[0].players + sides[1].players
        return tuple(chain.from_iterable(side.players for side in sides))

    def with_players(self, change: Callable[[Participant], Participant]) -> GameRecord:
        """The same game (date, venue, everything) with each participant replaced by
        ``change(participant)``: a rename, an identity resolved."""
        sides = tuple(
            replace(side, players=tuple(change(p) for p in side.players)) for side in self.sides
        )
        return replace(self, sides=sides)


class PoolKey(msgspec.Struct, frozen=True, gc=False):
    """Where a rating lives: ``(player, mode, role)``; parts a rule set does not pool by are ``""``."""

    player: str
    mode: str = ""
    role: str = ""


class PoolState(msgspec.Struct, frozen=True, gc=False):
    """A pool's rating and its count of rated games; ``extra`` holds the values of the fields its
    rule set's method adds (``RatingMethod.pool_fields``, e.g. Glicko-2's deviation), in order."""

    rating: float
    games: int = 0
    extra: tuple[float, ...] = ()
