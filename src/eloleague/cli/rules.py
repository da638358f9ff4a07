"""``eloleague rules``: list, show and check rule sets (docs/rule-sets.md)."""

from __future__ import annotations

from typing import Annotated

import typer

from eloleague.cli import app
from eloleague.cli.console import console as new_console
from eloleague.cli.help import Typer
from eloleague.i18n import Text, pick_language, render
from eloleague.rules import load_rules, preset_names, preset_text
from eloleague.rules.model import RuleSet

rules_app = Typer(help="List, show and check rule sets.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")


@rules_app.command("list")
def list_rules() -> None:
    """List the presets shipped with eloleague.

    Example: [bold]eloleague rules list[/]
    """
    console = new_console()
    for name in preset_names():
        rules = load_rules(name)
        console.print(f"[bold]{name}[/]  {rules.method}  {rules.described(pick_language())}")


@rules_app.command("show")
def show(name: Annotated[str, typer.Argument(help="A preset name.")]) -> None:
    """Print a preset's TOML file: a good start for a community's own rules.

    Example: [bold]eloleague rules show adlg > our-club.toml[/]
    """
    typer.echo(preset_text(name), nl=False)


@rules_app.command("check")
def check(path: Annotated[str, typer.Argument(help="A .toml rule file.")]) -> None:
    """Validate a rule file: every problem with its key, or a summary of the rules.

    Example: [bold]eloleague rules check our-club.toml[/]
    """
    rules = load_rules(path)
    valid = Text.of(
        "{path}: rule set {name!r} is valid ({method}, start {start}, scale {scale}, "
        "{outcomes}, {titles})",
        path=path,
        name=rules.name,
        method=rules.method,
        start=f"{rules.start_rating:g}",
        scale=f"{rules.scale:g}",
        outcomes=Text.plural("{count} outcome", "{count} outcomes", len(rules.outcomes)),
        titles=Text.plural("{count} title", "{count} titles", len(rules.titles)),
    )
    typer.echo(render(valid, pick_language(), "messages"))
    for lang, name, meant in misspelt_labels(rules):
        note = Text.of(
            "{path}: [labels.{lang}] {name!r} names no title, role or outcome; {meant!r}?",
            path=path,
            lang=lang,
            name=name,
            meant=meant,
        )
        typer.echo(render(note, pick_language(), "messages"), err=True)


LABEL_LIKENESS = 80
"""How alike (rapidfuzz's ratio, 0 to 100) a label's name and a title's, role's or outcome's
must be for ``rules check`` to ask whether one was meant for the other."""


def misspelt_labels(rules: RuleSet) -> list[tuple[str, str, str]]:
    """The ``[labels.<lang>]`` entries whose name is no title, role or outcome of ``rules`` but
    looks like one (``Knigt`` for ``Knight``): (language, name, the name it looks like). Such a
    label is never shown (the tables print "Knight" in French), and the file is valid, modes being
    free-form: a mode's label (``classic``) looks like nothing and is not listed."""
    from rapidfuzz import fuzz, process

    named = {*(t.name for t in rules.titles), *rules.roles, *rules.outcomes}
    found: list[tuple[str, str, str]] = []
    for lang, table in rules.labels.items():
        for name in table:
            if name in named:
                continue
            like = process.extractOne(name, named, scorer=fuzz.ratio, score_cutoff=LABEL_LIKENESS)
            if like is not None:
                found.append((lang, name, str(like[0])))
    return found
