"""The batch job behind ``eloleague rate`` (docs/formats.md), callable from Python too.

``rate_file(path, "adlg")`` reads and validates the games, the optional initial ratings, runs the
engine and returns a :class:`RateResult` that writes the ratings CSV and the ledger.
"""

from __future__ import annotations

import datetime as dt
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from eloleague.engine.fast import unsupported, warmup
from eloleague.engine.fast.ledger import ColumnarLedger
from eloleague.engine.methods import ledger_fields
from eloleague.engine.replay import ReplayResult, replay
from eloleague.engine.standings import Standing
from eloleague.errors import InputError, Problem
from eloleague.i18n import Text
from eloleague.io.games import read_games
from eloleague.io.ledger_columns import write_ledger_columns
from eloleague.io.ledger_csv import write_ledger
from eloleague.io.ratings_csv import parse_initial, write_ratings
from eloleague.memory import no_gc
from eloleague.records import PoolKey, PoolState
from eloleague.rules import load_rules
from eloleague.rules.model import RuleSet


@dataclass(frozen=True)
class RateResult:
    """What ``rate`` computed, ready to be written."""

    rules: RuleSet
    replay: ReplayResult
    standings: list[Standing]
    warnings: list[Problem]

    def write_csv(self, out: TextIO) -> None:
        write_ratings(self.standings, self.rules, out)

    def write_ledger(self, path: Path) -> None:
        ledger = self.replay.ledger
        with path.open("w", encoding="utf-8", newline="") as out:
            if isinstance(ledger, ColumnarLedger):  # the fast path's: written from its columns
                write_ledger_columns(ledger, out)
            else:
                write_ledger(ledger, out, ledger_fields(self.rules))


def read_initial(path: Path, rules: RuleSet) -> dict[PoolKey, PoolState]:
    """Read ``--initial`` ratings, raising :class:`InputError` with every problem."""
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise InputError([Problem("", Text.of("no such file"))], str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        message = Text.of("cannot read the file: {reason}", reason=exc)
        raise InputError([Problem("", message)], str(path)) from None
    pools, problems = parse_initial(text, rules)
    if problems:
        raise InputError(problems, str(path))
    return pools


# Files from this size on are rated by the compiled fast path (well above its MIN_GAMES games).
LARGE_FILE = 2_000_000  # bytes


def _compile_while_reading(path: Path, rules: RuleSet) -> subprocess.Popen[bytes] | None:
    """On a machine whose compiled kernel is not cached yet, compile it in another process
    while this one reads a large file (engine/fast/warmup.py)."""
    try:
        large = path.stat().st_size >= LARGE_FILE
    except OSError:
        return None
    if not large or unsupported(rules) is not None:
        return None
    return warmup.start()


def rate_file(
    path: str | Path,
    rules: str | Path | RuleSet,
    *,
    as_of: dt.date | None = None,
    initial: str | Path | None = None,
    active_days: int | None = None,
) -> RateResult:
    """Read, validate and rate a games file; every input is checked before anything is computed."""
    rule_set = rules if isinstance(rules, RuleSet) else load_rules(rules)
    start = read_initial(Path(initial), rule_set) if initial is not None else None
    compiling = _compile_while_reading(Path(path), rule_set)
    try:
        with no_gc():
            games = read_games(path, rule_set)
            warmup.finish(compiling)
            result = replay(rule_set, games, initial=start, as_of=as_of)
    finally:
        warmup.finish(compiling)
    warnings = [
        Problem(
            u.game.origin,
            Text.of(
                "game {game} is not rated ({reason})",
                game=u.game.id or f"#{u.position + 1}",
                reason=u.reason,
            ),
        )
        for u in result.unrated
    ]
    return RateResult(rule_set, result, result.standings(active_days=active_days), warnings)
