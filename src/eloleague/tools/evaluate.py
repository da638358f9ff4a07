"""How well a rule set predicts results before they happen, next to baselines.

Every rated game is predicted from the ratings just before it, as the rule set used them
(per-event rule sets: the ratings when the event began). The rule set's prediction is read from
its own ledger (:func:`eloleague.engine.replay`):

- ``duel``: the mean of side 1's players' P (for one player a side, exactly his P, rounded as the
  rule set rounds it);
- ``team_and_personal``: the team term's p;
- ``ffa_rank``: one prediction per pair of players, E(R_i, R_j) on the ratings before the game.

What counts as the result (graded outcomes mapped to win / draw / loss): a side wins when its
outcome's score value is greater than the other side's (a decisive victory 1.25 against a defeat
0, ``3-1`` 1.1 against ``1-3`` 0.3), draws when they are equal; in a free-for-all game, of each
pair of players the one with the greater score wins, equal scores draw. So the target ``y`` is
1, 0.5 or 0 and the prediction ``p`` is an expected score.

Metrics, over one sample per two-sided game (side 1's point of view) or per pair of players:

- log loss ``-mean(y ln p + (1 - y) ln(1 - p))``, with ``p`` clipped to [1e-15, 1 - 1e-15];
- Brier score ``mean((p - y)^2)``;
- accuracy over decisive samples (draws left out): the favourite won; ``p = 0.5`` counts half;
- calibration: samples taken from both points of view (p, y) and (1 - p, 1 - y), in ten bins of
  predicted probability; per bin the mean prediction, the observed mean and the count.

Baselines, on the same games in the same order, with the same pools: plain Elo (divisor 400,
K 32, a side's rating is its players' mean; free-for-all: every pair, K / (N - 1)); Glicko-2 (the
engine's ``glicko2`` method, one rating period per game, a side facing the other side's mean
rating and root-mean-square deviation, predictions with both deviations combined); OpenSkill
(the ``openskill`` package's Plackett-Luce model, ``predict_win`` and ``rate`` with ranks).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from eloleague.engine import LedgerEntry, ReplayResult, expected, methods, replay
from eloleague.engine.ledger import game_label
from eloleague.engine.methods import expected_score, ranked
from eloleague.records import GameRecord, Participant, PoolKey, PoolState, Side
from eloleague.rules.model import RuleSet

CLIP = 1e-15
_DAY = dt.date(2000, 1, 1)  # the baselines' games need a date; nothing reads it
BINS = 10


@dataclass(frozen=True, slots=True)
class CalibrationBin:
    """Samples whose prediction fell in ``[low, high)``: mean prediction, observed mean, count."""

    low: float
    high: float
    predicted: float
    observed: float
    count: int


@dataclass(frozen=True, slots=True)
class Metrics:
    """One model's scores on the games (lower log loss and Brier are better)."""

    name: str
    samples: int
    log_loss: float
    brier: float
    accuracy: float | None
    decisive: int
    calibration: tuple[CalibrationBin, ...]


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The rule set's metrics first, then the baselines', on the same samples."""

    rules: RuleSet
    games: int
    models: tuple[Metrics, ...]


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A rated game with its participants' pools, side by side, from the ledger."""

    game: GameRecord
    entries: tuple[LedgerEntry, ...]
    sides: tuple[tuple[PoolKey, ...], ...]


def side_results(rules: RuleSet, game: GameRecord) -> list[float]:
    """Each side's result against the other: 1 win, 0.5 draw, 0 loss (two-sided games)."""
    assert len(game.sides) == 2
    values = [rules.outcomes[s.outcome].score if s.outcome else 0.0 for s in game.sides]
    return [_cmp(values[0], values[1]), _cmp(values[1], values[0])]


def _cmp(a: float, b: float) -> float:
    return 1.0 if a > b else 0.5 if a == b else 0.0


def rated_games(result: ReplayResult, games: Sequence[GameRecord]) -> list[RatedGame]:
    """The rated games in processing order, each with its ledger entries split by side."""
    by_label = {game_label(g, i): g for i, g in enumerate(games)}
    out: list[RatedGame] = []
    current: list[LedgerEntry] = []

    def flush() -> None:
        if current:
            game = by_label[current[0].game]
            sides, i = [], 0
            for side in game.sides:
                sides.append(tuple(e.key for e in current[i : i + len(side.players)]))
                i += len(side.players)
            out.append(RatedGame(game, tuple(current), tuple(sides)))
            current.clear()

    for entry in result.ledger:
        if entry.is_season or not entry.game:
            continue
        if current and entry.game != current[0].game:
            flush()
        current.append(entry)
    flush()
    return out


def _pairs(game: GameRecord) -> list[tuple[int, int, float]]:
    scores = [float(s.score or 0.0) for s in game.sides]
    return [
        (i, j, _cmp(scores[i], scores[j]))
        for i in range(len(scores))
        for j in range(i + 1, len(scores))
    ]


def rule_set_samples(rules: RuleSet, rated: Sequence[RatedGame]) -> list[tuple[float, float]]:
    """(p, y) for each game (or pair of players) as the rule set predicted it (module doc)."""
    out = []
    for rg in rated:
        if ranked(rules):
            before = [e.before for e in rg.entries]
            for i, j, y in _pairs(rg.game):
                out.append((expected_score(rules, before[i], before[j]), y))
            continue
        y = side_results(rules, rg.game)[0]
        side0 = rg.entries[: len(rg.sides[0])]
        if side0[0].team_expected is not None:  # a team term (team_and_personal): its p
            p = side0[0].team_expected
        else:
            p = sum(e.expected or 0.0 for e in side0) / len(side0)
        assert p is not None
        out.append((p, y))
    return out


def metrics(name: str, samples: Sequence[tuple[float, float]], bins: int = BINS) -> Metrics:
    """Log loss, Brier score, accuracy and calibration of ``(p, y)`` samples (module doc)."""
    n = len(samples)
    if n == 0:
        return Metrics(name, 0, math.nan, math.nan, None, 0, ())
    log_loss = (
        -sum(
            y * math.log(min(max(p, CLIP), 1 - CLIP))
            + (1 - y) * math.log(1 - min(max(p, CLIP), 1 - CLIP))
            for p, y in samples
        )
        / n
    )
    brier = sum((p - y) ** 2 for p, y in samples) / n
    decisive = [(p, y) for p, y in samples if y != 0.5]
    accuracy = None
    if decisive:
        accuracy = sum(
            0.5 if p == 0.5 else 1.0 if (p > 0.5) == (y == 1.0) else 0.0 for p, y in decisive
        ) / len(decisive)
    both = [*samples, *((1 - p, 1 - y) for p, y in samples)]
    table: list[list[tuple[float, float]]] = [[] for _ in range(bins)]
    for p, y in both:
        table[min(int(p * bins), bins - 1)].append((p, y))
    calibration = tuple(
        CalibrationBin(
            b / bins,
            (b + 1) / bins,
            sum(p for p, _ in cell) / len(cell) if cell else (b + 0.5) / bins,
            sum(y for _, y in cell) / len(cell) if cell else math.nan,
            len(cell),
        )
        for b, cell in enumerate(table)
    )
    return Metrics(name, n, log_loss, brier, accuracy, len(decisive), calibration)


# Baselines -------------------------------------------------------------------------------------

Predictor = Callable[[Sequence[Sequence[PoolKey]]], float]


class _Elo:
    """Plain Elo: divisor 400, K 32, a side is its players' mean rating."""

    name = "Elo (400, K 32)"

    def __init__(self, k: float = 32.0, scale: float = 400.0, start: float = 1500.0) -> None:
        self.k, self.scale, self.start = k, scale, start
        self.r: dict[PoolKey, float] = {}

    def _mean(self, side: Sequence[PoolKey]) -> float:
        return sum(self.r.get(p, self.start) for p in side) / len(side)

    def predict(self, a: Sequence[PoolKey], b: Sequence[PoolKey]) -> float:
        return expected(self._mean(a), self._mean(b), self.scale)

    def update_sides(self, sides: Sequence[Sequence[PoolKey]], y: float) -> None:
        m = [self._mean(s) for s in sides]
        ys = (y, 1 - y)
        for s, side in enumerate(sides):
            change = self.k * (ys[s] - expected(m[s], m[1 - s], self.scale))
            for p in side:
                self.r[p] = self.r.get(p, self.start) + change

    def update_ffa(
        self, players: Sequence[PoolKey], pairs: Sequence[tuple[int, int, float]]
    ) -> None:
        before = [self.r.get(p, self.start) for p in players]
        delta = [0.0] * len(players)
        k = self.k / max(1, len(players) - 1)
        for i, j, y in pairs:
            e = expected(before[i], before[j], self.scale)
            delta[i] += k * (y - e)
            delta[j] -= k * (y - e)
        for i, p in enumerate(players):
            self.r[p] = before[i] + delta[i]


_RESULTS = {1.0: "win", 0.5: "draw", 0.0: "loss"}
_GLICKO2_RULES = RuleSet.model_validate(
    {
        "name": "Glicko-2",
        "method": "glicko2",
        "start_rating": 1500,
        "outcomes": {
            "win": {"score": 1, "against": ["loss"]},
            "draw": {"score": 0.5, "against": ["draw"]},
            "loss": {"score": 0, "against": ["win"]},
        },
    }
)


class _Glicko2:
    """The engine's Glicko-2 method (``engine/methods/glicko2.py``, tau 0.5, new pools 1500 /
    350 / 0.06), driven game by game: each game is a rating period (a free-for-all game: every
    pair of its players, in one period)."""

    name = "Glicko-2"

    def __init__(self) -> None:
        self.rules = _GLICKO2_RULES
        self.method = methods.get(self.rules.method)
        self.new = self.method.new_pool(self.rules)
        self.pools: dict[PoolKey, PoolState] = {}
        self.names: dict[PoolKey, str] = {}  # the baseline's own pools, one per pool evaluated
        self.period = 0

    def _name(self, key: PoolKey) -> str:
        return self.names.setdefault(key, str(len(self.names)))

    def _pool(self, key: PoolKey) -> PoolState:
        return self.pools.get(key, self.new)

    def _side(self, side: Sequence[PoolKey]) -> PoolState:
        """A side as one opponent: its mean rating, the root mean square of each pool field."""
        pools = [self.pools.get(PoolKey(self._name(k)), self.new) for k in side]
        if len(pools) == 1:
            return pools[0]
        rating = sum(p.rating for p in pools) / len(pools)
        extra = zip(*(p.extra for p in pools), strict=True)
        return PoolState(
            rating, 0, tuple(math.sqrt(sum(x * x for x in v) / len(pools)) for v in extra)
        )

    def predict(self, a: Sequence[PoolKey], b: Sequence[PoolKey]) -> float:
        return self.method.expected(self.rules, self._side(a), self._side(b))

    def _game(self, a: Sequence[PoolKey], b: Sequence[PoolKey], y: float) -> GameRecord:
        sides = tuple(
            Side(tuple(Participant(self._name(k)) for k in keys), outcome)
            for keys, outcome in ((a, _RESULTS[y]), (b, _RESULTS[1 - y]))
        )
        return GameRecord(_DAY, sides)

    def _rate(self, games: Sequence[GameRecord]) -> None:
        rated = self.method.rate(self.rules, [(g, "") for g in games], self._pool, self.period)
        self.pools.update(rated.pools)
        self.period += 1

    def update_sides(self, sides: Sequence[Sequence[PoolKey]], y: float) -> None:
        self._rate([self._game(sides[0], sides[1], y)])

    def update_ffa(
        self, players: Sequence[PoolKey], pairs: Sequence[tuple[int, int, float]]
    ) -> None:
        self._rate([self._game([players[i]], [players[j]], y) for i, j, y in pairs])


class _OpenSkill:
    """OpenSkill's Plackett-Luce model with its defaults (mu 25, sigma 25/3)."""

    name = "OpenSkill (Plackett-Luce)"

    def __init__(self) -> None:
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()
        self.r: dict[PoolKey, Any] = {}

    def _team(self, side: Sequence[PoolKey]) -> list[Any]:
        for k in side:
            if k not in self.r:
                self.r[k] = self.model.rating()
        return [self.r[k] for k in side]

    def predict(self, a: Sequence[PoolKey], b: Sequence[PoolKey]) -> float:
        return float(self.model.predict_win([self._team(a), self._team(b)])[0])

    def _rate(self, sides: Sequence[Sequence[PoolKey]], ranks: list[float]) -> None:
        new = self.model.rate([self._team(s) for s in sides], ranks=ranks)
        for side, team in zip(sides, new, strict=True):
            for k, rating in zip(side, team, strict=True):
                self.r[k] = rating

    def update_sides(self, sides: Sequence[Sequence[PoolKey]], y: float) -> None:
        ranks = [1.0, 1.0] if y == 0.5 else [1.0, 2.0] if y == 1.0 else [2.0, 1.0]
        self._rate(sides, ranks)

    def update_ffa(
        self,
        players: Sequence[PoolKey],
        pairs: Sequence[tuple[int, int, float]],
        scores: Sequence[float] = (),
    ) -> None:
        ranks = [1.0 + sum(1 for y in scores if y > x) for x in scores]
        self._rate([[p] for p in players], ranks)


def baseline_samples(
    rules: RuleSet, rated: Sequence[RatedGame], model: Any
) -> list[tuple[float, float]]:
    """(p, y) of a baseline model, each game predicted then rated, in the same order."""
    out = []
    for rg in rated:
        if ranked(rules):
            players = [side[0] for side in rg.sides]
            pairs = _pairs(rg.game)
            for i, j, y in pairs:
                out.append((model.predict([players[i]], [players[j]]), y))
            if isinstance(model, _OpenSkill):
                model.update_ffa(players, pairs, [float(s.score or 0.0) for s in rg.game.sides])
            else:
                model.update_ffa(players, pairs)
            continue
        y = side_results(rules, rg.game)[0]
        out.append((model.predict(rg.sides[0], rg.sides[1]), y))
        model.update_sides(rg.sides, y)
    return out


def evaluate(
    rules: RuleSet,
    games: Sequence[GameRecord],
    *,
    initial: Mapping[PoolKey, PoolState] | None = None,
    baselines: bool = True,
) -> Evaluation:
    """Score ``rules`` (and the baselines) on ``games`` (already valid under ``rules``)."""
    return evaluate_result(games, replay(rules, games, initial=initial), baselines=baselines)


def evaluate_result(
    games: Sequence[GameRecord], result: ReplayResult, *, baselines: bool = True
) -> Evaluation:
    """Score a replay already computed (by :func:`evaluate`, or by a league) and the baselines."""
    rules = result.rules
    rated = rated_games(result, games)
    models = [metrics(rules.name, rule_set_samples(rules, rated))]
    if baselines:
        for model in (_Elo(), _Glicko2(), _OpenSkill()):
            models.append(metrics(model.name, baseline_samples(rules, rated, model)))
    return Evaluation(rules, len(rated), tuple(models))
