"""Checks of a game against a rule set, shared by every reader (RULES.md §2, "Problems to detect").

:func:`check_game` returns the problems (messages without location: the reader adds it);
:func:`unrated_reason` says why a valid game is stored but not rated.
"""

from __future__ import annotations

from eloleague.records import GameRecord
from eloleague.rules.model import RuleSet


def _quoted(items: object) -> str:
    return ", ".join(str(i) for i in items)  # type: ignore[attr-defined]


def check_game(rules: RuleSet, game: GameRecord) -> list[str]:
    """Every way ``game`` breaks ``rules``, as messages an officer understands."""
    problems: list[str] = []
    n_sides = len(game.sides)
    if n_sides < 2:
        problems.append(f"a game needs at least two sides, this one has {n_sides}")
    elif rules.method != "ffa_rank" and n_sides != 2:
        problems.append(f"rule set {rules.name!r} rates games of two sides, this one has {n_sides}")

    seen: dict[str, int] = {}
    role_holder: dict[str, str] = {}
    teams = rules.teams
    for s, side in enumerate(game.sides, start=1):
        where = f"side {s}"
        size = len(side.players)
        if size == 0:
            problems.append(f"{where}: no players")
        elif size < teams.min_size:
            problems.append(
                f"{where}: {size} player(s), but rule set {rules.name!r} needs at least "
                f"{teams.min_size} per side"
            )
        elif teams.max_size is not None and size > teams.max_size:
            problems.append(
                f"{where}: {size} players, but rule set {rules.name!r} allows at most "
                f"{teams.max_size} per side"
            )
        for participant in side.players:
            name = participant.name
            if name in seen:
                if seen[name] == s:
                    problems.append(f"{where}: player {name!r} is listed twice")
                else:
                    problems.append(
                        f"{where}: player {name!r} is also on side {seen[name]}: "
                        "a player cannot face himself"
                    )
            else:
                seen[name] = s
            role = participant.role
            if rules.roles:
                if not role:
                    problems.append(
                        f"{where}: player {name!r} has no role (one of: {_quoted(rules.roles)})"
                    )
                elif role not in rules.roles:
                    problems.append(
                        f"{where}: unknown role {role!r} (expected one of: {_quoted(rules.roles)})"
                    )
                elif role in role_holder:
                    problems.append(
                        f"{where}: role {role!r} is held by both {role_holder[role]!r} and {name!r}"
                    )
                else:
                    role_holder[role] = name

        if rules.method == "ffa_rank":
            if side.outcome is not None:
                problems.append(
                    f"{where}: rule set {rules.name!r} ranks players by score: "
                    f"give a score, not the outcome {side.outcome!r}"
                )
            elif side.score is None:
                problems.append(f"{where}: a score is required")
        else:
            labels = _quoted(rules.outcomes)
            if side.outcome is None:
                if side.score is not None:
                    problems.append(
                        f"{where}: rule set {rules.name!r} rates outcomes, not scores: "
                        f"give an outcome (one of: {labels})"
                    )
                else:
                    problems.append(f"{where}: an outcome is required (one of: {labels})")
            elif side.outcome not in rules.outcomes:
                problems.append(
                    f"{where}: unknown outcome {side.outcome!r} (expected one of: {labels})"
                )

    if rules.method != "ffa_rank" and n_sides == 2:
        a, b = (side.outcome for side in game.sides)
        if a in rules.outcomes and b in rules.outcomes and b not in rules.outcomes[a].against:
            problems.append(
                f"outcomes contradict each other: {a!r} (side 1) cannot face {b!r} (side 2); "
                f"{a!r} faces {_quoted(rules.outcomes[a].against)}"
            )
    return problems


def unrated_reason(rules: RuleSet, game: GameRecord) -> str | None:
    """Why a valid game is stored but never rated, or ``None`` when it is rated (RULES §2, §3.3)."""
    if not game.rated:
        return "marked as not rated"
    if rules.method == "ffa_rank" and rules.roles:
        held = {p.role for p in game.participants}
        missing = [r for r in rules.roles if r not in held]
        if missing:
            return f"incomplete: no player for {_quoted(missing)}"
    return None
