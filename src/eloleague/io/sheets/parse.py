"""From a referee's grid of cells to games: the checks shared by the xlsx and CSV readers.

Every problem names the sheet (or CSV line), the row, the column letter and the value, in the
referee's language (docs/sheets.md). Games that pass the sheet's own checks then go through the
rule set's checks (:func:`eloleague.engine.check_game`, docs/formats.md), located at the game's row.
"""

from __future__ import annotations

import datetime as dt
import difflib
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

from eloleague.engine.methods import ranked
from eloleague.engine.validate import check_game
from eloleague.errors import LookAlike, Problem
from eloleague.i18n import Text, render
from eloleague.io.limits import UNDATED, game_problems, storable
from eloleague.io.sheets.cells import (
    Grid,
    Value,
    as_date,
    as_error,
    as_int,
    as_number,
    as_text,
    is_empty,
    show,
)
from eloleague.io.sheets.layout import (
    EVENT_FIELDS,
    NO,
    VENUES,
    YES,
    Choice,
    Layout,
    column_letter,
    fold,
    header_labels,
    id_columns,
    id_header,
    result_choices,
    tr,
    venue_choices,
)
from eloleague.records import GameRecord, Participant, Side, id_label, normalise_name
from eloleague.rules.model import RuleSet

HEADER_SEARCH_ROWS = 10


@dataclass
class Findings:
    """What a reader found: problems (the file is refused) and warnings (it is not)."""

    lang: str
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)

    def error(self, where: str, template: str, /, **params: object) -> None:
        self.problems.append(Problem(where, tr(self.lang, template, **params)))

    def not_a_workbook(self, lang: str | None) -> None:
        """The file is no workbook, so it has no language of its own: without ``lang`` the
        message is rendered later, in the reader's language."""
        self.unreadable(lang, "this file is not an Excel workbook (.xlsx): save it as .xlsx")

    def unreadable(self, lang: str | None, template: str, /, **params: object) -> None:
        """The file cannot be read at all (see :meth:`not_a_workbook` for the language)."""
        if lang is None:
            self.problems.append(Problem("", Text.in_domain("sheets", template, **params)))
        else:
            self.error("", template, **params)

    def warn(self, where: str, template: str, /, **params: object) -> None:
        self.warnings.append(Problem(where, tr(self.lang, template, **params)))


@dataclass(frozen=True, slots=True)
class EventInfo:
    """The event sheet: the games' event name and the dates they must fall within."""

    name: str | None = None
    start: dt.date | None = None
    end: dt.date | None = None
    place: str = ""
    referee: str = ""
    league: str = ""
    rules: str = ""


def read_event(grid: Grid, found: Findings, positional: bool = True) -> EventInfo:
    """Read the event sheet: labels in column A (either language), values in column B.

    A label that was retyped or deleted falls back to the template's row for that field
    (``positional``; a CSV file has no fixed rows and finds its fields by label only).
    """
    by_label: dict[str, int] = {}
    for key, label in EVENT_FIELDS:
        wanted = {fold(tr(lang, label)) for lang in ("fr", "en")}
        for row in sorted(grid.rows):
            if fold(as_text(grid.value(row, 1))) in wanted:
                by_label[key] = row
                break
    values: dict[str, Value] = {}
    rows: dict[str, int] = {}
    for offset, (key, _label) in enumerate(EVENT_FIELDS):
        row = by_label.get(key, 2 + offset if positional else -1)
        rows[key] = row
        value = grid.value(row, 2)
        error = as_error(value)
        if error is not None:
            found.error(
                grid.where(row, 2),
                "formula error {code}: replace the formula by its value",
                code=error.code,
            )
            value = None
        values[key] = value

    def day(key: str) -> dt.date | None:
        value = values[key]
        if is_empty(value):
            return None
        date = as_date(value)
        if date is None:
            found.error(
                grid.where(rows[key], 2),
                "{value} is not a date (write it as 02/03/2025 or 2025-03-02)",
                value=show(value),
            )
        return date

    start, end = day("start"), day("end")
    if start is None and end is not None:
        start = end
    if end is None and start is not None:
        end = start
    if start is not None and end is not None and end < start:
        found.error(
            grid.where(rows["end"], 2),
            "the last day {end} is before the first day {start}",
            end=end.isoformat(),
            start=start.isoformat(),
        )
    name = as_text(values["name"]) or None
    return EventInfo(
        name=name,
        start=start,
        end=end,
        place=as_text(values["place"]),
        referee=as_text(values["referee"]),
        league=as_text(values["league"]),
        rules=as_text(values["rules"]),
    )


def find_header(grid: Grid, layout: Layout, limit: int | None = HEADER_SEARCH_ROWS) -> int | None:
    """The row holding the results header (its first two labels match), in the first rows."""
    first, second = header_labels(layout.columns[0]), header_labels(layout.columns[1])
    for row in sorted(grid.rows):
        if limit is not None and row > limit:
            break
        if (
            fold(as_text(grid.value(row, 1))) in first
            and fold(as_text(grid.value(row, 2))) in second
        ):
            return row
    return None


def check_header(grid: Grid, layout: Layout, row: int, found: Findings) -> bool:
    """Whether every header label is where the layout puts it (columns moved = refused)."""
    ok = True
    for i, column in enumerate(layout.columns, start=1):
        value = grid.value(row, i)
        if fold(as_text(value)) not in header_labels(column):
            found.error(
                grid.where(row, i),
                "this column should be headed {expected}, found {value}: do not insert, "
                "move or delete columns of the results sheet",
                expected=show(column.header(found.lang)),
                value=show(value),
            )
            ok = False
    return ok


def _merged_rows(grid: Grid, layout: Layout, header: int, found: Findings) -> set[int]:
    """Report merged cells in the table; return the rows they touch."""
    touched: set[int] = set()
    width = len(layout.columns)
    for min_row, min_col, max_row, _max_col, ref in grid.merged:
        if max_row <= header or min_col > width:
            continue
        found.error(
            grid.where(min_row, min_col),
            "cells {range} are merged: unmerge them and write one value per cell",
            range=ref,
        )
        touched.update(range(max(min_row, header + 1), max_row + 1))
    return touched


def _formula_errors(grid: Grid, row: int, width: int, found: Findings) -> bool:
    bad = False
    for col in range(1, width + 1):
        error = as_error(grid.value(row, col))
        if error is not None:
            found.error(
                grid.where(row, col),
                "formula error {code}: replace the formula by its value",
                code=error.code,
            )
            bad = True
    return bad


class _Names:
    """Warnings for a name close to a registered one (case, accents, spacing, a typo)."""

    def __init__(self, known: Iterable[str], found: Findings) -> None:
        self.known = {normalise_name(n) for n in known if normalise_name(n)}
        self.folded: dict[str, str] = {}
        for name in sorted(self.known):
            self.folded.setdefault(_loose(name), name)
        self.found = found
        self.checked: set[str] = set()

    def check(self, name: str, where: str) -> None:
        if not self.known or name in self.known or name in self.checked or not storable(name):
            return  # a name no league can hold is refused with the game (rule_checks)
        self.checked.add(name)
        match = self.folded.get(_loose(name))
        if match is None:
            close = difflib.get_close_matches(_loose(name), list(self.folded), n=1, cutoff=0.85)
            match = self.folded[close[0]] if close else None
        if match is not None:
            message = tr(
                self.found.lang,
                'name {value} looks like the registered player "{match}": '
                "check the spelling (otherwise a new player is created)",
                value=show(name),
                match=match,
            )
            self.found.warnings.append(LookAlike(where, message, name))


def _loose(name: str) -> str:
    """A name without case, accents or extra spaces, to spot near-duplicates."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


def find_id_columns(grid: Grid, layout: Layout, header: int) -> dict[str, int]:
    """The optional id columns right of the table: ``{player column key: column number}``."""
    wanted = {
        fold(id_header(c, lang)): c.key.removeprefix("id:")
        for c in id_columns(layout)
        for lang in ("fr", "en")
    }
    out: dict[str, int] = {}
    for col in range(len(layout.columns) + 1, len(grid.rows.get(header, [])) + 1):
        key = wanted.get(fold(as_text(grid.value(header, col))))
        if key is not None:
            out.setdefault(key, col)
    return out


def _apart(players: list[Participant]) -> list[Participant]:
    """Two players of one game with the same name and different ids: ``"name (id)"``."""
    ids: dict[str, set[str]] = {}
    for p in players:
        if p.federation_id is not None:
            ids.setdefault(p.name, set()).add(p.federation_id)
    shared = {name for name, found in ids.items() if len(found) > 1}
    if not shared:
        return players
    return [
        Participant(id_label(p.name, p.federation_id), p.role, p.federation_id)
        if p.name in shared and p.federation_id is not None
        else p
        for p in players
    ]


@dataclass
class _Context:
    grid: Grid
    layout: Layout
    rules: RuleSet
    event: EventInfo
    found: Findings
    names: _Names
    ids: dict[str, int] = field(default_factory=dict)  # optional id columns (docs/sheets.md)

    def player_id(self, row: int, key: str) -> str | None:
        """The id written for the player of column ``key`` on ``row``, if any."""
        col = self.ids.get(key)
        if col is None:
            return None
        return normalise_name(as_text(self.grid.value(row, col))) or None

    def date(self, row: int, col: int) -> dt.date | None:
        """The game's date; empty means the event's day when the event lasts one day."""
        grid, found, event = self.grid, self.found, self.event
        value = grid.value(row, col)
        if is_empty(value):
            if event.start is not None and event.start == event.end:
                return event.start
            found.error(grid.where(row, col), "the date is empty")
            return None
        date = as_date(value)
        if date is None:
            found.error(
                grid.where(row, col),
                "{value} is not a date (write it as 02/03/2025 or 2025-03-02)",
                value=show(value),
            )
            return None
        if (
            event.start is not None
            and event.end is not None
            and not (event.start <= date <= event.end)
        ):
            found.error(
                grid.where(row, col),
                "the date {value} is outside the event ({start} to {end})",
                value=show(value),
                start=event.start.isoformat(),
                end=event.end.isoformat(),
            )
            return None
        return date

    def dated(self, row: int, col: int) -> tuple[dt.date | None, int]:
        """:meth:`date`, and how many problems it found: a game whose only problems are its
        date's is still checked against the rules (dated :data:`~eloleague.io.limits.UNDATED`),
        so that the referee reads all of its problems at once; it is never kept."""
        before = len(self.found.problems)
        return self.date(row, col), len(self.found.problems) - before

    def rule_checks(self, game: GameRecord, row: int) -> bool:
        """Add the bounds of what a league holds (:mod:`eloleague.io.limits`), then the rule
        set's checks of ``game`` (engine messages, in the grid's language)."""
        messages = game_problems(game) or check_game(self.rules, game)
        for message in messages:
            self.found.problems.append(
                Problem(self.grid.where(row), render(message, self.found.lang, "messages"))
            )
        return not messages


def read_results(
    grid: Grid,
    layout: Layout,
    rules: RuleSet,
    event: EventInfo,
    found: Findings,
    known_players: Iterable[str] = (),
    header: int | None = None,
) -> list[GameRecord]:
    """Read the results sheet below its header row into games (nothing when the header is wrong)."""
    header = header or find_header(grid, layout)
    if header is None:
        labels = ", ".join(c.header(found.lang) for c in layout.columns)
        found.error(
            grid.where(1),
            "the header row of the results sheet is missing (its columns are: {labels})",
            labels=labels,
        )
        return []
    if not check_header(grid, layout, header, found):
        return []
    ctx = _Context(
        grid,
        layout,
        rules,
        event,
        found,
        _Names(known_players, found),
        find_id_columns(grid, layout, header),
    )
    skip = _merged_rows(grid, layout, header, found)
    rows = [r for r in sorted(grid.rows) if r > header and r not in skip and not grid.is_blank(r)]
    if ranked(rules):
        return _ffa_games(ctx, rows)
    return _two_sided_games(ctx, rows)


# Two sides: one row per game -----------------------------------------------------------------


def _two_sided_games(ctx: _Context, rows: list[int]) -> list[GameRecord]:
    grid, layout, found, event = ctx.grid, ctx.layout, ctx.found, ctx.event
    choices: dict[str, Choice] = {}
    for choice in result_choices(ctx.rules):
        choices.setdefault(fold(choice.fr), choice)
        choices.setdefault(fold(choice.en), choice)
    listed = ", ".join(c.text(found.lang) for c in result_choices(ctx.rules))
    width = len(layout.columns)
    tables: dict[tuple[int | None, str], int] = {}
    games: list[GameRecord] = []
    for row in rows:
        if _formula_errors(grid, row, width, found):
            continue
        before = len(found.problems)
        date, undated = ctx.dated(row, layout.index("date"))
        round_value = grid.value(row, layout.index("round"))
        round_no = None
        if not is_empty(round_value):
            round_no = as_int(round_value)
            if round_no is None or round_no < 0:
                found.error(
                    grid.where(row, layout.index("round")),
                    "{value} is not a round number (a whole number)",
                    value=show(round_value),
                )
        table = as_text(grid.value(row, layout.index("table")))
        if table:
            key = (round_no, table)
            if key in tables:
                found.error(
                    grid.where(row, layout.index("table")),
                    "table {table} of round {round} is also on row {row}",
                    table=table,
                    round=round_no if round_no is not None else "-",
                    row=tables[key],
                )
            else:
                tables[key] = row
        sides: list[tuple[Participant, ...]] = []
        seen: dict[tuple[str, str | None], int] = {}
        for side in ("A", "B"):
            players = []
            named = False  # a cell of the side holds a name (reported above if a duplicate)
            columns = [layout.index(f"{side}{i}") for i in range(1, layout.players + 1)]
            for i, col in enumerate(columns, start=1):
                name = normalise_name(as_text(grid.value(row, col)))
                if not name:
                    continue
                named = True
                fid = ctx.player_id(row, f"{side}{i}")
                if (name, fid) in seen:
                    found.error(
                        grid.where(row, col),
                        'player "{name}" appears twice in this game (columns {first} and {second})',
                        name=name,
                        first=column_letter(seen[name, fid]),
                        second=column_letter(col),
                    )
                    continue
                seen[name, fid] = col
                if fid is None:
                    ctx.names.check(name, grid.where(row, col))
                players.append(Participant(name, federation_id=fid))
            if not named:
                found.error(
                    grid.where(row, columns[0]),
                    "empty player cell: side {side} has no player (columns {first} to {last})",
                    side=side,
                    first=column_letter(columns[0]),
                    last=column_letter(columns[-1]),
                )
            sides.append(tuple(players))
        result_col = layout.index("result")
        result = grid.value(row, result_col)
        picked = choices.get(fold(as_text(result)))
        if is_empty(result):
            found.error(
                grid.where(row, result_col),
                "the result is empty (choose one of: {choices})",
                choices=listed,
            )
        elif picked is None:
            found.error(
                grid.where(row, result_col),
                "unknown result {value} (choose one of: {choices})",
                value=show(result),
                choices=listed,
            )
        points = _points(ctx, row)
        home, neutral = _venue(ctx, row)
        if len(found.problems) != before + undated or picked is None:
            continue
        game_id = None
        if event.name and round_no is not None and table:
            game_id = f"{event.name} R{round_no} T{table}"
        both = _apart([*sides[0], *sides[1]])
        sides = [tuple(both[: len(sides[0])]), tuple(both[len(sides[0]) :])]
        game = GameRecord(
            date=UNDATED if date is None else date,  # (UNDATED: checked, never kept)
            sides=(Side(sides[0], picked.a, points[0]), Side(sides[1], picked.b, points[1])),
            id=game_id,
            event=event.name,
            round=round_no,
            origin=grid.where(row),
            home=home,
            neutral=neutral,
        )
        if ctx.rule_checks(game, row) and date is not None:
            games.append(game)
    return games


def _points(ctx: _Context, row: int) -> tuple[float | None, float | None]:
    """Each side's score, in the columns of a rule set whose formulas read the margin."""
    grid, layout, found = ctx.grid, ctx.layout, ctx.found
    out: list[float | None] = []
    for side, key in (("A", "points_a"), ("B", "points_b")):
        if not layout.has(key):
            out.append(None)
            continue
        col = layout.index(key)
        value = grid.value(row, col)
        number = None if is_empty(value) else as_number(value)
        if is_empty(value):
            found.error(
                grid.where(row, col),
                "the score of side {side} is empty (the rule set uses the margin)",
                side=side,
            )
        elif number is None:
            found.error(
                grid.where(row, col), "{value} is not a score (a number)", value=show(value)
            )
        out.append(number)
    return out[0], out[1]


def _venue(ctx: _Context, row: int) -> tuple[int | None, bool]:
    """The side at home and whether the site is neutral, from the venue column (if any)."""
    grid, layout, found = ctx.grid, ctx.layout, ctx.found
    if not layout.has("venue"):
        return None, False
    col = layout.index("venue")
    value = grid.value(row, col)
    if is_empty(value):
        return None, False
    picked = {fold(tr(lang, label)): key for key, label in VENUES for lang in ("fr", "en")}.get(
        fold(as_text(value))
    )
    if picked is None:
        found.error(
            grid.where(row, col),
            "unknown venue {value} (choose one of: {choices}, or leave it empty)",
            value=show(value),
            choices=", ".join(venue_choices(found.lang)),
        )
        return None, False
    if picked == "neutral":
        return None, True
    return (0 if picked == "home_a" else 1), False


# Free-for-all: one block per game ------------------------------------------------------------


@dataclass
class _Block:
    row: int
    game: str
    entries: list[tuple[int, str, str, Value, str | None]] = field(
        default_factory=list
    )  # row, role, name, score, id


def _ffa_games(ctx: _Context, rows: list[int]) -> list[GameRecord]:
    grid, layout, found = ctx.grid, ctx.layout, ctx.found
    col = {c.key: layout.index(c.key) for c in layout.columns}
    width = len(layout.columns)
    blocks: list[_Block] = []
    bad_blocks: set[int] = set()
    for row in rows:
        bad = _formula_errors(grid, row, width, found)
        game = as_text(grid.value(row, col["game"]))
        if game:
            blocks.append(_Block(row, game))
        if bad:
            if blocks:
                bad_blocks.add(blocks[-1].row)
            continue
        role = as_text(grid.value(row, col["role"]))
        name = normalise_name(as_text(grid.value(row, col["player"])))
        score = grid.value(row, col["score"])
        if not name and is_empty(score):
            continue  # the game's first row, or a role of the template nobody played
        if not blocks:
            found.error(
                grid.where(row, col["game"]),
                "a player or a score but no game above: write the game id in column "
                "{column} of the game's first row",
                column=column_letter(col["game"]),
            )
            continue
        blocks[-1].entries.append((row, role, name, score, ctx.player_id(row, "player")))

    games: list[GameRecord] = []
    ids: dict[str, int] = {}
    roles = ", ".join(ctx.rules.label(r, found.lang) for r in ctx.rules.roles)
    named = ctx.rules.names_of()  # a role written in the sheet's language: "Turquie" is Turkey
    for block in blocks:
        before = len(found.problems)
        row = block.row
        date_cell = grid.value(row, col["date"])
        if not block.entries and is_empty(date_cell):
            continue  # an unused block of the template
        if block.game in ids:
            found.error(
                grid.where(row, col["game"]),
                "game id {game} is also used on row {row}",
                game=show(block.game),
                row=ids[block.game],
            )
        ids.setdefault(block.game, row)
        date, undated = ctx.dated(row, col["date"])
        mode = as_text(grid.value(row, col["mode"]))
        rated_cell = grid.value(row, col["rated"])
        rated = True
        if not is_empty(rated_cell):
            text = fold(as_text(rated_cell))
            if text in NO:
                rated = False
            elif text not in YES:
                found.error(
                    grid.where(row, col["rated"]),
                    "{value} is not yes or no",
                    value=show(rated_cell),
                )
        if not block.entries:
            found.error(
                grid.where(row, col["player"]), "game {game} has no player", game=show(block.game)
            )
        role_rows: dict[str, int] = {}
        sides: list[Side] = []
        for entry_row, written, name, score, fid in block.entries:
            role = named.get(written, written) if written else written
            if ctx.rules.roles:
                if not role:
                    found.error(
                        grid.where(entry_row, col["role"]),
                        "the role is empty (one of: {roles})",
                        roles=roles,
                    )
                elif role not in ctx.rules.roles:
                    found.error(
                        grid.where(entry_row, col["role"]),
                        "unknown role {value} (one of: {roles})",
                        value=show(role),
                        roles=roles,
                    )
                elif role in role_rows:
                    found.error(
                        grid.where(entry_row, col["role"]),
                        "role {value} appears twice in game {game} (rows {first} and "
                        "{second}); each game starts with its id in column {column}",
                        value=show(role),
                        game=show(block.game),
                        first=role_rows[role],
                        second=entry_row,
                        column=column_letter(col["game"]),
                    )
                else:
                    role_rows[role] = entry_row
            if not name:
                found.error(
                    grid.where(entry_row, col["player"]),
                    "empty player cell: the score {value} has no player",
                    value=show(score),
                )
            elif fid is None:
                ctx.names.check(name, grid.where(entry_row, col["player"]))
            number = None
            if is_empty(score):
                found.error(grid.where(entry_row, col["score"]), "the score is empty")
            else:
                number = as_number(score)
                if number is None:
                    found.error(
                        grid.where(entry_row, col["score"]),
                        "{value} is not a number: the score must be numeric",
                        value=show(score),
                    )
            if name and number is not None:
                sides.append(Side((Participant(name, role, fid),), score=number))
        if ctx.rules.roles and len(block.entries) > len(ctx.rules.roles):
            found.error(
                grid.where(row, col["role"]),
                "wrong number of roles: game {game} has {n} players but the rule set has "
                "{m} roles ({roles})",
                game=show(block.game),
                n=len(block.entries),
                m=len(ctx.rules.roles),
                roles=roles,
            )
        if len(found.problems) != before + undated or row in bad_blocks:
            continue
        players = _apart([s.players[0] for s in sides])
        sides = [Side((p,), score=s.score) for p, s in zip(players, sides, strict=True)]
        record = GameRecord(
            date=UNDATED if date is None else date,  # (UNDATED: checked, never kept)
            sides=tuple(sides),
            id=block.game,
            event=ctx.event.name,
            mode=mode,
            rated=rated,
            origin=grid.where(row),
        )
        if ctx.rule_checks(record, row) and date is not None:
            games.append(record)
    return games
