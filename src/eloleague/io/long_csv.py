"""The CSV long format: one row per player per game (docs/formats.md).

Columns (header required, any order): ``game,date,event,round,mode,rated,side,player,role,
outcome,score,home,neutral``; ``game``, ``date``, ``side`` and ``player`` are required, the others
optional (``home``: the number of the side at home; ``neutral``: true on a neutral site).
Rows of one game share ``game``; ``side`` numbers the sides 1, 2, ...; a side's outcome or score
may be written on each of its rows or only on the first. A spreadsheet's French export (``;`` as
separator, decimal comma) is read too. Every problem names its line and column.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
from dataclasses import dataclass, field

from eloleague.errors import Problem
from eloleague.i18n import Text
from eloleague.io.limits import SIDES_MAX, UNDATED, cut, lines_problem
from eloleague.records import GameRecord, Participant, Side, normalise_name

COLUMNS = (
    "game", "date", "event", "round", "mode", "rated", "side", "player", "role", "outcome", "score",
    "home", "neutral", "player_id", "club", "region",
)  # fmt: skip
REQUIRED = ("game", "date", "side", "player")
GAME_COLUMNS = ("date", "event", "round", "mode", "rated", "home", "neutral")
_TRUE = {"", "1", "true", "yes", "y", "oui", "o", "vrai"}
_FALSE = {"0", "false", "no", "n", "non", "faux"}


@dataclass
class _SideDraft:
    players: list[Participant] = field(default_factory=list)
    outcome: str | None = None
    score: float | None = None


@dataclass
class _GameDraft:
    line: int
    values: dict[str, str]
    sides: dict[int, _SideDraft] = field(default_factory=dict)
    bad: bool = False
    undated: bool = False  # its date is its only problem so far: the rules check the rest


def column_letter(index: int) -> str:
    """The spreadsheet letter of a 0-based column index: 0 → A, 26 → AA (kept here rather than
    importing openpyxl, which costs a JSON/CSV-only run a noticeable start-up time)."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def is_long_csv(data: bytes) -> bool:
    """Whether CSV bytes are in the long format: the first non-blank line is a header naming
    at least ``game``, ``date``, ``side`` and ``player`` (any case, any order, ``,`` or ``;``).
    An empty file counts as long format (its reader then says it is empty).
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    first = next((line for line in text.splitlines() if line.strip()), "")
    if not first:
        return True
    delimiter = ";" if first.count(";") > first.count(",") else ","
    cells = next(csv.reader([first], delimiter=delimiter), [])
    return {" ".join(c.casefold().split()) for c in cells} >= set(REQUIRED)


def _line(number: int) -> Text:
    return Text.of("line {line}", line=number)


def _header_problems(header: list[str]) -> list[Problem]:
    unknown = [h for h in header if h not in COLUMNS]
    missing = [c for c in REQUIRED if c not in header]
    out = []
    if missing:
        out.append(
            Text.plural(
                "missing column {names} (columns: {all})",
                "missing columns {names} (columns: {all})",
                len(missing),
                names=", ".join(missing),
                all=",".join(COLUMNS),
            )
        )
    if unknown:
        out.append(
            Text.plural(
                "unknown column {names} (columns: {all})",
                "unknown columns {names} (columns: {all})",
                len(unknown),
                names=", ".join(unknown),
                all=",".join(COLUMNS),
            )
        )
    return [Problem(_line(1), message) for message in out]


def parse_long_csv(data: bytes) -> tuple[list[GameRecord], list[Problem]]:
    """Parse long-format CSV bytes into records and problems (located by line and column). A
    game whose only problem is its date gives a record too, dated
    :data:`~eloleague.io.limits.UNDATED`, for the rules to check the rest of it: with problems,
    the records are for checking only."""
    too_long = lines_problem(data)
    if too_long is not None:
        return [], [Problem("", too_long)]
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        where = Text.of("byte {n}", n=exc.start)
        return [], [Problem(where, Text.of("not UTF-8 text: save the file as UTF-8 CSV"))]
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = [h.strip().lower() for h in next(reader)]
    except StopIteration:
        message = Text.of(
            "the file is empty (expected the header {header})", header=",".join(COLUMNS)
        )
        return [], [Problem(_line(1), message)]
    header_problems = _header_problems(header)
    if header_problems:
        return [], header_problems
    parser = _Parser({name: i for i, name in enumerate(header)}, decimal_comma=delimiter == ";")
    try:
        for row in reader:
            if len(row) > len(header) and any(c.strip() for c in row[len(header) :]):
                parser.problems.append(  # a value past the last column: a shifted row
                    Problem(
                        _line(reader.line_num),
                        Text.of(
                            "{count} values but the header has {columns} columns "
                            '(a comma inside a name needs quotes: "Martin, Alice")',
                            count=len(row),
                            columns=len(header),
                        ),
                    )
                )
            elif any(cell.strip() for cell in row):
                parser.row(reader.line_num, row)
    except csv.Error as exc:
        message = Text.of("not valid CSV ({reason})", reason=exc)
        return [], [*parser.problems, Problem(_line(reader.line_num), message)]
    return parser.finish()


class _Parser:
    """Collects the rows of each game, then builds the records."""

    def __init__(self, col: dict[str, int], decimal_comma: bool) -> None:
        self.col = col
        self.decimal_comma = decimal_comma
        self.drafts: dict[str, _GameDraft] = {}
        self.problems: list[Problem] = []

    def where(self, line: int, name: str) -> Text:
        return Text.of(
            "line {line}, column {letter} ({name})",
            line=line,
            letter=column_letter(self.col[name]),
            name=name,
        )

    def problem(self, line: int, name: str, message: Text) -> None:
        self.problems.append(Problem(self.where(line, name), message))

    def row(self, line: int, row: list[str]) -> None:
        def cell(name: str) -> str:
            i = self.col.get(name)
            return row[i].strip() if i is not None and i < len(row) else ""

        game_id = cell("game")
        if not game_id:
            self.problem(line, "game", Text.of("the game id is empty"))
            return
        values = {k: cell(k) for k in GAME_COLUMNS if k in self.col}
        draft = self.drafts.get(game_id)
        if draft is None:
            draft = self.drafts[game_id] = _GameDraft(line, values)
            for name, value in values.items():
                message = _check_game_value(name, value)
                if message is not None:
                    self.problem(line, name, message)
                    if name == "date":
                        draft.undated = True
                    else:
                        draft.bad = True
        else:
            for name, value in values.items():
                if value != draft.values[name]:
                    self.problem(
                        line,
                        name,
                        Text.of(
                            '"{value}" differs from "{first}" on line {line} for game "{game}"',
                            value=value,
                            first=draft.values[name],
                            line=draft.line,
                            game=game_id,
                        ),
                    )
                    draft.bad = True

        side_text = cell("side")
        if not _whole(side_text) or int(side_text) < 1:
            self.problem(
                line,
                "side",
                Text.of('"{value}" is not a side number (1, 2, ...)', value=cut(side_text)),
            )
            draft.bad = True
            return
        if int(side_text) > SIDES_MAX:
            self.problem(
                line,
                "side",
                Text.of(
                    "side {value}: a game has at most {max} sides", value=side_text, max=SIDES_MAX
                ),
            )
            draft.bad = True
            return
        side_no = int(side_text)
        side = draft.sides.setdefault(side_no, _SideDraft())
        ok = True
        name = normalise_name(cell("player"))
        if not name:
            self.problem(line, "player", Text.of("the player's name is empty"))
            ok = False
        outcome = cell("outcome") or None
        if outcome is not None:
            if side.outcome is not None and side.outcome != outcome:
                self.problem(
                    line,
                    "outcome",
                    Text.of(
                        '"{value}" differs from "{first}" given earlier for side {side}',
                        value=outcome,
                        first=side.outcome,
                        side=side_no,
                    ),
                )
                ok = False
            side.outcome = outcome
        score_text = cell("score")
        if score_text:
            score = _number(score_text, self.decimal_comma)
            if score is None:
                self.problem(line, "score", Text.of('"{value}" is not a number', value=score_text))
                ok = False
            elif side.score is not None and side.score != score:
                self.problem(
                    line,
                    "score",
                    Text.of(
                        '"{value}" differs from "{first}" given earlier for side {side}',
                        value=score_text,
                        first=f"{side.score:g}",
                        side=side_no,
                    ),
                )
                ok = False
            else:
                side.score = score
        if ok:
            side.players.append(
                Participant(
                    name,
                    cell("role"),
                    normalise_name(cell("player_id")) or None,
                    normalise_name(cell("club")) or None,
                    normalise_name(cell("region")) or None,
                )
            )
        else:
            draft.bad = True

    def finish(self) -> tuple[list[GameRecord], list[Problem]]:
        games = []
        for game_id, draft in self.drafts.items():
            numbers = sorted(draft.sides)
            if numbers and numbers != list(range(1, len(numbers) + 1)):
                self.problems.append(
                    Problem(
                        _line(draft.line),
                        Text.of(
                            'game "{game}": sides are numbered {numbers}; number them 1, 2, ...',
                            game=game_id,
                            numbers=", ".join(map(str, numbers)),
                        ),
                    )
                )
                continue
            if draft.bad:
                continue
            v = draft.values
            games.append(
                GameRecord(
                    date=UNDATED if draft.undated else dt.date.fromisoformat(v["date"]),
                    sides=tuple(
                        Side(tuple(s.players), s.outcome, s.score)
                        for s in (draft.sides[n] for n in numbers)
                    ),
                    id=game_id,
                    event=v.get("event") or None,
                    round=int(v["round"]) if v.get("round") else None,
                    mode=v.get("mode", ""),
                    rated=v.get("rated", "").lower() in _TRUE,
                    origin=_line(draft.line),
                    home=int(v["home"]) - 1 if v.get("home") else None,
                    neutral=v.get("neutral", "").lower() in _TRUE - {""},
                )
            )
        return games, self.problems


def _check_game_value(name: str, value: str) -> Text | None:
    if name == "date":
        if not value:
            return Text.of("the date is empty (expected YYYY-MM-DD)")
        try:
            if len(value) != 10:
                raise ValueError
            dt.date.fromisoformat(value)
        except ValueError:
            return Text.of('"{value}" is not a date (expected YYYY-MM-DD)', value=cut(value))
    elif name == "round" and value and not _whole(value):
        return Text.of('"{value}" is not a round number (a whole number)', value=cut(value))
    elif name in ("rated", "neutral") and value.lower() not in _TRUE | _FALSE:
        return Text.of('"{value}" is not true or false', value=cut(value))
    elif name == "home" and value not in ("", "1", "2"):
        return Text.of('"{value}" is not the side at home (1 or 2, or empty)', value=cut(value))
    return None


def _whole(text: str) -> bool:
    """A whole number written in ASCII digits ("²" or "١" are digits to Python, not to ``int``),
    short enough to convert (a longer one is out of every range anyway)."""
    return text.isascii() and text.isdigit() and len(text) <= 30


def _number(text: str, decimal_comma: bool) -> float | None:
    if decimal_comma:
        text = text.replace(",", ".")
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None
