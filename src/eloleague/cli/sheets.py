"""``eloleague template``: the referee's results workbook for a rule set (docs/sheets.md).

A thin shell over :func:`eloleague.io.sheets.write_template`; with ``--league`` the league's rule
set and registered players (for the drop-downs) come from the database.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from eloleague.cli import app
from eloleague.errors import EloleagueError
from eloleague.i18n import Text, pick_language, render
from eloleague.rules import load_rules


def _t(message: str, /, **params: object) -> str:
    """An English message in the user's language (domain ``sheets``)."""
    return render(Text.of(message, **params), pick_language(), "sheets")


@app.command()
def template(
    out: Annotated[Path, typer.Argument(help="The workbook to write (.xlsx).")],
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            "-r",
            help="A preset name or a .toml rule file (default: the league's rule set).",
        ),
    ] = None,
    league: Annotated[
        str | None,
        typer.Option(
            "--league", help="Take the rule set and the registered players of this league."
        ),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            envvar="ELOLEAGUE_DB",
            help="League database URL or SQLite file (default: $ELOLEAGUE_DB or ./eloleague.db).",
        ),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option("--lang", help="fr or en: the referee's language (default: $LANG)."),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace the workbook if it exists already.")
    ] = False,
    with_ids: Annotated[
        bool,
        typer.Option(
            "--ids",
            help="Add the id columns (players' federation ids); on by default for a league "
            "whose players have ids.",
        ),
    ] = False,
) -> None:
    """Write the results workbook a referee fills in at the end of an event.

    Example: [bold]eloleague template --league "Ligue du Rhône" --lang fr austerlitz.xlsx[/]

    Without a database: [bold]eloleague template --rules adlg --lang en results.xlsx[/]
    """
    if out.suffix.lower() != ".xlsx":
        raise EloleagueError(
            _t(
                "{out}: the template is an Excel workbook: give a name ending in .xlsx",
                out=str(out),
            )
        )
    if out.exists() and not force:  # it may be a workbook a referee has already filled in
        raise EloleagueError(
            _t(
                "{out} exists already: choose another name, or add --force to replace it",
                out=str(out),
            )
        )
    if lang is not None and lang not in ("fr", "en"):
        raise EloleagueError(_t("--lang {lang}: choose fr or en", lang=repr(lang)))
    chosen = pick_language(lang)
    players: list[str] = []
    name = None
    if league is not None or (rules is None):
        from eloleague.league import League

        opened = League.open(db, league)
        rule_set = opened.rules
        if rules is not None and load_rules(rules).name != rule_set.name:
            raise EloleagueError(
                _t(
                    "league {league} uses the rule set {rules}, not {other}: leave out --rules "
                    "to use the league's",
                    league=repr(opened.name),
                    rules=repr(rule_set.name),
                    other=repr(load_rules(rules).name),
                )
            )
        players = opened.players()
        name = opened.name
        with_ids = with_ids or any(w.federation_id for w in opened.identities().values())
    else:
        rule_set = load_rules(rules)
    from eloleague.io.sheets import write_template  # openpyxl: loaded only when needed

    write_template(out, rule_set, name, players, chosen, ids=with_ids)
    typer.echo(
        render(
            Text.plural(
                "{out}: {rules}, {count} registered player, language {lang}",
                "{out}: {rules}, {count} registered players, language {lang}",
                len(players),
                out=str(out),
                rules=rule_set.name,
                lang=chosen,
            ),
            pick_language(),
            "sheets",
        )
    )
