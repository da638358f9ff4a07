"""Result sheets sent through the site: check, preview, hold for review, confirm.

An upload is read with the same readers as ``eloleague import`` (:func:`eloleague.io.read_games`,
by the file's extension) and imported as a dry run: bad input raises
:class:`eloleague.errors.InputError` with every problem located (file, line or sheet/row/column)
and nothing is stored; good input gives the rating changes it would make. The file is then kept in
``pending_uploads`` until an officer confirms it (a referee's upload waits there for review).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any

from sqlalchemy import and_, insert, select, update

from eloleague.errors import EloleagueError, InputError, Problem
from eloleague.i18n import Text
from eloleague.io import parse_jsonl
from eloleague.league import ImportReport, League
from eloleague.records import GameRecord
from eloleague.store.db import read, write
from eloleague.store.tables import pending_uploads, users
from eloleague.web.numbers import shown

PENDING = "pending"
IMPORTED = "imported"
REJECTED = "rejected"


@dataclass(frozen=True, slots=True)
class Pending:
    """An upload waiting for an officer."""

    id: int
    league_id: int
    filename: str
    user: str
    created_at: dt.datetime
    status: str


MAX_NAME = 100  # characters of an upload's name kept (its extension always is)


def safe_name(filename: str) -> str:
    """The file's own name, without any folder part, control characters or dots-only names,
    shortened to :data:`MAX_NAME` characters with its extension kept (the readers go by it)."""
    name = PurePath(filename.replace("\\", "/")).name
    name = "".join(c for c in name if c.isprintable()).strip()
    if not name.strip("."):
        return "upload"
    if len(name) > MAX_NAME:
        stem, dot, ext = name.rpartition(".")
        ext = ext[:10] if dot and stem else ""
        tail = "." + ext if ext else ""
        name = name[: MAX_NAME - len(tail)].rstrip() + tail
    return name


def read_upload(
    league: League, filename: str, content: bytes, lang: str | None = None
) -> tuple[list[GameRecord], list[Problem]]:
    """The games of an uploaded file, checked against the league's rules (or InputError), and
    the file's located warnings (a workbook's names that look like registered players')."""
    name = safe_name(filename)
    if not content.strip():
        raise InputError([Problem("", Text.of("the file is empty"))], name)
    with tempfile.TemporaryDirectory(prefix="eloleague-upload-") as folder:
        path = Path(folder) / name
        path.write_bytes(content)
        try:
            return league.read_file(path, lang=lang)
        except InputError as exc:
            raise InputError(exc.problems, name) from None


def games_from_body(league: League, body: bytes, source: str = "request") -> list[GameRecord]:
    """Games posted to the API: JSON Lines, or a JSON array of games, or one game object."""
    text = body.strip()
    if text.startswith(b"{") and b"\n" in text:  # one game, pretty-printed over several lines
        # JSON Lines (or garbage) does not parse as a whole: the reader then locates the problem.
        with contextlib.suppress(ValueError, RecursionError):
            text = json.dumps(json.loads(text), ensure_ascii=False).encode()
    if text.startswith(b"["):
        try:
            items = json.loads(text)
        except ValueError as exc:
            raise InputError(
                [Problem("", Text.of("the body is not JSON: {error}", error=str(exc)))], source
            ) from None
        except RecursionError:
            raise InputError(
                [Problem("", Text.in_domain("messages", "not valid JSON (nested too deeply)"))],
                source,
            ) from None
        if not isinstance(items, list):
            raise InputError([Problem("", Text.of("expected a list of games"))], source)
        text = b"\n".join(json.dumps(item, ensure_ascii=False).encode() for item in items)
    if not text:
        raise InputError([Problem("", Text.of("no games in the request"))], source)
    records, problems = parse_jsonl(text)
    from eloleague.io import validate_games

    problems += validate_games(league.rules, records)
    if problems:
        raise InputError(problems, source)
    return records


def preview(
    league: League,
    records: list[GameRecord],
    source: str,
    content: bytes,
    user: str | None,
    warnings: Sequence[Problem] = (),
) -> ImportReport:
    """What importing ``records`` would do (nothing is stored)."""
    return league.import_games(
        records,
        source=source,
        content_hash=_digest(content),
        dry_run=True,
        user=user,
        file_warnings=warnings,
    )


def _digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def hold(league: League, user_id: int, filename: str, content: bytes) -> int:
    """Keep a checked upload until it is confirmed; returns its number. The same file sent
    again by the same user while it still waits is the same upload (a previewed file sent twice
    does not wait twice in the review list)."""
    with write(league.engine) as conn:
        same = conn.execute(
            select(pending_uploads.c.id).where(
                and_(
                    pending_uploads.c.league_id == league.id,
                    pending_uploads.c.user_id == user_id,
                    pending_uploads.c.status == PENDING,
                    pending_uploads.c.filename == safe_name(filename),
                    pending_uploads.c.content == content,
                )
            )
        ).scalar()
        if same is not None:
            return int(same)
        pk = conn.execute(
            insert(pending_uploads).values(
                league_id=league.id,
                user_id=user_id,
                filename=safe_name(filename),
                content=content,
                created_at=dt.datetime.now(dt.UTC),
                status=PENDING,
            )
        ).inserted_primary_key
    assert pk is not None
    return int(pk[0])


def pending(league: League) -> list[Pending]:
    """The league's uploads waiting for an officer, oldest first."""
    with read(league.engine) as conn:
        rows = conn.execute(
            select(
                pending_uploads.c.id,
                pending_uploads.c.league_id,
                pending_uploads.c.filename,
                users.c.name,
                pending_uploads.c.created_at,
                pending_uploads.c.status,
            )
            .select_from(pending_uploads.join(users, users.c.id == pending_uploads.c.user_id))
            .where(
                and_(pending_uploads.c.league_id == league.id, pending_uploads.c.status == PENDING)
            )
            .order_by(pending_uploads.c.id)
        ).all()
    return [Pending(*r) for r in rows]


def load(league: League, upload_id: int) -> tuple[Pending, bytes]:
    """A pending upload and its bytes."""
    with read(league.engine) as conn:
        row = conn.execute(
            select(
                pending_uploads.c.id,
                pending_uploads.c.league_id,
                pending_uploads.c.filename,
                users.c.name,
                pending_uploads.c.created_at,
                pending_uploads.c.status,
                pending_uploads.c.content,
            )
            .select_from(pending_uploads.join(users, users.c.id == pending_uploads.c.user_id))
            .where(
                and_(pending_uploads.c.id == upload_id, pending_uploads.c.league_id == league.id)
            )
        ).first()
    if row is None:
        raise EloleagueError(str(Text.of("no upload number {n} in this league", n=upload_id)))
    return Pending(*row[:6]), bytes(row[6])


def confirm(league: League, upload_id: int, user: str) -> ImportReport:
    """Import a pending upload for good (checked again: the league may have changed)."""
    item, content = load(league, upload_id)
    if item.status != PENDING:
        raise EloleagueError(
            str(Text.of("upload {n} was already {status}", n=upload_id, status=item.status))
        )
    records, _ = read_upload(league, item.filename, content)
    report = league.import_games(
        records, source=item.filename, content_hash=_digest(content), user=user
    )
    _set_status(league, upload_id, IMPORTED)
    return report


def reject(league: League, upload_id: int) -> None:
    """Drop a pending upload."""
    item, _ = load(league, upload_id)
    if item.status == PENDING:
        _set_status(league, upload_id, REJECTED)


def _set_status(league: League, upload_id: int, status: str) -> None:
    with write(league.engine) as conn:
        conn.execute(
            update(pending_uploads).where(pending_uploads.c.id == upload_id).values(status=status)
        )


def report_dict(league: League, report: ImportReport, lang: str) -> dict[str, Any]:
    """An import report as the API and the preview page show it."""
    from eloleague.web.errors import translate as render

    rules = league.rules
    return {
        "source": report.source,
        "dry_run": report.dry_run,
        "summary": render(report.summary(), lang),
        "added": report.added,
        "replaced": report.replaced,
        "unchanged": report.unchanged,
        "new_players": report.new_players,
        "name_warnings": [render(w.text(), lang) for w in report.name_warnings],
        "file_warnings": [w.render(lang) for w in report.file_warnings],
        "unrated": [render(u, lang) for u in report.unrated],
        "already_imported": report.already_imported.isoformat()
        if report.already_imported
        else None,
        "rating_changes": [
            {
                "player": c.key.player,
                "mode": c.key.mode,
                "role": c.key.role,
                "before": shown(rules, c.before),
                "after": shown(rules, c.after),
                "delta": shown(rules, c.delta),
                "games_before": c.games_before,
                "games_after": c.games_after,
            }
            for c in report.rating_changes
        ],
    }


def correct(
    league: League, game_id: str, records: list[GameRecord], user: str | None
) -> ImportReport:
    """Replace the game ``game_id`` with the one corrected game in ``records``, in one
    transaction (:meth:`League.correct_game`)."""
    if len(records) != 1:
        raise EloleagueError(Text.of("give exactly one game (found {n})", n=len(records)))
    return league.correct_game(game_id, records[0], user=user)
