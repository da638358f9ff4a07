"""Who a player is beyond a name: her federation id (licence number), club and region.

docs/league.md, "Player identity". A games file may give them for each player; an import matches
a player by her federation id first, then by name, and keeps her club and region. Two players of
the same name are told apart by their ids: both are named ``"Jean Dupont (id)"``
(:func:`eloleague.records.id_label`), and the plain name, which no longer says which one, is
refused on a row without an id.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, insert, select, update

from eloleague.errors import EloleagueError, Problem
from eloleague.i18n import Text
from eloleague.records import GameRecord, Participant, base_name, id_label
from eloleague.store import players as store_players
from eloleague.store.bulk import database_key, many_rows, one_of, run
from eloleague.store.messages import msg
from eloleague.store.players import add_alias, lookup_names, name_index
from eloleague.store.tables import player_aliases, players


@dataclass(frozen=True, slots=True)
class Identity:
    """A player's federation id, club and region (each ``None`` when unknown)."""

    federation_id: str | None = None
    club: str | None = None
    region: str | None = None

    def __bool__(self) -> bool:
        return bool(self.federation_id or self.club or self.region)

    def as_dict(self) -> dict[str, str | None]:
        """The JSON form of the API: ``{"federation_id": ..., "club": ..., "region": ...}``."""
        return {"federation_id": self.federation_id, "club": self.club, "region": self.region}


def _cleaned(value: str | None) -> str | None:
    if value is None:
        return None
    value = " ".join(value.split())
    return value or None


def identities(
    conn: Connection, league_id: int, ids: Sequence[int] | None = None
) -> dict[int, Identity]:
    """``{player id: identity}`` of the players that have one (of ``ids`` when given)."""
    query = select(players.c.id, players.c.federation_id, players.c.club, players.c.region).where(
        and_(
            players.c.league_id == league_id,
            (
                players.c.federation_id.is_not(None)
                | players.c.club.is_not(None)
                | players.c.region.is_not(None)
            ),
        )
    )
    if ids is not None:
        if not ids:
            return {}
        query = query.where(players.c.id.in_(list(ids)))
    return {pk: Identity(fid, club, region) for pk, fid, club, region in conn.execute(query)}


def identities_by_name(
    conn: Connection, league_id: int, names: Sequence[str] | None = None
) -> dict[str, Identity]:
    """``{player name: identity}`` of the players that have one (of ``names`` when given)."""
    query = select(players.c.name, players.c.federation_id, players.c.club, players.c.region).where(
        and_(
            players.c.league_id == league_id,
            (
                players.c.federation_id.is_not(None)
                | players.c.club.is_not(None)
                | players.c.region.is_not(None)
            ),
        )
    )
    if names is None:
        parts = [query]
    else:
        wanted = sorted(set(names))
        parts = [
            query.where(players.c.name.in_(wanted[i : i + 500])) for i in range(0, len(wanted), 500)
        ]
    out: dict[str, Identity] = {}
    for part in parts:
        for name, fid, club, region in conn.execute(part):
            out[name] = Identity(fid, club, region)
    return out


def by_federation_id(conn: Connection, league_id: int, federation_id: str) -> int | None:
    """The player holding ``federation_id`` in the league, if any."""
    found = conn.execute(
        select(players.c.id).where(
            and_(players.c.league_id == league_id, players.c.federation_id == federation_id)
        )
    ).scalar()
    return None if found is None else int(found)


def namesakes(conn: Connection, league_id: int) -> dict[str, list[str]]:
    """``{plain name: [the names that tell its players apart]}`` for every name two players
    or more share (``"Jean Dupont"``: ``["Jean Dupont (FR-1)", "Jean Dupont (FR-2)"]``)."""
    out: dict[str, list[str]] = {}
    # ">= ''" (every id) rather than "IS NOT NULL": SQLite then reads the ids' index instead of
    # every player. Plain SQL through the driver: each import asks, a live game too.
    for name, fid in run(
        conn,
        "SELECT name, federation_id FROM players WHERE league_id = ? AND federation_id >= ''",
        (league_id,),
    ):
        base = base_name(name, fid)
        if base != name:
            out.setdefault(base, []).append(name)
    return {base: sorted(found) for base, found in out.items()}


SCAN_FROM = 500
"""From this many names in an import, one scan of the league's players beats a look-up a name."""


def namesakes_of(conn: Connection, league_id: int, names: Iterable[str]) -> dict[str, list[str]]:
    """:func:`namesakes` for the plain names ``names`` only: the players whose name is one of
    them followed by ``" (their id)"``, found through the names' index, so that a game's check
    costs the same in a league of a hundred licensed players and in one of a hundred thousand."""
    wanted = sorted(set(names))
    reads = namesakes_reads(conn, league_id, wanted)
    if reads is None:
        shared = namesakes(conn, league_id)
        return {name: shared[name] for name in wanted if name in shared}
    asked = set(wanted)
    out: dict[str, set[str]] = {}
    for sql, params in reads:
        for name, fid in run(conn, sql, params):
            base = base_name(name, fid)
            if base != name and base in asked:  # "A (B) (FR-1)" begins with "A (" too
                out.setdefault(base, set()).add(name)
    return {base: sorted(found) for base, found in out.items()}


def namesakes_reads(
    conn: Connection, league_id: int, names: Iterable[str]
) -> list[tuple[str, list[Any]]] | None:
    """The statements :func:`namesakes_of` runs for ``names`` (``None``: it reads every
    player's name instead), for a caller that sends them ahead (:func:`~eloleague.store.bulk.
    read_ahead`)."""
    wanted = sorted(set(names))
    if len(wanted) >= SCAN_FROM:
        return None
    if not wanted:
        return []
    if names_sort_by_code_point(conn):  # a prefix is a range of the names' index
        one = (
            "SELECT name, federation_id FROM players WHERE league_id = ? AND name >= ? AND name < ?"
        )
        bounds: list[tuple[str, ...]] = [(n + " (", n + " )") for n in wanted]
    else:  # a linguistic collation does not sort so: a pattern, read from the league's ids
        one = (
            "SELECT name, federation_id FROM players WHERE league_id = ? AND federation_id >= '' "
            "AND name LIKE ?"
        )
        bounds = [(_like_prefix(n + " ("),) for n in wanted]
    reads = []
    for start in range(0, len(wanted), 100):
        part = bounds[start : start + 100]
        sql = " UNION ALL ".join([one] * len(part))
        if conn.dialect.name == "postgresql":  # joined with the lock's other reads
            sql = many_rows(sql, 2)
        reads.append((sql, [x for b in part for x in (league_id, *b)]))
    return reads


_CODE_POINT_ORDER: dict[str, bool] = {}


def names_sort_by_code_point(conn: Connection) -> bool:
    """Whether the database sorts names by their characters' code points, so that the names
    beginning with a prefix are a range of the names' index: SQLite (its ``BINARY`` collation
    compares UTF-8 bytes), and PostgreSQL databases whose collation is ``C``, ``POSIX`` or
    libc's ``C.UTF-8`` (not a linguistic one, where "Jean (…)" and "Jean )" may sort apart)."""
    if conn.dialect.name == "sqlite":
        return True
    key = database_key(conn.engine)
    found = _CODE_POINT_ORDER.get(key)
    if found is None:
        ((provider, collation),) = run(  # datlocprovider: PostgreSQL 15 and later (c: libc)
            conn,
            "SELECT to_jsonb(d) ->> 'datlocprovider', datcollate FROM pg_database d "
            "WHERE datname = current_database()",
        )
        found = provider in (None, "c") and collation in ("C", "POSIX", "C.UTF-8", "C.utf8")
        _CODE_POINT_ORDER[key] = found
    return found


def _like_prefix(prefix: str) -> str:
    """A ``LIKE`` pattern (escape ``\\``) for the texts that begin with ``prefix``."""
    return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def ambiguous(name: str, labels: Sequence[str]) -> EloleagueError:
    """The error for a plain name that two players or more share."""
    return EloleagueError(_ambiguous_text(name, labels))


def _ambiguous_text(name: str, labels: Sequence[str]) -> Text:
    return msg(
        "several players are named {name!r}: give the player's id, or one of {names}",
        name=name,
        names=", ".join(f'"{n}"' for n in labels),
    )


def _folded(text: str | None) -> str:
    return " ".join((text or "").split()).casefold()


def player_ids_in(
    conn: Connection, league_id: int, club: str | None, region: str | None
) -> set[int] | None:
    """The ids of one club's or one region's players (case and spacing ignored, accents not:
    "rhône" finds "Rhône"), or ``None`` when neither is asked for."""
    wanted_club, wanted_region = _folded(club), _folded(region)
    if not wanted_club and not wanted_region:
        return None
    column = players.c.club if wanted_club else players.c.region
    return {
        pk
        for pk, c, r in conn.execute(
            select(players.c.id, players.c.club, players.c.region).where(
                and_(players.c.league_id == league_id, column.is_not(None))
            )
        )
        if (not wanted_club or _folded(c) == wanted_club)
        and (not wanted_region or _folded(r) == wanted_region)
    }


def clubs_and_regions(conn: Connection, league_id: int) -> tuple[list[str], list[str]]:
    """The league's clubs and regions, sorted (the site's filters, when there are any)."""
    found = []
    for column in (players.c.club, players.c.region):
        values = conn.execute(
            select(column)
            .distinct()
            .where(and_(players.c.league_id == league_id, column.is_not(None)))
        ).scalars()
        found.append(sorted((v for v in values if v), key=str.casefold))
    return found[0], found[1]


def set_identity(
    conn: Connection,
    league_id: int,
    player_id: int,
    *,
    federation_id: str | None = None,
    club: str | None = None,
    region: str | None = None,
    clear: Iterable[str] = (),
) -> None:
    """Set what is given of a player's identity (``clear``: the fields to empty). A federation
    id another player holds is refused."""
    values: dict[str, str | None] = {key: None for key in clear}
    for key, value in (("federation_id", federation_id), ("club", club), ("region", region)):
        value = _cleaned(value)
        if value is not None:
            values[key] = value
    fid = values.get("federation_id")
    if fid is not None:
        holder = by_federation_id(conn, league_id, fid)
        if holder is not None and holder != player_id:
            name = store_players.player_names(conn, league_id)[holder]
            raise EloleagueError(msg("the id {id!r} is already {name!r}'s", id=fid, name=name))
    if values:
        conn.execute(update(players).where(players.c.id == player_id).values(**values))


class _Registry:
    """The league's players as an import resolves them: read once, kept up to date as players
    are registered, given an id or told apart (a file of a thousand players with ids costs a
    handful of queries, not a thousand reads of the league). ``scope``: the ``(name, id)`` of
    every player the import registers; when there are few, only the players they can be (by
    id, by name or alias, plain name included) are read, so that a game posted live with its
    players' ids costs the same in a league of a hundred licensed players and in one of forty
    thousand."""

    def __init__(
        self,
        conn: Connection,
        league_id: int,
        scope: Sequence[tuple[str, str | None]] | None = None,
    ) -> None:
        self.conn, self.league_id = conn, league_id
        self.names: dict[int, str] = {}
        self.who: dict[int, Identity] = {}
        self.by_fid: dict[str, int] = {}
        self.shared: dict[str, set[str]] = {}  # plain name -> the names telling its players apart
        columns = "id, name, federation_id, club, region"
        if scope is None or len(scope) >= SCAN_FROM:
            self.index = name_index(conn, league_id)  # name or alias -> player id
            rows = run(conn, f"SELECT {columns} FROM players WHERE league_id = ?", (league_id,))
        else:
            names = sorted({n for name, fid in scope for n in (name, base_name(name, fid))})
            fids = sorted({fid for _, fid in scope if fid is not None})
            self.index = lookup_names(conn, league_id, names)
            for base, labels in namesakes_of(conn, league_id, names).items():
                self.shared[base] = set(labels)
            parts: list[str] = []  # each through its index: an OR would read every player
            values: list[object] = []
            for column, among in (
                ("id", sorted(set(self.index.values()))),
                ("federation_id", fids),
            ):
                if among:
                    condition, more = one_of(conn, among)
                    parts.append(
                        f"SELECT {columns} FROM players WHERE league_id = ? AND {column} {condition}"
                    )
                    values.extend((league_id, *more))
            rows = run(conn, " UNION ".join(parts), values) if parts else []
        for pk, name, fid, club, region in rows:
            self._remember(pk, name, Identity(fid, club, region))

    def _remember(self, pk: int, name: str, who: Identity) -> None:
        self.names[pk] = name
        self.who[pk] = who
        self.index.setdefault(name, pk)
        if who.federation_id is not None:
            self.by_fid[who.federation_id] = pk
            base = base_name(name, who.federation_id)
            if base != name:
                self.shared.setdefault(base, set()).add(name)

    def register(self, name: str, who: Identity) -> tuple[int, str, bool]:
        """Find or create the player ``name`` with identity ``who`` (see :func:`register`)."""
        fid = who.federation_id
        if fid is not None:
            pid = self.by_fid.get(fid)
            if pid is not None:
                self._update(pid, who)
                return pid, self.names[pid], False
            base = base_name(name, fid)
            pid = self.index.get(name) if name != base else None
            if pid is None and not self.shared.get(base):
                pid = self.index.get(base)
            if pid is not None:
                holder = self.who[pid].federation_id
                if holder is None:  # a registered player without id: this is her id
                    self._update(pid, who)
                    return pid, self.names[pid], False
                if self.names[pid] == base:  # a namesake: tell the two apart
                    self._relabel(pid, id_label(base, holder))
            taken = bool(self.shared.get(base)) or base in self.index
            label = id_label(base, fid) if taken else base
            return self._create(label, who), label, True
        pid = self.index.get(name)
        if pid is None:
            return self._create(name, who), name, True
        self._update(pid, who)
        return pid, self.names[pid], False

    def _create(self, name: str, who: Identity) -> int:
        pk = int(
            self.conn.execute(
                insert(players).returning(players.c.id),
                {
                    "league_id": self.league_id,
                    "name": name,
                    "created_at": dt.datetime.now(dt.UTC),
                    "federation_id": who.federation_id,
                    "club": who.club,
                    "region": who.region,
                },
            ).scalar_one()
        )
        self._remember(pk, name, who)
        return pk

    def _update(self, pid: int, who: Identity) -> None:
        """The club and region a file gives replace the stored ones; an id is only ever added."""
        old = self.who[pid]
        new = Identity(
            old.federation_id or who.federation_id, who.club or old.club, who.region or old.region
        )
        if new != old:
            self.conn.execute(
                update(players)
                .where(players.c.id == pid)
                .values(federation_id=new.federation_id, club=new.club, region=new.region)
            )
            self._remember(pid, self.names[pid], new)

    def _relabel(self, pid: int, new: str) -> None:
        """Give a player the name that tells her apart; her plain name stays an alias (the
        published list and old files name her so; a plain name two players share is refused
        before aliases are looked at)."""
        old = self.names[pid]
        self.conn.execute(update(players).where(players.c.id == pid).values(name=new))
        self.conn.execute(
            player_aliases.delete().where(
                and_(player_aliases.c.league_id == self.league_id, player_aliases.c.alias == new)
            )
        )
        add_alias(self.conn, self.league_id, old, pid)
        self.index[new] = pid
        self.index[old] = pid
        self._remember(pid, new, self.who[pid])


def register(conn: Connection, league_id: int, name: str, who: Identity) -> tuple[int, str, bool]:
    """Find or create the player ``name`` with identity ``who``, matched by federation id first,
    then by name (see the module): ``(player id, her name in the league, created)``. Two players
    of one name are both renamed to tell them apart."""
    return _Registry(conn, league_id, [(name, who.federation_id)]).register(name, who)


def resolve(
    conn: Connection, league_id: int, records: list[GameRecord]
) -> tuple[list[GameRecord], list[str], list[Problem]]:
    """The games with each player who has an id, a club or a region named as the league names
    her (found by id, then by name, or registered), and identities dropped: ``(games, names of
    the players registered, problems)``. A problem for each plain name two players share."""
    plain = (p.name for game in records for p in game.participants if not p.identified)
    shared = namesakes_of(conn, league_id, plain)
    problems: list[Problem] = []
    identified = False
    for game in records:
        for p in game.participants:
            if p.identified:
                identified = True
            elif p.name in shared:
                problems.append(Problem(game.where, _ambiguous_text(p.name, shared[p.name])))
    if problems or not identified:
        return records, [], problems
    registry = _Registry(
        conn,
        league_id,
        [(p.name, p.federation_id) for game in records for p in game.participants if p.identified],
    )
    renames: dict[tuple[str, str | None], str] = {}
    created: list[str] = []
    for game in records:
        for p in game.participants:
            key = (p.name, p.federation_id)
            if key in renames or not p.identified:
                continue
            _pid, name, new = registry.register(p.name, Identity(p.federation_id, p.club, p.region))
            renames[key] = name
            if new:
                created.append(name)
    store_players.forget_folded()
    return [_renamed(g, renames) for g in records], created, []


def _renamed(game: GameRecord, renames: Mapping[tuple[str, str | None], str]) -> GameRecord:
    if not any(p.identified for p in game.participants):
        return game
    return game.with_players(
        lambda p: Participant(renames.get((p.name, p.federation_id), p.name), p.role)
    )
