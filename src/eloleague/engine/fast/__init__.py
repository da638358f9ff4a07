"""The fast path of :func:`eloleague.engine.replay`: a compiled kernel over integer-coded arrays.

:func:`try_replay` computes exactly what the reference path (``engine/replay.py``) computes, the
same ledger and the same final state, for the rule sets and inputs it supports, and returns
``None`` for anything else so that the reference path runs instead:

- rule sets: the three Elo methods (``layout.KERNEL_METHODS``; any other registered method,
  Glicko-2 included, declines), per-game and per-event updates, K tiers or linear K, rounded or
  exact probabilities, ``half_up``/``trunc``/``half_even`` deltas to whole points, gain caps,
  rating floors, pools by mode and role, seasons with inactivity tiers; every key it does not
  know (time decay, per-period updates, deltas rounded to decimals, future keys) declines
  (:func:`~eloleague.engine.fast.support.unsupported`);
- inputs of at least ``ELOLEAGUE_FAST_MIN_GAMES`` games (default 2,000: below that the reference
  path is as quick and needs no compiled code);
- numba installed. ``ELOLEAGUE_ENGINE=reference`` turns the fast path off.

The reference path stays the definition; ``tests/engine/test_fast_path.py`` holds the two equal.
The fast path is an accelerator, never a second engine: the formulas it compiles are the
reference's own (``engine/formulas.py``), and whatever it does not implement (a method, a rule-set
key, a state or pool field) it declines.
"""

from __future__ import annotations

import datetime as dt
import gc
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from eloleague.engine.fast.support import unsupported
from eloleague.records import GameRecord
from eloleague.rules.model import RuleSet

if TYPE_CHECKING:
    from eloleague.engine.state import EngineState, ReplayResult

MIN_GAMES = 2000

__all__ = ["MIN_GAMES", "available", "try_replay", "unsupported"]


def available() -> bool:
    """Whether the compiled kernel can be used here (numba importable, not turned off)."""
    if os.environ.get("ELOLEAGUE_ENGINE", "").strip().lower() == "reference":
        return False
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def _min_games() -> int:
    try:
        return int(os.environ.get("ELOLEAGUE_FAST_MIN_GAMES", MIN_GAMES))
    except ValueError:
        return MIN_GAMES


def try_replay(
    rules: RuleSet,
    games: Sequence[GameRecord],
    state: EngineState,
    as_of: dt.date | None,
    *,
    min_games: int | None = None,
) -> ReplayResult | None:
    """The replay of ``games`` from ``state`` by the fast path, or ``None`` when it declines."""
    if len(games) < (_min_games() if min_games is None else min_games) or not games:
        return None
    if unsupported(rules) is not None:
        return None
    # Millions of objects and no cycles: the collector would walk the caller's records over and
    # over (even while numba and numpy are first imported), for nothing.
    was = gc.isenabled()
    gc.disable()
    try:
        if not available():
            return None
        from eloleague.engine.fast.run import run_fast

        return run_fast(rules, games, state, as_of)
    finally:
        if was:
            gc.enable()
