"""A rule set in words, for the rules page (docs/rule-sets.md: K tiers, outcomes, titles, inactivity).

Each sentence is a translatable :class:`eloleague.i18n.Text` (the ``web`` catalogue); the page and
its JSON twin give the same sentences in the visitor's language.
"""

from __future__ import annotations

from typing import Any

from eloleague.engine.methods import method_of
from eloleague.i18n import Text, count_of, render
from eloleague.rules.model import KTier, RuleSet
from eloleague.web.numbers import day, yearly

_ROUNDING = {
    "none": "not rounded",
    "half_up": "rounded to the nearest whole number, halves away from zero",
    "trunc": "truncated towards zero",
    "half_even": "rounded to the nearest, halves to even",
}
_UPDATES = {
    "per_game": "after every game",
    "per_event": "at the end of each event (all its games from the ratings it began with)",
    "per_period": "at the end of each period",
}


def _n(value: float) -> str:
    return f"{value:g}"


def _tier(tier: KTier) -> Text:
    parts = []
    if tier.games_below is not None:
        parts.append(
            Text.plural("fewer than {count} game", "fewer than {count} games", tier.games_below)
        )
    if tier.games_at_least is not None:
        parts.append(
            Text.plural("at least {count} game", "at least {count} games", tier.games_at_least)
        )
    if tier.rating_below is not None:
        parts.append(Text.of("a rating below {r}", r=_n(tier.rating_below)))
    if tier.rating_at_least is not None:
        parts.append(Text.of("a rating of {r} or more", r=_n(tier.rating_at_least)))
    return Text.of("K = {k} for {conditions}", k=_n(tier.k), conditions=parts)


def _game_features(rules: RuleSet) -> list[Text]:
    """Home advantage, the 400-point rule, the score formula and how ratings are stored."""
    out = []
    if rules.home_advantage:
        out.append(
            Text.of(
                "The home side counts {points} extra rating points in the expected score "
                "(none on a neutral site).",
                points=_n(rules.home_advantage),
            )
        )
    if rules.lead_cap is not None:
        out.append(
            Text.of(
                "A rating difference of more than {cap} points counts as {cap} in the expected "
                "score.",
                cap=_n(rules.lead_cap),
            )
        )
    if rules.score_value is not None:
        out.append(Text.of("The score S of a side is {formula}.", formula=rules.score_value))
    rounding = rules.delta_rounding
    if rounding.mode != "none" and rounding.decimals > 0:
        out.append(
            Text.plural(
                "Changes are rounded to {count} decimal; a rating is the exact sum of its rounded "
                "changes.",
                "Changes are rounded to {count} decimals; a rating is the exact sum of its rounded "
                "changes.",
                rounding.decimals,
            )
            if rules.rating_storage == "sum"
            else Text.plural(
                "Changes are rounded to {count} decimal and ratings kept on that grid.",
                "Changes are rounded to {count} decimals and ratings kept on that grid.",
                rounding.decimals,
            )
        )
    return out


def _reversion(rules: RuleSet) -> list[Text]:
    rev = rules.season.reversion
    if rev is None:
        return []
    mean = _n(rules.start_rating if rev.mean is None else rev.mean)
    if rev.formula is not None:
        return [
            Text.of(
                "at a player's first game of a new season, the rating becomes {formula} "
                "(mean {mean})",
                formula=rev.formula,
                mean=mean,
            )
        ]
    return [
        Text.of(
            "at a player's first game of a new season, the rating moves toward {mean}, keeping "
            "{fraction} of its distance from it",
            mean=mean,
            fraction=_n(rev.fraction or 0.0),
        )
    ]


def _decay(rules: RuleSet) -> list[Text]:
    d = rules.decay
    assert d is not None
    points = _n(d.points or 0.0) if d.step is None else str(d.step)
    out = [
        Text.of(
            "after {idle}, {lost} {every}",
            idle=Text.plural("{count} idle day", "{count} idle days", d.idle_days),
            lost=Text.plural(
                "{points} point is lost",
                "{points} points are lost",
                count_of(points),
                points=points,
            ),
            every=Text.plural("every day", "every {count} days", d.every_days),
        )
    ]
    if d.cap_percent is not None:
        out.append(
            Text.of(
                "never more than {percent}% of the rating over one idle spell",
                percent=_n(d.cap_percent),
            )
            if d.cap_scope == "spell"
            else Text.of(
                "never more than {percent}% of the rating over the player's whole career",
                percent=_n(d.cap_percent),
            )
        )
    return out


def describe(rules: RuleSet, lang: str) -> dict[str, Any]:
    """The rule set as sections of sentences in ``lang``."""

    def _param(value: object) -> object:
        if isinstance(value, Text):
            return t(value)
        if isinstance(value, list):
            return t(Text.of(" and ")).join(t(v) for v in value)
        return value

    def t(message: Text | str) -> str:
        if isinstance(message, Text):
            params = {k: _param(v) for k, v in message.params.items()}
            return render(Text(message.template, params), lang, "web")
        return message

    general = [
        Text.of("Method: {method}.", method=Text.of(method_of(rules).summary)),
        Text.of("A new player starts at {r}.", r=_n(rules.start_rating)),
        Text.of("Expected score: E = 1 / (1 + 10^((opponent - player) / {d})).", d=_n(rules.scale)),
        Text.of("Ratings change {when}.", when=Text.of(_UPDATES[rules.updates])),
    ]
    if rules.probability_decimals is not None:
        general.append(
            Text.plural(
                "The expected score P is rounded to {count} decimal.",
                "The expected score P is rounded to {count} decimals.",
                rules.probability_decimals,
            )
        )
    general.append(Text.of("Changes are {how}.", how=Text.of(_ROUNDING[rules.delta_rounding.mode])))
    if rules.gain_cap is not None:
        general.append(
            Text.of(
                "A player leading the opposing side by {lead} points or more gains nothing."
                if rules.gain_cap.inclusive
                else "A player leading the opposing side by more than {lead} points gains nothing.",
                lead=_n(rules.gain_cap.lead),
            )
        )
    if rules.rating_floor is not None:
        general.append(Text.of("No rating goes below {r}.", r=_n(rules.rating_floor)))
    general.extend(_game_features(rules))
    if rules.pools.by_role:  # the roles as the reader reads them: « Chaque pays (Angleterre…) »
        general.append(
            Text.of(
                "Each {role} has its own rating ({roles}); the global rating is their mean.",
                role=rules.role_noun(lang) or Text.of("role"),
                roles=", ".join(rules.label(role, lang) for role in rules.roles),
            )
        )

    k: list[Text] = []
    if rules.k is not None:  # the Elo methods
        k_rule = rules.k
        k = [_tier(tier) for tier in k_rule.tiers]
        if k_rule.default is not None:
            k.append(
                Text.of("otherwise K = {k}", k=_n(k_rule.default))
                if k
                else Text.of("K = {k}", k=_n(k_rule.default))
            )
        if k_rule.linear is not None:
            lin = k_rule.linear
            k.append(
                Text.of(
                    "K = max({m}, {s} - games / {p})",
                    m=_n(lin.minimum),
                    s=_n(lin.start),
                    p=_n(lin.per_games),
                )
            )
        if k_rule.count_current_game:
            k.append(Text.of("the games count includes the game being rated"))
        k[:0] = [
            Text.of("K = {k} in games of mode {mode}", k=_n(value), mode=mode)
            for mode, value in k_rule.by_mode.items()
        ]
        if rules.k_multiplier is not None:
            k.append(Text.of("K is multiplied by {formula}", formula=rules.k_multiplier))

    outcomes = [
        {
            "label": label,
            "name": rules.label(label, lang),
            "score": o.score,
            "against": [rules.label(a, lang) for a in o.against],
        }
        for label, o in rules.outcomes.items()
    ]

    seasons = []
    for tier in rules.season.inactivity:
        seasons.append(
            Text.plural(
                "a rating above {above} loses {penalty} point",
                "a rating above {above} loses {penalty} points",
                count_of(_n(tier.penalty)),
                above=_n(tier.above),
                penalty=_n(tier.penalty),
            )
        )
    if rules.season.floor is not None:
        seasons.append(Text.of("never below {r}", r=_n(rules.season.floor)))
    season_intro = (
        Text.of(
            "At the end of each season (ending {end}), a player who played no rated game in it:",
            end=", ".join(day(d, lang) for d in rules.season.ends)
            if rules.season.ends  # explicit ends, dates of their own
            else yearly(rules.season.year_end, lang),
        )
        if seasons
        else Text.of("No adjustment for inactivity.")
    )
    seasons.extend(_reversion(rules))
    if rules.decay is not None:
        seasons.extend(_decay(rules))

    return {
        "name": rules.name,
        "description": rules.described(lang),
        "seed": rules.seed,
        "general": [t(x) for x in general],
        "k": [t(x) for x in k],
        "outcomes": outcomes,
        "seasons": {"intro": t(season_intro), "rules": [t(x) for x in seasons]},
        "titles": [
            {"title": x.name, "min_rating": x.min_rating, "min_games": x.min_games}
            for x in rules.titles
        ],
    }
