"""Formatted xlsx exports, each with a plain CSV beside it (docs/sheets.md, "Exports").

They take plain data, never the database: ranking rows (:class:`Standing`), ledger entries
(:class:`LedgerEntry`) and game records. Numbers are written as numbers (rounded as the rule set
shows ratings), headers are frozen, titles say what the sheet holds, in French or English.

- :func:`export_ranking_xlsx`: the ranking (``ranking --format xlsx``); its CSV is exactly the
  ``eloleague rate`` CSV (docs/formats.md).
- :func:`export_event_xlsx`: an event report, one table per game as in the seeds' examples (each
  player's rating before, P, K, S, delta, after), plus the total per player.
- :func:`export_player_xlsx`: a player's history, one row per rating change.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from eloleague import event_facts
from eloleague.engine.ledger import LedgerEntry
from eloleague.engine.standings import Standing, competition_ranks
from eloleague.i18n import Text, render
from eloleague.io.csv_dialect import CsvDialect, choose
from eloleague.io.ledger_csv import write_ledger
from eloleague.io.ratings_csv import write_ratings
from eloleague.io.sheets.layout import tr
from eloleague.records import GameRecord
from eloleague.rules.model import RuleSet

TITLE_FONT = Font(bold=True, size=14)
HEADER_FONT = Font(bold=True, color="FFFFFF")
HEADER_FILL = PatternFill("solid", fgColor="1F4E78")
GAME_FONT = Font(bold=True, size=12)
PROBABILITY = "0.00"
PRECISE = "0.000"


def _rating_format(rules: RuleSet) -> str:
    shown = rules.shown
    if shown is None:
        return "0.0"
    return "0" if shown.decimals == 0 else "0." + "0" * shown.decimals


def _header(ws: Worksheet, row: int, labels: Sequence[str], widths: Sequence[float]) -> None:
    for col, (label, width) in enumerate(zip(labels, widths, strict=True), start=1):
        cell = ws.cell(row=row, column=col, value=label)
        cell.font = HEADER_FONT
        cell.fill = HEADER_FILL
        cell.alignment = Alignment(horizontal="center", wrap_text=True)
        letter = get_column_letter(col)
        ws.column_dimensions[letter].width = max(ws.column_dimensions[letter].width or 0, width)


def _row(ws: Worksheet, row: int, values: Sequence[object], formats: Sequence[str | None]) -> None:
    for col, (value, number_format) in enumerate(zip(values, formats, strict=True), start=1):
        cell = ws.cell(row=row, column=col, value=value)  # type: ignore[call-overload]
        if number_format is not None and isinstance(value, int | float | dt.date):
            cell.number_format = number_format


def csv_beside(path: Path) -> Path:
    """The plain CSV written next to an xlsx export (same name, ``.csv``)."""
    return path.with_suffix(".csv")


def ranking_workbook(
    rows: Sequence[Standing],
    rules: RuleSet,
    lang: str = "fr",
    title: str | None = None,
    subtitle: str | None = None,
) -> Workbook:
    """The ranking as a workbook: a title line (and a subtitle, e.g. the list's date), the
    header, then one row per ranking row with its competition rank (ties share a rank)."""
    book = Workbook()
    ws = book.active
    assert ws is not None
    ws.title = tr(lang, "Ranking")
    ws.cell(
        row=1, column=1, value=title or tr(lang, "Ranking — {rules}", rules=rules.name)
    ).font = TITLE_FONT
    top = 2
    if subtitle:
        ws.cell(row=2, column=1, value=subtitle)
        top = 3
    show_mode = any(r.mode for r in rows)
    show_role = any(r.role for r in rows)
    labels = ["#", tr(lang, "Player")]
    widths: list[float] = [6, 28]
    if show_mode:
        labels.append(tr(lang, "Mode"))
        widths.append(12)
    if show_role:
        labels.append(rules.roles_heading(lang) or tr(lang, "Role"))
        widths.append(14)
    labels += [tr(lang, "Rating"), tr(lang, "Games")]
    widths += [10, 10]
    if rules.titles:
        labels.append(tr(lang, "Title"))
        widths.append(24)
    _header(ws, top, labels, widths)
    rating = _rating_format(rules)
    ranks = competition_ranks(rows)
    for line, (rank, row) in enumerate(zip(ranks, rows, strict=True), start=top + 1):
        values: list[object] = [rank, row.player]
        formats: list[str | None] = ["0", None]
        if show_mode:
            values.append(rules.label(row.mode, lang))
            formats.append(None)
        if show_role:
            values.append(rules.label(row.role, lang))
            formats.append(None)
        values += [float(row.rating), row.games]
        formats += [rating, "0"]
        if rules.titles:
            values.append(rules.label(row.title, lang))
            formats.append(None)
        _row(ws, line, values, formats)
    ws.freeze_panes = f"A{top + 1}"
    if rows:
        ws.auto_filter.ref = f"A{top}:{get_column_letter(len(labels))}{len(rows) + top}"
    return book


def export_ranking_xlsx(
    rows: Sequence[Standing],
    rules: RuleSet,
    path: str | Path,
    lang: str = "fr",
    title: str | None = None,
    dialect: CsvDialect | None = None,
    *,
    people: Mapping[str, Any] | None = None,
) -> tuple[Path, Path]:
    """Write the ranking as xlsx and, beside it, the ``eloleague rate`` CSV (in ``dialect``,
    default: the form of ``lang``'s spreadsheets; ``people``: the players' identities, as
    :func:`~eloleague.io.ratings_csv.write_ratings` takes them); return both paths."""
    path = Path(path)
    ranking_workbook(rows, rules, lang, title).save(path)
    dialect = dialect or choose(None, lang)
    export_ranking_csv(rows, rules, csv_beside(path), dialect, people=people)
    return path, csv_beside(path)


def export_ranking_csv(
    rows: Sequence[Standing],
    rules: RuleSet,
    path: str | Path,
    dialect: CsvDialect,
    *,
    people: Mapping[str, Any] | None = None,
) -> Path:
    """Write the ranking as the ``eloleague rate`` CSV in ``dialect`` (docs/formats.md)."""
    path = Path(path)
    with path.open("w", encoding=dialect.encoding, newline="") as out:
        write_ratings(rows, rules, out, dialect, people=people)  # type: ignore[arg-type,unused-ignore]
    return path


def _rule_words(entry: LedgerEntry, lang: str) -> str:
    """The rules that fired (``rounding``, ``cap``...) in ``lang`` (the site's words for them)."""
    fired = [*entry.fired, *((entry.warning,) if entry.warning else ())]
    return ", ".join(render(Text.in_domain("web", f), lang) for f in fired)


def _entry_values(
    entry: LedgerEntry, rules: RuleSet, lang: str
) -> tuple[list[object], list[str | None]]:
    rating = _rating_format(rules)
    outcome: object = (
        rules.label(entry.outcome, lang)
        if entry.outcome
        else (entry.points if entry.points is not None else "")
    )
    values: list[object] = [
        entry.key.player,
        rules.label(entry.key.role, lang) if entry.key.role else "",
        outcome,
        entry.before,
        entry.expected,
        entry.k,
        entry.score,
        entry.delta,
        entry.after,
        _rule_words(entry, lang),
    ]
    formats: list[str | None] = [
        None,
        None,
        None,
        rating,
        PROBABILITY,
        "0.0#",
        "0.0##",
        rating,
        rating,
        None,
    ]
    return values, formats


def _entry_labels(rules: RuleSet, lang: str) -> list[str]:
    return [
        tr(lang, "Player"),
        rules.roles_heading(lang) or tr(lang, "Role"),
        tr(lang, "Result"),
        tr(lang, "Before"),
        tr(lang, "Expected (P)"),
        "K",
        tr(lang, "Score (S)"),
        tr(lang, "Change"),
        tr(lang, "After"),
        tr(lang, "Rules applied"),
    ]


ENTRY_WIDTHS = (26, 12, 18, 10, 12, 8, 10, 10, 10, 24)


def export_event_xlsx(
    event: str,
    entries: Iterable[LedgerEntry],
    rules: RuleSet,
    path: str | Path,
    lang: str = "fr",
    games: Iterable[GameRecord] = (),
    dialect: CsvDialect | None = None,
    *,
    place: str | None = None,
    referee: str | None = None,
) -> tuple[Path, Path]:
    """Write an event report: per game, each player's before, P, K, S, change and after; the
    title names the event's ``place`` and ``referee`` when known.

    ``entries`` are the event's ledger entries in processing order (season entries are left out);
    ``games`` (optional) add each game's round. The CSV beside holds the ledger rows.
    """
    path = Path(path)
    entries = [e for e in entries if not e.is_season]
    rounds = {g.id: g.round for g in games if g.id is not None}
    book = Workbook()
    ws = book.active
    assert ws is not None
    ws.title = tr(lang, "Games")
    where = (" · " + place if place else "") + (
        " · " + tr(lang, "referee: {name}", name=referee) if referee else ""
    )
    title = tr(lang, "Event report — {event}", event=event) + where
    ws.cell(row=1, column=1, value=title).font = TITLE_FONT
    labels = _entry_labels(rules, lang)
    _header(ws, 2, labels, ENTRY_WIDTHS)
    ws.freeze_panes = "A3"
    row = 3
    current = None
    for entry in entries:
        if entry.game != current:
            current = entry.game
            if row > 3:
                row += 1
            heading = tr(lang, "Game {game} — {date}", game=entry.game, date=entry.date.isoformat())
            if rounds.get(entry.game) is not None:
                heading += " — " + tr(lang, "round {round}", round=rounds[entry.game])
            ws.cell(row=row, column=1, value=heading).font = GAME_FONT
            row += 1
        values, formats = _entry_values(entry, rules, lang)
        _row(ws, row, values, formats)
        row += 1
    standings = tr(lang, "Standings — {event}", event=event) + where
    _standings_sheet(book, standings, entries, games, rules, lang)
    book.save(path)
    _ledger_csv(entries, csv_beside(path), dialect or choose(None, lang))
    return path, csv_beside(path)


@dataclass(frozen=True)
class _Played:
    """A game of the event and its entries (:class:`eloleague.event_facts.Explained`)."""

    game: GameRecord
    entries: list[LedgerEntry]


def _standings_sheet(
    book: Workbook,
    title: str,
    entries: Sequence[LedgerEntry],
    games: Iterable[GameRecord],
    rules: RuleSet,
    lang: str,
) -> None:
    """The event's standings, as its page on the site and ``eloleague events NAME`` give them
    (:func:`eloleague.event_facts.standings`): rank, player, games, points, performance rating
    (a free-for-all game's average place), the change over the event. The sheet held the change
    alone, players ordered by it. ``title``: the sheet's first line."""
    records = {g.id: g for g in games if g.id is not None}
    played: dict[str, _Played] = {}
    for e in entries:  # a game the caller did not give: its entries alone (no opponents' names)
        found = records.get(e.game) or GameRecord(date=e.date, sides=(), id=e.game)
        played.setdefault(e.game, _Played(found, [])).entries.append(e)
    lines = event_facts.standings(rules, list(played.values()))
    ffa = any(line.places for line in lines)
    sheet = book.create_sheet(tr(lang, "Standings"), 0)  # first: who won, then each game
    book.active = 0
    sheet.cell(row=1, column=1, value=title).font = TITLE_FONT
    second = tr(lang, "Average place") if ffa else tr(lang, "Performance")
    headings = ["#", tr(lang, "Player"), tr(lang, "Games"), tr(lang, "Points"), second]
    _header(sheet, 2, [*headings, tr(lang, "Change")], (6, 28, 10, 10, 14, 12))
    sheet.freeze_panes = "A3"
    rating = _rating_format(rules)
    places = event_facts.places(lines)
    for i, (place, line) in enumerate(zip(places, lines, strict=True), start=3):
        values = [place, line.player, line.games, line.points, line.figure(rules.scale), line.delta]
        _row(sheet, i, values, [None, None, None, None, "0.00" if ffa else rating, rating])


def _ledger_csv(entries: Sequence[LedgerEntry], path: Path, dialect: CsvDialect) -> None:
    with path.open("w", encoding=dialect.encoding, newline="") as out:
        write_ledger(entries, out, dialect=dialect)


def export_player_xlsx(
    player: str,
    entries: Iterable[LedgerEntry],
    rules: RuleSet,
    path: str | Path,
    lang: str = "fr",
    dialect: CsvDialect | None = None,
) -> tuple[Path, Path]:
    """Write a player's history: one row per rating change (games and season adjustments)."""
    path = Path(path)
    entries = [e for e in entries if e.key.player == player]
    book = Workbook()
    ws = book.active
    assert ws is not None
    ws.title = tr(lang, "History")
    ws.cell(row=1, column=1, value=tr(lang, "History of {player}", player=player)).font = TITLE_FONT
    labels = [tr(lang, "Date"), tr(lang, "Game"), tr(lang, "Mode"), *_entry_labels(rules, lang)[1:]]
    widths = (12, 14, 10, *ENTRY_WIDTHS[1:])
    _header(ws, 2, labels, widths)
    ws.freeze_panes = "A3"
    for row, entry in enumerate(entries, start=3):
        values, formats = _entry_values(entry, rules, lang)
        game = entry.game or tr(lang, "season end")
        _row(
            ws,
            row,
            [entry.date, game, rules.label(entry.key.mode, lang), *values[1:]],
            ["DD/MM/YYYY", None, None, *formats[1:]],
        )
    book.save(path)
    _ledger_csv(entries, csv_beside(path), dialect or choose(None, lang))
    return path, csv_beside(path)


__all__ = [
    "csv_beside",
    "export_event_xlsx",
    "export_player_xlsx",
    "export_ranking_csv",
    "export_ranking_xlsx",
    "ranking_workbook",
]
