"""Reading a games file of any supported format, then checking it against a rule set."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from eloleague.engine.validate import check_game
from eloleague.errors import InputError, Problem
from eloleague.records import GameRecord
from eloleague.rules.model import RuleSet


def validate_games(rules: RuleSet, games: Sequence[GameRecord]) -> list[Problem]:
    """The rule set's checks over every game, each problem at the game's origin (RULES §2)."""
    problems = []
    for game in games:
        for message in check_game(rules, game):
            problems.append(Problem(game.origin, message))
    return problems


def read_games(path: str | Path, rules: RuleSet) -> list[GameRecord]:
    """Read a games file (``.jsonl``, ``.csv`` long format) and check it against ``rules``.

    Raises :class:`InputError` with every problem when anything is wrong; returns nothing partial.
    """
    from eloleague.io.jsonl import parse_jsonl
    from eloleague.io.long_csv import parse_long_csv

    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError([Problem("", "no such file")], str(path)) from None
    except OSError as exc:
        raise InputError([Problem("", f"cannot read the file: {exc.strerror}")], str(path)) from None
    suffix = path.suffix.lower()
    if suffix == ".csv":
        games, problems = parse_long_csv(data)
    elif suffix in {".jsonl", ".ndjson", ".json"}:
        games, problems = parse_jsonl(data)
    else:
        raise InputError(
            [Problem("", f"unknown file type {suffix!r}: expected .jsonl or .csv")], str(path)
        )
    problems += validate_games(rules, games)
    if problems:
        raise InputError(problems, str(path))
    return games
