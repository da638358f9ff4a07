"""The rating engine: pure functions over typed records (no I/O, no database, no web).

Entry points: :func:`replay` (a stream of games → ledger and final state), :func:`check_game`
(the rule-set checks every reader shares), :func:`standings` (ranking rows with titles).
"""

from eloleague.engine.kfactor import k_factor
from eloleague.engine.ledger import LedgerEntry, running_ratings
from eloleague.engine.maths import expected
from eloleague.engine.methods import ffa_performances, pool_key
from eloleague.engine.replay import batches, replay
from eloleague.engine.standings import GLOBAL_ROLE, Standing, standings
from eloleague.engine.state import EngineState, ReplayResult, Unrated
from eloleague.engine.validate import check_game, unrated_reason

__all__ = [
    "GLOBAL_ROLE",
    "EngineState",
    "LedgerEntry",
    "ReplayResult",
    "Standing",
    "Unrated",
    "batches",
    "check_game",
    "expected",
    "ffa_performances",
    "k_factor",
    "pool_key",
    "replay",
    "running_ratings",
    "standings",
    "unrated_reason",
]
