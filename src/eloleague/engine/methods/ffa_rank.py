"""``ffa_rank``: free-for-all games of one player a side, ranked by score (docs/rule-sets.md; the
diplomacy preset)."""

from __future__ import annotations

from collections.abc import Sequence

from eloleague.engine import formulas
from eloleague.engine.formulas import ffa_delta, ffa_weight
from eloleague.engine.kfactor import k_factor
from eloleague.engine.ledger import LOSER_GAIN, WINNER_LOSS, LedgerEntry
from eloleague.engine.maths import expected, round_float
from eloleague.engine.methods.base import RANKED, Lookup, check_score_side, pool_key
from eloleague.engine.methods.elo import EloMethod, finish
from eloleague.i18n import Text
from eloleague.records import GameRecord
from eloleague.rules.model import RuleSet


def ffa_performances(scores: list[float], alpha: float, renormalise: bool) -> list[float]:
    """Each player's performance from the scores alone (docs/rule-sets.md steps 1-3, the Diplomacy site's rules).

    Weights ``w(r) = alpha ** (N + 1 - r) - 1`` shared between tied players, divided by their sum;
    a score of zero or less performs 0.
    """
    n = len(scores)
    weights = [ffa_weight(alpha, n, r) for r in range(1, n + 1)]
    perf = [0.0] * n
    formulas.ffa_performances(scores, n, weights, sum(weights), renormalise, perf)
    return perf


def places(scores: Sequence[float]) -> list[int]:
    """Each side's place by its score, tied sides sharing the better one (10, 4, 4, 2: places
    1, 2, 2, 4): the ledger's ``rank``, and the order a game's page lists its sides in."""
    return [1 + sum(1 for y in scores if y > x) for x in scores]


def rate_ffa(rules: RuleSet, game: GameRecord, label: str, lookup: Lookup) -> list[LedgerEntry]:
    """Seven-player games ranked by score (docs/rule-sets.md, the Diplomacy site's rules)."""
    players = [(side.players[0], float(side.score or 0.0)) for side in game.sides]
    keys = [pool_key(rules, game, p) for p, _ in players]
    states = [lookup(key) for key in keys]
    ratings = [s.rating for s in states]
    scores = [x for _, x in players]
    n = len(players)
    pairs = n * (n - 1) / 2
    perf = ffa_performances(scores, rules.ffa.alpha, rules.ffa.renormalise)
    place = places(scores)
    low, high = min(scores), max(scores)
    entries = []
    for i, key in enumerate(keys):
        rating = ratings[i]
        e_i = sum(expected(rating, ratings[j], rules.scale) for j in range(n) if j != i) / pairs
        k = k_factor(rules.k, rating, states[i].games)
        raw = ffa_delta(k, pairs, perf[i], e_i)
        rounded = round_float(raw, rules.delta_rounding)
        warning = ""
        if scores[i] == low and raw > 0:
            warning = LOSER_GAIN
        elif scores[i] == high and raw < 0:
            warning = WINNER_LOSS
        entries.append(
            finish(
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
                rank=place[i],
                points=scores[i],
                warning=warning,
            )
        )
    return entries


def _no_outcomes(rules: RuleSet) -> Text | None:
    if rules.outcomes:
        return Text.of("an 'ffa_rank' rule set ranks by score: remove [outcomes]")
    return None


FFA_RANK = EloMethod(
    name="ffa_rank",
    shape=RANKED,
    summary="free-for-all games ranked by score",
    rate_game=rate_ffa,
    check_side_of=check_score_side,
    check_rules_of=_no_outcomes,
)
