"""What a game puts at stake: each side's expected score and every outcome's rating changes.

The changes come from the engine itself: for each outcome, :func:`eloleague.engine.replay` rates a
one-game stream starting from the players' current pools, so the table is exactly what the league
would record (rounding of P and of deltas, K tiers, gain cap, floor: docs/rule-sets.md). Seed 000's
"EXEMPLE" table is the model: A (1000, 0 games) against B (1200, 20 games) under bataille-empire
gives A -8/+7/+22/+29/+37 and B -43/-13/+17/+32/+47, with P 0.28 and 0.72.

The venue (which side plays at home, a neutral site) is part of that one-game record, so a rule
set's ``home_advantage`` counts as the league would count it (docs/rule-sets.md, "Home advantage
and margins"); people give the side at home by its number, 1 or 2 (:func:`home_side`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from eloleague.engine import check_game, pool_key, replay, unrated_reason
from eloleague.engine.ledger import LedgerEntry
from eloleague.engine.maths import round_probability
from eloleague.engine.methods import expected_score, ranked, venue_points
from eloleague.errors import InputError, Problem
from eloleague.i18n import Text
from eloleague.records import GameRecord, Participant, PoolKey, PoolState, Side
from eloleague.rules.model import RuleSet
from eloleague.tools.players import ToolError


@dataclass(frozen=True, slots=True)
class Change:
    """One player's rating change if a scenario happens (a ledger entry the engine computed)."""

    scenario: str
    delta: float
    after: float
    fired: tuple[str, ...]
    warning: str


@dataclass(frozen=True, slots=True)
class PlayerOdds:
    """A player of the predicted game: pool, state before, K, expected score and changes."""

    key: PoolKey
    side: int
    rating: float
    games: int
    k: float
    expected: float
    changes: tuple[Change, ...]

    def change(self, scenario: str) -> Change:
        """The change under ``scenario`` (an outcome label, or ``rank N`` / ``score 0``)."""
        for c in self.changes:
            if c.scenario == scenario:
                return c
        raise KeyError(scenario)


@dataclass(frozen=True, slots=True)
class SideOdds:
    """A side: its players, mean pre-game rating and expected score against the other side.

    ``expected`` is P of the side mean against the other side's mean (docs/rule-sets.md, E with the rule
    set's scale), each mean with the side's ``advantage`` (the rating points the venue gives it:
    the rule set's ``home_advantage`` at home, else 0), rounded as the rule set rounds P; for
    free-for-all games the sum of the players' E_i (each player is his own side).
    """

    players: tuple[str, ...]
    mean: float
    expected: float
    advantage: float = 0.0


@dataclass(frozen=True, slots=True)
class Prediction:
    """Everything ``eloleague predict`` shows: sides, players and one column per scenario.

    Scenarios are the rule set's outcome labels (the player's own side carries the label), or,
    for free-for-all rule sets, ``rank 1`` .. ``rank N`` (alone at that place with a positive
    score) and ``score 0``. ``home`` (the index of the side at home, 0 or 1, or ``None``) and
    ``neutral`` are the venue of the predicted game, as in a game record (docs/formats.md).
    """

    rules: RuleSet
    date: dt.date
    sides: tuple[SideOdds, ...]
    players: tuple[PlayerOdds, ...]
    scenarios: tuple[str, ...]
    home: int | None = None
    neutral: bool = False

    def to_json(self) -> dict[str, object]:
        """Plain JSON data (what ``predict --json`` prints and the API can return); ``home`` is the
        side's number, 1 or 2, as ``side`` is."""
        return {
            "rules": self.rules.name,
            "date": self.date.isoformat(),
            "home": None if self.home is None else self.home + 1,
            "neutral": self.neutral,
            "scenarios": list(self.scenarios),
            "sides": [
                {
                    "players": list(s.players),
                    "mean": s.mean,
                    "advantage": s.advantage,
                    "expected": s.expected,
                }
                for s in self.sides
            ],
            "players": [
                {
                    "player": p.key.player,
                    "mode": p.key.mode,
                    "role": p.key.role,
                    "side": p.side + 1,
                    "rating": p.rating,
                    "games": p.games,
                    "k": p.k,
                    "expected": p.expected,
                    "changes": {
                        c.scenario: {
                            "delta": c.delta,
                            "after": c.after,
                            "fired": list(c.fired),
                            "warning": c.warning,
                        }
                        for c in p.changes
                    },
                }
                for p in self.players
            ],
        }


def home_side(value: str | int | None) -> int | None:
    """The side at home as people give it (``--home``, the web form, the API): its number, 1 or 2
    (the numbering of the CSV's ``home`` column, docs/formats.md), as the index a game record
    keeps (0 or 1); nothing (``None`` or an empty text): no side at home. Anything else raises
    :class:`ToolError`."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    text = value.strip() if isinstance(value, str) else value
    if not isinstance(text, bool) and text in (1, 2, "1", "2"):
        return int(text) - 1
    raise ToolError(Text.of('the side at home is 1 or 2, not "{value}"', value=value))


def _game(
    sides: Sequence[Sequence[Participant]],
    date: dt.date,
    mode: str,
    outcomes: Sequence[str | None],
    scores: Sequence[float | None],
    venue: tuple[int | None, bool],
) -> GameRecord:
    return GameRecord(
        date=date,
        sides=tuple(
            Side(tuple(players), outcome=o, score=s)
            for players, o, s in zip(sides, outcomes, scores, strict=True)
        ),
        id="prediction",
        mode=mode,
        home=venue[0],
        neutral=venue[1],
    )


def _check(rules: RuleSet, game: GameRecord) -> None:
    problems = [Problem("", m) for m in check_game(rules, game)]
    reason = None if problems else unrated_reason(rules, game)
    if reason is not None:
        problems.append(
            Problem(
                "",
                Text.in_domain(
                    "tools",
                    "this game would not be rated: {reason}",
                    reason=reason.of_domain("messages"),  # the engine's words
                ),
            )
        )
    if problems:
        raise InputError(problems, "predict")


def _run(rules: RuleSet, game: GameRecord, start: Mapping[PoolKey, PoolState]) -> list[LedgerEntry]:
    """One game through the engine, from the players' pools (nothing else is needed)."""
    entries = [e for e in replay(rules, [game], initial=start).ledger if e.game == game.id]
    assert len(entries) == len(game.participants)
    return entries


def _rounded_p(rules: RuleSet, p: float) -> float:
    if rules.probability_decimals is None:
        return p
    return float(round_probability(p, rules.probability_decimals))


def predict(
    rules: RuleSet,
    pools: Mapping[PoolKey, PoolState],
    sides: Sequence[Sequence[Participant]],
    *,
    mode: str = "",
    date: dt.date | None = None,
    home: int | None = None,
    neutral: bool = False,
) -> Prediction:
    """Predict a game between ``sides`` (lists of participants) from the current ``pools``.

    Players absent from ``pools`` are newcomers at the rule set's start rating. ``home`` (the
    index of the side at home, 0 or 1, as :attr:`GameRecord.home`) and ``neutral`` are the
    game's venue: they go into the game the engine rates, and into the sides' expected scores
    (a rule set without ``home_advantage``, or whose method has none, ignores them). The game is
    first checked like any imported game (team sizes, a player twice, roles...): a game the league
    would refuse or not rate raises :class:`InputError`.
    """
    if home not in (None, 0, 1):
        raise ValueError(f"home is the index of the side at home (0 or 1) or None, not {home!r}")
    venue = (home, neutral)
    day = date or dt.date.today()
    if len(sides) < 2:
        raise ToolError(Text.of("a prediction needs at least two sides"))
    ffa = ranked(rules)
    n = len(sides)
    if not ffa and n != 2:
        raise ToolError(
            Text.of("a game under these rules has exactly two sides, not {count}", count=n)
        )
    if ffa:
        probe = _game(sides, day, mode, [None] * n, [float(n - i) for i in range(n)], venue)
    else:
        first = next(iter(rules.outcomes))
        outcomes = [first, rules.outcomes[first].against[0]]
        probe = _game(sides, day, mode, outcomes, [None, None], venue)
    _check(rules, probe)
    keys = [pool_key(rules, probe, p) for p in probe.participants]
    start = {k: pools[k] for k in keys if k in pools}
    side_of = [s for s, side in enumerate(sides) for _ in side]

    results: dict[int, list[Change]] = {i: [] for i in range(len(keys))}
    base: list[LedgerEntry] = []
    if ffa:
        scenarios = [f"rank {r}" for r in range(1, n + 1)] + ["score 0"]
        by_rank: dict[tuple[int, int], LedgerEntry] = {}
        for offset in range(n):
            ranks = [(i + offset) % n + 1 for i in range(n)]
            game = _game(sides, day, mode, [None] * n, [float(n + 1 - r) for r in ranks], venue)
            for i, entry in enumerate(_run(rules, game, start)):
                by_rank[i, ranks[i]] = entry
        zero = _run(rules, _game(sides, day, mode, [None] * n, [0.0] * n, venue), start)
        base = zero
        for i in range(n):
            for r in range(1, n + 1):
                results[i].append(_change(f"rank {r}", by_rank[i, r]))
            results[i].append(_change("score 0", zero[i]))
    else:
        scenarios = list(rules.outcomes)
        for label in scenarios:
            other = rules.outcomes[label].against[0]
            for s in (0, 1):
                outcomes = [label, other] if s == 0 else [other, label]
                game = _game(sides, day, mode, outcomes, [None, None], venue)
                entries = _run(rules, game, start)
                if not base:
                    base = entries
                for i, entry in enumerate(entries):
                    if side_of[i] == s:
                        results[i].append(_change(label, entry))

    players = tuple(
        PlayerOdds(
            key=keys[i],
            side=side_of[i],
            rating=base[i].before,
            games=start[keys[i]].games if keys[i] in start else 0,
            k=base[i].k or 0.0,
            expected=base[i].expected or 0.0,
            changes=tuple(results[i]),
        )
        for i in range(len(keys))
    )
    means = [sum(p.rating for p in players if p.side == s) / len(sides[s]) for s in range(n)]
    if ffa:
        side_odds = tuple(
            SideOdds(
                tuple(p.name for p in sides[s]),
                means[s],
                sum(p.expected for p in players if p.side == s),
            )
            for s in range(n)
        )
    else:
        points = venue_points(rules, home, neutral)  # what the engine adds for this venue
        side_odds = tuple(
            SideOdds(
                tuple(p.name for p in sides[s]),
                means[s],
                _rounded_p(
                    rules, expected_score(rules, means[s] + points[s], means[1 - s] + points[1 - s])
                ),
                points[s],
            )
            for s in range(2)
        )
    return Prediction(rules, day, side_odds, players, tuple(scenarios), home, neutral)


def _change(scenario: str, entry: LedgerEntry) -> Change:
    return Change(scenario, entry.delta, entry.after, entry.fired, entry.warning)
