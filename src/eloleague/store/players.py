"""Players of a league: names, aliases, and names that look like an existing player.

A name in a games file resolves to a player by its exact name (RULES §1: after NFC and trimming,
case and accents significant) or by an alias (a misspelling merged into the right player). A new
name that differs from an existing one only by case, accents, spacing or one typo is reported as a
warning with the likely match: the officer decides (``player merge``), the import does not guess.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, func, insert, or_, select

from eloleague.i18n import Text
from eloleague.store.messages import msg
from eloleague.store.tables import player_aliases, players, side_players


@dataclass(frozen=True, slots=True)
class NameWarning:
    """A new name that looks like an existing player's."""

    name: str
    likely: str
    reason: str  # translatable: "differs only by case", ...

    def __str__(self) -> str:
        return str(self.text())

    def text(self) -> Text:
        """The warning as a translatable message."""
        return msg(
            'new player "{name}" looks like "{likely}" ({reason})',
            name=self.name,
            likely=self.likely,
            reason=self.reason,
        )


def player_names(conn: Connection, league_id: int) -> dict[int, str]:
    """``{player id: name}`` for every player of the league."""
    return dict(
        conn.execute(
            select(players.c.id, players.c.name).where(players.c.league_id == league_id)
        ).all()
    )


def names_in_games(
    conn: Connection, league_id: int, game_ids: Sequence[int], also: int
) -> dict[int, str]:
    """``{player id: name}`` for the players of some games, and player ``also`` (a player's page
    needs her opponents' names, not the whole league's)."""
    ids = select(side_players.c.player_id).where(side_players.c.game_id.in_(list(game_ids)))
    return dict(
        conn.execute(
            select(players.c.id, players.c.name).where(
                players.c.league_id == league_id, or_(players.c.id.in_(ids), players.c.id == also)
            )
        ).all()
    )


def name_index(conn: Connection, league_id: int) -> dict[str, int]:
    """``{name or alias: player id}``: how names in a file resolve to players."""
    index = {name: pk for pk, name in player_names(conn, league_id).items()}
    for alias, pk in conn.execute(
        select(player_aliases.c.alias, player_aliases.c.player_id).where(
            player_aliases.c.league_id == league_id
        )
    ):
        index.setdefault(alias, pk)
    return index


def create_players(conn: Connection, league_id: int, names: Iterable[str]) -> dict[str, int]:
    """Insert new players; returns their ids by name."""
    wanted = list(dict.fromkeys(names))
    if not wanted:
        return {}
    now = dt.datetime.now(dt.UTC)
    conn.execute(
        insert(players),
        [{"league_id": league_id, "name": n, "created_at": now} for n in wanted],
    )
    want = set(wanted)
    return {name: pk for pk, name in player_names(conn, league_id).items() if name in want}


def add_alias(conn: Connection, league_id: int, alias: str, player_id: int) -> None:
    """Record ``alias`` as another spelling of a player (later files may use it)."""
    conn.execute(
        insert(player_aliases),
        {
            "league_id": league_id,
            "alias": alias,
            "player_id": player_id,
            "created_at": dt.datetime.now(dt.UTC),
        },
    )


# Similar names ----------------------------------------------------------------------------------


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _folded(name: str) -> str:
    """The name without case, accents, punctuation spacing differences."""
    return " ".join(_strip_accents(name).casefold().split())


_FOLDED: dict[tuple[str, int, tuple[int, ...]], list[tuple[str, int]]] = {}


def _folded_names(conn: Connection, league_id: int) -> list[tuple[str, int]]:
    """``(folded name or alias, player id)`` of a league, kept while its players and aliases
    are unchanged (a rename or a merge adds an alias, a new player an id)."""
    version = tuple(
        int(x or 0)
        for x in (
            *conn.execute(
                select(func.count(), func.max(players.c.id)).where(players.c.league_id == league_id)
            ).one(),
            *conn.execute(
                select(func.count(), func.max(player_aliases.c.id)).where(
                    player_aliases.c.league_id == league_id
                )
            ).one(),
        )
    )
    key = (str(conn.engine.url), league_id, version)
    found = _FOLDED.get(key)
    if found is None:
        found = [(_folded(name), pk) for pk, name in player_names(conn, league_id).items()]
        found += [
            (_folded(alias), pk)
            for alias, pk in conn.execute(
                select(player_aliases.c.alias, player_aliases.c.player_id).where(
                    player_aliases.c.league_id == league_id
                )
            )
        ]
        if len(_FOLDED) > 32:
            _FOLDED.clear()
        _FOLDED[key] = found
    return found


def search_players(conn: Connection, league_id: int, text: str) -> list[int]:
    """The ids of the players whose name, or one of whose former names (aliases), contains
    ``text``, ignoring case, accents and spacing ("elodie" finds "Élodie Lefèvre")."""
    wanted = _folded(text)
    return sorted({pk for name, pk in _folded_names(conn, league_id) if wanted in name})


def _deletions(text: str) -> set[str]:
    return {text[:i] + text[i + 1 :] for i in range(len(text))}


def similar_names(new: Iterable[str], existing: Iterable[str]) -> list[NameWarning]:
    """Warnings for each new name that looks like an existing one.

    Checked in order: same letters but for case; for accents; for spacing; one typo (a letter
    added, missing, changed or two swapped, on names of at least 5 letters), all compared on the
    folded form (symmetric deletion index: fast on leagues with thousands of players).
    """
    known = list(existing)
    by_folded: dict[str, str] = {}
    by_deletion: dict[str, str] = {}
    for name in known:
        folded = _folded(name)
        by_folded.setdefault(folded, name)
        if len(folded) >= 5:
            by_deletion.setdefault(folded, name)
            for d in _deletions(folded):
                by_deletion.setdefault(d, name)
    out = []
    for name in new:
        folded = _folded(name)
        match = by_folded.get(folded)
        if match is not None:
            out.append(NameWarning(name, match, _reason(name, match)))
            continue
        if len(folded) < 5:
            continue
        candidates = [folded, *_deletions(folded)]
        for c in candidates:
            match = by_deletion.get(c)
            if match is not None and not _numbered_apart(name, match):
                out.append(NameWarning(name, match, msg("one letter differs")))
                break
    return out


def _numbered_apart(a: str, b: str) -> bool:
    """Names told apart by a number ("Team 1", "Team 2") are different players, not typos."""
    digits_a = "".join(c for c in a if c.isdigit())
    digits_b = "".join(c for c in b if c.isdigit())
    return digits_a != digits_b


def _reason(name: str, match: str) -> Text:
    if name.casefold() == match.casefold():
        return msg("differs only by case")
    if _strip_accents(name).casefold() == _strip_accents(match).casefold():
        return msg("differs only by accents")
    return msg("differs only by spacing")
