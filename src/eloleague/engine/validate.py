"""Checks of a game against a rule set, shared by every reader (docs/formats.md, "Problems to detect").

:func:`check_game` returns the problems (messages without location: the reader adds it), as
translatable :class:`~eloleague.i18n.Text`; :func:`unrated_reason` says why a valid game is
stored but not rated.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from eloleague.engine.methods import RANKED, TWO_SIDES, method_of
from eloleague.i18n import LANGUAGES, Text, Words
from eloleague.records import GameRecord
from eloleague.rules.model import RuleSet


def _list(items: Iterable[str]) -> str:
    return ", ".join(items)


def _words(rules: RuleSet, names: Sequence[str]) -> Words:
    """Names of ``rules`` (roles) that a message shows in its reader's language: « aucun joueur
    pour Allemagne, Italie » (the reason a game is not rated, on its page and in predict)."""
    return Words(names, {lang: [rules.label(n, lang) for n in names] for lang in LANGUAGES})


def check_game(rules: RuleSet, game: GameRecord) -> list[Text]:
    """Every way ``game`` breaks ``rules``, as messages an officer understands."""
    out: list[Text] = []
    t = Text.of
    method = method_of(rules)
    two_sided = method.shape == TWO_SIDES
    n_sides = len(game.sides)
    if n_sides < 2:
        out.append(t("a game needs at least two sides, this one has {n}", n=n_sides))
    elif two_sided and n_sides != 2:
        out.append(
            t(
                "rule set {rules} rates games of two sides, this one has {n}",
                rules=rules.name,
                n=n_sides,
            )
        )

    seen: dict[str, int] = {}
    role_holder: dict[str, str] = {}
    teams = rules.teams
    roles = _list(rules.roles)
    for s, side in enumerate(game.sides, start=1):
        size = len(side.players)
        if size == 0:
            out.append(t("side {side}: no players", side=s))
        elif size < teams.min_size:
            out.append(
                Text.plural(
                    "side {side}: {count} player, but rule set {rules} needs at least {min} per "
                    "side",
                    "side {side}: {count} players, but rule set {rules} needs at least {min} per "
                    "side",
                    size,
                    side=s,
                    rules=rules.name,
                    min=teams.min_size,
                )
            )
        elif teams.max_size is not None and size > teams.max_size:
            out.append(
                t(
                    "side {side}: {n} players, but rule set {rules} allows at most {max} per side",
                    side=s,
                    n=size,
                    rules=rules.name,
                    max=teams.max_size,
                )
            )
        for participant in side.players:
            name = participant.name
            if name in seen:
                if seen[name] == s:
                    out.append(t('side {side}: player "{name}" is listed twice', side=s, name=name))
                else:
                    out.append(
                        t(
                            'side {side}: player "{name}" is also on side {other}: '
                            "a player cannot face himself",
                            side=s,
                            name=name,
                            other=seen[name],
                        )
                    )
            else:
                seen[name] = s
            role = participant.role
            if rules.roles:
                if not role:
                    out.append(
                        t(
                            'side {side}: player "{name}" has no role (one of: {roles})',
                            side=s,
                            name=name,
                            roles=roles,
                        )
                    )
                elif role not in rules.roles:
                    out.append(
                        t(
                            'side {side}: unknown role "{role}" (expected one of: {roles})',
                            side=s,
                            role=role,
                            roles=roles,
                        )
                    )
                elif role in role_holder:
                    out.append(
                        t(
                            'side {side}: role "{role}" is held by both "{first}" and "{name}"',
                            side=s,
                            role=role,
                            first=role_holder[role],
                            name=name,
                        )
                    )
                else:
                    role_holder[role] = name

        out.extend(method.check_side(rules, side, s))

    if two_sided and n_sides == 2:
        a, b = (side.outcome for side in game.sides)
        if a in rules.outcomes and b in rules.outcomes and b not in rules.outcomes[a].against:
            out.append(
                t(
                    'outcomes contradict each other: "{a}" (side 1) cannot face "{b}" (side 2); '
                    '"{a}" faces {against}',
                    a=a,
                    b=b,
                    against=_list(rules.outcomes[a].against),
                )
            )
    return out


def unrated_reason(rules: RuleSet, game: GameRecord) -> Text | None:
    """Why a valid game is stored but never rated, or ``None`` when it is rated (docs/formats.md)."""
    if not game.rated:
        return Text.of("marked as not rated")
    if rules.roles and method_of(rules).shape == RANKED:
        held = {p.role for p in game.participants}
        missing = [r for r in rules.roles if r not in held]
        if missing:
            return Text.of("incomplete: no player for {roles}", roles=_words(rules, missing))
    return None


def quick_check(rules: RuleSet) -> Callable[[GameRecord], bool]:
    """A cheap test that says ``True`` only for games :func:`check_game` finds nothing wrong with.

    For the shapes that make up large files (two sides of valid sizes whose outcomes face each
    other, distinct players; free-for-all sides with a score, one player each, distinct roles of
    the list). Anything else is ``False``: ask :func:`check_game`, which says what is wrong.
    """
    low, high = rules.teams.min_size, rules.teams.max_size or 1 << 30
    if method_of(rules).shape == RANKED:
        roles = frozenset(rules.roles)

        def ffa_ok(game: GameRecord) -> bool:
            sides = game.sides
            if len(sides) < 2 or not low <= 1 <= high:
                return False
            names = set()
            held = set()
            for side in sides:
                if side.outcome is not None or side.score is None or len(side.players) != 1:
                    return False
                player = side.players[0]
                names.add(player.name)
                held.add(player.role)
            if len(names) != len(sides):
                return False
            return not roles or (len(held) == len(sides) and held <= roles and "" not in held)

        return ffa_ok
    if rules.roles:
        return lambda game: False  # roles in a two-sided rule set: rare, check_game decides
    pairs = frozenset((a, b) for a in rules.outcomes for b in rules.outcomes[a].against)
    single = low <= 1 <= high

    def duel_ok(game: GameRecord) -> bool:
        sides = game.sides
        if len(sides) != 2:
            return False
        a, b = sides
        if (a.outcome, b.outcome) not in pairs:
            return False
        pa, pb = a.players, b.players
        na, nb = len(pa), len(pb)
        if na == 1 and nb == 1:
            return single and pa[0].name != pb[0].name
        if not (low <= na <= high and low <= nb <= high):
            return False
        names = {p.name for p in pa} | {p.name for p in pb}
        return len(names) == na + nb

    return duel_ok
