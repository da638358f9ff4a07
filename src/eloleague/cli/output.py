"""Rich rendering shared by the commands."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from eloleague.cli.console import console as new_console
from eloleague.engine.standings import Standing, competition_ranks
from eloleague.i18n import number, pick_language, translator
from eloleague.io.ratings_csv import format_number
from eloleague.rules.model import RuleSet


def print_ranking(
    rules: RuleSet,
    rows: Sequence[Standing],
    title: str | None = None,
    console: Console | None = None,
    lang: str | None = None,
    ranks: Sequence[int] | None = None,
) -> None:
    """Print ranking rows as a table, with rank, titles and the rule set's rating precision.

    Column headings in ``lang`` (default: :func:`~eloleague.i18n.pick_language`). The ranks are
    the rows' competition ranks (ties share a rank) unless ``ranks`` gives them (a player's rows
    carry their ranks in the whole league).
    """
    lang = pick_language(lang)
    _ = translator(lang, "league")
    console = console or new_console()
    table = Table(title=title or f"{rules.name}", title_justify="left")
    table.add_column("#", justify="right", style="dim")
    table.add_column(_("Player"))
    show_mode = any(r.mode for r in rows)
    show_role = any(r.role for r in rows)
    if show_mode:
        table.add_column(_("Mode"))
    if show_role:
        table.add_column(rules.roles_heading(lang) or _("Role"))
    table.add_column(_("Rating"), justify="right", style="bold", no_wrap=True)
    table.add_column(_("Games"), justify="right", no_wrap=True)
    if rules.titles:
        table.add_column(_("Title"))
    shown = rules.shown
    if shown is None:
        from eloleague.rules.model import Rounding

        shown = Rounding(mode="half_up", decimals=1)
    places = list(ranks) if ranks is not None else competition_ranks(rows)
    for rank, row in zip(places, rows, strict=True):
        cells = [str(rank), row.player]
        if show_mode:
            cells.append(rules.label(row.mode, lang))
        if show_role:
            cells.append(rules.label(row.role, lang))
        cells += [number(format_number(row.rating, shown), lang), str(row.games)]
        if rules.titles:
            cells.append(rules.label(row.title, lang))
        table.add_row(*cells)
    console.print(table)
