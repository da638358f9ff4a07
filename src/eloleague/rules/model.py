"""The rule-set model: every parameter of docs/rule-sets.md, typed and validated (pydantic v2).

A rule set is data: the five presets are TOML files in ``presets/`` written in exactly the format a
community writes for itself (docs/rule-sets.md documents every key).
"""

from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal
from functools import cached_property
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from eloleague.i18n import Count, Text, french_typography
from eloleague.rules.expressions import Expression, ExpressionError, parse

NO_LIMIT = 2**62  # an absent bound on games (KTier.limits)
RoundingMode = Literal["none", "half_up", "trunc", "half_even"]
Updates = Literal["per_game", "per_event", "per_period"]
Period = Literal["day", "week", "month"]


NUMBER_MAX = 1_000_000
"""Every number of a rule file lies within ``-NUMBER_MAX .. NUMBER_MAX`` (a score of 1e308 would
make every rating infinite)."""
DAYS_MAX = 36_500
"""Durations in days (inactivity) are at most a hundred years: dates stay in the calendar."""


GAME_VARIABLES: dict[str, str] = {
    "k": "the K of [k] for the player",
    "rating": "the player's rating before the game",
    "opponent": "the opposing side's mean rating",
    "games": "the player's rated games before the game",
    "expected": "the expected score P",
    "score": "the score S of the side's outcome ([outcomes])",
    "points": "the points the player's side scored (its score)",
    "opponent_points": "the points the other side scored",
    "margin": "points - opponent_points",
    "diff": "the rating difference of the expectation, home advantage included, "
    "before lead_cap: the player's side minus the other",
    "lead": "the winning side's rating lead (means, home advantage included); 0 in a draw",
    "home": "1 when the player's side is at home, -1 when the other side is, 0 otherwise",
}
"""The variables of ``k_multiplier`` and ``score_value`` (docs/rule-sets.md, "Formulas")."""
DECAY_VARIABLES: dict[str, str] = {
    "rating": "the rating before this loss",
    "start": "the rating the idle spell began with (career scope: the first spell)",
    "lost": "the points lost so far (in the spell, or over the career)",
    "nth": "the loss's number in the idle spell (1, 2, ...)",
    "points": "the points of [decay]",
}
REVERSION_VARIABLES: dict[str, str] = {
    "rating": "the rating before the reversion",
    "mean": "the mean of [season.reversion]",
    "fraction": "the fraction of [season.reversion]",
    "games": "the player's rated games",
}
MARGIN_VARIABLES = frozenset(("points", "opponent_points", "margin"))
"""Variables that need each side's score on every game."""


def _formula(text: str | None, variables: dict[str, str]) -> str | None:
    """Check a formula key (a located error: the key, then the column)."""
    if text is not None:
        try:
            parse(text, variables)
        except ExpressionError as exc:
            raise ValueError(exc.located()) from None
    return text


class _Strict(BaseModel):
    """Unknown keys are errors: a typo in a rule file must not be silently ignored."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @field_validator("*", mode="after")
    @classmethod
    def _finite(cls, value: object) -> object:
        """No number past :data:`NUMBER_MAX`, no infinity, no NaN."""
        if (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and not (math.isfinite(value) and -NUMBER_MAX <= value <= NUMBER_MAX)
        ):
            raise ValueError(
                Text.of(
                    "expected a number from {min} to {max}",
                    min=Count(-NUMBER_MAX),
                    max=Count(NUMBER_MAX),
                )
            )
        return value


class Outcome(_Strict):
    """One label of the outcome table: its score value S (or W) and the labels it may face."""

    score: float
    against: tuple[str, ...] = Field(
        description="labels the other side may carry (docs/rule-sets.md step 3)"
    )
    fr: str | None = Field(default=None, description="French wording for sheets and pages")
    en: str | None = Field(default=None, description="English wording for sheets and pages")

    def wording(self, lang: str, label: str) -> str:
        """How ``label`` reads in ``lang`` (``fr``/``en``), the label itself when unworded."""
        return (self.fr if lang == "fr" else self.en) or label


class KTier(_Strict):
    """A K value that applies when all of its conditions hold (first matching tier wins)."""

    k: float = Field(gt=0)
    games_below: int | None = None
    games_at_least: int | None = None
    rating_below: float | None = None
    rating_at_least: float | None = None

    @cached_property
    def limits(self) -> tuple[int, int, float, float]:
        """The bounds ``(games_below, games_at_least, rating_below, rating_at_least)``, an
        absent bound as a limit that always holds (``engine.formulas.in_tier`` reads them)."""
        return (
            NO_LIMIT if self.games_below is None else self.games_below,
            -NO_LIMIT if self.games_at_least is None else self.games_at_least,
            math.inf if self.rating_below is None else self.rating_below,
            -math.inf if self.rating_at_least is None else self.rating_at_least,
        )


class KLinear(_Strict):
    """``max(minimum, start - games / per_games)`` (the Diplomacy site's rules: KMAX, K_SLOPE, KMAX / 2)."""

    start: float = Field(gt=0)
    per_games: float = Field(gt=0)
    minimum: float = Field(gt=0)


class KRule(_Strict):
    """The K factor: tiers tried in order, then ``default`` or the ``linear`` decay."""

    by_mode: dict[str, float] = Field(
        default_factory=dict,
        description="K by the game's mode (a match type), before the tiers (the duel method)",
    )
    tiers: tuple[KTier, ...] = ()
    default: float | None = Field(default=None, gt=0)
    linear: KLinear | None = None
    count_current_game: bool = Field(
        default=False,
        description="games played include the game being rated (the Diplomacy preset does)",
    )

    @field_validator("by_mode")
    @classmethod
    def _positive(cls, value: dict[str, float]) -> dict[str, float]:
        for mode, k in value.items():
            if not (math.isfinite(k) and 0 < k <= NUMBER_MAX):
                raise ValueError(
                    Text.of("K of mode {mode} must be greater than 0", mode=repr(mode))
                )
        return value

    @model_validator(mode="after")
    def _one_fallback(self) -> KRule:
        if (self.default is None) == (self.linear is None):
            raise ValueError(
                Text.of("give exactly one of 'default' (a number) or 'linear' (a decay)")
            )
        return self


class Rounding(_Strict):
    """How a value is rounded: ``none``, ``half_up`` (halves away from zero), ``trunc``, ``half_even``."""

    mode: RoundingMode = "none"
    decimals: int = Field(default=0, ge=0, le=6)


class GainCap(_Strict):
    """No gain for a player whose lead over the opposing side reaches ``lead`` (docs/rule-sets.md step 6)."""

    lead: float = Field(gt=0)
    inclusive: bool = True


class Teams(_Strict):
    """How many players a side may have."""

    min_size: int = Field(default=1, ge=1)
    max_size: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _ordered(self) -> Teams:
        if self.max_size is not None and self.max_size < self.min_size:
            raise ValueError(Text.of("max_size is smaller than min_size"))
        return self


class Pools(_Strict):
    """Which parts of the pool key ``(player, mode, role)`` separate ratings."""

    by_mode: bool = False
    by_role: bool = False


class InactivityTier(_Strict):
    """A rating strictly above ``above`` loses ``penalty`` at a season's end (first tier wins)."""

    above: float
    penalty: float = Field(gt=0)


class Reversion(_Strict):
    """Reversion toward the mean at a pool's first game of a new season
    (docs/rule-sets.md, "season"): ``R <- mean + fraction * (R - mean)``, or ``formula``."""

    mean: float | None = Field(default=None, description="default: the start rating")
    fraction: float | None = Field(default=None, ge=0, le=1)
    formula: str | None = None

    @field_validator("formula")
    @classmethod
    def _parsed(cls, value: str | None) -> str | None:
        return _formula(value, REVERSION_VARIABLES)

    @model_validator(mode="after")
    def _one(self) -> Reversion:
        if self.fraction is None and self.formula is None:
            raise ValueError(Text.of("give 'fraction' (or a 'formula')"))
        return self


class Season(_Strict):
    """Season boundaries and the inactivity rule applied at each end.

    By default a season is a calendar year; ``year_end`` moves the yearly end ("06-30"), and
    ``ends`` lists explicit end dates instead.
    """

    year_end: str = Field(default="12-31", pattern=r"^\d{2}-\d{2}$")
    ends: tuple[dt.date, ...] = ()
    inactivity: tuple[InactivityTier, ...] = ()
    floor: float | None = Field(
        default=None, description="an inactivity penalty never takes a rating below this"
    )
    reversion: Reversion | None = None

    @model_validator(mode="after")
    def _valid_year_end(self) -> Season:
        month, day = (int(x) for x in self.year_end.split("-"))
        try:
            dt.date(2001, month, day)  # a non-leap year: "02-29" is refused
        except ValueError:
            raise ValueError(
                Text.of(
                    "year_end {value} is not a day of the year (MM-DD)", value=repr(self.year_end)
                )
            ) from None
        if list(self.ends) != sorted(set(self.ends)):
            raise ValueError(Text.of("'ends' must list distinct dates in increasing order"))
        return self


class Decay(_Strict):
    """Time-based decay, an alternative to season adjustments (docs/rule-sets.md, "decay").

    A pool whose last rated game is more than ``idle_days`` old loses ``points`` every
    ``every_days`` (the first loss ``idle_days + every_days`` after that game), never more in total
    over one idle spell than ``cap_percent`` % of the rating the spell began with. Playing again
    ends the spell.
    """

    idle_days: int = Field(ge=0, le=DAYS_MAX)
    points: float | None = Field(default=None, gt=0)
    every_days: int = Field(gt=0, le=DAYS_MAX)
    cap_percent: float | None = Field(default=None, gt=0, le=100)
    cap_scope: Literal["spell", "career"] = "spell"
    step: str | None = None

    @field_validator("step")
    @classmethod
    def _parsed(cls, value: str | None) -> str | None:
        return _formula(value, DECAY_VARIABLES)

    @model_validator(mode="after")
    def _amount(self) -> Decay:
        if self.points is None and self.step is None:
            raise ValueError(Text.of("give 'points' (or a 'step' formula)"))
        return self

    @cached_property
    def step_formula(self) -> Expression | None:
        """The parsed ``step`` formula."""
        return None if self.step is None else parse(self.step, DECAY_VARIABLES)


class Title(_Strict):
    """A title held by a player whose rating and games reach the minimums."""

    name: str = Field(min_length=1)
    min_rating: float | None = None
    min_games: int = Field(default=0, ge=0)
    max_games: int | None = Field(default=None, ge=0)

    def holds(self, rating: float, games: int) -> bool:
        """Whether a player with ``rating`` and ``games`` holds this title."""
        return (
            (self.min_rating is None or rating >= self.min_rating)
            and games >= self.min_games
            and (self.max_games is None or games <= self.max_games)
        )


class FreeForAll(_Strict):
    """Constants of the score-ranked free-for-all method (the Diplomacy site's rules)."""

    alpha: float = Field(default=1.5, gt=1)
    renormalise: bool = Field(
        default=False,
        description="rescale the positive scorers' performances to sum to 1 (the Diplomacy site's rules: off)",
    )


class Glicko2Options(_Strict):
    """The parameters of the ``glicko2`` method: ``tau`` and a new pool's deviation and
    volatility (Glickman's defaults)."""

    tau: float = Field(default=0.5, gt=0, description="how much the volatility may change")
    deviation: float = Field(default=350, gt=0, description="a new pool's rating deviation")
    volatility: float = Field(default=0.06, gt=0, description="a new pool's volatility")


def _in_language(text: str | dict[Literal["fr", "en"], str], lang: str) -> str:
    """A rule file's text for people, one text or one per language: the one in ``lang`` (the
    other language's when it has only one), a French one with French typography."""
    if isinstance(text, str):
        return text
    own = text.get(lang)  # type: ignore[call-overload]
    if own:
        return french_typography(own) if lang == "fr" else str(own)
    return next(iter(text.values()), "")


class RuleSet(_Strict):
    """Every parameter of one community's rating rules (docs/rule-sets.md)."""

    name: str = Field(min_length=1)
    description: str | dict[Literal["fr", "en"], str] = Field(
        default="", description='one text, or one per language: { fr = "…", en = "…" }'
    )
    seed: str | None = Field(default=None, description="the source document these rules follow")
    method: str = Field(description="a registered rating method (eloleague.engine.methods)")
    start_rating: float
    scale: float = Field(
        default=400, gt=0, description="D in E(a, b) = 1 / (1 + 10 ** ((b - a) / D))"
    )
    outcomes: dict[str, Outcome] = Field(default_factory=dict)
    k: KRule | None = Field(default=None, description="the K factor of the Elo methods")
    probability_decimals: int | None = Field(default=None, ge=0, le=6)
    delta_rounding: Rounding = Rounding()
    display: Rounding | None = Field(
        default=None,
        description="how ratings are shown; default: integers when deltas round to integers",
    )
    gain_cap: GainCap | None = None
    rating_floor: float | None = None
    rating_storage: Literal["grid", "sum"] = Field(
        default="grid",
        description="with deltas rounded to decimals: ratings kept on that grid, or the raw "
        "float sum of the rounded deltas",
    )
    home_advantage: float = Field(
        default=0, ge=0, description="points added to the home side's rating in the expectation"
    )
    lead_cap: float | None = Field(
        default=None, gt=0, description="the expectation's rating difference is capped to this"
    )
    k_multiplier: str | None = Field(default=None, description="a formula multiplying K")
    score_value: str | None = Field(default=None, description="a formula giving S")
    updates: Updates = "per_game"
    period: Period | None = None
    period_games_count: Literal["grows", "frozen"] = "frozen"
    teams: Teams = Teams()
    pools: Pools = Pools()
    roles: tuple[str, ...] = ()
    role_heading: str | dict[Literal["fr", "en"], str] = Field(
        default="",
        description="what the roles are called where people read them, one text or one per "
        'language: { fr = "Pays", en = "Country" } (default: Role)',
    )
    season: Season = Season()
    decay: Decay | None = None
    titles: tuple[Title, ...] = ()
    ffa: FreeForAll = FreeForAll()
    glicko2: Glicko2Options = Glicko2Options()
    labels: dict[Literal["fr", "en"], dict[str, str]] = Field(
        default_factory=dict,
        description="names (titles, roles, modes, outcomes) in each language: [labels.fr]",
    )

    @field_validator("method")
    @classmethod
    def _registered(cls, value: str) -> str:
        from eloleague.engine.methods import names  # the engine registers the methods

        allowed = names()
        if value not in allowed:
            quoted = [repr(n) for n in allowed]
            raise PydanticCustomError(
                "literal_error",
                "Input should be {expected}",
                {"expected": " or ".join((", ".join(quoted[:-1]), quoted[-1]))},
            )
        return value

    @field_validator("k_multiplier", "score_value")
    @classmethod
    def _game_formula(cls, value: str | None) -> str | None:
        return _formula(value, GAME_VARIABLES)

    @model_validator(mode="after")
    def _consistent(self) -> RuleSet:
        from eloleague.engine.methods import method_of

        problem = method_of(self).check_rules(self)
        if problem is not None:
            raise ValueError(problem)
        if self.updates == "per_period" and self.period is None:
            raise ValueError(
                Text.of("updates = 'per_period' needs period = 'day', 'week' or 'month'")
            )
        if self.updates != "per_period" and self.period is not None:
            raise ValueError(Text.of("'period' is only used with updates = 'per_period'"))
        if len(set(self.roles)) != len(self.roles):
            raise ValueError(Text.of("'roles' lists a role twice"))
        if self.pools.by_role and not self.roles:
            raise ValueError(Text.of("pools.by_role needs the list of 'roles'"))
        if self.role_heading and not self.roles:
            raise ValueError(Text.of("'role_heading' names the 'roles': list them"))
        return self

    # Derived views, used by the engine and the writers -------------------------------------

    def label(self, name: str, lang: str) -> str:
        """How a title, role, mode or outcome named ``name`` in the rule file reads in ``lang``:
        its ``[labels.<lang>]`` entry, else an outcome's ``fr``/``en`` wording, else ``name``."""
        if not name:
            return name
        found = self.labels.get(lang, {}).get(name)  # type: ignore[call-overload]
        if found:
            return str(found)
        outcome = self.outcomes.get(name)
        return outcome.wording(lang, name) if outcome is not None else name

    def described(self, lang: str) -> str:
        """The rule set's description in ``lang`` (the other language's when it has only one),
        a French one with French typography ("L'Art de la Guerre : paliers de K")."""
        return _in_language(self.description, lang)

    def roles_heading(self, lang: str) -> str | None:
        """What the roles are called in ``lang`` (Diplomacy's: "Pays", "Country"), or ``None``
        when the rule file does not say (the reader's own word for a role is shown)."""
        return _in_language(self.role_heading, lang) or None

    def role_noun(self, lang: str) -> str | None:
        """The roles' word inside a sentence in ``lang`` (« chaque pays », "each country"): the
        :meth:`roles_heading` in lower case, or ``None`` when the rule file does not name them."""
        heading = self.roles_heading(lang)
        return heading.lower() if heading else None

    def names_of(self) -> dict[str, str]:
        """Each label of ``[labels]`` (any language) -> the rule file's name it stands for, to
        read back a file written in the reader's language."""
        return {word: name for table in self.labels.values() for name, word in table.items()}

    def named(self, word: str) -> str:
        """The rule file's name of a role, mode or title as a user typed it: the name itself, or
        its label in any language ("Turquie" is Turkey, "classique" is classic: what the French
        tables show), in any case; else ``word`` as it is (a mode the rules do not list)."""
        by_label = self.names_of()
        names = {*self.roles, *by_label.values()}
        if word in names:
            return word
        if word in by_label:
            return by_label[word]
        folded = word.casefold()
        for label, name in [*((n, n) for n in names), *by_label.items()]:
            if label.casefold() == folded:
                return name
        return word

    @property
    def rounds_to_integers(self) -> bool:
        """Whether ratings stay whole numbers (deltas rounded to 0 decimals)."""
        return self.delta_rounding.mode != "none" and self.delta_rounding.decimals == 0

    @cached_property
    def shown(self) -> Rounding | None:
        """How published ratings are shown: the ``display`` key, or integers when deltas are
        (found once: a player's page shows thousands of numbers)."""
        if self.display is not None:
            return self.display
        if self.rounds_to_integers:
            return Rounding(mode="half_up", decimals=0)
        return None

    @cached_property
    def k_formula(self) -> Expression | None:
        """The parsed ``k_multiplier`` formula."""
        return None if self.k_multiplier is None else parse(self.k_multiplier, GAME_VARIABLES)

    @cached_property
    def score_formula(self) -> Expression | None:
        """The parsed ``score_value`` formula."""
        return None if self.score_value is None else parse(self.score_value, GAME_VARIABLES)

    @cached_property
    def reversion_formula(self) -> Expression | None:
        """The parsed ``[season.reversion] formula``."""
        rev = self.season.reversion
        if rev is None or rev.formula is None:
            return None
        return parse(rev.formula, REVERSION_VARIABLES)

    @property
    def uses_margins(self) -> bool:
        """Whether a formula reads the sides' points (every rated game must then give them)."""
        return any(
            f is not None and f.names & MARGIN_VARIABLES
            for f in (self.k_formula, self.score_formula)
        )

    @property
    def game_keys(self) -> tuple[str, ...]:
        """The keys of the duel method's game features this rule set uses (other methods
        refuse them)."""
        used = {
            "home_advantage": self.home_advantage != 0,
            "lead_cap": self.lead_cap is not None,
            "k_multiplier": self.k_multiplier is not None,
            "score_value": self.score_value is not None,
            "k.by_mode": self.k is not None and bool(self.k.by_mode),
        }
        return tuple(name for name, on in used.items() if on)

    def outcome_score(self, label: str) -> Decimal:
        """The exact decimal value of an outcome's score, as written in the rule file."""
        return Decimal(repr(self.outcomes[label].score))

    def title_for(self, rating: float, games: int) -> str:
        """The first title whose conditions hold, or ``""``."""
        for title in self.titles:
            if title.holds(rating, games):
                return title.name
        return ""
