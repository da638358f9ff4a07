"""Planning an import: which incoming games are new, already stored, or replace a stored one.

A game with an id is matched by its id: the same content (its :func:`content_hash`) is already
there, other content is a conflict (refused) or, with ``update``, a replacement that keeps the
stored game's place in the arrival order. A game without id is matched by its content: as many
copies as are stored count as already there, the rest are new (the same game twice in a file is
kept twice). Names resolve to players through :func:`~eloleague.store.players.name_index`; an
alias becomes the player's name before hashing. Every lookup is batched: an import of a million
games runs a handful of queries, one of a hundred games reads only what it touches.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from sqlalchemy import Connection, and_, func, select

from eloleague.errors import Problem
from eloleague.records import GameRecord, Participant, PoolKey, PoolState, Side
from eloleague.store.games import content_hash
from eloleague.store.messages import msg
from eloleague.store.reports import RatingChange
from eloleague.store.tables import games

# Above this many incoming ids, one scan of the league's ids beats many ``IN (...)`` queries.
SCAN_FROM = 2000


@dataclass(frozen=True, slots=True)
class Stored:
    """A stored game an incoming one matched: row id, arrival number, date, content hash."""

    pk: int
    seq: int
    date: dt.date
    content_hash: str


@dataclass
class Plan:
    """What an import will do with each incoming game."""

    new: list[tuple[GameRecord, str]] = field(default_factory=list)
    replaced: list[tuple[GameRecord, str, Stored]] = field(default_factory=list)
    unchanged: int = 0
    conflicts: list[Problem] = field(default_factory=list)


def duplicate_ids(records: Sequence[GameRecord]) -> list[Problem]:
    """A problem for each game whose id an earlier game of the same input already uses."""
    seen: dict[str, str] = {}
    problems = []
    for g in records:
        if g.id is None:
            continue
        if g.id not in seen:
            seen[g.id] = g.origin
            continue
        problems.append(
            Problem(
                g.origin,
                msg(
                    'game id "{id}" is used twice (also at {other})',
                    id=g.id,
                    other=seen[g.id] or "?",
                ),
            )
        )
    return problems


def wanted_names(records: Sequence[GameRecord]) -> list[str]:
    """Every name in the games, once, in order of first appearance."""
    seen: dict[str, None] = {}
    for g in records:
        for side in g.sides:
            for p in side.players:
                seen[p.name] = None
    return list(seen)


def canonical_games(
    records: list[GameRecord],
    names: Sequence[str],
    index: Mapping[str, int],
    canonical: Mapping[int, str],
) -> list[GameRecord]:
    """The games with every alias replaced by its player's name (the same list when no game
    uses an alias)."""
    renames = {n: canonical[index[n]] for n in names if canonical[index[n]] != n}
    if not renames:
        return records
    return [
        rename(g, renames) if any(p.name in renames for p in g.participants) else g for g in records
    ]


def rename(game: GameRecord, renames: Mapping[str, str]) -> GameRecord:
    """The game with players renamed (``renames``: old name to new)."""
    if not renames:
        return game
    return GameRecord(
        date=game.date,
        sides=tuple(
            Side(
                tuple(Participant(renames.get(p.name, p.name), p.role) for p in s.players),
                s.outcome,
                s.score,
            )
            for s in game.sides
        ),
        id=game.id,
        event=game.event,
        round=game.round,
        mode=game.mode,
        rated=game.rated,
        origin=game.origin,
    )


def plan(
    conn: Connection,
    league_id: int,
    records: Sequence[GameRecord],
    player_ids: Mapping[str, int],
    update: bool,
) -> Plan:
    """Sort incoming games (players already resolved) into new, unchanged, replaced, conflicts."""
    hashes = [content_hash(g, player_ids) for g in records]
    by_id = _stored_by_ext_id(conn, league_id, [g.id for g in records if g.id is not None])
    by_hash = _stored_by_hash(
        conn, league_id, [h for g, h in zip(records, hashes, strict=True) if g.id is None]
    )
    out = Plan()
    taken: Counter[str] = Counter()
    for g, h in zip(records, hashes, strict=True):
        if g.id is None:
            if taken[h] < by_hash.get(h, 0):
                taken[h] += 1
                out.unchanged += 1
            else:
                out.new.append((g, h))
            continue
        old = by_id.get(g.id)
        if old is None:
            out.new.append((g, h))
        elif old.content_hash == h:
            out.unchanged += 1
        elif update:
            out.replaced.append((g, h, old))
        else:
            out.conflicts.append(
                Problem(
                    g.origin,
                    msg(
                        'game "{id}" is already in the league with different content '
                        "(dated {date}); use --update to replace it",
                        id=g.id,
                        date=old.date.isoformat(),
                    ),
                )
            )
    return out


def changes(
    before: Mapping[PoolKey, PoolState], after: Mapping[PoolKey, PoolState]
) -> list[RatingChange]:
    """The pools whose rating or games count differ, largest change first."""
    out = []
    for key, pool in after.items():
        old = before.get(key)
        if old is None or old.rating != pool.rating or old.games != pool.games:
            out.append(
                RatingChange(
                    key,
                    old.rating if old else None,
                    pool.rating,
                    old.games if old else 0,
                    pool.games,
                )
            )
    out.sort(key=lambda c: (-abs(c.after - (c.before or 0.0)), c.key.player))
    return out


def chunks(items: Sequence[str], size: int = 500) -> Iterator[Sequence[str]]:
    """``items`` in slices of ``size`` (bounded ``IN (...)`` lists)."""
    for i in range(0, len(items), size):
        yield items[i : i + size]


def _stored_by_ext_id(conn: Connection, league_id: int, ids: Sequence[str]) -> dict[str, Stored]:
    if not ids:
        return {}
    cols = (games.c.ext_id, games.c.id, games.c.seq, games.c.date, games.c.content_hash)
    if len(ids) > SCAN_FROM:
        wanted = set(ids)
        query = select(*cols).where(
            and_(games.c.league_id == league_id, games.c.ext_id.is_not(None))
        )
        rows = [r for r in conn.execute(query) if r[0] in wanted]
    else:
        rows = []
        for chunk in chunks(ids):
            rows.extend(
                conn.execute(
                    select(*cols).where(
                        and_(games.c.league_id == league_id, games.c.ext_id.in_(chunk))
                    )
                )
            )
    return {ext: Stored(pk, seq, date, digest) for ext, pk, seq, date, digest in rows}


def _stored_by_hash(conn: Connection, league_id: int, hashes: Sequence[str]) -> Counter[str]:
    """How many id-less stored games have each content hash."""
    out: Counter[str] = Counter()
    for chunk in chunks(sorted(set(hashes))):
        query = (
            select(games.c.content_hash, func.count())
            .where(
                and_(
                    games.c.league_id == league_id,
                    games.c.ext_id.is_(None),
                    games.c.content_hash.in_(chunk),
                )
            )
            .group_by(games.c.content_hash)
        )
        out.update({k: v for k, v in conn.execute(query).all()})
    return out
