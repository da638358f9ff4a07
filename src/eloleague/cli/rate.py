"""``eloleague rate``: the batch command of docs/formats.md (a stable interface)."""

from __future__ import annotations

import datetime as dt
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from eloleague.batch import rate_file
from eloleague.cli import app
from eloleague.cli.output import print_rankings
from eloleague.i18n import Text, pick_language, render
from eloleague.i18n import colon as i18n_colon

WARNING = Text.of("warning")


class Format(StrEnum):
    table = "table"
    csv = "csv"


def _date(value: str | None) -> dt.date | None:
    if value is None:
        return None
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        raise typer.BadParameter(f"{value!r} is not a date (expected YYYY-MM-DD)") from None
    from eloleague.io.limits import day_problem  # the readers' bounds (docs/formats.md)

    beyond = day_problem(day)
    if beyond is not None:
        raise typer.BadParameter(render(beyond, pick_language()))
    return day


@app.command()
def rate(
    file: Annotated[Path, typer.Argument(help="Games: .jsonl, .csv (long format) or .xlsx.")],
    rules: Annotated[
        str, typer.Option("--rules", "-r", help="A preset name or the path of a .toml rule file.")
    ],
    as_of: Annotated[
        str | None,
        typer.Option("--as-of", help="Apply seasons ending before this date (default: last game)."),
    ] = None,
    ledger: Annotated[
        Path | None, typer.Option("--ledger", help="Also write every rating change to this CSV.")
    ] = None,
    initial: Annotated[
        Path | None,
        typer.Option(
            "--initial", help="Ratings before the first game (CSV with the output's columns)."
        ),
    ] = None,
    active_days: Annotated[
        int | None,
        typer.Option(
            "--active-days", min=0, help="Only players with a rated game in the last N days."
        ),
    ] = None,
    fmt: Annotated[
        Format | None,
        typer.Option("--format", "-f", help="table (default on a terminal) or csv."),
    ] = None,
) -> None:
    """Rate a file of games and print one row per pool: player,mode,role,rating,games,title.

    Example: [bold]eloleague rate results.jsonl --rules bataille-empire --as-of 2025-06-01[/]

    Bad input prints every problem with its line on standard error and exits with status 2,
    writing nothing on standard output.
    """
    result = rate_file(file, rules, as_of=_date(as_of), initial=initial, active_days=active_days)
    lang = pick_language()
    for note in result.warnings:
        colon = i18n_colon(lang)
        sys.stderr.write(f"{render(WARNING, lang)}{colon}{note.render(lang)}\n")
    if ledger is not None:
        result.write_ledger(ledger)
    chosen = fmt or (Format.table if sys.stdout.isatty() else Format.csv)
    if chosen is Format.csv:
        result.write_csv(sys.stdout)
    else:
        print_rankings(result.rules, result.standings)
