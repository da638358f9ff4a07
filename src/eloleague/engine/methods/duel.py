"""``duel``: each player against the mean rating of the opposing side (docs/rule-sets.md; the
bataille-empire and adlg presets), with the game features of sports-style Elo: a home advantage,
a capped rating difference (``lead_cap``), and formulas for K and S that may read the margin
(docs/rule-sets.md, "Formulas")."""

from __future__ import annotations

from eloleague.engine.formulas import elo_delta, expected_capped
from eloleague.engine.kfactor import k_factor
from eloleague.engine.ledger import LedgerEntry
from eloleague.engine.maths import exact, expected, round_float, round_probability
from eloleague.engine.methods.base import TWO_SIDES, Lookup, check_outcome_side, check_outcomes
from eloleague.engine.methods.elo import EloMethod, exact_delta, finish, side_means
from eloleague.engine.rule_formulas import evaluated
from eloleague.i18n import Text
from eloleague.records import GameRecord, Side
from eloleague.rules.model import RuleSet


def venue_points(rules: RuleSet, home: int | None, neutral: bool = False) -> tuple[float, float]:
    """The rating points each of two sides gets in the expectation for a venue: ``home_advantage``
    for the side at home (``home``: its index, 0 or 1, as in a game record), none on a neutral
    site or when no side is at home (docs/rule-sets.md, "Home advantage and margins")."""
    if not rules.home_advantage or neutral or home is None:
        return 0.0, 0.0
    return (rules.home_advantage, 0.0) if home == 0 else (0.0, rules.home_advantage)


def advantages(rules: RuleSet, game: GameRecord) -> tuple[float, float]:
    """The rating points each side of ``game`` gets in the expectation (:func:`venue_points` of
    its venue)."""
    return venue_points(rules, game.home, game.neutral)


def rate_duel(rules: RuleSet, game: GameRecord, label: str, lookup: Lookup) -> list[LedgerEntry]:
    """Each player against the mean of the opposing side (docs/rule-sets.md, the Bataille Empire and L'Art de la Guerre rules)."""
    states, means = side_means(rules, game, lookup)
    entries = []
    rounding = rules.delta_rounding
    decimals = rules.probability_decimals
    adv = advantages(rules, game)
    cap = rules.lead_cap
    k_formula, s_formula = rules.k_formula, rules.score_formula
    formulas = k_formula is not None or s_formula is not None
    if formulas:
        outcome_scores = [rules.outcomes[side.outcome or ""].score for side in game.sides]
        if outcome_scores[0] == outcome_scores[1]:
            lead = 0.0
        else:
            w = 0 if outcome_scores[0] > outcome_scores[1] else 1
            lead = (means[w] + adv[w]) - (means[1 - w] + adv[1 - w])
        points = [side.score or 0.0 for side in game.sides]
    for s, side in enumerate(game.sides):
        assert side.outcome is not None
        r_opp = means[1 - s]
        outcome = rules.outcomes[side.outcome]
        own, other = adv[s], adv[1 - s]
        for key, pool in states[s]:
            rating = pool.rating
            a, b = rating + own, r_opp + other
            p = (
                expected(a, b, rules.scale)
                if cap is None
                else expected_capped(a, b, rules.scale, cap)
            )
            k = k_factor(rules.k, rating, pool.games, game.mode)
            p_dec = round_probability(p, decimals) if decimals is not None else None
            if p_dec is not None:
                p = float(p_dec)
            score = outcome.score
            extra: tuple[float, ...] = ()
            if rules.home_advantage:
                extra = (own - other,)
            if formulas:
                values = {
                    "k": k,
                    "rating": rating,
                    "opponent": r_opp,
                    "games": float(pool.games),
                    "expected": p,
                    "score": score,
                    "points": points[s],
                    "opponent_points": points[1 - s],
                    "margin": points[s] - points[1 - s],
                    "diff": a - b,
                    "lead": lead,
                    "home": 1.0 if own > other else -1.0 if own < other else 0.0,
                }
                if s_formula is not None:
                    score = evaluated(rules, "score_value", s_formula, values, label)
                    values["score"] = score
                if k_formula is not None:
                    multiplier = evaluated(rules, "k_multiplier", k_formula, values, label)
                    k = k * multiplier
                    extra = (*extra, multiplier)
            if p_dec is not None:
                s_dec = rules.outcome_score(side.outcome) if s_formula is None else exact(score)
                raw, rounded = exact_delta(k, s_dec, p_dec, rounding)
            else:
                raw = elo_delta(k, score, p)
                rounded = round_float(raw, rounding)
            entries.append(
                finish(
                    rules,
                    label,
                    game.date,
                    key,
                    rating,
                    p,
                    k,
                    score,
                    raw,
                    rounded,
                    lead=rating - r_opp,
                    opponent=r_opp,
                    outcome=side.outcome,
                    points=side.score if rules.uses_margins else None,
                    extra=extra,
                )
            )
    return entries


def check_duel_side(rules: RuleSet, side: Side, number: int) -> list[Text]:
    """An outcome of the rule set, and the side's points when a formula reads the margin."""
    problems = check_outcome_side(rules, side, number)
    if not problems and side.score is None and rules.uses_margins:
        problems.append(
            Text.of(
                "side {side}: rule set {rules} uses the margin: give each side's score",
                side=number,
                rules=rules.name,
            )
        )
    return problems


DUEL = EloMethod(
    name="duel",
    shape=TWO_SIDES,
    summary="each player against the mean rating of the opposing side",
    rate_game=rate_duel,
    check_side_of=check_duel_side,
    check_rules_of=check_outcomes,
    game_features=True,
)
