"""One pass over the game records, reading every field the replay needs (docs/formats.md).

Reading the records' fields is most of the fast path's cost in Python: each record, side and
player is visited once, while it is in the processor's cache, and the common shape (two sides of
one player each) takes a tighter loop than the general one. The fields land in one flat list that
is then read with strides, without copies.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from itertools import islice
from typing import Any

import numpy as np
import numpy.typing as npt

from eloleague.records import GameRecord

Ints = npt.NDArray[np.int64]


class Columns:
    """The records' fields, read back per game, per side (game by game) or per participant."""

    def __init__(
        self,
        n_games: int,
        game_fields: list[Any],
        layout: tuple[int, int, int, int, int],
        side_counts: Ints,
        player_counts: Ints,
        side_fields: list[Any] | None = None,
        names: list[str] | None = None,
        roles: list[str] | None = None,
    ) -> None:
        self.n_games = n_games
        self._flat = game_fields
        # Width of a game's fields in ``game_fields``, and where its event, mode, names and
        # results (two sides of one player) are (-1: not read).
        self._width, self._event, self._mode, self._names_at, self._results_at = layout
        self.side_counts = side_counts
        self.player_counts = player_counts
        self._side_fields = side_fields
        self._names = names
        self.roles = roles or []

    def _game_field(self, i: int) -> list[Any]:
        return self._flat[i :: self._width]  # a strided copy: quicker to walk than islice

    def days(self) -> Ints:
        """Each game's date as a proleptic ordinal."""
        return np.fromiter(map(dt.date.toordinal, self._game_field(0)), np.int64, self.n_games)

    def rounds(self) -> Ints:
        """Each game's round, ``0`` for none (docs/formats.md: sorted by ``round or 0``)."""
        values = self._flat[1 :: self._width]
        missing = values.count(None)
        if missing == len(values):
            return np.zeros(len(values), np.int64)
        return np.array([v or 0 for v in values] if missing else values, np.int64)

    def rated(self) -> npt.NDArray[np.bool_]:
        """Whether each game is marked as rated."""
        values = self._flat[2 :: self._width]
        if values.count(True) == len(values):
            return np.ones(len(values), np.bool_)
        return np.array(values, np.bool_)

    def events(self) -> list[str | None]:
        """Each game's event (only when the extraction read them)."""
        if self._event < 0:
            return [None] * self.n_games
        return self._flat[self._event :: self._width]

    def modes(self) -> list[str]:
        """Each game's mode (only when the extraction read them)."""
        if self._mode < 0:
            return [""] * self.n_games
        return self._flat[self._mode :: self._width]

    def _interleaved(self, lookup: Callable[[Any], int], first: int) -> Ints:
        """Two per-game columns (sides 1 and 2) looked up and interleaved side by side."""
        n = self.n_games
        out = np.empty(2 * n, np.int64)
        for side in (0, 1):
            column = self._flat[first + side :: self._width]
            out[side::2] = np.fromiter(map(lookup, column), np.int64, n)
        return out

    def name_ids(self, lookup: Callable[[str], int]) -> Ints:
        """Each participant's name, looked up, in game, side and player order."""
        if self._names is None:
            return self._interleaved(lookup, self._names_at)
        return np.fromiter(map(lookup, self._names), np.int64, len(self._names))

    def result_codes(self, lookup: Callable[[Any], int]) -> Ints:
        """Each side's outcome (or score), looked up."""
        if self._side_fields is None:
            return self._interleaved(lookup, self._results_at)
        n = len(self._side_fields) // 2
        return np.fromiter(map(lookup, islice(self._side_fields, 1, None, 2)), np.int64, n)

    def results(self) -> list[Any]:
        """Each side's outcome or score."""
        if self._side_fields is None:
            at = self._results_at
            out: list[Any] = [None] * (2 * self.n_games)
            out[0::2] = self._flat[at :: self._width]
            out[1::2] = self._flat[at + 1 :: self._width]
            return out
        return self._side_fields[1::2]


def _one_against_one(games: Sequence[GameRecord], events: bool) -> Columns | None:
    """Every game two sides of one player each, outcomes only (``None`` at the first that is not).

    ``events``: read the games' events too (each field read costs, even from a cached record).
    """
    flat: list[Any] = []
    add = flat.extend
    try:
        if events:
            for g in games:
                a, b = g.sides
                (pa,) = a.players
                (pb,) = b.players
                add((g.date, g.round, g.rated, pa.name, pb.name, a.outcome, b.outcome, g.event))
        else:
            for g in games:
                a, b = g.sides
                (pa,) = a.players
                (pb,) = b.players
                add((g.date, g.round, g.rated, pa.name, pb.name, a.outcome, b.outcome))
    except ValueError:
        return None
    n = len(games)
    layout = (8, 7, -1, 3, 5) if events else (7, -1, -1, 3, 5)
    return Columns(n, flat, layout, np.full(n, 2, np.int64), np.ones(2 * n, np.int64))


def _general(games: Sequence[GameRecord], scores: bool) -> Columns:
    game_fields: list[Any] = []
    side_fields: list[Any] = []
    names: list[str] = []
    roles: list[str] = []
    add_game, add_side = game_fields.extend, side_fields.extend
    add_name, add_role = names.append, roles.append
    for g in games:
        sides = g.sides
        add_game((g.date, g.round, g.rated, g.event, g.mode, len(sides)))
        for side in sides:
            players = side.players
            add_side((len(players), side.score if scores else side.outcome))
            for p in players:
                add_name(p.name)
                add_role(p.role)
    return Columns(
        len(games),
        game_fields,
        (6, 3, 4, -1, -1),
        np.array(game_fields[5::6], np.int64),
        np.array(side_fields[0::2], np.int64),
        side_fields,
        names,
        roles,
    )


def extract(
    games: Sequence[GameRecord], *, scores: bool, roles: bool, events: bool, modes: bool
) -> Columns:
    """The fields of ``games``; ``scores`` reads the sides' scores instead of their outcomes;
    ``roles``, ``events``, ``modes``: the participants' roles, the games' events and modes (left
    out, they read as empty)."""
    if not scores and not roles and not modes:
        found = _one_against_one(games, events)
        if found is not None:
            return found
    return _general(games, scores)
