"""eloleague: Elo rankings for game communities, with their own rules as data files.

The public Python API:

- :func:`eloleague.rules.load_rules` loads a preset or a TOML rule file into a :class:`RuleSet`;
- :func:`eloleague.engine.replay` rates a list of :class:`GameRecord` and returns the final state
  and the ledger (pure: no I/O);
- :mod:`eloleague.io` reads the interchange formats (JSON Lines, CSV long format) into records.
"""

from eloleague.records import GameRecord, Participant, Side

__all__ = ["GameRecord", "Participant", "Side"]
__version__ = "0.1.0"
