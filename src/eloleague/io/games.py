"""Reading a games file of any supported format, then checking it against a rule set."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from eloleague.engine.validate import check_game, quick_check
from eloleague.errors import InputError, Problem
from eloleague.i18n import Text
from eloleague.io.limits import cut, game_problems
from eloleague.records import GameRecord, Participant, base_name, id_label
from eloleague.rules.model import RuleSet


def validate_games(rules: RuleSet, games: Sequence[GameRecord]) -> list[Problem]:
    """The rule set's checks over every game, each problem at the game's origin,
    after the bounds of what a league can store (:mod:`eloleague.io.limits`)."""
    problems: list[Problem] = []
    fine = quick_check(rules)  # most games pass a cheap test; the others get the full check
    checked: set[object] = set()
    for game in games:
        beyond = game_problems(game, checked)
        if beyond:
            problems.extend(Problem(game.where, message) for message in beyond)
            continue
        if fine(game):
            continue
        for message in check_game(rules, game):
            problems.append(Problem(game.where, message))
    return problems + duplicate_ids(games)


def unplayed(games: Sequence[GameRecord], today: dt.date) -> list[Problem]:
    """A problem for each game dated after tomorrow: a league stores games once they are
    played. A date ahead is a typing error (2062 for 2026), and a league would stand at that
    date from then on: its seasons closed up to it, every game of today a back-dated one.
    Tomorrow is allowed: ``today`` is the UTC date, and a game ending now east of Greenwich is
    dated a day ahead of it. (``eloleague rate`` replays any dates: it stores nothing.)"""
    latest = today + dt.timedelta(days=1)
    return [
        Problem(
            game.where,
            Text.of(
                "dated {date}, a day that has not come yet (today is {today})",
                date=game.date.isoformat(),
                today=today.isoformat(),
            ),
        )
        for game in games
        if game.date > latest
    ]


def told_apart(games: Sequence[GameRecord]) -> list[GameRecord]:
    """The games with players of the same name told apart by their federation id.

    A name carried by two or more ids in the input becomes ``"name (id)"`` on the rows with an
    id (docs/league.md, "Player identity"), so two "Jean Dupont" of different clubs are two
    players for the checks and the engine, even without a league. The same list when no name
    has two ids (the common case: one pass, nothing copied).
    """
    ids: dict[str, set[str]] = {}
    for game in games:
        for p in game.participants:
            if p.federation_id is not None:
                ids.setdefault(base_name(p.name, p.federation_id), set()).add(p.federation_id)
    shared = {name for name, found in ids.items() if len(found) > 1}
    if not shared:
        return list(games)

    def apart(p: Participant) -> Participant:
        if p.federation_id is None:
            return p
        name = base_name(p.name, p.federation_id)
        if name not in shared or p.name != name:
            return p
        return Participant(
            id_label(name, p.federation_id), p.role, p.federation_id, p.club, p.region
        )

    return [
        game.with_players(apart)
        if any(p.federation_id is not None for p in game.participants)
        else game
        for game in games
    ]


def rule_problems(rules: RuleSet, games: Sequence[GameRecord]) -> list[Problem]:
    """The rule set's own checks over games a league already stores (their bounds and ids were
    checked when they came in; a game without id is named by its number ``#N`` there): whether
    another rule set can rate them."""
    fine = quick_check(rules)
    return [
        Problem(game.where, message)
        for game in games
        if not fine(game)
        for message in check_game(rules, game)
    ]


def duplicate_ids(games: Sequence[GameRecord]) -> list[Problem]:
    """A problem for each game whose id an earlier game of the same input already uses (a league
    holds one game per id: ``rate`` refuses what ``import`` would)."""
    ids = [game.id for game in games if game.id is not None]
    if len(set(ids)) == len(ids):
        return []  # the common case, at C speed
    seen: dict[str, str] = {}
    problems = []
    for game in games:
        if game.id is None:
            continue
        if game.id not in seen:
            seen[game.id] = game.origin
            continue
        problems.append(
            Problem(
                game.origin,
                Text.of(
                    'game id "{id}" is used twice (also at {other})',
                    id=cut(game.id),
                    other=seen[game.id] or "?",
                ),
            )
        )
    return problems


def read_games(
    path: str | Path,
    rules: RuleSet,
    *,
    lang: str | None = None,
    warnings: list[Problem] | None = None,
    known_players: Iterable[str] = (),
    events: list[Any] | None = None,
    today: dt.date | None = None,
) -> list[GameRecord]:
    """Read a games file and check it against ``rules`` (and, given ``today``, for a league
    that would store them, that no game is dated after tomorrow: :func:`unplayed`).

    Formats: ``.jsonl``, ``.csv`` (the long format, or the referee workbook's layout saved as CSV,
    told apart by the header) and ``.xlsx`` (the referee workbook, docs/sheets.md). Raises
    :class:`InputError` with every problem when anything is wrong; returns nothing partial.
    For workbooks, ``lang`` overrides the language stamped in the workbook for the messages,
    ``warnings`` (when given) receives the warnings (a name close to a registered one), and
    ``known_players`` are registered names to compare new names with; ``events`` (when given)
    receives the workbook's event sheet (:class:`eloleague.io.sheets.parse.EventInfo`: name,
    dates, place, referee).
    """
    from eloleague.io.jsonl import parse_jsonl
    from eloleague.io.long_csv import is_long_csv, parse_long_csv

    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError([Problem("", Text.of("no such file"))], str(path)) from None
    except IsADirectoryError:
        raise InputError(
            [Problem("", Text.of("this is a folder, not a file"))], str(path)
        ) from None
    except PermissionError:
        raise InputError(
            [Problem("", Text.of("permission denied: the file cannot be read"))], str(path)
        ) from None
    except OSError as exc:
        raise InputError(
            [Problem("", Text.of("cannot read the file: {reason}", reason=exc.strerror))],
            str(path),
        ) from None
    suffix = path.suffix.lower()
    if suffix in {".xlsx", ".xlsm"} or (suffix == ".csv" and not is_long_csv(data)):
        from eloleague.io.sheets import parse_sheet_csv, parse_workbook  # openpyxl: only here

        reader = parse_workbook if suffix != ".csv" else parse_sheet_csv
        games, problems, found = reader(data, rules, lang, known_players, events=events)
        if warnings is not None:
            warnings.extend(found)
        if today is not None:
            problems = [*problems, *unplayed(games, today)]
        if problems:
            raise InputError(problems, str(path))
        return told_apart(games)
    if suffix == ".csv":
        games, problems = parse_long_csv(data)
    elif suffix in {".jsonl", ".ndjson", ".json"}:
        games, problems = parse_jsonl(data)
    else:
        raise InputError(
            [
                Problem(
                    "",
                    Text.of(
                        "unknown file type {suffix!r}: expected .jsonl, .csv or .xlsx",
                        suffix=suffix,
                    ),
                )
            ],
            str(path),
        )
    return checked_games(rules, games, problems, str(path), today)


def checked_games(
    rules: RuleSet,
    games: Sequence[GameRecord],
    problems: Sequence[Problem],
    source: str,
    today: dt.date | None = None,
) -> list[GameRecord]:
    """A JSON Lines or CSV reader's games (``problems``: what the reader found) checked against
    ``rules``, namesakes told apart by their ids: :class:`InputError` with every problem, line
    after line (:func:`by_line`), when there is any. ``today``: for a league that would store
    them, games dated after tomorrow are refused too (:func:`unplayed`)."""
    records = told_apart(games)
    ahead = unplayed(records, today) if today is not None else []
    found = by_line([*problems, *validate_games(rules, records), *ahead])
    if found:
        raise InputError(found, source)
    return records


def by_line(problems: Sequence[Problem]) -> list[Problem]:
    """The problems of a JSON Lines or CSV text in the order of its lines: what the reader found
    (a date that is not a date) and what the rules found (an unknown result) come as two lists,
    a referee reads them line after line. Problems without a line come first, as they came."""

    def line(problem: Problem) -> int:
        params = getattr(problem.location, "params", None) or {}
        number = params.get("line")
        return number if isinstance(number, int) else 0

    return sorted(problems, key=line)
