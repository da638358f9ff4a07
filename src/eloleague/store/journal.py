"""The league's journal: one row for each change an officer made (an import, a correction, a
deletion, a rename or a merge, a rule change, a season closed or reopened), written in the
change's own transaction, so it holds exactly the changes that happened (docs/league.md,
"The journal")."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, select

from eloleague.i18n import Text
from eloleague.records import PoolKey, PoolState
from eloleague.store.bulk import run, stamp_param
from eloleague.store.messages import msg
from eloleague.store.tables import journal

# What each action says, with the entry's details as its parameters (league catalogue).
WORDS: dict[str, str] = {
    "create": "league created with rule set {rules}",
    "initial": "{pools} from {source}",
    "import": "{source}: {added}, {replaced}",
    "correct": "game {game} corrected",
    "delete": "game {game} deleted",
    "rename": "{old} renamed {new}",
    "merge": "{alias} merged into {into}",
    "rules": "rule set {old} replaced by {new}",
    "close": "season ending {end} closed",
    "reopen": "season ending {end} reopened",
    "player_add": "player {name} registered",
    "player_edit": "id, club or region of {name} changed",
}

# The counts among the details, each said with its noun: (action, detail) -> its two forms.
COUNTED: dict[tuple[str, str], tuple[str, str]] = {
    ("initial", "pools"): ("{count} starting rating", "{count} starting ratings"),
    ("import", "added"): ("{count} game added", "{count} games added"),
    ("import", "replaced"): ("{count} replaced", "{count} replaced"),
}


@dataclass(frozen=True)
class JournalEntry:
    """One change: when, who, what (an action and its details), how many games and players'
    ratings it changed."""

    at: dt.datetime
    user: str | None
    action: str
    detail: Mapping[str, Any] = field(default_factory=dict)
    games: int = 0
    players: int = 0

    def text(self) -> Text:
        """The change in words (translatable)."""
        detail = dict(self.detail)
        for (action, key), forms in COUNTED.items():
            if action == self.action and key in detail:
                detail[key] = Text.plural(*forms, int(detail[key]))
        return msg(WORDS.get(self.action, self.action), **detail)


def note(
    conn: Connection,
    league_id: int,
    action: str,
    user: str | None,
    *,
    games: int = 0,
    players: int = 0,
    **detail: object,
) -> None:
    """Add an entry (in the caller's transaction: it commits or rolls back with the change)."""
    assert action in WORDS, action
    run(  # plain SQL: every write notes itself, a live game's too
        conn,
        "INSERT INTO journal (league_id, at, user_name, action, detail, games, players) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            league_id,
            stamp_param(conn)(dt.datetime.now(dt.UTC)),
            user,
            action,
            json.dumps(detail, ensure_ascii=False, default=str),
            games,
            players,
        ),
    )


def entries(conn: Connection, league_id: int, limit: int = 100) -> list[JournalEntry]:
    """The newest ``limit`` entries, newest first."""
    rows = conn.execute(
        select(
            journal.c.at,
            journal.c.user_name,
            journal.c.action,
            journal.c.detail,
            journal.c.games,
            journal.c.players,
        )
        .where(journal.c.league_id == league_id)
        .order_by(journal.c.id.desc())
        .limit(limit)
    ).all()
    return [
        JournalEntry(_aware(r.at), r.user_name, r.action, json.loads(r.detail), r.games, r.players)
        for r in rows
    ]


def players_changed(before: Mapping[PoolKey, PoolState], after: Mapping[PoolKey, PoolState]) -> int:
    """How many players have a pool whose rating or games count differs (a pool that appeared
    or went away counts too)."""
    changed = {
        key.player
        for key in before.keys() | after.keys()
        if (b := before.get(key)) is None
        or (a := after.get(key)) is None
        or (b.rating, b.games) != (a.rating, a.games)
    }
    return len(changed)


def _aware(value: dt.datetime) -> dt.datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)
