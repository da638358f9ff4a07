"""What a rating method is: the small protocol every method module implements (docs/rule-sets.md,
"Rating methods").

A method names itself, says the shape of its games (two sides with outcomes, or a free-for-all
ranked by score), the fields its pools keep beyond a rating and a games count, how it checks a
game's results, its expected score, and how it rates one update batch (docs/rule-sets.md, "Update timing"). The replay
(``engine/replay.py``) handles order, batches, seasons and decay for every method alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from eloleague.engine.ledger import LedgerEntry
from eloleague.i18n import Text
from eloleague.records import GameRecord, Participant, PoolKey, PoolState, Side
from eloleague.rules.model import RuleSet

Shape = Literal["two_sides", "ranked"]
TWO_SIDES: Shape = "two_sides"
RANKED: Shape = "ranked"

Lookup = Callable[[PoolKey], PoolState]
"""A pool's state as a batch sees it (a new pool: the method's :meth:`RatingMethod.new_pool`)."""

Batch = Sequence[tuple[GameRecord, str]]
"""The games of one update batch in processing order, each with its ledger label."""


@dataclass(frozen=True, slots=True)
class Rated:
    """What a batch did: its ledger entries, and the new state of every pool it rated (in order
    of the pools' first entries)."""

    entries: list[LedgerEntry]
    pools: dict[PoolKey, PoolState]


class RatingMethod(Protocol):
    """One rating method (``method = "..."`` in a rule file)."""

    @property
    def name(self) -> str:
        """The value of ``method`` in a rule file."""
        ...

    @property
    def shape(self) -> Shape:
        """``two_sides``: two sides that carry outcomes; ``ranked``: sides of one player each,
        ranked by their scores."""
        ...

    @property
    def pool_fields(self) -> tuple[str, ...]:
        """Fields of a pool's state beyond rating and games (``PoolState.extra``, in order)."""
        ...

    @property
    def shown_fields(self) -> tuple[str, ...]:
        """The pool fields published beside the rating (the ratings CSV after ``title``, the
        pages, ``--initial``), a part of :attr:`pool_fields`."""
        ...

    @property
    def summary(self) -> str:
        """The method in one English phrase (translated through the ``web`` catalogue)."""
        ...

    def check_rules(self, rules: RuleSet) -> Text | None:
        """What is wrong with a rule set of this method (its own keys), or ``None``."""
        ...

    def check_side(self, rules: RuleSet, side: Side, number: int) -> list[Text]:
        """Every problem with one side's result (side ``number``, from 1) under this method;
        the number of sides and whether two outcomes may face each other follow the shape."""
        ...

    def new_pool(self, rules: RuleSet) -> PoolState:
        """The state of a pool before its first game."""
        ...

    def expected(self, rules: RuleSet, a: PoolState, b: PoolState) -> float:
        """The expected score of a player (or side) in state ``a`` against ``b``."""
        ...

    def settle(
        self, rules: RuleSet, pools: dict[PoolKey, PoolState], periods: int
    ) -> dict[PoolKey, PoolState]:
        """The pools as they stand after ``periods`` rating periods (a method whose pools change
        between games, e.g. a deviation that grows, brings them up to date; others return
        ``pools``). A replay calls it once, at its end."""
        ...

    def rate(self, rules: RuleSet, batch: Batch, lookup: Lookup, period: int = 0) -> Rated:
        """Rate one update batch from the pools as ``lookup`` gives them when it begins;
        ``period`` counts the batches rated before it (``EngineState.periods``)."""
        ...


def pool_key(rules: RuleSet, game: GameRecord, participant: Participant) -> PoolKey:
    """The pool a participant's rating lives in for this rule set."""
    return PoolKey(
        participant.name,
        game.mode if rules.pools.by_mode else "",
        participant.role if rules.pools.by_role else "",
    )


def check_outcome_side(rules: RuleSet, side: Side, number: int) -> list[Text]:
    """A side of a two-sided game: an outcome of the rule set."""
    t = Text.of
    labels = ", ".join(rules.outcomes)
    if side.outcome is None:
        if side.score is not None:
            return [
                t(
                    "side {side}: rule set {rules} rates outcomes, not scores: "
                    "give an outcome (one of: {labels})",
                    side=number,
                    rules=rules.name,
                    labels=labels,
                )
            ]
        return [
            t("side {side}: an outcome is required (one of: {labels})", side=number, labels=labels)
        ]
    if side.outcome not in rules.outcomes:
        return [
            t(
                'side {side}: unknown outcome "{outcome}" (expected one of: {labels})',
                side=number,
                outcome=side.outcome,
                labels=labels,
            )
        ]
    return []


def check_score_side(rules: RuleSet, side: Side, number: int) -> list[Text]:
    """A side of a ranked game: a score, not an outcome."""
    if side.outcome is not None:
        return [
            Text.of(
                "side {side}: rule set {rules} ranks players by score: give a score, "
                'not the outcome "{outcome}"',
                side=number,
                rules=rules.name,
                outcome=side.outcome,
            )
        ]
    if side.score is None:
        return [Text.of("side {side}: a score is required", side=number)]
    return []


def check_outcomes(rules: RuleSet) -> Text | None:
    """The outcome table of a two-sided method: at least two labels, ``against`` symmetric."""
    if len(rules.outcomes) < 2:
        return Text.of(
            "a {method} rule set needs at least two [outcomes]", method=repr(rules.method)
        )
    for label, outcome in rules.outcomes.items():
        for other in outcome.against:
            if other not in rules.outcomes:
                return Text.of(
                    "outcome {label} may face {other}, which is not an outcome",
                    label=repr(label),
                    other=repr(other),
                )
            if label not in rules.outcomes[other].against:
                return Text.of(
                    "outcome {label} may face {other} but {other} does not list "
                    "{label} in its 'against'",
                    label=repr(label),
                    other=repr(other),
                )
    return None
