"""Result sheets sent through the site: check, preview, hold for review, confirm.

An upload is read with the same readers as ``eloleague import`` (:func:`eloleague.io.read_games`,
by the file's extension) and imported as a dry run: bad input raises
:class:`eloleague.errors.InputError` with every problem located (file, line or sheet/row/column)
and nothing is stored; good input gives the rating changes it would make. The file is then kept in
``pending_uploads`` until an officer confirms it (a referee's upload waits there for review).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePath
from typing import Any

from eloleague.errors import EloleagueError, InputError, Problem, with_remedy
from eloleague.i18n import Text
from eloleague.io import parse_jsonl
from eloleague.io.json_errors import json_problem
from eloleague.io.jsonl import array_as_lines
from eloleague.league import ImportReport, League
from eloleague.records import GameRecord
from eloleague.store.event_places import EventPlace
from eloleague.web.numbers import shower

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
    league: League,
    filename: str,
    content: bytes,
    lang: str | None = None,
    events: list[EventPlace] | None = None,
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
            return league.read_file(path, lang=lang, events=events)
        except InputError as exc:
            raise InputError(exc.problems, name) from None


def csv_text(content: bytes, source: str) -> str:
    """An uploaded ratings CSV as text (UTF-8, with or without its byte order mark)."""
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(
            [Problem("", Text.of("the file is not UTF-8 text: save it as CSV UTF-8"))], source
        ) from None


REQUEST = Text.in_domain("messages", "request")
"""A posted body, where its problems are: "request: line 2", « requête : ligne 2 »."""

API_REMEDY = Text.in_domain("web", "to replace it, an officer posts it again with `?update=true`")
"""How a poster replaces a stored game that has other content (the API's ``update`` flag)."""

SITE_REMEDY = Text.in_domain("web", "to replace it, an officer corrects the game on its page")
"""How the site replaces a stored game that has other content (an upload never does)."""


def in_api_words(error: InputError) -> InputError:
    """A refused post as its poster reads it: every problem located in the request (not under
    the import's label, ``api``), a stored game with other content followed by the API's way to
    replace it (:func:`~eloleague.errors.with_remedy`)."""
    return with_remedy(error, API_REMEDY, REQUEST)


def games_from_body(
    league: League, body: bytes, source: str | None = None, *, one: bool = False
) -> list[GameRecord]:
    """Games posted to the API: JSON Lines, or a JSON array of games, or one game object.
    ``source`` names the body in the problems' places (default: "request", « requête »).
    ``one``: the body must hold one game (a correction): more is refused as such before the
    games are checked (two copies of the game are not "an id used twice")."""
    source = REQUEST if source is None else source
    text = body.strip()
    if text.startswith(b"{") and b"\n" in text:  # one game, pretty-printed over several lines
        # JSON Lines (or garbage) does not parse as a whole: the reader then locates the problem.
        with contextlib.suppress(ValueError, RecursionError):
            text = json.dumps(json.loads(text), ensure_ascii=False).encode()
    if text.startswith(b"[") and (lines := array_as_lines(text)) is not None:
        text = lines  # each game decoded once, by the JSON Lines reader
    elif text.startswith(b"["):
        try:
            items = json.loads(text)
        except ValueError:
            raise InputError(
                [Problem("", Text.of("the body is not JSON: {error}", error=json_problem(text)))],
                source,
            ) from None
        except RecursionError:
            raise InputError(
                [Problem("", Text.in_domain("messages", "not valid JSON (nested too deeply)"))],
                source,
            ) from None
        if not isinstance(items, list):
            raise InputError([Problem("", Text.of("expected a list of games"))], source)
        # A lone surrogate (which the standard library reads, and UTF-8 cannot hold) is written
        # back as its escape, for the JSON Lines reader to refuse with its place.
        text = b"\n".join(
            json.dumps(item, ensure_ascii=False).encode("utf-8", "backslashreplace")
            for item in items
        )
    if not text:
        raise InputError([Problem("", Text.of("no games in the request"))], source)
    records, problems = parse_jsonl(text)
    if one and len(records) > 1:  # (none: the problems say why)
        exactly_one(records)
    from eloleague.io.games import checked_games

    return checked_games(league.rules, records, problems, source, league.today())


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


def confirm(
    league: League, upload_id: int, user: str, names: Mapping[str, str] | None = None
) -> ImportReport:
    """Import a pending upload for good: read again (the league may have changed), then
    imported and marked so in one transaction."""
    item, content = league.pending_upload(upload_id)
    places: list[EventPlace] = []
    records, _ = read_upload(league, item.filename, content, events=places)
    try:
        return league.confirm_upload(
            upload_id,
            records,
            content_hash=_digest(content),
            user=user,
            names=names,
            event_places=places,
        )
    except InputError as exc:  # a game stored meanwhile with other content
        raise with_remedy(exc, SITE_REMEDY) from None


def report_dict(league: League, report: ImportReport, lang: str) -> dict[str, Any]:
    """An import report as the API and the preview page show it."""
    from eloleague.web.errors import translate as render

    show = shower(league.rules)
    return {
        "source": report.source,
        "dry_run": report.dry_run,
        "summary": report.summary_in(lang),
        "added": report.added,
        "replaced": report.replaced,
        "unchanged": report.unchanged,
        "new_players": report.new_players,
        "name_warnings": [render(w.text(), lang) for w in report.name_warnings],
        "look_alikes": [{"name": w.name, "likely": w.likely} for w in report.look_alikes],
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
                "before": show(c.before),
                "after": show(c.after),
                "delta": show(c.delta),
                "adjustment": show(c.adjustment),
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
    exactly_one(records)
    return league.correct_game(game_id, records[0], user=user)


def exactly_one(records: Sequence[GameRecord]) -> None:
    """Refuses a correction that does not hold exactly one game."""
    if len(records) != 1:
        raise EloleagueError(Text.of("give exactly one game (found {n})", n=len(records)))


# Heavy work, run in the server's helper process (web/offload.py): module-level functions whose
# arguments and answers are plain values. The league is opened by the database's URL and name.


def previewed_body(url: str, league: str, body: bytes, user: str, lang: str) -> dict[str, Any]:
    """The API's dry run of posted games: the report as the API answers it."""
    found = _opened(url, league)
    try:
        records = games_from_body(found, body)
        return report_dict(found, preview(found, records, "api", body, user), lang)
    except InputError as exc:
        raise in_api_words(exc) from None


def previewed_file(
    url: str, league: str, filename: str, content: bytes, user: str, lang: str
) -> dict[str, Any]:
    """The dry run of an uploaded file (the preview page's report)."""
    found = _opened(url, league)
    records, warnings = read_upload(found, filename, content, lang)
    try:
        report = preview(found, records, safe_name(filename), content, user, warnings)
    except InputError as exc:
        raise with_remedy(exc, SITE_REMEDY) from None
    return report_dict(found, report, lang)


def _opened(url: str, league: str) -> League:
    from eloleague.league import engine_for
    from eloleague.web.views import open_league

    return open_league(engine_for(url), league)
