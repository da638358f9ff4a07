"""The three rating methods, each computing one game from pre-game ratings (RULES.md §3.1-§3.3).

A method reads ratings through ``lookup(key) -> (rating, games)`` and returns one
:class:`~eloleague.engine.ledger.LedgerEntry` per participant with ``after = before + delta``;
the replay decides when the deltas are applied (per game, per event, per period).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from functools import lru_cache

from eloleague.engine.kfactor import k_factor
from eloleague.engine.ledger import (
    CAP,
    FLOOR,
    LOSER_GAIN,
    ROUNDING,
    WINNER_LOSS,
    LedgerEntry,
)
from eloleague.engine.maths import (
    exact,
    expected,
    round_decimal,
    round_float,
    round_probability,
    snap,
)
from eloleague.records import GameRecord, Participant, PoolKey
from eloleague.rules.model import Rounding, RuleSet

Lookup = Callable[[PoolKey], tuple[float, int]]


def pool_key(rules: RuleSet, game: GameRecord, participant: Participant) -> PoolKey:
    """The pool a participant's rating lives in for this rule set (RULES §1, "pool")."""
    return PoolKey(
        participant.name,
        game.mode if rules.pools.by_mode else "",
        participant.role if rules.pools.by_role else "",
    )


@lru_cache(maxsize=4096)
def _exact_delta(k: float, score: Decimal, p: Decimal, rounding: Rounding) -> tuple[float, float]:
    """``K * (S - P)`` in exact decimals, then rounded: (raw, rounded) (RULES §3.1 step 5)."""
    raw = exact(k) * (score - p)
    return float(raw), float(round_decimal(raw, rounding))


def _reaches(lead: float, cap: float, inclusive: bool) -> bool:
    """Whether a lead reaches the gain cap: ``>=`` when inclusive (seed 000), ``>`` (seed 001)."""
    return lead >= cap if inclusive else lead > cap


def _floor(rules: RuleSet, before: float, delta: float) -> tuple[float, bool]:
    """``max(floor, before + delta)`` (RULES §3.3 step 7): the delta applied, and whether it fired."""
    floor = rules.rating_floor
    if floor is not None and before + delta < floor:
        return floor - before, True
    return delta, False


def _finish(
    rules: RuleSet,
    label: str,
    date: dt.date,
    key: PoolKey,
    before: float,
    exp: float,
    k: float,
    score: float,
    raw: float,
    rounded: float,
    *,
    lead: float | None = None,
    opponent: float | None = None,
    team_expected: float | None = None,
    rank: int | None = None,
    points: float | None = None,
    outcome: str | None = None,
    warning: str = "",
) -> LedgerEntry:
    """Rounding already done; apply the gain cap and the floor, and build the entry."""
    fired: list[str] = []
    if rounded != raw:
        fired.append(ROUNDING)
    delta = rounded
    cap = rules.gain_cap
    if (
        cap is not None
        and lead is not None
        and delta > 0
        and _reaches(lead, cap.lead, cap.inclusive)
    ):
        delta = 0.0
        fired.append(CAP)
    delta, floored = _floor(rules, before, delta)
    if floored:
        fired.append(FLOOR)
    return LedgerEntry(
        game=label,
        date=date,
        key=key,
        before=before,
        expected=exp,
        k=k,
        score=score,
        delta=delta,
        after=snap(rules, before + delta),
        warning=warning,
        fired=tuple(fired),
        raw_delta=raw,
        opponent=opponent,
        team_expected=team_expected,
        rank=rank,
        points=points,
        outcome=outcome,
    )


def _side_means(
    rules: RuleSet, game: GameRecord, lookup: Lookup
) -> tuple[list[list[tuple[PoolKey, float, int]]], list[float]]:
    states = [
        [(key, *lookup(key)) for key in (pool_key(rules, game, p) for p in side.players)]
        for side in game.sides
    ]
    means = [sum(r for _, r, _ in side) / len(side) for side in states]
    return states, means


def rate_duel(rules: RuleSet, game: GameRecord, label: str, lookup: Lookup) -> list[LedgerEntry]:
    """Each player against the mean of the opposing side (RULES §3.1, seeds 000, 001, 004)."""
    states, means = _side_means(rules, game, lookup)
    entries = []
    rounding = rules.delta_rounding
    decimals = rules.probability_decimals
    for s, side in enumerate(game.sides):
        assert side.outcome is not None
        r_opp = means[1 - s]
        outcome = rules.outcomes[side.outcome]
        for key, rating, games in states[s]:
            p = expected(rating, r_opp, rules.scale)
            k = k_factor(rules.k, rating, games)
            if decimals is not None:
                p_dec = round_probability(p, decimals)
                raw, rounded = _exact_delta(k, rules.outcome_score(side.outcome), p_dec, rounding)
                p = float(p_dec)
            else:
                raw = k * (outcome.score - p)
                rounded = round_float(raw, rounding)
            entries.append(
                _finish(
                    rules,
                    label,
                    game.date,
                    key,
                    rating,
                    p,
                    k,
                    outcome.score,
                    raw,
                    rounded,
                    lead=rating - r_opp,
                    opponent=r_opp,
                    outcome=side.outcome,
                )
            )
    return entries


def rate_team_and_personal(
    rules: RuleSet, game: GameRecord, label: str, lookup: Lookup
) -> list[LedgerEntry]:
    """A team term on the side means plus a personal term (RULES §3.2, seed 002)."""
    states, means = _side_means(rules, game, lookup)
    entries = []
    for s, side in enumerate(game.sides):
        assert side.outcome is not None
        w = rules.outcomes[side.outcome].score
        m_s, m_o = means[s], means[1 - s]
        p_team = expected(m_s, m_o, rules.scale)
        for key, rating, games in states[s]:
            k = k_factor(rules.k, rating, games)
            p_personal = expected(rating, m_o, rules.scale)
            raw = k * (w - p_team) + k * (w - p_personal)
            rounded = round_float(raw, rules.delta_rounding)
            entries.append(
                _finish(
                    rules,
                    label,
                    game.date,
                    key,
                    rating,
                    p_personal,
                    k,
                    w,
                    raw,
                    rounded,
                    lead=rating - m_o,
                    opponent=m_o,
                    team_expected=p_team,
                    outcome=side.outcome,
                )
            )
    return entries


def ffa_performances(scores: list[float], alpha: float, renormalise: bool) -> list[float]:
    """Each player's performance from the scores alone (RULES §3.3 steps 1-3, seed 003 §7-9).

    Weights ``w(r) = alpha ** (N + 1 - r) - 1`` shared between tied players, divided by their sum;
    a score of zero or less performs 0.
    """
    n = len(scores)
    weights = [alpha ** (n + 1 - r) - 1 for r in range(1, n + 1)]
    total = sum(weights)
    perf = []
    for x in scores:
        if x <= 0:
            perf.append(0.0)
            continue
        rank = 1 + sum(1 for y in scores if y > x)
        ties = sum(1 for y in scores if y == x)
        perf.append(sum(weights[rank - 1 : rank - 1 + ties]) / ties / total)
    if renormalise:
        positive = sum(perf)
        if positive > 0:
            perf = [p / positive for p in perf]
    return perf


def rate_ffa(rules: RuleSet, game: GameRecord, label: str, lookup: Lookup) -> list[LedgerEntry]:
    """Seven-player games ranked by score (RULES §3.3, seed 003)."""
    players = [(side.players[0], float(side.score or 0.0)) for side in game.sides]
    keys = [pool_key(rules, game, p) for p, _ in players]
    states = [lookup(key) for key in keys]
    scores = [x for _, x in players]
    n = len(players)
    pairs = n * (n - 1) / 2
    perf = ffa_performances(scores, rules.ffa.alpha, rules.ffa.renormalise)
    low, high = min(scores), max(scores)
    entries = []
    for i, key in enumerate(keys):
        rating, games = states[i]
        e_i = sum(expected(rating, states[j][0], rules.scale) for j in range(n) if j != i) / pairs
        k = k_factor(rules.k, rating, games)
        raw = k * pairs * (perf[i] - e_i)
        rounded = round_float(raw, rules.delta_rounding)
        warning = ""
        if scores[i] == low and raw > 0:
            warning = LOSER_GAIN
        elif scores[i] == high and raw < 0:
            warning = WINNER_LOSS
        rank = 1 + sum(1 for y in scores if y > scores[i])
        entries.append(
            _finish(
                rules,
                label,
                game.date,
                key,
                rating,
                e_i,
                k,
                perf[i],
                raw,
                rounded,
                rank=rank,
                points=scores[i],
                warning=warning,
            )
        )
    return entries


METHODS: dict[str, Callable[[RuleSet, GameRecord, str, Lookup], list[LedgerEntry]]] = {
    "duel": rate_duel,
    "team_and_personal": rate_team_and_personal,
    "ffa_rank": rate_ffa,
}
