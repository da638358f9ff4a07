"""The rule file's formulas evaluated during a replay (docs/rule-sets.md, "Formulas").

A formula was checked when the rule file was read; what is left is a value that does not exist for
one game's variables (``1 / margin`` when the margin is 0): the replay then stops with a
:class:`~eloleague.errors.RuleSetError` naming the key, the column, the game and the values.
"""

from __future__ import annotations

from collections.abc import Mapping

from eloleague.errors import RuleSetError
from eloleague.i18n import Text
from eloleague.rules.expressions import EvaluationError, Expression
from eloleague.rules.model import RuleSet


def evaluated(
    rules: RuleSet, key: str, formula: Expression, values: Mapping[str, float], game: str
) -> float:
    """``formula`` for ``values``, or a :class:`RuleSetError` that says where and why."""
    try:
        return formula(values)
    except EvaluationError as exc:
        shown = ", ".join(f"{name} = {values[name]:g}" for name in sorted(formula.names))
        raise RuleSetError(
            Text.of(
                "rule set {rules}: key {key}, column {column}: {problem} ({game}{values})",
                rules=rules.name,
                key=key,
                column=exc.column,
                problem=exc.message,
                game=Text.of("game {game}: ", game=game) if game else "",
                values=shown,
            )
        ) from None
