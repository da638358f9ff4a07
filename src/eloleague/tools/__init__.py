"""Officer and referee tools: predict a game, balance teams, compare rule sets, evaluate.

Each module is pure: it takes a rule set, pools, games or a replay result and returns typed
results. Rating changes are always computed by the engine itself (:func:`eloleague.engine.replay`
on a one-game stream), never by a copy of its formulas.
"""

from eloleague.tools.balance import Balance, Team, balance
from eloleague.tools.compare import Comparison, compare
from eloleague.tools.evaluate import Evaluation, evaluate
from eloleague.tools.players import ToolError, resolve_player
from eloleague.tools.predict import Prediction, predict

__all__ = [
    "Balance",
    "Comparison",
    "Evaluation",
    "Prediction",
    "Team",
    "ToolError",
    "balance",
    "compare",
    "evaluate",
    "predict",
    "resolve_player",
]
