"""The league's journal: one row for each change an officer made (an import, a correction, a
deletion, a rename or a merge, a rule change, a season closed or reopened), written in the
change's own transaction, so it holds exactly the changes that happened (docs/league.md,
"The journal").

A game server posts each result as its game ends, hundreds a second: an entry each would bury
every other change under thousands of "api: 1 game added", and make the journal one of the
largest tables. The imports that one user makes from one source within one UTC hour and that
replace nothing are therefore one entry, a *run*: it counts them (``changes``), adds up their
games and players' ratings, and says when the first and the last were made. Each import's own
record stays in its import batch (``import_batches``: source, user, time, counts), which its
games refer to.
"""

from __future__ import annotations

import datetime as dt
import hashlib
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
    "recompute": "every rating recomputed from the games",
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
    """One change, or a run of imports (see the module): when (the last one's time), who, what
    (an action and its details), how many games and players' ratings it changed (a run: the sum
    of its imports', a player in two of them counted twice), how many changes it counts and
    when the first was made (``None`` for one change)."""

    at: dt.datetime
    user: str | None
    action: str
    detail: Mapping[str, Any] = field(default_factory=dict)
    games: int = 0
    players: int = 0
    changes: int = 1
    first_at: dt.datetime | None = None

    def text(self) -> Text:
        """The change in words (translatable); a run says how many imports it counts and since
        when (UTC)."""
        detail = dict(self.detail)
        for (action, key), forms in COUNTED.items():
            if action == self.action and key in detail:
                detail[key] = Text.plural(*forms, int(detail[key]))
        said = msg(WORDS.get(self.action, self.action), **detail)
        if self.changes == 1 or self.first_at is None:
            return said
        return msg(
            "{change} ({imports} since {time} UTC)",
            change=said,
            imports=Text.plural("{count} import", "{count} imports", self.changes),
            time=self.first_at.astimezone(dt.UTC).strftime("%H:%M"),
        )


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
    _insert(conn, league_id, action, user, games, players, dt.datetime.now(dt.UTC), detail)


def _insert(
    conn: Connection,
    league_id: int,
    action: str,
    user: str | None,
    games: int,
    players: int,
    at: dt.datetime,
    detail: Mapping[str, object],
) -> None:
    assert action in WORDS, action
    run(  # plain SQL: every write notes itself, a live game's too
        conn,
        "INSERT INTO journal (league_id, at, user_name, action, detail, games, players) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            league_id,
            stamp_param(conn)(at),
            user,
            action,
            json.dumps(detail, ensure_ascii=False, default=str),
            games,
            players,
        ),
    )


def note_import(
    conn: Connection,
    league_id: int,
    user: str | None,
    source: str,
    *,
    added: int,
    replaced: int,
    players: int,
    at: dt.datetime | None = None,
    imports: int = 1,
) -> None:
    """Note an import that changed something: added to the run of ``user``'s imports from
    ``source`` in the UTC hour of ``at`` (default: now) when it replaced nothing, the run begun
    by it if there is none yet (see the module); an entry of its own otherwise. One statement,
    whose result nobody reads (on PostgreSQL it goes with the commit). ``imports``: how many
    imports of the run this note stands for, when several written together (none replacing
    anything) are noted at once: their ``added`` and ``players`` summed, as many notes would."""
    when = at or dt.datetime.now(dt.UTC)
    if replaced:
        assert imports == 1, "an import that replaces games has an entry of its own"
        shown = {"source": source, "added": added, "replaced": replaced}
        _insert(conn, league_id, "import", user, added + replaced, players, when, shown)
        return
    # A run replaces nothing: the games it added are its games, written last in its details,
    # which the statement writes as their text before that count plus the count.
    before = f'{{"source": {json.dumps(source, ensure_ascii=False)}, "replaced": 0, "added": '
    run(
        conn,
        _RUN,
        (
            league_id,
            stamp_param(conn)(when),
            user,
            f"{before}{added}}}",
            added,
            players,
            imports,
            None if imports == 1 else stamp_param(conn)(when),
            run_key(when, user, source),
            before,
        ),
    )


def run_key(at: dt.datetime, user: str | None, source: str) -> str:
    """What the imports of a run share (see the module): the UTC hour, the user, the source."""
    hour = at.astimezone(dt.UTC).strftime("%Y-%m-%dT%H")
    shared = json.dumps(["import", hour, user, source], ensure_ascii=False)
    return hashlib.sha256(shared.encode()).hexdigest()


_RUN = (
    "INSERT INTO journal (league_id, at, user_name, action, detail, games, players, changes, "
    "first_at, run_key) VALUES (?, ?, ?, 'import', ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (league_id, run_key) DO UPDATE SET "
    "first_at = COALESCE(journal.first_at, journal.at), at = excluded.at, "
    "changes = journal.changes + excluded.changes, games = journal.games + excluded.games, "
    "players = journal.players + excluded.players, "
    "detail = ? || CAST(journal.games + excluded.games AS TEXT) || '}'"
)
"""A run's statement: the entry of an import, or the run's, added to (SQLite, PostgreSQL)."""


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
            journal.c.changes,
            journal.c.first_at,
        )
        .where(journal.c.league_id == league_id)
        .order_by(journal.c.id.desc())
        .limit(limit)
    ).all()
    return [
        JournalEntry(
            _aware(r.at),
            r.user_name,
            r.action,
            json.loads(r.detail),
            r.games,
            r.players,
            r.changes,
            None if r.first_at is None else _aware(r.first_at),
        )
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
