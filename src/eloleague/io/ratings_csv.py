"""The ratings CSV of ``eloleague rate`` and of ``--initial`` (docs/formats.md).

Columns ``player,mode,role,rating,games,title``, then the pool fields the rule set's method
publishes (Glicko-2: ``deviation,volatility``). Ratings print as the rule set shows them: whole
numbers when deltas are rounded to integers, ``repr`` of the float when nothing is rounded, or the
``display`` precision of the rule file.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TextIO

from eloleague.engine.maths import round_float
from eloleague.engine.methods import method_of, with_shown
from eloleague.engine.standings import GLOBAL_ROLE, Standing
from eloleague.errors import Problem
from eloleague.i18n import Text
from eloleague.io.csv_dialect import EXCEL, CsvDialect, english_columns, plain_number, sniff
from eloleague.io.limits import ID_MAX, NAME_MAX, text_problem
from eloleague.records import PoolKey, PoolState, base_name, id_label, normalise_name
from eloleague.rules.model import Rounding, RuleSet

RATING_COLUMNS = ("player", "mode", "role", "rating", "games", "title")
LEDGER_COLUMNS = (
    "game",
    "date",
    "player",
    "mode",
    "role",
    "before",
    "expected",
    "k",
    "score",
    "delta",
    "after",
    "warning",
)


def _line(number: int) -> Text:
    return Text.of("line {line}", line=number)


def format_number(value: float | None, shown: Rounding | None = None) -> str:
    """A number as the CSV prints it: ``shown`` precision, or ``repr``."""
    if value is None:
        return ""
    if shown is None:
        return repr(float(value))
    rounded = round_float(float(value), shown)
    if shown.decimals == 0:
        return str(int(rounded))
    return f"{rounded:.{shown.decimals}f}"


def format_plain(value: float | None) -> str:
    """A ledger number: integers without ``.0``, other values with full precision."""
    if value is None:
        return ""
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def write_ratings(
    rows: Iterable[Standing],
    rules: RuleSet,
    out: TextIO,
    dialect: CsvDialect = EXCEL,
    *,
    people: Mapping[str, Any] | None = None,
) -> None:
    """Write ranking rows as the ``eloleague rate`` CSV. ``dialect``: the French spreadsheets'
    form writes French column names, a decimal comma and the rule set's names in French.
    ``people``: the players' identities (``federation_id``, ``club``, ``region`` attributes) by
    name; when one is known the columns ``player_id``, ``club`` and ``region`` follow, as
    ``--initial`` reads them."""
    writer = dialect.writer(out)
    extra = method_of(rules).shown_fields
    people = {name: who for name, who in (people or {}).items() if who}
    writer.writerow(
        dialect.columns((*RATING_COLUMNS, *extra, *(IDENTITY_COLUMNS if people else ())))
    )
    shown = rules.shown
    lang = dialect.lang
    for row in rows:
        writer.writerow(
            (
                row.player,
                rules.label(row.mode, lang) if dialect is not EXCEL else row.mode,
                rules.label(row.role, lang) if dialect is not EXCEL else row.role,
                dialect.number(format_number(row.rating, shown)),
                row.games,
                rules.label(row.title, lang) if dialect is not EXCEL else row.title,
                *(
                    dialect.number(format_number(v, shown))
                    for v in row.shown or [None] * len(extra)
                ),
                *(_identity_cells(people.get(row.player)) if people else ()),
            )
        )


def _identity_cells(who: Any) -> tuple[str, str, str]:
    if who is None:
        return ("", "", "")
    return (who.federation_id or "", who.club or "", who.region or "")


def _shown_values(
    row: dict[str, str], names: Sequence[str], where: Text, problems: list[Problem]
) -> dict[str, float] | None:
    """The method's published pool fields of an ``--initial`` row (an empty or absent cell: a
    new pool's value); ``None`` after a problem."""
    values = {}
    for name in names:
        text = (row.get(name) or "").strip()
        if not text:
            continue
        try:
            value = float(plain_number(text))
            if not math.isfinite(value) or value <= 0:
                raise ValueError
        except ValueError:
            problems.append(
                Problem(
                    where,
                    Text.of(
                        'column {column}: "{value}" is not a number > 0', column=name, value=text
                    ),
                )
            )
            return None
        values[name] = value
    return values


IDENTITY_COLUMNS = ("player_id", "club", "region")
"""Optional columns of an ``--initial`` file: who each player is (docs/formats.md)."""


def _cell(row: dict[str, str | None], column: str) -> str | None:
    return normalise_name(row.get(column) or "") or None


def _labeller(rows: list[dict[str, str | None]]) -> Callable[[dict[str, str | None]], str]:
    """How each row names its player: her name, or ``"name (id)"`` when two ids share the name
    (docs/league.md, "Player identity")."""
    ids: dict[str, set[str]] = {}
    for row in rows:
        fid = _cell(row, "player_id")
        if fid is not None:
            name = normalise_name(row.get("player") or "")
            ids.setdefault(base_name(name, fid), set()).add(fid)
    shared = {name for name, found in ids.items() if len(found) > 1}

    def label(row: dict[str, str | None]) -> str:
        name = normalise_name(row.get("player") or "")
        fid = _cell(row, "player_id")
        if fid is not None and name in shared:
            return id_label(name, fid)
        return name

    return label


def parse_identities(text: str) -> dict[str, tuple[str | None, str | None, str | None]]:
    """``{player: (federation id, club, region)}`` of an ``--initial`` file's optional columns
    ``player_id``, ``club`` and ``region`` (players named as :func:`parse_initial` names them);
    empty when it has none. Call it on a file :func:`parse_initial` accepted."""
    text, delimiter = sniff(text)  # the French spreadsheets' form too
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter)
    reader.fieldnames = english_columns(reader.fieldnames)
    rows = list(reader)
    if not set(IDENTITY_COLUMNS) & set(reader.fieldnames or []):
        return {}
    label = _labeller(rows)
    out: dict[str, tuple[str | None, str | None, str | None]] = {}
    for row in rows:
        name = label(row)
        found = (_cell(row, "player_id"), _cell(row, "club"), _cell(row, "region"))
        if name and any(found):
            out.setdefault(name, found)
    return out


def parse_initial(text: str, rules: RuleSet) -> tuple[dict[PoolKey, PoolState], list[Problem]]:
    """Read an ``--initial`` ratings CSV: the output's columns, ``title`` and ``*`` rows ignored,
    ``games`` optional (default 0). Pools follow the rule set: mode and role only where it pools by them.
    The French spreadsheets' form (``;``, a byte order mark, French column names, decimal commas,
    French names of roles and modes) is read too.
    """
    problems: list[Problem] = []
    pools: dict[PoolKey, PoolState] = {}
    text, delimiter = sniff(text)
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        reader.fieldnames = english_columns(reader.fieldnames)
    except csv.Error as exc:
        return {}, [Problem(_line(1), Text.of("not valid CSV ({reason})", reason=exc))]
    named = rules.names_of()
    try:
        rows = [(reader.line_num, row) for row in reader]
    except csv.Error as exc:
        return {}, [
            Problem(_line(reader.line_num), Text.of("not valid CSV ({reason})", reason=exc))
        ]
    header = reader.fieldnames or []
    missing = [c for c in ("player", "rating") if c not in header]
    if missing:
        return {}, [
            Problem(
                _line(1),
                Text.plural(
                    "missing column {names} (columns: {all})",
                    "missing columns {names} (columns: {all})",
                    len(missing),
                    names=", ".join(missing),
                    all=",".join(RATING_COLUMNS),
                ),
            )
        ]
    extra = method_of(rules).shown_fields
    seen: dict[PoolKey, int] = {}
    label = _labeller([row for _, row in rows])
    for line, row in rows:
        role = (row.get("role") or "").strip()
        if role == GLOBAL_ROLE:
            continue
        where = _line(line)
        name = label(row)
        mode = (row.get("mode") or "").strip()
        mode, role = named.get(mode, mode), named.get(role, role)
        wrong = [
            found
            for column, limit in (("player_id", ID_MAX), ("club", NAME_MAX), ("region", NAME_MAX))
            if (value := _cell(row, column)) is not None
            and (found := text_problem(Text.of("column {column}", column=column), value, limit))
        ]
        if wrong:
            problems.extend(Problem(where, found) for found in wrong)
            continue
        if not name:
            problems.append(
                Problem(where, Text.of("column {column}: the name is empty", column="player"))
            )
            continue
        rating_text = (row.get("rating") or "").strip()
        try:
            rating = float(plain_number(rating_text))
            if not math.isfinite(rating):
                raise ValueError
        except ValueError:
            problems.append(
                Problem(
                    where,
                    Text.of(
                        'column {column}: "{value}" is not a number',
                        column="rating",
                        value=rating_text,
                    ),
                )
            )
            continue
        games_text = (row.get("games") or "").strip()
        games = 0
        if games_text:
            try:
                games = int(games_text)
                if games < 0:
                    raise ValueError
            except ValueError:
                problems.append(
                    Problem(
                        where,
                        Text.of(
                            'column {column}: "{value}" is not a whole number >= 0',
                            column="games",
                            value=games_text,
                        ),
                    )
                )
                continue
        if rules.pools.by_role and role not in rules.roles:
            problems.append(
                Problem(
                    where,
                    Text.of(
                        'column {column}: "{value}" is not one of {allowed}',
                        column="role",
                        value=role,
                        allowed=", ".join(rules.roles),
                    ),
                )
            )
            continue
        key = PoolKey(
            name, mode if rules.pools.by_mode else "", role if rules.pools.by_role else ""
        )
        if key in seen:
            problems.append(
                Problem(
                    where,
                    Text.of(
                        'the rating of "{name}" is already on line {line}',
                        name=name,
                        line=seen[key],
                    ),
                )
            )
            continue
        seen[key] = line
        pool = PoolState(rating, games)
        if extra:
            values = _shown_values(row, extra, where, problems)
            if values is None:
                continue
            pool = with_shown(rules, pool, values)
        pools[key] = pool
    return pools, problems
