"""Every help text of the command line (each paragraph of a command's docstring or ``help=``, each
option's and argument's help, Typer's own words) has its French text in the ``cli`` catalogue
(locale/fr/LC_MESSAGES/cli.po), with the same placeholders and the same Rich markup."""

from __future__ import annotations

import itertools
import re
from importlib import resources
from pathlib import Path

from babel.messages.pofile import read_po
from typer.main import get_command
from typer.testing import CliRunner

from eloleague.cli import app
from eloleague.cli.help import (
    ARGUMENT_WORDS,
    SUBCOMMAND,
    TYPE_WORDS,
    TYPER_WORDS,
    USAGE,
    TranslatedCommand,
    TranslatedGroup,
    help_paragraphs,
)

CATALOGUE = Path(str(resources.files("eloleague"))) / "locale" / "fr" / "LC_MESSAGES" / "cli.po"


MARKUP = re.compile(r"\[/\]|\[(?:bold|blue|dim|italic)\]")  # Rich's tags, not "[required]"


def _helps() -> set[str]:
    found: set[str] = set()

    def walk(command: object) -> None:
        assert isinstance(command, TranslatedCommand | TranslatedGroup), command
        found.update(help_paragraphs(command.help))
        for param in command.params:
            found.update(help_paragraphs(getattr(param, "help", None)))
        for sub in getattr(command, "commands", {}).values():
            walk(sub)

    walk(get_command(app))
    return found


def test_every_help_text_is_translated() -> None:
    with CATALOGUE.open("rb") as handle:
        catalogue = {m.id: str(m.string) for m in read_po(handle) if m.id}
    wanted = (
        _helps()
        | set(TYPER_WORDS.values())
        | set(TYPE_WORDS.values())
        | set(ARGUMENT_WORDS.values())
        | {USAGE, SUBCOMMAND}
    )
    assert len(wanted) > 150
    assert sorted(t for t in wanted if not catalogue.get(t)) == []
    for msgid in wanted:
        french = catalogue[msgid]
        assert re.findall(r"\{\w*\}", msgid) == re.findall(r"\{\w*\}", french), msgid
        assert MARKUP.findall(msgid) == MARKUP.findall(french), msgid


def _commands() -> list[list[str]]:
    found: list[list[str]] = []

    def walk(command: object, path: list[str]) -> None:
        found.append(path)
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, [*path, name])

    walk(get_command(app), [])
    return found


def test_help_paragraphs_are_wrapped_by_the_terminal_only() -> None:
    """A docstring's own line breaks do not reach the help (Typer's rich mode would keep them:
    "numbers" alone on a line, then the rest of the sentence), in English as in French."""
    runner = CliRunner()
    for lang in ("en", "fr"):
        for path in _commands():
            result = runner.invoke(app, ["--lang", lang, *path, "--help"], env={"COLUMNS": "80"})
            assert result.exit_code == 0, (lang, path, result.output)
            description = result.output.split("╭")[0].splitlines()[3:]  # after the usage line
            for line, after in itertools.pairwise(description):
                if line.strip() and after.strip():  # the paragraph goes on: its next word
                    # could not have fitted on this line
                    fitted = len(line.rstrip()) + 1 + len(after.split()[0])
                    assert fitted > 76, (lang, path, line, after)


def test_the_type_column_says_what_to_give_in_the_reader_s_words() -> None:
    """Typer's type column (``<str>``, ``<int>``, a flag's ``<bool>``) says what an option takes
    as a referee would say it: « <texte> », « <chemin> », "<integer>"; a flag takes nothing and
    shows nothing."""
    runner = CliRunner()
    for lang in ("en", "fr"):
        for path in _commands():
            result = runner.invoke(app, ["--lang", lang, *path, "--help"], env={"COLUMNS": "120"})
            assert result.exit_code == 0, (lang, path, result.output)
            assert not re.search(r"<(str|int|float|bool|list)\b", result.output), (lang, path)
    french = runner.invoke(app, ["--lang", "fr", "template", "--help"], env={"COLUMNS": "120"})
    assert "fichier      <chemin>" in french.output and "--league          <texte>" in french.output
    assert re.search(r"--force +Remplacer", french.output)  # a flag: no type
    # a list: an argument takes several values, an option is repeated with one each time
    french = runner.invoke(app, ["--lang", "fr", "import", "--help"], env={"COLUMNS": "120"})
    assert re.search(r"fichiers +<chemin>\.\.\. +Fichiers de parties", french.output)
    assert re.search(r"--map +<texte> +\"GRAPHIE=JOUEUR\"", french.output)
    english = runner.invoke(app, ["--lang", "en", "serve", "--help"], env={"COLUMNS": "120"})
    assert "<integer> [1<=x<=64]" in english.output and "<text>" in english.output
    assert re.search(r"--no-access-log +A line", english.output)


def _arguments() -> list[tuple[list[str], str]]:
    found: list[tuple[list[str], str]] = []

    def walk(command: object, path: list[str]) -> None:
        for param in getattr(command, "params", []):
            if param.param_type_name == "argument":
                found.append((path, param.name))
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, [*path, name])

    walk(get_command(app), [])
    return found


def test_arguments_are_named_in_the_reader_s_words() -> None:
    """The usage line, the Arguments panel and a usage error name an argument with a word of
    the catalogue: « {partie} », "{game}", not the code's ``{game_id}``; a group's usage says
    « COMMANDE [ARGUMENTS]... » in French."""
    arguments = _arguments()
    assert len(arguments) > 15
    assert sorted({name for _, name in arguments} - set(ARGUMENT_WORDS)) == []
    runner = CliRunner()
    for lang, word, error in (
        ("fr", "partie", "Argument manquant\u202f: 'partie'."),
        ("en", "game", "Missing argument 'game'."),
    ):
        shown = runner.invoke(app, ["--lang", lang, "explain", "--help"], env={"COLUMNS": "120"})
        assert f"explain [OPTIONS] {{{word}}}" in shown.output, shown.output
        assert re.search(rf"\* +{word} +<", shown.output), shown.output
        assert "game_id" not in shown.output
        missing = runner.invoke(app, ["--lang", lang, "explain"], env={"COLUMNS": "120"})
        assert missing.exit_code == 2
        assert error in missing.output, missing.output
    french = runner.invoke(app, ["--lang", "fr", "import", "--help"], env={"COLUMNS": "120"})
    assert "import [OPTIONS] {fichiers}..." in french.output
    group = runner.invoke(app, ["--lang", "fr", "--help"], env={"COLUMNS": "120"})
    assert "eloleague [OPTIONS] COMMANDE [ARGUMENTS]..." in group.output
    # an option's name and a command's are not an argument's
    wrong = runner.invoke(app, ["--lang", "fr", "files"], env={"COLUMNS": "120"})
    assert "'files'" in wrong.output and "fichiers" not in wrong.output
