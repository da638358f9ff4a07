"""``eloleague rules``: list, show and check rule sets (docs/rule-sets.md)."""

from __future__ import annotations

from typing import Annotated

import typer

from eloleague.cli import app
from eloleague.cli.console import console as new_console
from eloleague.cli.help import Typer
from eloleague.i18n import Text, pick_language, render
from eloleague.rules import load_rules, preset_names, preset_text

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
