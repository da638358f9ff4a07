"""Rich rendering shared by the commands."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from eloleague.cli.console import console as new_console
from eloleague.engine.standings import GLOBAL_ROLE, Standing, competition_ranks, rankings
from eloleague.i18n import number, pick_language, translator
from eloleague.io.ratings_csv import format_number
from eloleague.records import PoolKey
from eloleague.rules.model import RuleSet


class PlainTable(Table):
    """A Rich table that shows its text as written. Rich reads markup in a table's strings: a
    player named ``[ab] Alice`` (a clan's tag) printed as `` Alice``, and a Diplomacy warning
    (``[loser gains]`` after the rules fired) vanished from ``eloleague explain``. Strings given as
    the title, a heading or a cell become plain :class:`~rich.text.Text`; every table of the
    command line is one of these."""

    def __init__(self, *headers: str, title: str | None = None, **options: object) -> None:
        super().__init__(*headers, title=None if title is None else Text(title), **options)  # type: ignore[arg-type]

    def add_column(self, header: RenderableType = "", *args: object, **options: object) -> None:
        super().add_column(Text(header) if isinstance(header, str) else header, *args, **options)  # type: ignore[arg-type]

    def add_row(self, *cells: RenderableType | None, **options: object) -> None:
        plain = (Text(c) if isinstance(c, str) else c for c in cells)
        super().add_row(*plain, **options)  # type: ignore[arg-type]


def who(rules: RuleSet, name: str, role: str, lang: str) -> str:
    """A player as the command line names her: with her role in ``lang`` when she has one
    (``Ana (Turquie)``)."""
    label = rules.label(role, lang)
    return f"{name} ({label})" if label else name


def pool_words(rules: RuleSet, key: PoolKey, lang: str) -> str:
    """A pool as the command line names it: its mode and role in ``lang`` (``classique ·
    France``), empty for a rule set of one pool a player."""
    return " · ".join(rules.label(x, lang) for x in (key.mode, key.role) if x)


def print_rankings(
    rules: RuleSet,
    rows: Sequence[Standing],
    title: str | None = None,
    console: Console | None = None,
    lang: str | None = None,
    modes: Sequence[str] = (),
) -> None:
    """Print a league's rankings: when the rows hold several, one table a ranking (each mode's,
    each role's, each mode's global rows: :func:`~eloleague.engine.standings.rankings`, the
    modes in the order of ``modes``), titled with its mode and role; else one table. A
    Diplomacy ranking of both modes read « 1 classique, 1 blitz, 2 classique, … » in one table,
    each row ranked in its own mode."""
    groups = rankings(rules, rows, modes)
    if len(groups) < 2:
        print_ranking(rules, rows, title, console, lang)
        return
    lang = pick_language(lang)
    _ = translator(lang, "league")
    console = console or new_console()
    console.print(Text(title or rules.name, style="bold"))
    for group in groups:
        first = group[0]
        role = _("global") if first.role == GLOBAL_ROLE else rules.label(first.role, lang)
        words = " · ".join(w for w in (rules.label(first.mode, lang), role) if w)
        console.print()
        print_ranking(rules, group, words, console, lang, pool_in_title=True)


def print_ranking(
    rules: RuleSet,
    rows: Sequence[Standing],
    title: str | None = None,
    console: Console | None = None,
    lang: str | None = None,
    ranks: Sequence[int] | None = None,
    *,
    pool_in_title: bool = False,
    one_player: bool = False,
) -> None:
    """Print ranking rows as a table, with rank, titles and the rule set's rating precision;
    without the mode and role columns when the ``title`` names the rows' one pool
    (``pool_in_title``), without the player's when the rows are one player's (``one_player``:
    ``eloleague player`` printed her name on each of her pools' rows, under her name).

    Column headings in ``lang`` (default: :func:`~eloleague.i18n.pick_language`). The ranks are
    the rows' competition ranks (ties share a rank) unless ``ranks`` gives them (a player's rows
    carry their ranks in the whole league).
    """
    lang = pick_language(lang)
    _ = translator(lang, "league")
    console = console or new_console()
    table = PlainTable(title=title or f"{rules.name}", title_justify="left")
    table.add_column("#", justify="right", style="dim")
    if not one_player:
        table.add_column(_("Player"))
    show_mode = any(r.mode for r in rows) and not pool_in_title
    # A global rating reads "global", as on the site (``*`` only in the CSV and the options); a
    # ranking of global rows alone (``--role '*'``, the demo's) needs no column saying so.
    show_role = any(r.role and r.role != GLOBAL_ROLE for r in rows) and not pool_in_title
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
        cells = [str(rank)] if one_player else [str(rank), row.player]
        if show_mode:
            cells.append(rules.label(row.mode, lang))
        if show_role:
            cells.append(_("global") if row.role == GLOBAL_ROLE else rules.label(row.role, lang))
        cells += [number(format_number(row.rating, shown), lang), str(row.games)]
        if rules.titles:
            cells.append(rules.label(row.title, lang))
        table.add_row(*cells)
    print_fitted(console, table, lang, lead=2)  # narrower: "1  Alice Martin", then the rest


def _widths(text: str) -> tuple[int, int]:
    """A cell's least width (its longest word) and its width unwrapped (its longest line)."""
    from rich.cells import cell_len

    words = text.split()
    return (
        max((cell_len(w) for w in words), default=0),
        max((cell_len(line) for line in text.splitlines()), default=0),
    )


def fits(console: Console, table: Table, *, wrapped: bool = True) -> bool:
    """Whether ``table`` fits the terminal (``wrapped``): every column gets its least width (a
    number whole, a wrapping column its longest word, a folding one its ``min_width``) and, drawn
    at the terminal's width, nothing is cut (``Chevali…``) nor wider than the terminal. Else
    (not ``wrapped``) whether it fits with nothing wrapped. Cells must be text.

    Only the rows holding each column's longest word and longest line are drawn to check: the
    columns' widths come from those cells, and a row the others would cut is among them (the
    ranking of 10,000 players drawn twice took twice as long)."""
    import copy
    import dataclasses
    from io import StringIO

    from rich.cells import cell_len
    from rich.measure import Measurement

    if not wrapped:
        options = console.options.update_width(10_000)
        return Measurement.get(console, options, table).maximum <= console.width
    least = 0
    rows: set[int] = set()
    for column in table.columns:
        sizes = [_widths(str(cell)) for cell in column.cells]
        head = _widths(str(column.header))
        if sizes:  # the rows of its longest word and of its longest line
            rows.add(max(range(len(sizes)), key=lambda i: sizes[i][0]))
            rows.add(max(range(len(sizes)), key=lambda i: sizes[i][1]))
        if column.overflow == "fold" and not column.no_wrap:
            need = column.min_width or 1
        else:
            need = max((sz[1] if column.no_wrap else sz[0] for sz in (head, *sizes)), default=0)
            need = max(need, column.min_width or 0)
            if column.max_width is not None:
                need = min(need, column.max_width)
        least += need
    gaps = len(table.columns) * 2 + len(table.columns) + 1  # each cell's padding, the borders
    if least + gaps > console.width:
        return False
    sample = copy.copy(table)  # the same columns and settings, those rows alone
    sample.columns = [dataclasses.replace(c, _cells=[]) for c in table.columns]
    sample.rows = []
    cells = [list(c.cells) for c in table.columns]
    for i in sorted(rows):
        sample.add_row(*(column[i] for column in cells))
    scratch = Console(file=StringIO(), width=console.width, color_system=None)
    scratch.print(sample, crop=False)
    drawn = scratch.file.getvalue()  # type: ignore[attr-defined]
    written = "".join(str(cell) for c in sample.columns for cell in (c.header, *c.cells))
    return drawn.count("…") <= written.count("…") and all(
        cell_len(line) <= console.width for line in drawn.splitlines()
    )


def print_fitted(console: Console, table: Table, lang: str | None = None, *, lead: int = 1) -> None:
    """``table`` as a table when it fits the terminal with its wrapping columns wrapped between
    words; in a narrower one (a phone's), each row as a few lines: its first ``lead`` cells (a
    rank and a name), then every other with its column's heading (``Before: 969 · P: 0.221 ·
    K: 30``). Squeezed, a table cut names and numbers to ``Ali…``, ``0,3…``, or shrank a column
    to nothing. Cells must be text."""
    from eloleague.i18n import colon

    if fits(console, table):
        console.print(table)
        return
    sep = colon(pick_language(lang))
    if table.title:
        console.print(str(table.title), style="italic", highlight=False, markup=False)
    columns = table.columns
    for cells in zip(*(list(c.cells) for c in columns), strict=True):
        head = "  ".join(str(cell).strip() for cell in cells[:lead])
        console.print(head, style="bold", highlight=False, markup=False)
        shown = [
            f"{str(c.header).strip()}{sep}{str(v).strip()}"
            for c, v in zip(columns[lead:], cells[lead:], strict=True)
            if str(v).strip()
        ]
        if shown:
            console.print("  " + " · ".join(shown), highlight=False, markup=False)
