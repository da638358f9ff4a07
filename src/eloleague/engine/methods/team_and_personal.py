"""``team_and_personal``: a team term on the sides' mean ratings plus a personal term
(docs/rule-sets.md; the card-battle preset)."""

from __future__ import annotations

from eloleague.engine.formulas import team_delta
from eloleague.engine.kfactor import k_factor
from eloleague.engine.ledger import LedgerEntry
from eloleague.engine.maths import expected, round_float
from eloleague.engine.methods.base import TWO_SIDES, Lookup, check_outcome_side, check_outcomes
from eloleague.engine.methods.elo import EloMethod, finish, side_means
from eloleague.records import GameRecord
from eloleague.rules.model import RuleSet


def rate_team_and_personal(
    rules: RuleSet, game: GameRecord, label: str, lookup: Lookup
) -> list[LedgerEntry]:
    """A team term on the side means plus a personal term (docs/rule-sets.md, the Card Battle Nolife rules)."""
    states, means = side_means(rules, game, lookup)
    entries = []
    for s, side in enumerate(game.sides):
        assert side.outcome is not None
        w = rules.outcomes[side.outcome].score
        m_s, m_o = means[s], means[1 - s]
        p_team = expected(m_s, m_o, rules.scale)
        for key, pool in states[s]:
            rating = pool.rating
            k = k_factor(rules.k, rating, pool.games)
            p_personal = expected(rating, m_o, rules.scale)
            raw = team_delta(k, w, p_team, p_personal)
            rounded = round_float(raw, rules.delta_rounding)
            entries.append(
                finish(
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


TEAM_AND_PERSONAL = EloMethod(
    name="team_and_personal",
    shape=TWO_SIDES,
    summary="a team term plus a personal term",
    rate_game=rate_team_and_personal,
    check_side_of=check_outcome_side,
    check_rules_of=check_outcomes,
)
