"""The layout of the fast path's arrays: kernel parameters, ledger columns, codes.

Shared by the kernel (numba) and by the Python that prepares its input and reads its output, which
must not need numba to be imported (a ledger read back, a command that never replays).
"""

from eloleague.engine.methods.duel import DUEL
from eloleague.engine.methods.ffa_rank import FFA_RANK
from eloleague.engine.methods.team_and_personal import TEAM_AND_PERSONAL

# The methods the kernel implements, by code (any other method: the reference path) -----------
METHOD_DUEL, METHOD_TEAMS, METHOD_FFA = range(3)
KERNEL_METHODS = {
    DUEL.name: METHOD_DUEL,
    TEAM_AND_PERSONAL.name: METHOD_TEAMS,
    FFA_RANK.name: METHOD_FFA,
}

# Integer parameters (``ip``) ---------------------------------------------------------------
P_METHOD = 0  # a code of KERNEL_METHODS
P_PROB_DECIMALS = 1  # -1: P not rounded
P_ROUND_MODE = 2  # 0 none, 1 half_up, 2 trunc, 3 half_even
P_ROUND_DECIMALS = 3
P_CAP = 4  # 0 none, 1 inclusive (>=), 2 exclusive (>)
P_FLOOR = 5  # 0/1
P_TIERS = 6  # number of K tiers
P_LINEAR = 7  # 0/1: K falls back to the linear decay (else to the default)
P_COUNT_CURRENT = 8  # 0/1
P_SEASON_TIERS = 9  # number of inactivity tiers
P_SEASON_FLOOR = 10  # 0/1
P_SCORE_SCALE = 11  # B: outcome scores are integers of 10**-B
P_DEN_EXP = 12  # A + B + n: K * (S - P) is an integer of 10**-(A+B+n)
P_RENORMALISE = 13  # 0/1 (ffa)
N_IP = 14

# Float parameters (``fp``) -----------------------------------------------------------------
F_SCALE = 0
F_CAP_LEAD = 1
F_FLOOR = 2
F_LIN_START = 3
F_LIN_PER = 4
F_LIN_MIN = 5
F_K_DEFAULT = 6
F_SEASON_FLOOR = 7
N_FP = 8

# Ledger columns ----------------------------------------------------------------------------
# Floats: C_OTHER is the opposing side's mean (duel, team) or the points scored (ffa); C_TEAM,
# the team term's p, exists for team_and_personal only.
C_BEFORE, C_EXPECTED, C_K, C_SCORE, C_DELTA, C_AFTER, C_RAW, C_OTHER, C_TEAM = range(9)
N_FLOAT_COLUMNS = 8
# int32: the game's position in the input (-1: a season entry), the pool, the day (ordinal) and
# I_CODE = fired bits | warning << WARN_SHIFT | (outcome code, or rank in ffa) << VALUE_SHIFT.
I_GAME, I_POOL, I_DAY, I_CODE = range(4)
N_INT_COLUMNS = 4
VALUE_SHIFT = 8

# Bits of I_CODE: the rules that fired (in the reference's order) and the warning (bits 4-5).
FIRED_ROUNDING = 1
FIRED_CAP = 2
FIRED_FLOOR = 4
FIRED_INACTIVITY = 8
WARN_SHIFT = 4
WARN_LOSER_GAIN = 1
WARN_WINNER_LOSS = 2
WARN_INACTIVITY = 3

# Status codes.
OK = 0
OVERFLOW = 1  # 10 ** x overflowed: the reference raises, let it
FULL = 2  # the ledger's columns are full: run again with more room
