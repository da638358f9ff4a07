"""``glicko2``: Glickman's Glicko-2 system, each update batch a rating period (docs/rule-sets.md,
"glicko2"; Mark E. Glickman, *Example of the Glicko-2 system*).

A pool keeps, beyond its rating and games, a rating deviation, a volatility and the rating period
it last played in. Every period a pool plays in is rated as one Glicko-2 period against all its
games of the batch; a period without games lets its deviation grow (``sqrt(phi² + sigma²)`` per
idle period, applied when the pool plays again). In a game of teams each player faces the other
side as one opponent: its mean rating and the root mean square of its deviations. A side's result
``s`` is its outcome's score (0 to 1).

Each game gets one ledger entry per player whose change is that game's share of the period's
change, ``K * (S - E)`` with ``K = 173.7178 * phi'² * g(phi_j)``: the entries of a period sum to
its change, and ``expected`` is Glicko-2's ``E``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from eloleague.engine.ledger import LedgerEntry
from eloleague.engine.methods.base import (
    TWO_SIDES,
    Batch,
    Lookup,
    Rated,
    Shape,
    check_outcome_side,
    check_outcomes,
    pool_key,
)
from eloleague.i18n import Text
from eloleague.records import PoolKey, PoolState, Side
from eloleague.rules.model import RuleSet

SCALE = 173.7178  # Glicko-2's ratio between the Glicko scale and its own (about 400 / ln 10)
CENTRE = 1500.0
EPSILON = 0.000001  # the convergence tolerance of the volatility iteration
NEVER = -1.0  # ``period`` of a pool that has not played since the state began

DEVIATION, VOLATILITY, PERIOD = range(3)


def g(phi: float) -> float:
    """``g(phi) = 1 / sqrt(1 + 3 phi² / pi²)`` (step 3)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expectation(mu: float, mu_j: float, g_j: float) -> float:
    """``E(mu, mu_j, phi_j) = 1 / (1 + exp(-g(phi_j) (mu - mu_j)))`` (step 3)."""
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm on ``f``."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def idle_deviation(deviation: float, sigma: float, idle: int) -> float:
    """A rating deviation after ``idle`` rating periods without games, one period at a time
    (``phi' = sqrt(phi² + sigma²)`` each, on the rating's scale), so that growing a pool over
    some periods then over others gives exactly what growing it over all of them does."""
    step = (sigma * SCALE) ** 2
    for _ in range(idle):
        deviation = math.sqrt(deviation * deviation + step)
    return deviation


def rate_period(
    rating: float,
    deviation: float,
    volatility: float,
    games: list[tuple[float, float, float]],
    tau: float,
) -> tuple[list[tuple[float, float, float]], float, float, float]:
    """One player's rating period (steps 2-8) against ``games`` of ``(opponent rating, opponent
    deviation, score)``: each game's ``(E, K, change)``, then the new rating, deviation and
    volatility. The changes sum to the rating's change."""
    mu = (rating - CENTRE) / SCALE
    phi = deviation / SCALE
    terms = []
    inverse_v = 0.0
    total = 0.0
    for r_j, rd_j, s in games:
        g_j = g(rd_j / SCALE)
        e = expectation(mu, (r_j - CENTRE) / SCALE, g_j)
        inverse_v += g_j * g_j * e * (1.0 - e)
        total += g_j * (s - e)
        terms.append((g_j, e, s))
    v = 1.0 / inverse_v
    sigma = new_volatility(phi, volatility, v * total, v, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    shares = []
    for g_j, e, s in terms:
        k = SCALE * phi_new * phi_new * g_j
        shares.append((e, k, k * (s - e)))
    mu_new = mu + phi_new * phi_new * total
    return shares, CENTRE + SCALE * mu_new, SCALE * phi_new, sigma


@dataclass(frozen=True, slots=True)
class _Seat:
    """A player in a game of the batch: the pool, its side, and the opposing side's strength."""

    index: int
    key: PoolKey
    side: Side
    score: float
    opponent: float
    opponent_deviation: float


@dataclass(frozen=True, slots=True)
class Glicko2:
    """The Glicko-2 method (see the module doc)."""

    name: str = "glicko2"
    shape: Shape = TWO_SIDES
    pool_fields: tuple[str, ...] = ("deviation", "volatility", "period")
    shown_fields: tuple[str, ...] = ("deviation", "volatility")
    summary: str = "Glicko-2: a rating, its deviation and a volatility, each batch a rating period"

    def check_rules(self, rules: RuleSet) -> Text | None:
        problem = check_outcomes(rules)
        if problem is not None:
            return problem
        for label, outcome in rules.outcomes.items():
            if not 0 <= outcome.score <= 1:
                return Text.of(
                    "a 'glicko2' rule set needs outcome scores from 0 to 1 ({label}: {score})",
                    label=repr(label),
                    score=outcome.score,
                )
        unused = [
            key
            for key, used in (
                ("k", rules.k is not None),
                ("probability_decimals", rules.probability_decimals is not None),
                ("delta_rounding", rules.delta_rounding.mode != "none"),
                ("gain_cap", rules.gain_cap is not None),
                ("rating_floor", rules.rating_floor is not None),
                ("rating_storage", rules.rating_storage != "grid"),
                *((key, True) for key in rules.game_keys),
            )
            if used
        ]
        if unused:
            return Text.of(
                "a 'glicko2' rule set does not use {keys}: remove them", keys=", ".join(unused)
            )
        return None

    def check_side(self, rules: RuleSet, side: Side, number: int) -> list[Text]:
        return check_outcome_side(rules, side, number)

    def new_pool(self, rules: RuleSet) -> PoolState:
        options = rules.glicko2
        return PoolState(rules.start_rating, 0, (options.deviation, options.volatility, NEVER))

    def expected(self, rules: RuleSet, a: PoolState, b: PoolState) -> float:
        """The chance of ``a`` against ``b``, both deviations combined (a prediction)."""
        new = self.new_pool(rules).extra
        a_extra, b_extra = a.extra or new, b.extra or new
        combined = math.hypot(a_extra[DEVIATION], b_extra[DEVIATION]) / SCALE
        return expectation(a.rating / SCALE, b.rating / SCALE, g(combined))

    def settle(
        self, rules: RuleSet, pools: dict[PoolKey, PoolState], periods: int
    ) -> dict[PoolKey, PoolState]:
        """The pools as ``periods`` rating periods leave them: deviations grown over the
        periods each pool sat out since it last played (pools of an initial state that never
        played keep theirs)."""
        out = {}
        for key, pool in pools.items():
            deviation, volatility, last = pool.extra or self.new_pool(rules).extra
            idle = periods - int(last) - 1 if last >= 0 else 0
            if idle > 0:
                grown = idle_deviation(deviation, volatility, idle)
                pool = PoolState(pool.rating, pool.games, (grown, volatility, periods - 1.0))
            out[key] = pool
        return out

    def rate(self, rules: RuleSet, batch: Batch, lookup: Lookup, period: int = 0) -> Rated:
        tau = rules.glicko2.tau
        before: dict[PoolKey, tuple[float, float, float]] = {}  # rating, deviation, volatility

        def state(key: PoolKey) -> tuple[float, float, float]:
            found = before.get(key)
            if found is None:
                pool = lookup(key)
                deviation, volatility, last = pool.extra or self.new_pool(rules).extra
                idle = period - int(last) - 1 if last >= 0 else 0
                grown = idle_deviation(deviation, volatility, idle)
                found = before[key] = (pool.rating, grown, volatility)
            return found

        seats: list[_Seat] = []
        for game, _ in batch:
            sides = [[pool_key(rules, game, p) for p in side.players] for side in game.sides]
            strength = []
            for keys in sides:
                states = [state(k) for k in keys]
                mean = sum(s[0] for s in states) / len(states)
                rms = math.sqrt(sum(s[1] * s[1] for s in states) / len(states))
                strength.append((mean, rms))
            for s, side in enumerate(game.sides):
                assert side.outcome is not None
                score = rules.outcomes[side.outcome].score
                for key in sides[s]:
                    seats.append(_Seat(len(seats), key, side, score, *strength[1 - s]))
        by_pool: dict[PoolKey, list[_Seat]] = {}
        for seat in seats:
            by_pool.setdefault(seat.key, []).append(seat)
        shares: dict[int, tuple[float, float, float]] = {}
        after: dict[PoolKey, tuple[float, float]] = {}  # the published fields after the period
        pools: dict[PoolKey, PoolState] = {}
        for key, played in by_pool.items():
            rating, deviation, volatility = state(key)
            games = [(seat.opponent, seat.opponent_deviation, seat.score) for seat in played]
            parts, _, new_deviation, new_volatility = rate_period(
                rating, deviation, volatility, games, tau
            )
            for seat, part in zip(played, parts, strict=True):
                shares[seat.index] = part
            change = sum(part[2] for part in parts)
            after[key] = (new_deviation, new_volatility)
            pools[key] = PoolState(
                rating + change,
                lookup(key).games + len(played),
                (new_deviation, new_volatility, float(period)),
            )
        entries = []
        position = 0
        for game, label in batch:
            for _ in game.participants:
                seat = seats[position]
                e, k, delta = shares[position]
                rating = before[seat.key][0]
                entries.append(
                    LedgerEntry(
                        game=label,
                        date=game.date,
                        key=seat.key,
                        before=rating,
                        expected=e,
                        k=k,
                        score=seat.score,
                        delta=delta,
                        after=rating + delta,
                        raw_delta=delta,
                        opponent=seat.opponent,
                        outcome=seat.side.outcome,
                        extra=after[seat.key],
                    )
                )
                position += 1
        # Pools in order of their first entry, as the replay keeps them.
        ordered = {entry.key: pools[entry.key] for entry in entries}
        return Rated(entries, ordered)


GLICKO2 = Glicko2()
