"""Games in the database: content hashes, bulk inserts and loading them back as records.

A game is stored as one ``games`` row, one ``game_sides`` row per side and one ``side_players`` row
per participant, players by id (so renaming a player rewrites nothing). Bulk paths use Core
``executemany`` (no ORM objects): a million games go in and come out in seconds.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import msgspec
from sqlalchemy import Connection, and_, delete, func, insert, select

from eloleague.records import GameRecord, Participant, Side
from eloleague.store.tables import events, game_sides, games, side_players


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as read back from the database: its row id, arrival order and the record.

    ``record.id`` is the game's label in the ledger: the source id, or ``#SEQ`` when the source
    gave none (``ext_id`` is then ``None``).
    """

    pk: int
    seq: int
    ext_id: str | None
    record: GameRecord


def label(ext_id: str | None, seq: int) -> str:
    """How the ledger names a game: its source id, or ``#SEQ`` (its arrival number)."""
    return ext_id if ext_id is not None else f"#{seq}"


def content_hash(game: GameRecord, player_ids: Mapping[str, int]) -> str:
    """A digest of everything a game says except its id, players by id (stable across renames)."""
    payload = (
        game.date.isoformat(),
        game.event or "",
        game.round,
        game.mode,
        game.rated,
        [
            (
                [(player_ids[p.name], p.role) for p in side.players],
                side.outcome,
                None if side.score is None else float(side.score),
            )
            for side in game.sides
        ],
    )
    return hashlib.blake2b(msgspec.json.encode(payload), digest_size=16).hexdigest()


def event_ids(conn: Connection, league_id: int, names: Iterable[str]) -> dict[str, int]:
    """Ids of the named events, creating the missing ones."""
    wanted = set(names)
    if not wanted:
        return {}
    found = {
        name: pk
        for pk, name in conn.execute(
            select(events.c.id, events.c.name).where(events.c.league_id == league_id)
        )
        if name in wanted
    }
    missing = sorted(wanted - found.keys())
    if missing:
        conn.execute(insert(events), [{"league_id": league_id, "name": n} for n in missing])
        return event_ids(conn, league_id, wanted)
    return found


def next_seq(conn: Connection, league_id: int) -> int:
    """The arrival number the next new game gets."""
    value = conn.execute(
        select(func.max(games.c.seq)).where(games.c.league_id == league_id)
    ).scalar()
    return int(value or 0) + 1


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game about to be written: its record, arrival number and content hash."""

    record: GameRecord
    seq: int
    content_hash: str


def insert_games(
    conn: Connection,
    league_id: int,
    new: Sequence[NewGame],
    player_ids: Mapping[str, int],
    batch_id: int | None,
) -> dict[int, int]:
    """Write ``new`` games with their sides and players; returns ``{seq: row id}``."""
    if not new:
        return {}
    ev = event_ids(conn, league_id, {g.record.event for g in new if g.record.event})
    conn.execute(
        insert(games),
        [
            {
                "league_id": league_id,
                "seq": g.seq,
                "ext_id": g.record.id,
                "date": g.record.date,
                "event_id": ev[g.record.event] if g.record.event else None,
                "round": g.record.round,
                "mode": g.record.mode,
                "rated": g.record.rated,
                "content_hash": g.content_hash,
                "batch_id": batch_id,
            }
            for g in new
        ],
    )
    low = min(g.seq for g in new)
    pks = dict(
        conn.execute(
            select(games.c.seq, games.c.id).where(
                and_(games.c.league_id == league_id, games.c.seq >= low)
            )
        ).all()
    )
    side_rows = []
    player_rows = []
    for g in new:
        pk = pks[g.seq]
        for s, side in enumerate(g.record.sides, start=1):
            side_rows.append(
                {"game_id": pk, "side_no": s, "outcome": side.outcome, "score": side.score}
            )
            for n, p in enumerate(side.players, start=1):
                player_rows.append(
                    {
                        "game_id": pk,
                        "side_no": s,
                        "position": n,
                        "player_id": player_ids[p.name],
                        "role": p.role,
                    }
                )
    conn.execute(insert(game_sides), side_rows)
    conn.execute(insert(side_players), player_rows)
    return {g.seq: pks[g.seq] for g in new}


def delete_games(conn: Connection, pks: Sequence[int]) -> None:
    """Remove games with their sides and players."""
    for start in range(0, len(pks), 500):
        chunk = list(pks[start : start + 500])
        conn.execute(delete(side_players).where(side_players.c.game_id.in_(chunk)))
        conn.execute(delete(game_sides).where(game_sides.c.game_id.in_(chunk)))
        conn.execute(delete(games).where(games.c.id.in_(chunk)))


def load_games(
    conn: Connection,
    league_id: int,
    names: Mapping[int, str],
    *,
    since: dt.date | None = None,
    until: dt.date | None = None,
    pks: Sequence[int] | None = None,
) -> list[StoredGame]:
    """The league's games (dated on/after ``since``, on/before ``until``), in arrival order."""
    cond = [games.c.league_id == league_id]
    if since is not None:
        cond.append(games.c.date >= since)
    if until is not None:
        cond.append(games.c.date <= until)
    if pks is not None:
        cond.append(games.c.id.in_(list(pks)))
    where = and_(*cond)
    chosen = select(games.c.id).where(where)

    sides: dict[int, list[tuple[str | None, float | None]]] = defaultdict(list)
    for game_id, outcome, score in conn.execute(
        select(game_sides.c.game_id, game_sides.c.outcome, game_sides.c.score)
        .where(game_sides.c.game_id.in_(chosen))
        .order_by(game_sides.c.game_id, game_sides.c.side_no)
    ):
        sides[game_id].append((outcome, score))
    players: dict[tuple[int, int], list[Participant]] = defaultdict(list)
    for game_id, side_no, player_id, role in conn.execute(
        select(
            side_players.c.game_id,
            side_players.c.side_no,
            side_players.c.player_id,
            side_players.c.role,
        )
        .where(side_players.c.game_id.in_(chosen))
        .order_by(side_players.c.game_id, side_players.c.side_no, side_players.c.position)
    ):
        players[game_id, side_no].append(Participant(names[player_id], role))

    out = []
    query = (
        select(
            games.c.id,
            games.c.seq,
            games.c.ext_id,
            games.c.date,
            events.c.name,
            games.c.round,
            games.c.mode,
            games.c.rated,
        )
        .select_from(games.outerjoin(events, games.c.event_id == events.c.id))
        .where(where)
        .order_by(games.c.seq)
    )
    for pk, seq, ext_id, date, event, rnd, mode, rated in conn.execute(query):
        record = GameRecord(
            date=date,
            sides=tuple(
                Side(tuple(players[pk, s]), outcome, score)
                for s, (outcome, score) in enumerate(sides[pk], start=1)
            ),
            id=label(ext_id, seq),
            event=event,
            round=rnd,
            mode=mode,
            rated=bool(rated),
            origin=f"game {label(ext_id, seq)}",
        )
        out.append(StoredGame(pk, seq, ext_id, record))
    return out
