"""Finding players by the names an officer types, with close names when one is unknown."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping

from eloleague.engine import GLOBAL_ROLE, standings
from eloleague.errors import EloleagueError
from eloleague.i18n import Text
from eloleague.records import PoolKey, PoolState, normalise_name
from eloleague.rules.model import RuleSet


class ToolError(EloleagueError):
    """A request the tools cannot answer (unknown player, impossible constraints...)."""

    def __init__(self, message: str) -> None:
        self.text = message
        super().__init__(message)


def known_players(pools: Mapping[PoolKey, PoolState]) -> list[str]:
    """Every player with at least one pool, sorted."""
    return sorted({key.player for key in pools})


def close_names(name: str, known: Iterable[str], n: int = 5) -> list[str]:
    """Names that look like ``name`` (difflib), case and accents differences first."""
    names = list(known)
    folded = name.casefold()
    same_fold = [k for k in names if k.casefold() == folded]
    rest = difflib.get_close_matches(name, names, n=n, cutoff=0.6)
    out: list[str] = []
    for candidate in [*same_fold, *rest]:
        if candidate not in out:
            out.append(candidate)
    return out[:n]


def resolve_player(
    name: str,
    known: Iterable[str],
    *,
    allow_new: bool = False,
    aliases: Mapping[str, str] | None = None,
) -> str:
    """The league's spelling of ``name`` (docs/rule-sets.md normalisation), or a clear error.

    An alias (a renamed or merged player's earlier spelling) gives the name the player goes by
    now, as an import does. With ``allow_new`` an unknown name is accepted as a newcomer at the
    start rating.
    """
    names = set(known)
    wanted = normalise_name(name)
    if not wanted:
        raise ToolError(Text.of("a player name is empty"))
    wanted = (aliases or {}).get(wanted, wanted)
    if wanted in names or allow_new:
        return wanted
    close = close_names(wanted, names)
    if close:
        raise ToolError(
            Text.of(
                'unknown player "{name}"; did you mean: {close}?',
                name=wanted,
                close=", ".join(close),
            )
        )
    raise ToolError(
        Text.of('unknown player "{name}" (no player with a close name in this league)', name=wanted)
    )


def player_ratings(
    rules: RuleSet,
    pools: Mapping[PoolKey, PoolState],
    names: Iterable[str],
    *,
    mode: str = "",
    allow_new: bool = False,
    aliases: Mapping[str, str] | None = None,
    modes: Iterable[str] | None = None,
) -> dict[str, float]:
    """Each named player's rating in ``mode`` (his global rating across roles when the rule set
    pools by role, docs/rule-sets.md), resolved as :func:`resolve_player` does; newcomers (with
    ``allow_new``) stand at the start rating. A name given twice is an error. ``mode`` is
    checked against ``modes``, the league's (default: those of ``pools``; a caller that passes
    the named players' pools only gives the league's)."""
    known = known_players(pools)
    played = {key.mode for key in pools} if modes is None else set(modes)
    if mode and not rules.pools.by_mode:
        raise ToolError(
            Text.of("rule set {name} has no modes: leave the mode out", name=rules.name)
        )
    if played and mode not in played:  # a typo would put everyone at the start rating
        raise ToolError(
            Text.of(
                "no game was played in mode {mode!r} (modes: {modes})",
                mode=mode,
                modes=", ".join(sorted(m or '""' for m in played)),
            )
        )
    rows = {
        r.player: r.rating
        for r in standings(rules, pools)
        if r.mode == mode and r.role in ("", GLOBAL_ROLE)
    }
    out: dict[str, float] = {}
    for name in names:
        player = resolve_player(name, known, allow_new=allow_new, aliases=aliases)
        if player in out:
            raise ToolError(Text.of('player "{name}" is given twice', name=player))
        out[player] = rows.get(player, rules.start_rating)
    return out
