"""Readers and writers of the interchange formats (docs/formats.md).

Readers parse and validate *everything* before returning: structural problems (bad JSON, dates,
types) and the rule set's checks (:func:`eloleague.engine.check_game`) are reported together, each
with its location, in one :class:`eloleague.errors.InputError`.
"""

from eloleague.io.games import read_games, validate_games
from eloleague.io.jsonl import parse_jsonl
from eloleague.io.long_csv import parse_long_csv

__all__ = ["parse_jsonl", "parse_long_csv", "read_games", "validate_games"]
