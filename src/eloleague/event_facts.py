"""An event's standings and round-by-round table, from its games and their ledger entries (no
SQL, no rating logic): games, points (the sum of the score values S, free-for-all: of the points
scored), rating change, performance rating, and each round's result against whom."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from eloleague.engine.ledger import LedgerEntry
from eloleague.records import GameRecord
from eloleague.rules.model import RuleSet


class Explained(Protocol):
    """A game and its ledger entries (:class:`~eloleague.store.reports.GameExplanation`, or the
    pairs an export makes from an event's entries)."""

    @property
    def game(self) -> GameRecord: ...

    @property
    def entries(self) -> Sequence[LedgerEntry]: ...


@dataclass(slots=True)
class Line:
    """One player's event."""

    player: str
    games: int = 0
    points: float = 0.0
    delta: float = 0.0
    opponents: list[float] = field(default_factory=list)
    places: list[int] = field(default_factory=list)
    first_before: float | None = None
    last_after: float | None = None
    rounds: dict[int, list[tuple[str, list[str]]]] = field(default_factory=dict)

    def performance(self, scale: float) -> float | None:
        """The rating that would have scored these points against these opponents by the
        linear rule chess federations use: mean opponent rating + scale × (2 × points − games)
        / games (two-sided games only)."""
        if not self.opponents or self.places:
            return None
        mean = sum(self.opponents) / len(self.opponents)
        n = len(self.opponents)
        return mean + scale * (2 * self.points - n) / n

    @property
    def average_place(self) -> float | None:
        return sum(self.places) / len(self.places) if self.places else None

    def figure(self, scale: float) -> float | None:
        """The standings' figure after the points: a free-for-all player's average place, else
        the performance rating (the command line's report and the event's workbook)."""
        return self.average_place if self.places else self.performance(scale)


def _result_code(score: float | None) -> str:
    if score is None:
        return ""
    return "+" if score > 0.5 else ("=" if score == 0.5 else "−")


def standings(rules: RuleSet, games: Sequence[Explained]) -> list[Line]:
    """Each player's line, best first (points, then performance or average place, then name)."""
    lines: dict[str, Line] = {}
    counted: set[tuple[str, str]] = set()
    for n, found in enumerate(games):
        g = found.game
        label = g.id or f"#{n}"
        for e in found.entries:
            name = e.key.player
            line = lines.setdefault(name, Line(name))
            line.delta += e.delta
            if line.first_before is None:
                line.first_before = e.before
            line.last_after = e.after
            if (name, label) in counted:
                continue  # one game, several pools of the player: counted once
            counted.add((name, label))
            line.games += 1
            if e.rank is not None:
                line.places.append(e.rank)
                line.points += e.points or 0.0
            else:
                line.points += e.score or 0.0
                if e.opponent is not None:
                    line.opponents.append(e.opponent)
            mine = next((s for s in g.sides if any(p.name == name for p in s.players)), None)
            others = [p.name for s in g.sides if s is not mine for p in s.players]
            code = f"{e.rank}" if e.rank is not None else _result_code(e.score)
            line.rounds.setdefault(g.round or 0, []).append((code, others))
    out = list(lines.values())

    def order(line: Line) -> tuple[float, float, str]:
        second = line.performance(rules.scale)
        if second is None:
            second = -(line.average_place or 0.0)
        return (-line.points, -second, line.player)

    out.sort(key=order)
    return out


def competition_places(values: Sequence[float]) -> list[int]:
    """Ranks of values sorted best first, ties sharing a rank (1, 2, 2, 4)."""
    places: list[int] = []
    for n, value in enumerate(values):
        places.append(places[-1] if n and value == values[n - 1] else n + 1)
    return places


def places(lines: Sequence[Line]) -> list[int]:
    """The place of each line of :func:`standings`: by points, ties sharing one."""
    return competition_places([line.points for line in lines])


def rounds_of(lines: Sequence[Line]) -> list[int]:
    """The event's rounds, in order (0: games without a round)."""
    found: set[int] = set()
    for line in lines:
        found.update(line.rounds)
    return sorted(found)


def crosstable(lines: Sequence[Line]) -> dict[str, dict[int, list[tuple[str, list[int]]]]]:
    """Each player's result in each round against the opponents' numbers in the standings."""
    number = {line.player: n for n, line in enumerate(lines, start=1)}
    table: dict[str, dict[int, list[tuple[str, list[int]]]]] = defaultdict(dict)
    for line in lines:
        for rnd, results in line.rounds.items():
            table[line.player][rnd] = [
                (code, [number[o] for o in others if o in number]) for code, others in results
            ]
    return table
