"""``eloleague predict | balance | compare | evaluate``: the officer and referee tools.

Thin shells over :mod:`eloleague.tools`: read the league (``--db``/``--league``) or files
(``--games``/``--rules``/``--initial``), call the library, print with Rich.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from functools import partial
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text as Styled

from eloleague.cli import app, use_language
from eloleague.cli.console import console as new_console
from eloleague.cli.output import PlainTable, print_fitted, who
from eloleague.engine.methods import expected_score, ranked, venue_points
from eloleague.errors import EloleagueError, InputError, first_problems
from eloleague.i18n import (
    Text,
    Translate,
    decimal,
    ngettext,
    number,
    percent,
    pick_language,
    render,
    translator,
)
from eloleague.i18n import colon as i18n_colon
from eloleague.io import validate_games
from eloleague.io.ratings_csv import format_number
from eloleague.records import Participant
from eloleague.rules import load_rules
from eloleague.rules.model import Rounding, RuleSet
from eloleague.tools.balance import Balance, balance
from eloleague.tools.compare import Comparison, compare_results
from eloleague.tools.evaluate import Evaluation, evaluate_result
from eloleague.tools.players import ToolError, known_players, player_ratings, resolve_player
from eloleague.tools.predict import PlayerOdds, Prediction, home_side, predict
from eloleague.tools.report import comparison_svg, evaluation_html
from eloleague.tools.source import Source, open_source

Db = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="League database URL or SQLite file (default: $ELOLEAGUE_DB or ./eloleague.db).",
    ),
]
LeagueName = Annotated[str | None, typer.Option("--league", help="League name in the database.")]
Games = Annotated[
    Path | None,
    typer.Option("--games", help="Without a database: a games file (.jsonl, .csv, .xlsx)."),
]
Initial = Annotated[
    Path | None,
    typer.Option(
        "--initial", help="Ratings before the first game (CSV with the columns of `rate`)."
    ),
]
Lang = Annotated[
    str | None, typer.Option("--lang", help="fr or en (default: $ELOLEAGUE_LANG, $LANG).")
]
# predict's and balance's; compare and evaluate say more of their own --rules.
GamesRules = Annotated[
    str | None,
    typer.Option("--rules", "-r", help="With --games/--initial: the rule set (preset or .toml)."),
]


def _source(
    db: str | None, league: str | None, games: Path | None, rules: str | None, initial: Path | None
) -> Source:
    return open_source(db=db, league=league, games=games, rules=rules, initial=initial)


def _language(lang: str | None) -> str:
    """The command's ``--lang`` made the language of all it prints, its errors included (an
    input's problems were printed in the environment's language, the rest in ``--lang``'s)."""
    use_language(lang)
    return pick_language(lang)


def _fail(exc: EloleagueError, lang: str) -> EloleagueError:
    if isinstance(exc, ToolError):
        return EloleagueError(render(exc.text, lang, "tools"))
    return exc


def _shown(rules: RuleSet) -> Rounding:
    return rules.shown or Rounding(mode="half_up", decimals=1)


def _signed(value: float, rules: RuleSet) -> str:
    text = format_number(abs(value), _shown(rules))
    return ("+" if value > 0 else "-" if value < 0 and text.strip("0.") else "") + text


def _outcome_name(rules: RuleSet, label: str, lang: str, _: Translate) -> str:
    if label not in rules.outcomes:
        if label == "rank 1":  # French: « 1re place », then « 2e place »
            return _("rank 1")
        if label.startswith("rank "):
            return _("rank {n}").format(n=label.removeprefix("rank "))
        return _(label)
    return rules.label(label, lang)


def _parse_participant(token: str, rules: RuleSet) -> Participant:
    """``NAME`` or, for rule sets with roles, ``NAME:ROLE``: the role as the rule file names it
    or as the tables show it (``Ana:Turquie`` is Ana playing Turkey)."""
    if rules.roles and ":" in token:
        name, role = token.rsplit(":", 1)
        return Participant(name.strip(), rules.named(role.strip()))
    return Participant(token.strip())


def _check_games(rules: RuleSet, src: Source) -> None:
    problems = validate_games(rules, src.games)
    if problems:
        raise InputError(
            first_problems(problems),
            Text.in_domain("tools", "under rule set {name}", name=rules.name),
        )


# predict -------------------------------------------------------------------------------------


def _home(value: str | None) -> int | None:
    """``--home``'s side number (1 or 2) as a game record's index (0 or 1)."""
    try:
        return home_side(value)
    except ToolError as exc:
        raise ToolError(Text.of("--home: {problem}", problem=exc.text)) from None


def _change(p: PlayerOdds, scenario: str, rules: RuleSet, lang: str) -> str:
    """A player's change for one result, ``⊘`` when the gain cap holds it back."""
    c = p.change(scenario)
    return number(_signed(c.delta, rules), lang) + (" ⊘" if "cap" in c.fired else "")


def _odds(p: PlayerOdds, rules: RuleSet, lang: str) -> tuple[str, str, str]:
    """A player's rating, K and P as a prediction shows them."""
    return (
        number(format_number(p.rating, _shown(rules)), lang),
        number(f"{p.k:g}", lang),
        decimal(p.expected, 2 if rules.probability_decimals else 3, lang),
    )


def _by_result(pred: Prediction, lang: str, title: str) -> Table:
    """A duel's prediction: a row for each result, a column for each player (her rating,
    games, K and P in its heading)."""
    _ = translator(lang, "tools")
    rules = pred.rules
    table = PlainTable(title=title, title_justify="left")
    table.add_column(_("result"))
    for p in pred.players:
        rating, k, expected = _odds(p, rules, lang)
        # K and P on a line of their own: at 80 columns, one line of four figures wrapped
        # between "P" and its value
        head = (
            f"{who(rules, p.key.player, p.key.role, lang)}\n"
            f"{rating}, {p.games} {_('games')}\nK {k}, P {expected}"
        )
        table.add_column(head, justify="right")
    for scenario in pred.scenarios:
        row = [_outcome_name(rules, scenario, lang, _)]
        row += [_change(p, scenario, rules, lang) for p in pred.players]
        table.add_row(*row)
    return table


def _by_player(pred: Prediction, lang: str, title: str) -> Table:
    """A prediction of more players (a seven-player game, teams): a row for each player, her
    rating, games, K and P, then her change for each result. As a duel's, a column a player, the
    seven players' headings were cut at 100 columns ("(Anglete…") and wrapped over five lines
    at 40."""
    _ = translator(lang, "tools")
    rules = pred.rules
    table = PlainTable(title=title, title_justify="left")
    table.add_column(_("player"))
    for head in (_("rating"), _("games"), "K", "P"):
        table.add_column(head, justify="right", no_wrap=True)
    for scenario in pred.scenarios:
        table.add_column(_outcome_name(rules, scenario, lang, _), justify="right", no_wrap=True)
    for p in pred.players:
        rating, k, expected = _odds(p, rules, lang)
        table.add_row(
            who(rules, p.key.player, p.key.role, lang),
            rating,
            str(p.games),
            k,
            expected,
            *(_change(p, scenario, rules, lang) for scenario in pred.scenarios),
        )
    return table


def _print_prediction(pred: Prediction, lang: str, console: Console) -> None:
    _ = translator(lang, "tools")
    rules = pred.rules
    sep = i18n_colon(lang)
    for s, side in enumerate(pred.sides, start=1):
        label = _("expected score") if not ranked(rules) else _("expected share")
        decimals = 1 if rules.probability_decimals is None else 0
        venue = ""
        if side.advantage:
            points = number(format_number(side.advantage, _shown(rules)), lang)
            venue = f", {_('at home')} +{points}"
        strength = number(format_number(side.mean, _shown(rules)), lang)
        if len(side.players) > 1:  # a player alone has her rating, not a mean
            strength = f"{_('mean')} {strength}"
        console.print(
            f"{_('side')} {s}{sep}[bold]{escape(', '.join(side.players))}[/] "
            f"({strength}{venue}) — {label} [bold]{percent(side.expected, lang, decimals)}[/]"
        )
    if rules.home_advantage and pred.neutral:
        console.print(_("neutral site: no side gets the home advantage"))
    _venue_ignored(rules, pred.home is not None or pred.neutral, lang, console)
    title = f"{rules.name}{sep}{_('rating change by result')}"
    if len(pred.players) <= 2:
        print_fitted(console, _by_result(pred, lang, title), lang)
    else:
        print_fitted(console, _by_player(pred, lang, title), lang)
    if any("cap" in c.fired for p in pred.players for c in p.changes):
        console.print(f"⊘ {_('no gain: the gain cap applies (lead over the other side)')}")


@app.command("predict")
def predict_cmd(
    players: Annotated[
        list[str] | None,
        typer.Argument(
            help="Two players (a duel), or for free-for-all rule sets every player as NAME:ROLE."
        ),
    ] = None,
    team: Annotated[
        list[str] | None,
        typer.Option(
            "--team", "-t", help="A side as comma-separated names (repeat: --team A,B --team C,D)."
        ),
    ] = None,
    mode: Annotated[
        str, typer.Option("--mode", help="Rating mode (Diplomacy: classic, blitz).")
    ] = "",
    home: Annotated[
        str | None,
        typer.Option(
            "--home",
            metavar="1|2",
            help="The side at home: 1 or 2 (rule sets with a home advantage count it).",
        ),
    ] = None,
    neutral: Annotated[
        bool, typer.Option("--neutral", help="A neutral site: no side gets the home advantage.")
    ] = False,
    new: Annotated[bool, typer.Option("--new", help="Accept unknown names as newcomers.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
    db: Db = None,
    league: LeagueName = None,
    games: Games = None,
    rules: GamesRules = None,
    initial: Initial = None,
    lang: Lang = None,
) -> None:
    """Each side's expected score and every result's rating change, as the league would record it.

    Example: [bold]eloleague predict "Alice Martin" "Bruno Petit" --games results.jsonl
    --rules bataille-empire[/]; teams: [bold]--team A,B --team C,D[/]; Diplomacy:
    [bold]eloleague predict Ana:France Ben:Turkey ... --mode classic[/].
    """
    language = _language(lang)
    try:
        home_index = _home(home)
        src = _source(db, league, games, rules, initial)
        rule_set = src.rules
        if team:
            sides = [
                [_parse_participant(n, rule_set) for n in t.split(",") if n.strip()] for t in team
            ]
        elif ranked(rule_set):
            sides = [[_parse_participant(n, rule_set)] for n in players or []]
        else:
            names = players or []
            if len(names) != 2:
                raise ToolError(
                    Text.of("give two players, or the sides with --team A,B --team C,D")
                )
            sides = [[Participant(n)] for n in names]
        pools, as_of = src.ratings()
        known = known_players(pools)
        sides = [
            [
                Participant(
                    resolve_player(p.name, known, allow_new=new, aliases=src.aliases), p.role
                )
                for p in s
            ]
            for s in sides
        ]
        pred = predict(
            rule_set,
            pools,
            sides,
            mode=rule_set.named(mode) if mode else mode,  # "classique" as the tables show it
            date=as_of or dt.date.today(),
            home=home_index,
            neutral=neutral,
        )
    except EloleagueError as exc:
        raise _fail(exc, language) from None
    if as_json:
        typer.echo(json.dumps(pred.to_json(), ensure_ascii=False, indent=1))
    else:
        _print_prediction(pred, language, new_console())


# balance -------------------------------------------------------------------------------------


def _venue_ignored(rules: RuleSet, given: bool, lang: str, console: Console) -> None:
    """Say that ``--home``/``--neutral`` change nothing when the rule set has no home advantage
    (rather than leave the user to guess why the figures did not move)."""
    if given and not rules.home_advantage:
        _ = translator(lang, "tools")
        console.print(
            _(
                "rule set {name} has no home advantage: where the game is played changes nothing"
            ).format(name=rules.name)
        )


def _print_balance(
    b: Balance, rules: RuleSet, lang: str, console: Console, home: int | None = None
) -> None:
    _ = translator(lang, "tools")
    c = i18n_colon(lang)
    for i, (t, points) in enumerate(zip(b.teams, b.advantages, strict=True), start=1):
        members = ", ".join(
            f"{p} ({number(format_number(r, _shown(rules)), lang)})"
            for p, r in zip(t.players, t.ratings, strict=True)
        )
        mean = decimal(t.mean, 1, lang)
        venue = ""
        if points:
            venue = f", {_('at home')} +{number(format_number(points, _shown(rules)), lang)}"
        console.print(
            f"[bold]{_('team')} {i}[/] — {_('mean')} [bold]{mean}[/]{venue}{c}{escape(members)}"
        )
    if len(b.teams) == 2:
        console.print(
            f"{_('expected score of team 1 against team 2')}{c}[bold]{percent(b.expected, lang)}[/]"
        )
    else:
        console.print(
            f"{_('expected score of the strongest team against the weakest')}{c}"
            f"[bold]{percent(b.expected, lang)}[/]"
        )
    _venue_ignored(rules, home is not None, lang, console)
    spread = _("spread of the team strengths (mean + home advantage)") if b.bonus else None
    console.print(f"{spread or _('spread of the team means')}{c}{decimal(b.spread, 2, lang)}")
    method = _(b.method)
    if b.exact:
        console.print(_("This split is the most even possible ({method}).").format(method=method))
    else:
        console.print(
            _(
                "Search: {method}; the best split is at most {bound} rating points more even."
            ).format(method=method, bound=decimal(b.bound, 2, lang))
        )


def _pairs(values: list[str] | None) -> list[list[str]]:
    return [[n.strip() for n in v.split(",") if n.strip()] for v in values or []]


@app.command("balance")
def balance_cmd(
    players: Annotated[list[str], typer.Argument(help="The players to split.")],
    teams: Annotated[
        int | None, typer.Option("--teams", help="Number of teams (default 2).")
    ] = None,
    sizes: Annotated[
        str | None, typer.Option("--sizes", help="Team sizes, e.g. 3,3 or 4,3.")
    ] = None,
    together: Annotated[
        list[str] | None,
        typer.Option("--together", help="Players who play in the same team: A,B (repeatable)."),
    ] = None,
    apart: Annotated[
        list[str] | None,
        typer.Option("--apart", help="Players who play in different teams: C,D (repeatable)."),
    ] = None,
    home: Annotated[
        str | None,
        typer.Option(
            "--home",
            metavar="1|2",
            help="The team at home: 1 or 2 (with a home advantage, it gets the weaker players).",
        ),
    ] = None,
    mode: Annotated[str, typer.Option("--mode", help="Rating mode.")] = "",
    new: Annotated[bool, typer.Option("--new", help="Accept unknown names as newcomers.")] = False,
    db: Db = None,
    league: LeagueName = None,
    games: Games = None,
    rules: GamesRules = None,
    initial: Initial = None,
    lang: Lang = None,
) -> None:
    """Split players into teams as even as possible (team strength: mean rating).

    Example: [bold]eloleague balance Ana Ben Chloé David Eve Fanny --teams 2 --apart Ana,Ben[/]
    """
    language = _language(lang)
    try:
        home_index = _home(home)
        src = _source(db, league, games, rules, initial)
        if ranked(src.rules):
            raise ToolError(
                Text.of(
                    "balance splits players into teams; rule set {name} rates free-for-all games",
                    name=src.rules.name,
                )
            )
        size_list = None
        if sizes:
            try:
                size_list = [int(x) for x in sizes.split(",")]
            except ValueError:
                raise ToolError(
                    Text.of("--sizes takes whole numbers separated by commas, e.g. 3,3")
                ) from None
        pools, _ = src.ratings()
        ratings = player_ratings(
            src.rules,
            pools,
            players,
            mode=src.rules.named(mode) if mode else mode,
            allow_new=new,
            aliases=src.aliases,
        )
        known = list(ratings)
        groups_t = [
            [resolve_player(n, known, aliases=src.aliases) for n in g] for g in _pairs(together)
        ]
        groups_a = [
            [resolve_player(n, known, aliases=src.aliases) for n in g] for g in _pairs(apart)
        ]
        b = balance(
            ratings,
            teams=teams,
            sizes=size_list,
            together=groups_t,
            apart=groups_a,
            expected_score=partial(expected_score, src.rules),
            bonus=() if home_index is None else venue_points(src.rules, home_index),
        )
    except EloleagueError as exc:
        raise _fail(exc, language) from None
    _print_balance(b, src.rules, language, new_console(), home_index)


# compare -------------------------------------------------------------------------------------


def _print_comparison(c: Comparison, lang: str, console: Console, limit: int) -> None:
    _ = translator(lang, "tools")
    a, b = c.rules_a, c.rules_b

    def num(value: float | None, rules: RuleSet) -> str:
        return "–" if value is None else number(format_number(value, _shown(rules)), lang)

    if c.identical:
        console.print(
            _("No change: every rating and rank is the same under {a} and {b}.").format(
                a=a.name, b=b.name
            )
        )
    else:
        console.print(_("{n} of the ledger's rating changes differ.").format(n=c.changed_entries))
    table = PlainTable(title=f"{a.name} → {b.name}", title_justify="left")
    show_mode = any(r.mode for r in c.rows)
    show_role = any(r.role for r in c.rows)
    table.add_column(_("player"))
    if show_mode:
        table.add_column(_("mode"))
    if show_role:
        table.add_column(_("role"))
    for col in (
        f"{_('rank')} A",
        f"{_('rating')} A",
        f"{_('rank')} B",
        f"{_('rating')} B",
        "Δ",
        _("places"),
    ):
        table.add_column(col, justify="right", no_wrap=True)
    rows = sorted(c.rows, key=lambda r: (r.rank_a or 10**9, r.player))
    for r in rows[:limit] if limit else rows:
        delta = "" if r.delta is None else number(_signed(r.delta, b), lang)
        places = "" if not r.rank_change else f"{r.rank_change:+d}"
        cells = [r.player]
        if show_mode:
            cells.append(b.label(r.mode, lang))
        if show_role:
            cells.append(_("global") if r.role == "*" else b.label(r.role, lang))
        cells += [
            str(r.rank_a or "–"),
            num(r.rating_a, a),
            str(r.rank_b or "–"),
            num(r.rating_b, b),
            delta,
            places,
        ]
        table.add_row(*cells)
    print_fitted(console, table, lang)
    if c.movers:
        movers = PlainTable(title=_("Biggest movers"), title_justify="left")
        movers.add_column(_("player"))
        movers.add_column(_("places"), justify="right")
        movers.add_column("Δ", justify="right")
        for r in c.movers:
            movers.add_row(
                who(b, r.player, r.role, lang),
                f"{r.rank_change or 0:+d}",
                "" if r.delta is None else number(_signed(r.delta, b), lang),
            )
        console.print(movers)
    seasons = PlainTable(title=_("Mean rating per season"), title_justify="left")
    seasons.add_column(_("season end"))
    seasons.add_column(a.name, justify="right")
    seasons.add_column(b.name, justify="right")
    seasons.add_column("", justify="left")
    values = [v for s in c.seasons for v in (s.mean_a, s.mean_b) if v is not None]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    span = (high - low) or 1.0
    texts = [(s.end.isoformat(), num(s.mean_a, a), num(s.mean_b, b)) for s in c.seasons]
    # The bars take what the other columns leave of the terminal's width (each column's widest
    # text, its padding and its border), 20 characters at most: cut to the width, every bar read
    # « ███… » whatever its length.
    heads = (_("season end"), a.name, b.name)
    used = sum(3 + max([len(head), *(len(t[i]) for t in texts)]) for i, head in enumerate(heads))
    longest = max(4, min(20, console.width - used - 4))

    def bar(mean: float | None) -> str:
        return "█" * (1 + int((longest - 1) * ((mean or low) - low) / span))

    for (end, mean_a, mean_b), s in zip(texts, c.seasons, strict=True):
        bars = Styled.assemble((bar(s.mean_a), "blue"), "\n", (bar(s.mean_b), "red"))
        seasons.add_row(end, mean_a, mean_b, bars)
    console.print(seasons)


@app.command("compare")
def compare_cmd(
    rules: Annotated[
        str, typer.Option("--rules", "-r", help="The other rule set: a preset or a .toml file.")
    ],
    base: Annotated[
        str | None,
        typer.Option("--base", help="With --games: the rule set the history is rated with today."),
    ] = None,
    chart: Annotated[
        Path | None,
        typer.Option("--chart", help="Write the mean rating per season as an SVG chart."),
    ] = None,
    limit: Annotated[
        int, typer.Option("--limit", help="Rows of the side-by-side table (0: all).")
    ] = 0,
    movers: Annotated[int, typer.Option("--movers", help="How many biggest movers.")] = 10,
    db: Db = None,
    league: LeagueName = None,
    games: Games = None,
    initial: Initial = None,
    lang: Lang = None,
) -> None:
    """Replay the whole history under another rule set and show what would change (nothing is
    written).

    Example: [bold]eloleague compare --rules bataille-empire-en --chart inflation.svg[/];
    without a database: [bold]eloleague compare --games results.jsonl --base bataille-empire
    --rules bataille-empire-en[/]
    """
    language = _language(lang)
    try:
        src = _source(db, league, games, base, initial)
        other = load_rules(rules)
        res_a = src.replay()
        _check_games(other, src)
        res_b = src.replay(other)
        comparison = compare_results(src.games, res_a, res_b, initial=src.initial, movers=movers)
    except EloleagueError as exc:
        raise _fail(exc, language) from None
    _print_comparison(comparison, language, new_console(), limit)
    if chart is not None:
        chart.write_text(comparison_svg(comparison, language), "utf-8")


# evaluate ------------------------------------------------------------------------------------


def _print_evaluation(e: Evaluation, lang: str, console: Console) -> None:
    _ = translator(lang, "tools")
    console.print(
        ngettext(
            lang,
            "tools",
            "{n} rated game, predicted from the ratings just before it.",
            "{n} rated games, each predicted from the ratings just before it.",
            e.games,
        ).format(n=e.games)
    )
    table = PlainTable(title=_("How well each model predicts results"), title_justify="left")
    for col in (_("model"), _("predictions"), _("log loss"), _("Brier score"), _("accuracy")):
        table.add_column(col, justify="left" if col == _("model") else "right")
    for m in e.models:
        table.add_row(
            m.name,
            str(m.samples),
            decimal(m.log_loss, 4, lang),
            decimal(m.brier, 4, lang),
            "–" if m.accuracy is None else percent(m.accuracy, lang),
        )
    print_fitted(console, table, lang)
    cal = PlainTable(
        title=_("Calibration of {rules}").format(rules=e.rules.name), title_justify="left"
    )
    for col in (_("predicted"), _("mean predicted"), _("observed"), _("count")):
        cal.add_column(col, justify="right")
    for b in e.models[0].calibration:
        if b.count:
            observed = "–" if math.isnan(b.observed) else decimal(b.observed, 3, lang)
            cal.add_row(
                f"{decimal(b.low, 1, lang)}–{decimal(b.high, 1, lang)}",
                decimal(b.predicted, 3, lang),
                observed,
                str(b.count),
            )
    print_fitted(console, cal, lang)
    console.print(_("Lower log loss and Brier score are better (a coin toss: 0.693 and 0.25)."))


@app.command("evaluate")
def evaluate_cmd(
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            "-r",
            help="The rule set to evaluate (default: the league's; with --games: required).",
        ),
    ] = None,
    report: Annotated[
        Path | None,
        typer.Option("--report", help="Write an HTML report with the calibration plot."),
    ] = None,
    baselines: Annotated[
        bool,
        typer.Option("--baselines/--no-baselines", help="Also score Elo, Glicko-2 and OpenSkill."),
    ] = True,
    db: Db = None,
    league: LeagueName = None,
    games: Games = None,
    initial: Initial = None,
    lang: Lang = None,
) -> None:
    """How well a rule set predicts results before they happen: log loss, Brier score,
    accuracy and calibration, next to Elo, Glicko-2 and OpenSkill on the same games.

    Example: [bold]eloleague evaluate --games results.jsonl --rules adlg --report eval.html[/]
    """
    language = _language(lang)
    try:
        src = _source(db, league, games, rules, initial)
        chosen = None
        if rules is not None and games is None and initial is None:
            chosen = load_rules(rules)
            _check_games(chosen, src)
        result = src.replay(chosen)
        evaluation = evaluate_result(src.games, result, baselines=baselines)
    except EloleagueError as exc:
        raise _fail(exc, language) from None
    _print_evaluation(evaluation, language, new_console())
    if report is not None:
        report.write_text(evaluation_html(evaluation, language), "utf-8")
