"""A player's record as the player page shows it, from her ledger and her games (no SQL, no
rating logic): peak rating, wins, draws and losses (free-for-all: average place), events played,
the next title and what it needs, and head-to-head against each opponent."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from eloleague.engine import LedgerEntry
from eloleague.records import GameRecord
from eloleague.rules.model import RuleSet


@dataclass(slots=True)
class Record:
    """Games and results: wins, draws and losses (two-sided), places (free-for-all)."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    places: list[int] = field(default_factory=list)
    delta: float = 0.0
    ahead: int = 0  # free-for-all head-to-head: games finished ahead of the opponent
    behind: int = 0

    @property
    def average_place(self) -> float | None:
        return sum(self.places) / len(self.places) if self.places else None


@dataclass(frozen=True, slots=True)
class Peak:
    """The highest rating after a game, its pool and date."""

    rating: float
    date: str
    mode: str
    role: str


def result_of(rules: RuleSet, outcome: str | None) -> str | None:
    """``"win"``, ``"draw"`` or ``"loss"`` for a side's outcome label (its score value against
    one half), ``None`` without one."""
    if outcome is None or outcome not in rules.outcomes:
        return None
    value = rules.outcomes[outcome].score
    return "win" if value > 0.5 else ("draw" if value == 0.5 else "loss")


def _count(record: Record, result: str | None) -> None:
    if result == "win":
        record.wins += 1
    elif result == "draw":
        record.draws += 1
    elif result == "loss":
        record.losses += 1


def peak(history: Sequence[LedgerEntry], ratings: Sequence[float]) -> Peak | None:
    """The highest rating the player reached after a game (season adjustments never raise it)."""
    best: Peak | None = None
    for e, rating in zip(history, ratings, strict=True):
        if e.game and (best is None or rating > best.rating):
            best = Peak(rating, e.date.isoformat(), e.key.mode, e.key.role)
    return best


def records(
    rules: RuleSet, name: str, history: Sequence[LedgerEntry], games: Sequence[GameRecord]
) -> tuple[Record, dict[str, Record]]:
    """The player's overall record and her record against each opponent (most games first)."""
    by_label = {g.id: g for g in games if g.id}
    overall = Record()
    against: dict[str, Record] = defaultdict(Record)
    seen: set[str] = set()
    for e in history:
        if not e.game:
            continue
        game = by_label.get(e.game)
        first = e.game not in seen  # a player in two pools of one game counts the game once
        seen.add(e.game)
        mine = None
        if game is not None:
            mine = next((s for s in game.sides if any(p.name == name for p in s.players)), None)
        if first:
            overall.games += 1
            if e.rank is not None:
                overall.places.append(e.rank)
            _count(overall, result_of(rules, mine.outcome if mine else e.outcome))
        overall.delta += e.delta
        if game is None or mine is None:
            continue
        for side in game.sides:
            if side is mine:
                continue
            for p in side.players:
                record = against[p.name]
                if first:
                    record.games += 1
                    _count(record, result_of(rules, mine.outcome))
                    if mine.score is not None and side.score is not None:
                        record.ahead += mine.score > side.score
                        record.behind += mine.score < side.score
                record.delta += e.delta
    ordered = dict(sorted(against.items(), key=lambda kv: (-kv[1].games, kv[0])))
    return overall, ordered


def next_title(rules: RuleSet, rating: float, games: int) -> dict[str, float | int | str] | None:
    """The title above the one held (titles are listed best first) that the player could still
    reach, with what it needs: its minimum rating and games, and how far the player is from them.
    """
    held = rules.title_for(rating, games)
    names = [t.name for t in rules.titles]
    upto = names.index(held) if held in names else len(names)
    for title in reversed(rules.titles[:upto]):
        if title.max_games is not None and games > title.max_games:
            continue
        if title.holds(rating, games):
            continue
        return {
            "title": title.name,
            "min_rating": title.min_rating if title.min_rating is not None else "",
            "min_games": title.min_games,
            "rating_needed": max(0.0, (title.min_rating or rating) - rating),
            "games_needed": max(0, title.min_games - games),
        }
    return None
