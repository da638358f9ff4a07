"""The league commands: ``init``, ``import``, ``ranking``, ``player``, ``explain``, ``events``,
``games``, ``game delete``, ``season close``, ``change-rules``, ``export``, ``backup``, ``leagues``.

A thin shell over :class:`eloleague.league.League`: every command opens the league, calls one
method and prints the result with Rich (or CSV/JSON). The database is ``--db`` (a file path or a
URL), else ``ELOLEAGUE_DB``, else ``eloleague.db`` in the current folder.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from eloleague.cli import app
from eloleague.cli.help import Typer
from eloleague.i18n import Text, grouped, number, pick_language, render, with_sign
from eloleague.i18n import colon as i18n_colon

if TYPE_CHECKING:  # the library (SQLAlchemy, the engine) is imported by the commands that run
    from rich.console import Console
    from rich.table import Table

    from eloleague.engine import LedgerEntry
    from eloleague.io.csv_dialect import CsvDialect
    from eloleague.league import League
    from eloleague.records import GameRecord, Participant, PoolKey
    from eloleague.rules.model import RuleSet
    from eloleague.store.identity import Identity
    from eloleague.store.reports import GameExplanation

DOMAIN = "league"
PROGRESS_FROM = 50_000  # games: smaller recomputes take well under a second

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db", help="Database: a file path or URL (default: $ELOLEAGUE_DB or eloleague.db)."
    ),
]
LeagueOption = Annotated[
    str | None,
    typer.Option("--league", "-l", help="League name (needed when the database holds several)."),
]


class RankingFormat(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"
    xlsx = "xlsx"


class CsvDialectChoice(StrEnum):
    excel = "excel"
    excel_fr = "excel-fr"


CsvDialectOption = Annotated[
    CsvDialectChoice | None,
    typer.Option(
        "--csv-dialect",
        help="excel (commas, English) or excel-fr (semicolons, UTF-8 mark, French names and "
        "decimal commas); default for written files: the language's.",
    ),
]

OutputOption = Annotated[
    Path | None,
    typer.Option(
        "--output",
        "-o",
        help="Write an xlsx workbook there (and the plain CSV beside it, same name .csv).",
    ),
]


def _result(rules: RuleSet, outcome: str | None, score: float | None) -> str:
    """A side's result as the user reads it: the rule set's wording of the outcome, or the score."""
    from eloleague.io.ratings_csv import format_plain

    if outcome is None:
        return format_plain(score)
    return rules.label(outcome, pick_language())


def _entry_result(rules: RuleSet, e: LedgerEntry) -> str:
    """What a ledger entry's game was for its player, as her page says it: the rule set's wording
    of her outcome, her place in a game ranked by score, or nothing (a season's adjustment)."""
    if e.outcome:
        return rules.label(e.outcome, pick_language())
    return _t("place {n}", n=e.rank) if e.rank is not None else ""


def _rule_word(name: str) -> str:
    """A rule that fired (``rounding``, ``cap``...), in the words of the site's catalogue."""
    return render(Text.in_domain("web", name), pick_language())


def _xlsx_path(output: Path | None) -> Path:
    """The workbook to write: ``--output`` must be given and end in ``.xlsx``."""
    if output is None or output.suffix.lower() != ".xlsx":
        raise typer.BadParameter(
            _t("give the workbook to write, ending in .xlsx"), param_hint="--output"
        )
    return output


def _dialect(chosen: str | None) -> CsvDialect | None:
    """The CSV form asked with --csv-dialect (``None``: the language's)."""
    from eloleague.io.csv_dialect import DIALECTS

    return DIALECTS[chosen] if chosen else None


def _written(paths: tuple[Path, Path]) -> None:
    print(_t("written: {xlsx} and {csv}", xlsx=str(paths[0]), csv=str(paths[1])))


class ExportFormat(StrEnum):
    jsonl = "jsonl"
    csv = "csv"


def _t(message: str, /, **params: object) -> str:
    """An English message translated for the user's language (domain ``league``)."""
    return render(Text.of(message, **params), pick_language(), DOMAIN)


def _tn(singular: str, plural: str, count: int, /, **params: object) -> str:
    """:func:`_t` of a message with a singular and a plural form, chosen by ``count``."""
    return render(Text.plural(singular, plural, count, **params), pick_language(), DOMAIN)


def _name_map(pairs: Sequence[str]) -> dict[str, str]:
    """``--map "SPELLING=PLAYER"`` options as a mapping (a pair without ``=`` is refused)."""
    out: dict[str, str] = {}
    for pair in pairs:
        spelling, equals, player = pair.partition("=")
        if not equals or not spelling.strip() or not player.strip():
            raise typer.BadParameter(
                _t("{value!r} is not SPELLING=PLAYER", value=pair), param_hint="--map"
            )
        out[spelling.strip()] = player.strip()
    return out


def _who() -> str | None:
    """Who runs the command, for the league's journal: ``$ELOLEAGUE_USER``, else the login name
    of the operating system's user."""
    import getpass

    try:
        return os.environ.get("ELOLEAGUE_USER") or getpass.getuser()
    except (KeyError, OSError):  # no such user in the password database (a bare container)
        return None


def _console(*, stderr: bool = False) -> Console:
    from eloleague.cli.console import console

    return console(stderr=stderr)


def _err() -> Console:
    return _console(stderr=True)


def _open(db: str | None, league: str | None) -> League:
    from eloleague.league import League

    return League.open(db, league)


def _date(value: str | None, option: str) -> dt.date | None:
    if value is None:
        return None
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        raise typer.BadParameter(
            _t("{value!r} is not a date (expected YYYY-MM-DD)", value=value),
            param_hint=option,
        ) from None
    from eloleague.io.limits import day_problem  # the readers' bounds (docs/formats.md)

    beyond = day_problem(day)
    if beyond is not None:
        raise typer.BadParameter(render(beyond, pick_language()), param_hint=option)
    return day


@contextmanager
def _progress(league: League) -> Iterator[None]:
    """A progress bar on standard error while a large recompute replays games."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    bar: Progress | None = None
    task = None

    def report(done: int, total: int) -> None:
        nonlocal bar, task
        if total < PROGRESS_FROM:
            return
        if bar is None:
            bar = Progress(
                TextColumn(_t("recomputing")),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=_err(),
                transient=True,
            )
            bar.start()
            task = bar.add_task("replay", total=total)
        assert task is not None
        bar.update(task, completed=done)

    league.progress = report
    try:
        yield
    finally:
        league.progress = None
        if bar is not None:
            bar.stop()


# Commands ---------------------------------------------------------------------------------------


@app.command()
def init(
    rules: Annotated[
        str, typer.Option("--rules", "-r", help="A preset name or the path of a .toml rule file.")
    ],
    league: Annotated[
        str | None, typer.Option("--league", "-l", help="League name (default: the rules' name).")
    ] = None,
    initial: Annotated[
        Path | None,
        typer.Option(
            "--initial",
            help="Published ratings to start from: a CSV with the columns of `eloleague rate` "
            "(player, mode, role, rating, games).",
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Create a league in the database (created too if needed), with its rule set.

    Example: [bold]eloleague init --rules bataille-empire --league "Club de Lyon"[/]
    or, for a federation that already publishes ratings,
    [bold]eloleague init --rules bataille-empire --initial classement-2025.csv[/]

    The rule set is stored as its text: a later change of the preset never rewrites the league's
    history (use [bold]eloleague change-rules[/] to change it explicitly).
    """
    from eloleague.errors import EloleagueError, LeagueExists
    from eloleague.league import League

    name = league or Path(rules).stem
    try:
        created = League.create(db, name, rules, user=_who(), initial=initial)
    except LeagueExists as exc:  # the command line's way to name another
        raise EloleagueError(
            Text.in_domain(
                DOMAIN,
                "{problem}: open it, or choose another name with --league",
                problem=exc.message,
            )
        ) from None
    print(
        _t(
            'league "{name}" created with rule set {rules}',
            name=created.name,
            rules=created.rules.name,
        )
    )
    if initial is not None:
        print(
            _tn(
                "{count} player starts from the ratings of {file}",
                "{count} players start from the ratings of {file}",
                len(created.players()),
                file=initial.name,
            )
        )


@app.command("import")
def import_(
    files: Annotated[list[Path], typer.Argument(help="Games files: .jsonl, .csv (long format).")],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show what would change; write nothing.")
    ] = False,
    update: Annotated[
        bool, typer.Option("--update", help="Replace stored games whose content changed.")
    ] = False,
    user: Annotated[
        str | None, typer.Option("--user", help="Who imports (kept in the log).")
    ] = None,
    maps: Annotated[
        list[str] | None,
        typer.Option(
            "--map",
            help='"SPELLING=PLAYER": the file\'s SPELLING is the registered PLAYER (repeatable); '
            "the spelling is kept as an alias.",
        ),
    ] = None,
    db: DbOption = None,
    league: LeagueOption = None,
) -> None:
    """Import games: all or nothing, idempotent, then recompute the ratings.

    Example: [bold]eloleague import austerlitz-2025.jsonl --dry-run --map "Sophie Girad=Sophie Girard"[/]

    Every file is checked first; any problem stops everything (exit 2, nothing stored). A game
    already there is skipped; one whose id exists with other content is refused unless --update.
    Names that look like an existing player are reported as warnings: --map "SPELLING=PLAYER"
    imports them under the registered player, and the spelling becomes an alias of that player.
    """
    from eloleague.errors import InputError, Problem, in_source, with_remedy
    from eloleague.io.games import read_games

    names = _name_map(maps or [])
    lg = _open(db, league)
    # Check every file before importing any (all problems at once).
    problems: list[Problem] = []
    read: list[tuple[Path, list[GameRecord]]] = []
    for path in files:
        try:
            read.append((path, read_games(path, lg.rules, today=lg.today())))
        except InputError as exc:
            problems.extend(in_source(exc.source, p) for p in exc.problems)
    if problems:
        raise InputError(problems)
    err = _err()
    lang = pick_language()
    for path, _ in read:
        with _progress(lg):
            try:
                report = lg.import_file(
                    path, dry_run=dry_run, update=update, user=user or _who(), names=names
                )
            except InputError as exc:
                # a stored game with other content: the option that replaces it
                remedy = Text.in_domain(DOMAIN, "use --update to replace it")
                raise with_remedy(exc, remedy) from None
        print(report.summary_in(lang))
        if report.already_imported is not None and not report.changed:
            print(
                _t(
                    "this file was already imported on {when}",
                    when=report.already_imported.strftime("%Y-%m-%d %H:%M"),
                )
            )
        # Each warning names its file: several files may be imported at once.
        colon = i18n_colon(lang)
        for located in report.file_warnings:
            err.print(
                path.name + colon + _t("warning: ") + located.render(lang),
                markup=False,
                highlight=False,
            )
        for warning in report.name_warnings:
            err.print(
                path.name + colon + _t("warning: ") + render(warning.text(), lang, DOMAIN),
                markup=False,
                highlight=False,
            )
        if report.name_warnings and dry_run:
            hint = " ".join(f'--map "{w.name}={w.likely}"' for w in report.name_warnings[:3])
            err.print(
                _t("to import a name as the player it looks like, add: {options}", options=hint),
                markup=False,
                highlight=False,
            )
        for note in report.unrated:
            err.print(_t("warning: ") + render(note, lang, DOMAIN), markup=False, highlight=False)
        if dry_run and report.rating_changes:
            _print_changes(lg.rules, report.rating_changes)


def _print_changes(rules: RuleSet, changes: Sequence[object]) -> None:
    from eloleague.cli.output import PlainTable, print_fitted
    from eloleague.store.reports import RatingChange

    lang = pick_language()
    table = PlainTable(title=_t("Rating changes"), title_justify="left")
    for col in (_t("Player"), _t("Mode"), rules.roles_heading(lang) or _t("Role")):
        table.add_column(col)
    adjusted = any(isinstance(c, RatingChange) and c.adjustment for c in changes)
    for col in (_t("Before"), _t("After"), _t("Change")):
        table.add_column(col, justify="right", no_wrap=True)
    if adjusted:  # a season's end the import crossed: its part of each change apart
        table.add_column(_t("Adjustment"), justify="right", no_wrap=True)
    table.add_column(_t("Games"), justify="right", no_wrap=True)
    for c in changes:
        assert isinstance(c, RatingChange)
        adjustment = [_signed(rules, c.adjustment) if c.adjustment else ""] if adjusted else []
        table.add_row(
            c.key.player,
            rules.label(c.key.mode, lang),
            rules.label(c.key.role, lang),
            _shown(rules, c.before) if c.before is not None else _t("new"),
            _shown(rules, c.after),
            _signed(rules, c.delta),
            *adjustment,
            f"{c.games_before} → {c.games_after}",
        )
    print_fitted(_console(), table)


def _shown(rules: RuleSet, value: float | None) -> str:
    from eloleague.io.ratings_csv import format_number
    from eloleague.rules.model import Rounding

    shown = format_number(value, rules.shown or Rounding(mode="half_up", decimals=1))
    return number(shown, pick_language())


def _signed(rules: RuleSet, value: float) -> str:
    """A change as the site shows it (:func:`~eloleague.i18n.with_sign`)."""
    return with_sign(_shown(rules, value))


def _role_option(rules: RuleSet, role: str) -> str:
    """``--role`` as the rule file names it: a role as the tables show it is one ("Turquie" is
    Turkey), ``*`` the global rating; another word is refused (it would rank nobody)."""
    from eloleague.engine.standings import GLOBAL_ROLE

    name = rules.named(role)
    if rules.roles and name != GLOBAL_ROLE and name not in rules.roles:
        lang = pick_language()
        roles = ", ".join(rules.label(r, lang) for r in rules.roles)
        raise typer.BadParameter(
            _t(
                '"{role}" is not a role of the rule set (one of: {roles}; * for the global rating)',
                role=role,
                roles=roles,
            ),
            param_hint="'--role'",
        )
    return name


@app.command()
def ranking(
    mode: Annotated[str | None, typer.Option("--mode", help="Only this mode.")] = None,
    role: Annotated[str | None, typer.Option("--role", help="Only this role (* global).")] = None,
    as_of: Annotated[
        str | None, typer.Option("--as-of", help="The ranking as it stood on YYYY-MM-DD.")
    ] = None,
    top: Annotated[
        int | None,
        typer.Option("--top", min=1, help="Only the first N rows of each ranking (mode, role)."),
    ] = None,
    active_since: Annotated[
        str | None,
        typer.Option("--active-since", help="Only players with a rated game since YYYY-MM-DD."),
    ] = None,
    club: Annotated[
        str | None, typer.Option("--club", help="Only this club's players (ranked among them).")
    ] = None,
    region: Annotated[
        str | None,
        typer.Option("--region", help="Only this region's (or country's) players."),
    ] = None,
    fmt: Annotated[
        RankingFormat | None,
        typer.Option(
            "--format",
            "-f",
            help="table (default on a terminal), csv, json, or xlsx (with --output).",
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="Write an xlsx workbook there (and the plain CSV beside it, same name .csv), "
            "or only the CSV when the name ends in .csv.",
        ),
    ] = None,
    csv_dialect: CsvDialectOption = None,
    db: DbOption = None,
    league: LeagueOption = None,
) -> None:
    """Print the ranking (the CSV has the columns of [bold]eloleague rate[/]), or write it as a
    formatted workbook.

    Example: [bold]eloleague ranking --top 20 --active-since 2025-01-01[/]

    Workbook: [bold]eloleague ranking -o classement.xlsx[/] (titles, frozen header, numbers as
    numbers; classement.csv beside it).

    CSV for a spreadsheet: [bold]eloleague ranking -o classement.csv[/] (in French: semicolons,
    French column names and decimal commas, which French spreadsheets split; --csv-dialect excel
    for commas).

    With --as-of, the games dated on or before that day are rated and the seasons ending before
    it applied: the same as [bold]eloleague rate[/] of those games with --as-of.
    """
    from eloleague.cli.output import print_rankings
    from eloleague.engine.standings import competition_ranks, mode_order
    from eloleague.io.ratings_csv import format_number, write_ratings

    lg = _open(db, league)
    rows = lg.ranking(
        mode=None if mode is None else lg.rules.named(mode),
        role=None if role is None else _role_option(lg.rules, role),
        as_of=_date(as_of, "--as-of"),
        top=top,
        active_since=_date(active_since, "--active-since"),
        club=club,
        region=region,
    )
    if output is not None and output.suffix.lower() == ".csv" and fmt in (None, RankingFormat.csv):
        from eloleague.io.csv_dialect import choose
        from eloleague.io.sheets.exports import export_ranking_csv

        dialect = choose(csv_dialect, pick_language())
        written = export_ranking_csv(rows, lg.rules, output, dialect, people=lg.identities())
        print(_t("written: {file}", file=str(written)))
        return
    if output is not None and fmt is None:
        fmt = RankingFormat.xlsx
    chosen = fmt or (RankingFormat.table if sys.stdout.isatty() else RankingFormat.csv)
    if chosen is RankingFormat.xlsx:
        from eloleague.io.sheets.exports import export_ranking_xlsx

        title = f"{lg.name} ({lg.rules.name})"
        _written(
            export_ranking_xlsx(
                rows,
                lg.rules,
                _xlsx_path(output),
                pick_language(),
                title,
                _dialect(csv_dialect),
                people=lg.identities(),
            )
        )
    elif output is not None:
        raise typer.BadParameter(_t("--output writes a workbook: use it with --format xlsx"))
    elif chosen is RankingFormat.csv:
        from eloleague.io.csv_dialect import EXCEL, choose

        dialect = choose(csv_dialect, "en") if csv_dialect else EXCEL  # scripts read stdout
        if dialect is not EXCEL:
            sys.stdout.write("\ufeff")
        write_ratings(rows, lg.rules, sys.stdout, dialect, people=lg.identities())
    elif chosen is RankingFormat.json:
        shown = lg.rules.shown
        data = [
            {
                "rank": n,
                "player": r.player,
                "mode": r.mode,
                "role": r.role,
                "rating": float(format_number(r.rating, shown)) if shown else r.rating,
                "games": r.games,
                "title": r.title,
            }
            for n, r in zip(competition_ranks(rows), rows, strict=True)
        ]
        print(json.dumps(data, ensure_ascii=False, indent=1))
    else:
        present = lg.present_pools()
        if not rows:  # a table with no row said nothing of why
            print(
                _t("no player is ranked with these options")
                if present
                else _t("no player is ranked yet: import games with eloleague import FILE")
            )
            return
        modes = mode_order(present)  # the site's order
        print_rankings(lg.rules, rows, title=f"{lg.name} ({lg.rules.name})", modes=modes)


SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(values: Sequence[float], width: int = 60) -> str:
    """Unicode blocks for a rating history (the last ``width`` values)."""
    values = list(values)[-width:]
    if not values:
        return ""
    low, high = min(values), max(values)
    span = high - low or 1.0
    return "".join(SPARKS[min(7, int((v - low) / span * 7.999))] for v in values)


@app.command()
def player(
    args: Annotated[
        list[str],
        typer.Argument(
            help="NAME | rename OLD NEW | merge ALIAS INTO | add NAME | edit NAME",
            show_default=False,
        ),
    ],
    last: Annotated[int, typer.Option("--last", min=1, help="How many recent games.")] = 10,
    federation_id: Annotated[
        str | None,
        typer.Option("--id", help="add/edit: the player's federation id (licence number)."),
    ] = None,
    club: Annotated[str | None, typer.Option("--club", help="add/edit: the player's club.")] = None,
    region: Annotated[
        str | None, typer.Option("--region", help="add/edit: the player's region or country.")
    ] = None,
    clear: Annotated[
        list[str] | None,
        typer.Option("--clear", help="edit: empty a field (id, club or region); repeatable."),
    ] = None,
    output: OutputOption = None,
    csv_dialect: CsvDialectOption = None,
    db: DbOption = None,
    league: LeagueOption = None,
) -> None:
    """A player's ratings, title, history and last games; or correct names.

    Examples:
    [bold]eloleague player "Alice Martin"[/] (ratings per pool, title, sparkline, last games);
    [bold]eloleague player "Alice Martin" -o alice.xlsx[/] (the whole history as a workbook);
    [bold]eloleague player rename "Alice Matin" "Alice Martin"[/] (fix a spelling; ratings
    unchanged); [bold]eloleague player merge "A. Martin" "Alice Martin"[/] (two names for one
    person: games moved, ratings recomputed);
    [bold]eloleague player add "Jean Dupont" --id FR-1234 --club Lyon --region Rhône[/];
    [bold]eloleague player edit "Jean Dupont" --club Villeurbanne[/] (a player is also found by
    her id: [bold]eloleague player FR-1234[/]).
    """
    lg = _open(db, league)
    if len(args) == 2 and args[0] in ("add", "edit"):
        _add_or_edit(lg, args[0], args[1], federation_id, club, region, clear or [])
        return
    if len(args) == 3 and args[0] == "rename":
        lg.rename_player(args[1], args[2], user=_who())
        print(_t('"{old}" renamed "{new}"', old=args[1], new=args[2]))
        return
    if len(args) == 3 and args[0] == "merge":
        with _progress(lg):
            lg.merge_players(args[1], args[2], user=_who())
        print(_t('"{alias}" merged into "{into}"', alias=args[1], into=args[2]))
        return
    if len(args) != 1:
        raise typer.BadParameter(
            _t("give a NAME, or: rename OLD NEW, or: merge ALIAS INTO, or: add NAME, or: edit NAME")
        )
    from eloleague.cli.output import print_ranking
    from eloleague.engine.standings import pool_order

    report = lg.player(args[0])
    if output is not None:
        from eloleague.io.sheets.exports import export_player_xlsx

        path = _xlsx_path(output)
        _written(
            export_player_xlsx(
                report.name, report.history, lg.rules, path, pick_language(), _dialect(csv_dialect)
            )
        )
        return
    from rich.markup import escape

    console = _console()
    title = lg.rules.label(report.title, pick_language()) if report.title else ""
    console.print(f"[bold]{escape(report.name)}[/]" + (f"  ({escape(title)})" if title else ""))
    if report.aliases:
        console.print(
            _t("also written: {names}", names=", ".join(report.aliases)),
            highlight=False,
            markup=False,
        )
    who = lg.identity(report.name)
    if who:
        console.print(_identity_line(who), highlight=False, markup=False)
    places = lg.ranks(report.name)
    pools = sorted(report.standings, key=pool_order)  # as her page on the site lists them
    print_ranking(
        lg.rules,
        pools,
        title=_t("Ratings"),
        console=console,
        ranks=[places[r.mode, r.role].rank for r in pools],
        one_player=True,
    )
    for line in history_lines(lg.rules, report.history, report.ratings, pick_language()):
        console.print(line, highlight=False, markup=False)
    _print_entries(lg.rules, report.history[-last:], _t("Last changes"), console, with_game=True)


HISTORY_POOLS = 3
"""The pools whose history ``eloleague player`` draws, the most played first (the site's chart
draws as many lines before it shows one pool at a time)."""


def history_lines(
    rules: RuleSet, history: Sequence[LedgerEntry], ratings: Sequence[float], lang: str
) -> list[str]:
    """A sparkline of each of the player's most played pools, with the rating it started and
    ends at: ``History: ▂▄▆▇▃  1500 → 1478``, the pool named when she has several (a Diplomacy
    player's sixteen pools drawn as one line mixed a 2,000 of one country with a 1,300 of
    another). ``ratings``: the pool's rating after each entry of ``history``."""
    from eloleague.cli.output import pool_words

    pools: dict[PoolKey, list[tuple[LedgerEntry, float]]] = {}
    for entry, rating in zip(history, ratings, strict=True):
        pools.setdefault(entry.key, []).append((entry, rating))
    ordered = sorted(pools.items(), key=lambda kv: -len(kv[1]))  # stable: first played first
    lines = []
    for key, points in ordered[:HISTORY_POOLS]:
        drawn = (
            sparkline([r for _e, r in points])
            + "  "
            + _shown(rules, points[0][0].before)
            + " → "
            + _shown(rules, points[-1][1])
        )
        if len(pools) == 1:
            lines.append(_t("History: {line}", line=drawn))
        else:
            pool = pool_words(rules, key, lang)
            lines.append(_t("History ({pool}): {line}", pool=pool, line=drawn))
    if len(ordered) > HISTORY_POOLS:
        rest = len(ordered) - HISTORY_POOLS
        lines.append(_tn("and {n} other pool", "and {n} other pools", rest, n=rest))
    return lines


def _identity_line(who: Identity) -> str:
    """``id: FR-1234 · club: Lyon · region: Rhône`` (what is known), in the user's language."""
    parts = []
    if who.federation_id:
        parts.append(_t("id: {value}", value=who.federation_id))
    if who.club:
        parts.append(_t("club: {value}", value=who.club))
    if who.region:
        parts.append(_t("region: {value}", value=who.region))
    return " · ".join(parts)


def _add_or_edit(
    lg: League,
    action: str,
    name: str,
    federation_id: str | None,
    club: str | None,
    region: str | None,
    clear: Sequence[str],
) -> None:
    fields = {"id": "federation_id", "club": "club", "region": "region"}
    unknown = [c for c in clear if c not in fields]
    if unknown:
        raise typer.BadParameter(
            _t("{value} is not id, club or region", value=repr(unknown[0])), param_hint="--clear"
        )
    if action == "add":
        if clear:
            raise typer.BadParameter(_t("--clear is for edit"), param_hint="--clear")
        label = lg.add_player(
            name, federation_id=federation_id, club=club, region=region, user=_who()
        )
        print(_t('"{name}" registered', name=label))
        who = lg.identity(label)
    else:
        if federation_id is None and club is None and region is None and not clear:
            raise typer.BadParameter(_t("give --id, --club, --region or --clear"))
        who = lg.edit_player(
            name,
            federation_id=federation_id,
            club=club,
            region=region,
            clear=[fields[c] for c in clear],
            user=_who(),
        )
        print(_t('"{name}" updated', name=name))
    if who:
        print(_identity_line(who))


def _print_entries(
    rules: RuleSet,
    entries: Sequence[LedgerEntry],
    title: str,
    console: Console,
    *,
    with_game: bool = False,
    with_player: bool = False,
) -> None:
    # A player's history shows every column of the ledger when they fit the terminal, a long
    # game id folded (GAME_ID_WIDTH); else it leaves out P, K, S and the rules fired (squeezed,
    # the headings and rules were cut mid-word): each game's are one command away; in a phone's
    # terminal it leaves out the results too. A game's players (explain, an event's report, a
    # season's adjustments) keep every column. Either table, in a terminal too narrow for it,
    # comes as lines (print_fitted).
    from eloleague.cli.output import fits, print_fitted

    table = _entries_table(rules, entries, title, with_game, with_player, brief=False)
    if not with_game:
        print_fitted(console, table)
        return
    brief = not fits(console, table, wrapped=False)
    if brief:
        table = _entries_table(rules, entries, title, with_game, with_player, brief=True)
        if not fits(console, table, wrapped=False):  # a phone's terminal: the results go too
            table = _entries_table(
                rules, entries, title, with_game, with_player, brief=True, results=False
            )
    print_fitted(console, table)
    if brief:  # below the table, not as its caption: a caption wraps at the table's width
        console.print(_t("P, K, S and the rules fired: eloleague explain GAME"))


def _fired(e: LedgerEntry) -> str:
    """The rules that fired for ``e`` and its warning, in the user's words."""
    return ", ".join(_rule_word(f) for f in e.fired) + (
        f" [{_rule_word(e.warning)}]" if e.warning and e.warning not in e.fired else ""
    )


def _figure(value: float | None) -> str:
    """K or S rounded to three places as P is, and as the site shows them: a score a formula
    computed (a Diplomacy player's share of the points) read ``0,057564855141071763`` and pushed
    the players' names into three lines; the exact values are the ledger's (``eloleague player
    NAME -o``, the API). Empty when there is none."""
    from eloleague.io.ratings_csv import format_plain

    return format_plain(None if value is None else round(value, 3))


GAME_ID_WIDTH = 16
"""A player's history folds a longer game id (``open-de-lyon-2026-ronde-3-table-12``) rather
than leave out the columns it would push past the terminal's edge."""
GAME_ID_PIECE = 10
"""Never into pieces narrower than this: a phone's terminal gets lines instead
(:func:`~eloleague.cli.output.print_fitted`)."""


def _entries_table(
    rules: RuleSet,
    entries: Sequence[LedgerEntry],
    title: str,
    with_game: bool,
    with_player: bool,
    *,
    brief: bool,
    results: bool = True,
) -> Table:
    from eloleague.cli.output import PlainTable, pool_words, who

    lang = pick_language()
    table = PlainTable(title=title, title_justify="left")
    # A date and the numbers whole (a narrow terminal cuts their headings); a long game id and
    # the rules fired wrap.
    if with_game:
        longest = max((len(e.game) for e in entries), default=0)
        table.add_column(
            _t("Game"),
            overflow="fold",
            min_width=min(GAME_ID_PIECE, max(longest, 4)),
            max_width=GAME_ID_WIDTH,
        )
        table.add_column(_t("Date"), no_wrap=True, min_width=10)
    # A player's changes in several pools (a Diplomacy player's countries and modes) say whose:
    # one after the other, a 1,233 of one country and a 1,740 of another read as a jump.
    with_pool = with_game and len({e.key for e in entries}) > 1
    if with_pool:
        table.add_column(_t("Pool"))
    if with_player:
        table.add_column(_t("Player"))
    # A player's history says how each game went, as her page does (« Victoire », « place 3 »);
    # a game's own tables list its sides' results above them.
    with_result = results and with_game and not with_player
    if with_result:
        table.add_column(_t("Result"))
    details = slice(1, 4 if brief else 1)  # P, K, S among the numbers: left out when brief
    numbers = [_t("Before"), "P", "K", "S", _t("Change"), _t("After")]
    del numbers[details]
    for col in numbers:
        table.add_column(col, justify="right", no_wrap=True)
    # the rules fired only when some did: an empty column took the width a name needed
    # (« François / Legrand » over two lines in each game of an event's report)
    fired = [_fired(e) for e in entries] if not brief else [""] * len(entries)
    with_fired = any(fired)
    if with_fired:
        table.add_column(_t("Rules fired"), overflow="fold", min_width=7)
    for e, rules_fired in zip(entries, fired, strict=True):
        cells = []
        if with_game:
            start = not e.game and "initial" in e.fired  # a starting rating (docs/league.md)
            cells += [e.game or (_t("start") if start else _t("season")), e.date.isoformat()]
        if with_pool:
            cells.append(pool_words(rules, e.key, lang))
        if with_player:
            cells.append(who(rules, e.key.player, e.key.role, lang))
        if with_result:
            cells.append(_entry_result(rules, e))
        values = [
            _shown(rules, e.before),
            "" if e.expected is None else number(f"{e.expected:.3f}", lang),
            number(_figure(e.k), lang),
            number(_figure(e.score), lang),
            _signed(rules, e.delta),
            _shown(rules, e.after),
        ]
        del values[details]
        cells += values
        if with_fired:
            cells.append(rules_fired)
        table.add_row(*cells)
    return table


@app.command()
def explain(
    game_id: Annotated[str, typer.Argument(help="The game's id (or #N for games without one).")],
    db: DbOption = None,
    league: LeagueOption = None,
) -> None:
    """Explain a game: each player's rating before, P, K, S, the change and the rules that fired.

    Example: [bold]eloleague explain g17[/]
    """
    lg = _open(db, league)
    lang = pick_language()
    found = lg.explain(game_id)
    g = found.game
    console = _console()
    head = f"{g.id}  {g.date.isoformat()}"
    if g.mode:  # a Diplomacy game's mode: the pools it counts for
        head += "  " + _t("mode {mode}", mode=lg.rules.label(g.mode, lang))
    if g.event:
        head += f"  {g.event}" + (
            _t(", round {round}", round=g.round) if g.round is not None else ""
        )
    console.print(head, highlight=False, markup=False, style="bold")
    # A Diplomacy game's sides by place, as its page lists them (1., 2., 2., 4.); other games'
    # as they were given, numbered: a side's number is how a correction names it.
    for n, place in _in_place_order(lg.rules, g):
        side = g.sides[n]
        result = _result(lg.rules, side.outcome, side.score)
        names = _players(lg.rules, side.players, lang)
        label = f"{place}. " if place else f"{_t('side')} {n + 1}{i18n_colon(lang)}"
        console.print(f"  {label}{names} — {result}", highlight=False, markup=False)
    if found.unrated_reason:
        console.print(
            _t("not rated: {reason}", reason=found.unrated_reason), highlight=False, markup=False
        )
        return
    _print_entries(lg.rules, found.entries, _t("Rating changes"), console, with_player=True)


@app.command("events")
def events_(
    name: Annotated[
        str | None, typer.Argument(help="An event: its games and rating changes.")
    ] = None,
    output: OutputOption = None,
    csv_dialect: CsvDialectOption = None,
    db: DbOption = None,
    league: LeagueOption = None,
) -> None:
    """List the events: dates, games and players; or report on one event.

    Examples: [bold]eloleague events[/];
    [bold]eloleague events "Open de Lyon 2025"[/] (each game with each player's change);
    [bold]eloleague events "Open de Lyon 2025" -o lyon.xlsx[/] (the report as a workbook).
    """
    from eloleague.cli.output import PlainTable, print_fitted

    lg = _open(db, league)
    if name is not None:
        _event_report(lg, name, output, csv_dialect)
        return
    if output is not None:
        raise typer.BadParameter(_t("name the event to write"), param_hint="--output")
    found = lg.events()
    if not found:  # an empty table says nothing of how a game joins an event
        print(
            _t(
                'no event yet: a game names its event in its "event" field (a workbook, in its Event sheet)'
            )
        )
        return
    table = PlainTable(title=_t("Events"), title_justify="left")
    for col in (_t("Event"), _t("First day"), _t("Last day")):
        table.add_column(col)
    for col in (_t("Games"), _t("Players")):
        # numbers, as in every other table; whole (Rich breaks a line at the narrow no-break
        # space of "10 000", as at any other space)
        table.add_column(col, justify="right", no_wrap=True)
    lang = pick_language()
    for e in found:
        table.add_row(
            e.name,
            e.first.isoformat(),
            e.last.isoformat(),
            grouped(e.games, lang),
            grouped(e.players, lang),
        )
    print_fitted(_console(), table)


def _event_report(lg: League, name: str, output: Path | None, csv_dialect: str | None) -> None:
    report = lg.event(name)
    if output is not None:
        from eloleague.io.sheets.exports import export_event_xlsx

        entries = [e for g in report.games for e in g.entries]
        records = [g.game for g in report.games]
        path = _xlsx_path(output)
        _written(
            export_event_xlsx(
                report.name,
                entries,
                lg.rules,
                path,
                pick_language(),
                records,
                dialect=_dialect(csv_dialect),
                place=report.place,
                referee=report.referee,
            )
        )
        return
    from rich.markup import escape

    console = _console()
    console.print(f"[bold]{escape(report.name)}[/]", highlight=False)
    where = [
        report.place or "",
        _t("referee: {name}", name=report.referee) if report.referee else "",
    ]
    if any(where):
        console.print(" · ".join(w for w in where if w), highlight=False, markup=False)
    _print_standings(lg.rules, report.games, console)
    for found in report.games:
        g = found.game
        head = f"{g.id or ''}  {g.date.isoformat()}"
        if g.round is not None:
            head += _t(", round {round}", round=g.round)
        if found.unrated_reason:
            console.print(
                head + "  " + _t("not rated: {reason}", reason=found.unrated_reason),
                highlight=False,
                markup=False,
            )
            continue
        _print_entries(lg.rules, found.entries, head, console, with_player=True)


def _print_standings(rules: RuleSet, games: Sequence[GameExplanation], console: Console) -> None:
    """An event's standings before its games, as its page on the site gives them (one
    :func:`eloleague.event_facts.standings`): rank, games, points, performance rating (a
    free-for-all game's average place), the rating change over the event. The report began with
    the first game's table: who won the event was for the reader to add up."""
    from eloleague import event_facts
    from eloleague.cli.output import PlainTable, print_fitted

    lines = event_facts.standings(rules, games)
    if not lines:
        return
    ffa = any(line.places for line in lines)
    table = PlainTable(title=_t("Standings"), title_justify="left")
    table.add_column("#", justify="right", style="dim")
    table.add_column(_t("Player"))
    second_heading = _t("Average place") if ffa else _t("Performance")
    for heading in (_t("Games"), _t("Points"), second_heading):
        table.add_column(heading, justify="right", no_wrap=True)
    table.add_column(_t("Change"), justify="right", no_wrap=True)
    lang = pick_language()
    for place, line in zip(event_facts.places(lines), lines, strict=True):
        figure = line.figure(rules.scale)
        second = number(_figure(figure), lang) if ffa else _shown(rules, figure)
        table.add_row(
            str(place),
            line.player,
            str(line.games),
            number(_figure(line.points), lang),
            second,
            _signed(rules, line.delta),
        )
    print_fitted(console, table, lead=2)


@app.command("games")
def games_(
    event: Annotated[str | None, typer.Option("--event", help="Only this event's games.")] = None,
    player_name: Annotated[
        str | None, typer.Option("--player", help="Only this player's games.")
    ] = None,
    last: Annotated[
        int | None,
        typer.Option(
            "--last", min=1, help="Only the last N games (a terminal shows the last 100)."
        ),
    ] = None,
    fmt: Annotated[
        ExportFormat | None,
        typer.Option("--format", "-f", help="jsonl or csv (long format) instead of a table."),
    ] = None,
    db: DbOption = None,
    league: LeagueOption = None,
) -> None:
    """List the games in arrival order.

    Example: [bold]eloleague games --event "Austerlitz 2025"[/]
    """
    from eloleague.cli.output import PlainTable, print_fitted

    lg = _open(db, league)
    # A terminal gets the last games, not a million-game league's every game (it drew them all,
    # for minutes); a file or a pipe, every game unless --last says otherwise.
    shown = (
        last if last is not None or fmt is not None or not sys.stdout.isatty() else TERMINAL_GAMES
    )
    found = lg.games(event=event, player=player_name, last=None if shown is None else shown + 1)
    more = shown is not None and len(found) > shown
    if more:
        found = found[1:]
    if fmt is not None:
        from eloleague.store.exports import write_jsonl, write_long_csv
        from eloleague.store.games import StoredGame

        stored = [StoredGame(0, 0, g.id, g) for g in found]
        people = lg.identities()  # the players' ids, clubs and regions travel with the games
        (write_long_csv if fmt is ExportFormat.csv else write_jsonl)(stored, sys.stdout, people)
        return
    lang = pick_language()
    # An event's and a mode's column when a game has one (an online game's have no event); each
    # player's role, as explain names it (a Diplomacy game's countries).
    events = any(g.event for g in found)
    modes = any(g.mode for g in found)
    table = PlainTable(title=_t("Games"), title_justify="left")
    table.add_column(_t("Game"), no_wrap=True)
    table.add_column(_t("Date"), no_wrap=True, min_width=10)  # whole: the sides wrap instead
    if events:
        table.add_column(_t("Event"))
    if modes:
        table.add_column(_t("Mode"))
    table.add_column(_t("Sides"))
    for g in found:
        sides = ("  " + _t("vs") + "  ").join(
            _players(lg.rules, s.players, lang) + " — " + _result(lg.rules, s.outcome, s.score)
            for s in (g.sides[n] for n, _ in _in_place_order(lg.rules, g))
        )
        cells = [g.id or "", g.date.isoformat()]
        if events:
            cells.append(g.event or "")
        if modes:
            cells.append(lg.rules.label(g.mode, lang))
        table.add_row(*cells, sides)
    print_fitted(_console(), table)
    if more and last is None:
        print(_t("the last {n} games: --last N for more, --format csv for every game", n=shown))


TERMINAL_GAMES = 100
"""The games ``eloleague games`` shows in a terminal without ``--last``."""


def _in_place_order(rules: RuleSet, game: GameRecord) -> list[tuple[int, int | None]]:
    """Each of ``game``'s sides as (its index, its place): by place under a rule set that ranks
    by score (ties in the order given, as on the game's page), else as given, without places."""
    from eloleague.engine.methods import side_places

    placed = side_places(rules, game)
    if placed is None:
        return [(n, None) for n in range(len(game.sides))]
    return [(n, place) for n, place in sorted(enumerate(placed), key=lambda side: side[1])]


def _players(rules: RuleSet, players: Sequence[Participant], lang: str) -> str:
    """A side's players as the command line names them: each with her role in ``lang``
    (``Ana (Turquie)``)."""
    from eloleague.cli.output import who

    return ", ".join(who(rules, p.name, p.role, lang) for p in players)


game_app = Typer(help="Correct games.", no_args_is_help=True)
app.add_typer(game_app, name="game")


@game_app.command("delete")
def game_delete(
    game_id: Annotated[str, typer.Argument(help="The game's id (or #N).")],
    db: DbOption = None,
    league: LeagueOption = None,
) -> None:
    """Delete a game and recompute the ratings from its date.

    Example: [bold]eloleague game delete g17[/]
    """
    lg = _open(db, league)
    with _progress(lg):
        lg.delete_game(game_id, user=_who())
    print(_t("game {id} deleted", id=game_id))


season_app = Typer(help="Seasons (inactivity adjustments).", no_args_is_help=True)
app.add_typer(season_app, name="season")


@season_app.command("close")
def season_close(
    end: Annotated[str, typer.Argument(help="The season's last day, YYYY-MM-DD.")],
    user: Annotated[str | None, typer.Option("--user", help="Who closes it.")] = None,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run", help="List every adjustment the closing would make; store nothing."
        ),
    ] = False,
    db: DbOption = None,
    league: LeagueOption = None,
) -> None:
    """Close a season now: its inactivity adjustments apply before the next season's first game.

    Example: [bold]eloleague season close 2025-12-31 --dry-run[/] (the list), then without
    --dry-run (the same list, applied); [bold]eloleague season reopen 2025-12-31[/] undoes it.

    Seasons are also closed automatically when a game of a later season is imported.
    """
    day = _date(end, "END")
    assert day is not None
    lg = _open(db, league)
    with _progress(lg):
        changes = lg.close_season(day, user=user or _who(), dry_run=dry_run)
    if changes:
        title = _t("Adjustments of the season ending {end}", end=day.isoformat())
        _print_entries(lg.rules, changes, title, _console(), with_player=True)
    if dry_run:
        print(
            _tn(
                "dry run: closing the season ending {end} would adjust {count} rating; "
                "nothing was changed",
                "dry run: closing the season ending {end} would adjust {count} ratings; "
                "nothing was changed",
                len(changes),
                end=day.isoformat(),
            )
        )
    else:
        from eloleague.store.messages import season_closed

        print(render(season_closed(day.isoformat(), len(changes)), pick_language()))


@season_app.command("reopen")
def season_reopen(
    end: Annotated[str, typer.Argument(help="The season's last day, YYYY-MM-DD.")],
    db: DbOption = None,
    league: LeagueOption = None,
) -> None:
    """Undo a season's closing: its adjustments are removed and the ratings recomputed.

    Example: [bold]eloleague season reopen 2025-12-31[/]

    A season with games after it cannot be reopened: those games apply its adjustments anyway.
    """
    day = _date(end, "END")
    assert day is not None
    lg = _open(db, league)
    with _progress(lg):
        undone = lg.reopen_season(day, user=_who())
    from eloleague.store.messages import season_reopened

    print(render(season_reopened(day.isoformat(), len(undone)), pick_language()))


@app.command("change-rules")
def change_rules(
    rules: Annotated[str, typer.Argument(help="A preset name or the path of a .toml rule file.")],
    db: DbOption = None,
    league: LeagueOption = None,
) -> None:
    """Replace the league's rule set and recompute every rating.

    Example: [bold]eloleague change-rules my-club.toml[/]
    """
    lg = _open(db, league)
    with _progress(lg):
        lg.change_rules(rules, user=_who())
    print(_t('league "{name}" now uses rule set {rules}', name=lg.name, rules=lg.rules.name))


@app.command()
def face(
    name: Annotated[
        str | None, typer.Option("--name", help="The name the site shows (default: the league's).")
    ] = None,
    description: Annotated[
        str | None, typer.Option("--description", help="A short description (500 characters).")
    ] = None,
    colour: Annotated[
        str | None,
        typer.Option("--colour", help="blue, green, red, purple, orange, teal, slate or pink."),
    ] = None,
    logo: Annotated[
        Path | None, typer.Option("--logo", help="A PNG or JPEG image (256 KB at most).")
    ] = None,
    no_logo: Annotated[bool, typer.Option("--no-logo", help="Remove the logo.")] = False,
    db: DbOption = None,
    league: LeagueOption = None,
) -> None:
    """Set what the web site shows of the league: its display name, description, colour and logo
    (options not given keep their value).

    Example: [bold]eloleague face --name "Ligue de Lyon" --colour green --logo logo.png[/]
    """
    from eloleague.store.faces import Face

    lg = _open(db, league)
    old = lg.face()
    image = None
    if logo is not None:
        try:
            image = logo.read_bytes()
        except OSError as exc:
            raise typer.BadParameter(
                _t("cannot read {path}: {reason}", path=str(logo), reason=exc.strerror or exc)
            ) from None
    lg.set_face(
        Face(
            name if name is not None else old.display_name,
            description if description is not None else old.description,
            colour if colour is not None else old.colour,
        ),
        image,
        keep_logo=not no_logo,
    )
    print(_t('league "{name}": face saved', name=lg.name))


@app.command()
def export(
    file: Annotated[str, typer.Argument(help="Output file, or - for standard output.")],
    fmt: Annotated[
        ExportFormat | None,
        typer.Option("--format", "-f", help="jsonl (lossless, default) or csv (long format)."),
    ] = None,
    db: DbOption = None,
    league: LeagueOption = None,
) -> None:
    """Export every game (JSON Lines: lossless; importing it into an empty league gives the same
    ratings, once the seasons closed after the last game are closed again: the command says
    which). Aliases and accounts are not games: eloleague backup keeps everything.

    Example: [bold]eloleague export games.jsonl[/]
    """
    suffix = Path(file).suffix.lower()
    if fmt is None and file != "-" and suffix not in (".jsonl", ".ndjson", ".csv"):
        raise typer.BadParameter(
            _t(
                "{file}: give a file ending in .jsonl or .csv, or choose with --format "
                "(workbooks: eloleague ranking, event or player with -o FILE.xlsx)",
                file=file,
            ),
            param_hint="FILE",
        )
    lg = _open(db, league)
    chosen = fmt or (ExportFormat.csv if suffix == ".csv" else ExportFormat.jsonl)
    if file == "-":
        count = (lg.export_csv if chosen is ExportFormat.csv else lg.export_jsonl)(sys.stdout)
        return
    with open(file, "w", encoding="utf-8", newline="") as out:
        count = (lg.export_csv if chosen is ExportFormat.csv else lg.export_jsonl)(out)
    print(
        _tn("{count} game written to {file}", "{count} games written to {file}", count, file=file)
    )
    # What a game file cannot hold: say it, with what to do (backup keeps everything).
    for end in lg.closings_after_last_game():
        print(
            _t(
                "note: the season ending {end} was closed; after importing this file, close it "
                "again with eloleague season close {end}",
                end=end.isoformat(),
            )
        )
    aliases = lg.aliases()
    if aliases:
        print(
            _tn(
                "note: {count} alias is not in this file ({names}); eloleague backup keeps it, "
                "with the accounts",
                "note: {count} aliases are not in this file ({names}); eloleague backup keeps "
                "them, with the accounts",
                len(aliases),
                names=", ".join(f"{a} → {p}" for a, p in aliases.items()),
            )
        )


@app.command()
def backup(
    file: Annotated[Path, typer.Argument(help="The backup file to create (SQLite).")],
    db: DbOption = None,
    league: Annotated[
        str | None, typer.Option(hidden=True, help="Ignored: a backup copies every league.")
    ] = None,
) -> None:
    """Copy the whole database (every league) into a new SQLite file (a consistent snapshot,
    safe while in use).

    Example: [bold]eloleague backup backups/league-2025-06-01.db[/]
    """
    from eloleague.league import backup_database

    path = backup_database(db, file)
    print(_t("database copied to {file}", file=str(path)))


@app.command()
def log(
    limit: Annotated[
        int, typer.Option("--limit", "-n", help="How many changes, newest first.")
    ] = 20,
    db: DbOption = None,
    league: LeagueOption = None,
) -> None:
    """The league's journal: every import, correction, deletion, rename, merge, rule change and
    season closing, with who, when and how many games and players' ratings it changed.

    Example: [bold]eloleague log -n 50[/]
    """
    from eloleague.cli.output import PlainTable, print_fitted

    lg = _open(db, league)
    table = PlainTable(title=_t("Journal of {league}", league=lg.name), title_justify="left")
    table.add_column(_t("When"))
    table.add_column(_t("Who"))
    table.add_column(_t("What"))
    table.add_column(_t("Games"), justify="right", no_wrap=True)
    table.add_column(_t("Players"), justify="right", no_wrap=True)
    lang = pick_language()
    for entry in lg.journal(max(1, limit)):
        table.add_row(
            entry.at.strftime("%Y-%m-%d %H:%M UTC"),
            entry.user or "",
            render(entry.text(), lang, DOMAIN),
            grouped(entry.games, lang),
            # a run's players are its imports' added up: not how many players (league.md)
            grouped(entry.players, lang) if entry.changes == 1 else "—",
        )
    print_fitted(_console(), table)


@app.command()
def leagues(db: DbOption = None) -> None:
    """List the leagues of the database.

    Example: [bold]eloleague leagues --db club.db[/]
    """
    from eloleague.league import League

    names = League.names(db)
    if not sys.stdout.isatty():  # a script reads the names, one a line
        for name in names:
            print(name)
        return
    from eloleague.cli.output import PlainTable, print_fitted

    table = PlainTable(title=_t("Leagues"), title_justify="left")
    table.add_column(_t("League"))
    table.add_column(_t("Rule set"))
    for heading in (_t("Games"), _t("Players")):
        table.add_column(heading, justify="right", no_wrap=True)
    table.add_column(_t("Last game"), no_wrap=True)
    lang = pick_language()
    for name in names:
        lg = League.open(db, name)
        games, people, last = lg.totals()
        table.add_row(
            name,
            lg.rules.name,
            grouped(games, lang),
            grouped(people, lang),
            "" if last is None else last.isoformat(),
        )
    print_fitted(_console(), table)
