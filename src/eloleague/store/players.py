"""Players of a league: names, aliases, and names that look like an existing player.

A name in a games file resolves to a player by its exact name (docs/rule-sets.md: after NFC and trimming,
case and accents significant) or by an alias (a misspelling merged into the right player). A new
name that differs from an existing one only by case, accents, spacing or one typo is reported as a
warning with the likely match: the officer decides (``player merge``), the import does not guess.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

import numpy
from numpy.typing import NDArray
from rapidfuzz import process
from rapidfuzz.distance import Indel
from sqlalchemy import Connection, and_, func, insert, or_, select, update

from eloleague.i18n import Text
from eloleague.store import after_commit
from eloleague.store.bulk import (
    database_key,
    drop_kept,
    hold_for_commit,
    keep_ahead,
    list_size,
    many_rows,
    one_of,
    one_row,
    run,
    run_together,
    stamp_param,
    taken_by_text,
)
from eloleague.store.by_player import played_by
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


def player_named(conn: Connection, league_id: int, name: str) -> int | None:
    """The id of the league's player whose own name is ``name`` (not an alias), if any."""
    found = conn.execute(
        select(players.c.id).where(and_(players.c.league_id == league_id, players.c.name == name))
    ).scalar()
    return None if found is None else int(found)


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


def lookup_names(
    conn: Connection,
    league_id: int,
    names: Sequence[str],
    aliased: dict[str, str] | None = None,
) -> dict[str, int]:
    """``{name or alias: player id}`` for those of ``names`` that are registered (as
    :func:`name_index`, reading only those names: an import of one game reads two players).
    ``aliased``: filled with the names that are another player's alias, and that player's name."""
    found: dict[str, int] = {}
    aliases: dict[str, tuple[int, str]] = {}
    for sql, params in lookup_reads(conn, league_id, names):
        for name, pk, is_alias, player in run(conn, sql, params):
            if is_alias:
                aliases[name] = (pk, player)
            else:
                found[name] = pk
    for alias, (pk, player) in aliases.items():
        if alias not in found:
            found[alias] = pk
            if aliased is not None:
                aliased[alias] = player
    return found


def lookup_reads(
    conn: Connection, league_id: int, names: Sequence[str]
) -> list[tuple[str, tuple[Any, ...]]]:
    """The statements :func:`lookup_names` runs for ``names``, for a caller that sends them
    ahead (:func:`~eloleague.store.bulk.read_ahead`)."""
    size = list_size(conn)
    reads = []
    for i in range(0, len(names), size):
        listed, values = one_of(conn, names[i : i + size])
        # an alias with its player's name: her games are stored under it
        sql = (
            f"SELECT name, id, 0, name FROM players WHERE league_id = ? AND name {listed} "
            "UNION ALL SELECT a.alias, a.player_id, 1, p.name FROM player_aliases AS a "
            f"JOIN players AS p ON p.id = a.player_id WHERE a.league_id = ? AND a.alias {listed}"
        )
        if conn.dialect.name == "postgresql":  # one text whatever the names (an array)
            sql = many_rows(sql, 4)
        reads.append((sql, (league_id, *values, league_id, *values)))
    return reads


FEW_NEW = 50
"""Up to this many new players are inserted by one statement returning their ids (more: one
insert of all, then their ids read back)."""


def _few_new(
    conn: Connection, league_id: int, names: Sequence[str]
) -> tuple[str, list[Any]] | None:
    """The statement inserting a live post's few newcomers and giving their ids back (None for
    more than :data:`FEW_NEW`)."""
    if len(names) > FEW_NEW:
        return None
    now = stamp_param(conn)(dt.datetime.now(dt.UTC))
    return (
        "INSERT INTO players (league_id, name, created_at) VALUES "
        + ", ".join(["(?, ?, ?)"] * len(names))
        + " RETURNING name, id",
        [x for name in names for x in (league_id, name, now)],
    )


def create_players(conn: Connection, league_id: int, names: Iterable[str]) -> dict[str, int]:
    """Insert new players; returns their ids by name."""
    wanted = list(dict.fromkeys(names))
    if not wanted:
        return {}
    now = dt.datetime.now(dt.UTC)
    few = _few_new(conn, league_id, wanted)
    if few is not None:  # a live post's newcomers: one statement gives their ids back
        return {name: int(pk) for name, pk in run(conn, *few)}
    conn.execute(
        insert(players),
        [{"league_id": league_id, "name": n, "created_at": now} for n in wanted],
    )
    want = set(wanted)
    if len(wanted) > 2000:  # one scan beats many IN lists
        return {name: pk for pk, name in player_names(conn, league_id).items() if name in want}
    return {n: pk for n, pk in lookup_names(conn, league_id, wanted).items() if n in want}


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


def aliases_of(conn: Connection, player_id: int) -> list[str]:
    """A player's aliases (her former names, the names merged into her), sorted."""
    return sorted(
        conn.execute(
            select(player_aliases.c.alias).where(player_aliases.c.player_id == player_id)
        ).scalars()
    )


def alias_rows(conn: Connection, league_id: int) -> list[tuple[str, int]]:
    """``(alias, player id)`` of every alias of the league, sorted."""
    rows = conn.execute(
        select(player_aliases.c.alias, player_aliases.c.player_id).where(
            player_aliases.c.league_id == league_id
        )
    ).all()
    return sorted((alias, pk) for alias, pk in rows)


def rename_player(conn: Connection, league_id: int, player_id: int, new: str) -> None:
    """Give a player the name ``new`` and drop the league's alias spelled ``new`` (the caller
    refuses a name that resolves to another player). Her old name is not kept: the caller adds
    it as an alias (:func:`add_alias`)."""
    conn.execute(update(players).where(players.c.id == player_id).values(name=new))
    conn.execute(
        player_aliases.delete().where(
            and_(player_aliases.c.league_id == league_id, player_aliases.c.alias == new)
        )
    )


def move_player(conn: Connection, src: int, dst: int) -> None:
    """Give player ``src``'s places in games and aliases to player ``dst`` (a merge: the
    caller then refreshes the moved games' content hashes and deletes ``src``)."""
    conn.execute(update(side_players).where(played_by(conn, src)).values(player_id=dst))
    conn.execute(
        update(player_aliases).where(player_aliases.c.player_id == src).values(player_id=dst)
    )


def delete_player(conn: Connection, player_id: int) -> None:
    """Remove a player's row (one left without games nor aliases: :func:`move_player`)."""
    conn.execute(players.delete().where(players.c.id == player_id))


# Similar names ----------------------------------------------------------------------------------


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _folded(name: str) -> str:
    """The name without case, accents, punctuation spacing differences."""
    return " ".join(_strip_accents(name).casefold().split())


MIN_TYPO_LENGTH = 5
"""Names shorter than this (folded) are too short for "one letter differs" to mean a typo."""
_CHUNK = (
    1000  # new names compared at once (a matrix of uint8: 1,000 x registered names of a length)
)


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
    key = (database_key(conn.engine), league_id, version)
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


def forget_folded() -> None:
    """Drop the folded names kept by :func:`_folded_names` (after players were renamed)."""
    _FOLDED.clear()


def search_players(conn: Connection, league_id: int, text: str) -> list[int]:
    """The ids of the players whose name, or one of whose former names (aliases), contains
    ``text``, ignoring case, accents and spacing ("elodie" finds "Élodie Lefèvre")."""
    wanted = _folded(text)
    return sorted({pk for name, pk in _folded_names(conn, league_id) if wanted in name})


@dataclass(frozen=True, slots=True)
class _Names:
    """Registered names folded for :func:`lookalikes`: the ``(rank, name)`` rows (rank: the
    order of registration), each folded form's first row, and for each length ``n`` the folded
    forms a new name of ``n`` letters is compared with for a typo (lengths ``n - 1`` to
    ``n + 1``, names of at least :data:`MIN_TYPO_LENGTH` letters)."""

    rows: tuple[tuple[int, str], ...]
    first: dict[str, tuple[int, str]]
    near: dict[int, list[str]]

    @classmethod
    def of(cls, rows: Sequence[tuple[int, str]]) -> _Names:
        first: dict[str, tuple[int, str]] = {}
        near: dict[int, list[str]] = defaultdict(list)
        for row in rows:
            folded = _folded(row[1])
            if folded not in first:
                first[folded] = row
                if len(folded) >= MIN_TYPO_LENGTH:
                    for n in (len(folded) - 1, len(folded), len(folded) + 1):
                        near[n].append(folded)
        return cls(tuple(rows), first, dict(near))


RegisteredNames = tuple[_Names, ...]
"""A league's registered names as :func:`lookalikes` compares new names with them: a few parts,
oldest first, so that names registered since can be added without reading the others again."""


def _extended(names: RegisteredNames, rows: Sequence[tuple[int, str]]) -> RegisteredNames:
    """``names`` and the rows registered after them: a new part, merged with the last ones while
    they are not twice its size (as a binary counter carries), so that a league of ``n`` players
    has about ``log n`` parts and each name is folded again about ``log n`` times in all."""
    parts = [*names, _Names.of(rows)]
    while len(parts) > 1 and len(parts[-2].rows) < 2 * len(parts[-1].rows):
        last = parts.pop()
        parts[-1] = _Names.of(parts[-1].rows + last.rows)
    return tuple(parts)


def similar_names(new: Iterable[str], existing: Iterable[str]) -> list[NameWarning]:
    """Warnings for each new name that looks like one of ``existing`` (in order of registration):
    see :func:`lookalikes`."""
    return lookalikes(new, (_Names.of(list(enumerate(existing))),))


def lookalikes(new: Iterable[str], registered: RegisteredNames) -> list[NameWarning]:
    """Warnings for each new name that looks like a registered one.

    Checked in order: same letters but for case; for accents; for spacing; one typo (a letter
    added, missing, changed or two swapped, on names of at least 5 letters), all compared on the
    folded form. "One typo" is an Indel distance (letters inserted or deleted, rapidfuzz) of at
    most 2 between names whose lengths differ by at most 1: exactly the pairs that become equal
    when at most one letter is removed from each. Only names of neighbouring lengths are compared
    (rapidfuzz's ``cdist``, in C++), so the time grows with the names' length, not its square, and
    a very long stored name costs nothing to the names of ordinary length. Of several look-alikes,
    the nearest is named, then the first registered.
    """
    new = list(new)
    found: dict[str, NameWarning] = {}
    typos: dict[int, list[tuple[str, str]]] = defaultdict(list)  # length -> (name, folded)
    for name in new:
        folded = _folded(name)
        same = [part.first[folded] for part in registered if folded in part.first]
        if same:
            match = min(same)[1]
            found[name] = NameWarning(name, match, _reason(name, match))
        elif len(folded) >= MIN_TYPO_LENGTH:
            typos[len(folded)].append((name, folded))
    for length, wanted in typos.items():
        for start in range(0, len(wanted), _CHUNK):
            part = wanted[start : start + _CHUNK]
            near: list[list[tuple[int, tuple[int, str]]]] = [[] for _ in part]
            for names in registered:
                choices = names.near.get(length)
                if not choices:
                    continue
                distances = process.cdist(
                    [folded for _, folded in part],
                    choices,
                    scorer=Indel.distance,
                    score_cutoff=2,
                    dtype=numpy.uint8,
                )
                for row, close in enumerate(near):
                    close.extend(_close(distances[row], choices, names))
            for (name, _), close in zip(part, near, strict=True):
                number = _number(name)
                likely = next(
                    (row[1] for _, row in sorted(close) if _number(row[1]) == number), None
                )
                if likely is not None:
                    found[name] = NameWarning(name, likely, msg("one letter differs"))
    return [found[name] for name in dict.fromkeys(new) if name in found]


def _close(
    distances: NDArray[numpy.uint8], choices: list[str], names: _Names
) -> list[tuple[int, tuple[int, str]]]:
    """``(distance, (rank, name))`` of the registered names at most 2 letters from a new one."""
    return [(int(distances[i]), names.first[choices[i]]) for i in numpy.flatnonzero(distances <= 2)]


_REGISTERED: dict[tuple[str, int], tuple[int, int, RegisteredNames]] = {}
"""Per database and league: (the aliases' last id, the players' last id, their names) as last
committed (:func:`registered_names`)."""


def checked_and_created(
    conn: Connection, league_id: int, names: Sequence[str]
) -> tuple[list[NameWarning], dict[str, int]]:
    """The look-alike warnings of new ``names`` (:func:`lookalikes`) and their players, created.
    On PostgreSQL, once this process has read the league's names, a live post's few newcomers
    take one round trip for both: the names registered since, then the insert, in one pipeline
    (:func:`~eloleague.store.bulk.run_together`), instead of three; none when their ids were
    reserved with the league's lock (:func:`newcomers_read`): the insert then goes with the
    commit."""
    key = (database_key(conn.engine), league_id)
    kept = _REGISTERED.get(key)
    wanted = list(dict.fromkeys(names))
    few = _few_new(conn, league_id, wanted)
    if conn.dialect.name != "postgresql" or kept is None or few is None:
        warnings = lookalikes(names, registered_names(conn, league_id))
        return warnings, create_players(conn, league_id, names)
    reads = [(_ALIASES_LAST, ()), (_REGISTERED_SINCE, (league_id, kept[1]))]
    reserved = _reserved(conn, wanted, kept[1])
    if reserved is not None:
        created, found = reserved
        hold_for_commit(conn)  # nothing read back: the insert goes with the commit
        run(conn, *_with_ids(conn, league_id, created))
    else:
        *found, inserted = run_together(conn, [*reads, few])
        created = {name: int(pk) for name, pk in inserted}
    keep_ahead(conn, reads, found)  # for registered_names, which reads them first
    try:  # (an alias added since makes it read every name again: the new ones left out)
        registered = registered_names(conn, league_id, set(created.values()))
    finally:
        drop_kept(conn, reads)
    return lookalikes(names, registered), created


def newcomers_read(
    conn: Connection, league_id: int, names: Sequence[str]
) -> tuple[str, tuple[Any, ...]] | None:
    """PostgreSQL, a live post naming ``names``, once this process has read the league's names:
    the read, sent with the league's lock (:func:`~eloleague.store.imports.reads_ahead`), that
    reserves an id for each name that is neither a player's nor an alias (a newcomer), and reads
    what :func:`checked_and_created` then needs (the aliases' last id, the players registered
    since): her registration goes with the commit, one round trip less. A read of one row (joined
    with the others of that round trip); with no newcomer, only two lookups by name a name.
    Ids come from the players' sequence (a post that does not use them leaves a gap, as a
    rolled-back insert does). ``None`` elsewhere."""
    kept = _REGISTERED.get((database_key(conn.engine), league_id))
    if conn.dialect.name != "postgresql" or kept is None or not 0 < len(names) <= FEW_NEW:
        return None
    return _NEWCOMERS, (list(names), league_id, league_id, league_id, kept[1])


_NEWCOMERS = one_row(
    "WITH fresh AS MATERIALIZED (SELECT w.n, w.name, nextval(pg_get_serial_sequence('players', "
    "'id')) AS id FROM unnest(%b::text[]) WITH ORDINALITY AS w (name, n) "
    "WHERE NOT EXISTS (SELECT FROM players WHERE league_id = ? AND name = w.name) "
    "AND NOT EXISTS (SELECT FROM player_aliases WHERE league_id = ? AND alias = w.name)) "
    "SELECT (SELECT json_agg(json_build_array(name, id) ORDER BY n) FROM fresh) AS reserved, "
    "(SELECT coalesce(max(id), 0) FROM player_aliases WHERE EXISTS (SELECT FROM fresh)) "
    "AS aliases, (SELECT json_agg(json_build_array(id, name) ORDER BY id) FROM players "
    "WHERE league_id = ? AND id > ? AND EXISTS (SELECT FROM fresh)) AS since"
)
""":func:`newcomers_read`'s statement (parameters: the names as one array, the league's id three
times, the last player id this process read): the newcomers' names and reserved ids, then, only
when there is one, the aliases' last id and the players registered since, each a JSON array."""


def _reserved(
    conn: Connection, names: list[str], since: int
) -> tuple[dict[str, int], list[list[tuple[Any, ...]]]] | None:
    """The ids :func:`newcomers_read` reserved for exactly ``names``, and the rows of
    ``_ALIASES_LAST`` and ``_REGISTERED_SINCE`` (from player id ``since``) as read with them;
    ``None`` if no such read was made with the lock, or for other names."""
    found = taken_by_text(conn, _NEWCOMERS)
    if found is None or found[0][-1] != since or not found[1]:
        return None
    ((reserved, aliases, registered),) = found[1]
    created = {str(name): int(pk) for name, pk in reserved or ()}
    if sorted(created) != sorted(names):
        return None
    return created, [[(aliases,)], [(int(pk), str(name)) for pk, name in registered or ()]]


def _with_ids(conn: Connection, league_id: int, created: dict[str, int]) -> tuple[str, list[Any]]:
    """The insert of newcomers under the ids reserved for them (:func:`newcomers_read`)."""
    now = stamp_param(conn)(dt.datetime.now(dt.UTC))
    return (
        "INSERT INTO players (id, league_id, name, created_at) VALUES "
        + ", ".join(["(?, ?, ?, ?)"] * len(created)),
        [x for name, pk in created.items() for x in (pk, league_id, name, now)],
    )


_ALIASES_LAST = "SELECT coalesce(max(id), 0) FROM player_aliases"
_REGISTERED_SINCE = "SELECT id, name FROM players WHERE league_id = ? AND id > ? ORDER BY id"


def registered_names(
    conn: Connection, league_id: int, created: AbstractSet[int] = frozenset()
) -> RegisteredNames:
    """The league's registered names (:func:`lookalikes`), read once per process: then only the
    players registered since are read, so that checking a new name costs the same in a league of
    a hundred players and in one of a hundred thousand (a game server posting the first game of
    a newcomer).

    A name changes only with an alias added (a rename, a merge keep the old name as an alias):
    a new alias anywhere in the database makes the names read again. What was read is kept for
    the next write once this one is committed (:mod:`eloleague.store.after_commit`), never
    before: SQLite gives the ids of rolled-back rows out again.

    ``created``: players this write has just registered, left out (the newest: the next write
    reads them as registered since).
    """
    key = (database_key(conn.engine), league_id)
    ((aliases,),) = run(conn, _ALIASES_LAST)
    kept = _REGISTERED.get(key)
    last, names = (kept[1], kept[2]) if kept is not None and kept[0] == aliases else (0, ())
    rows = [row for row in run(conn, _REGISTERED_SINCE, (league_id, last)) if row[0] not in created]
    if rows:
        last, names = rows[-1][0], _extended(names, rows)
    if rows or kept is None or kept[0] != aliases:
        fresh = (aliases, last, names)
        after_commit.later(conn, lambda: _keep_registered(key, fresh))
    return names


def _keep_registered(key: tuple[str, int], names: tuple[int, int, RegisteredNames]) -> None:
    if key not in _REGISTERED and len(_REGISTERED) >= 32:  # a process of many databases (tests)
        _REGISTERED.clear()
    _REGISTERED[key] = names


def _number(name: str) -> str:
    """The digits of a name: names told apart by a number ("Team 1", "Team 2") are different
    players, not typos."""
    return "".join(c for c in name if c.isdigit())


def _reason(name: str, match: str) -> Text:
    if name.casefold() == match.casefold():
        return msg("differs only by case")
    if _strip_accents(name).casefold() == _strip_accents(match).casefold():
        return msg("differs only by accents")
    return msg("differs only by spacing")
