"""``duel``: each player against the mean rating of the opposing side (docs/rule-sets.md; the
bataille-empire and adlg presets)."""

from __future__ import annotations

from eloleague.engine.formulas import elo_delta
from eloleague.engine.kfactor import k_factor
from eloleague.engine.ledger import LedgerEntry
from eloleague.engine.maths import expected, round_float, round_probability
from eloleague.engine.methods.base import TWO_SIDES, Lookup, check_outcome_side, check_outcomes
from eloleague.engine.methods.elo import EloMethod, exact_delta, finish, side_means
from eloleague.records import GameRecord
from eloleague.rules.model import RuleSet


def rate_duel(rules: RuleSet, game: GameRecord, label: str, lookup: Lookup) -> list[LedgerEntry]:
    """Each player against the mean of the opposing side (docs/rule-sets.md, the Bataille Empire and L'Art de la Guerre rules)."""
    states, means = side_means(rules, game, lookup)
    entries = []
    rounding = rules.delta_rounding
    decimals = rules.probability_decimals
    for s, side in enumerate(game.sides):
        assert side.outcome is not None
        r_opp = means[1 - s]
        outcome = rules.outcomes[side.outcome]
        for key, pool in states[s]:
            rating = pool.rating
            p = expected(rating, r_opp, rules.scale)
            k = k_factor(rules.k, rating, pool.games)
            if decimals is not None:
                p_dec = round_probability(p, decimals)
                raw, rounded = exact_delta(k, rules.outcome_score(side.outcome), p_dec, rounding)
                p = float(p_dec)
            else:
                raw = elo_delta(k, outcome.score, p)
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
                    outcome.score,
                    raw,
                    rounded,
                    lead=rating - r_opp,
                    opponent=r_opp,
                    outcome=side.outcome,
                )
            )
    return entries


DUEL = EloMethod(
    name="duel",
    shape=TWO_SIDES,
    summary="each player against the mean rating of the opposing side",
    rate_game=rate_duel,
    check_side_of=check_outcome_side,
    check_rules_of=check_outcomes,
)
