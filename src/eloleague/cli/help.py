"""``--help`` in the user's language.

Help texts are written in English in the code (Typer's ``help=`` and docstrings) and translated
when help is shown, through the ``cli`` catalogue (locale/fr/LC_MESSAGES/cli.po), one message per
paragraph (:func:`help_paragraphs`). The language is the command line's ``--lang`` when it is
given before ``--help`` (on the command or on ``eloleague`` itself), else
:func:`~eloleague.i18n.pick_language`. Typer's own words (the panels' titles, ``[default: ...]``),
Click's ``Usage:``, the arguments' names (:data:`ARGUMENT_WORDS`) and the type column go through
the same catalogue, and so do the messages about a mistyped command line (:data:`USAGE_ERRORS`,
shown in French by :func:`errors_in`).

:class:`Typer` is ``typer.Typer`` whose groups and commands are :class:`TranslatedGroup` and
:class:`TranslatedCommand`; every command module creates its apps with it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import typer
from typer import _click as click  # Typer carries its own copy of Click
from typer import rich_utils
from typer.core import TyperCommand, TyperGroup

from eloleague.i18n import LANGUAGES, pick_language, translator

DOMAIN = "cli"

# Typer's words shown around the help texts (names in typer.rich_utils), in English.
TYPER_WORDS = {
    "ARGUMENTS_PANEL_TITLE": "Arguments",
    "OPTIONS_PANEL_TITLE": "Options",
    "COMMANDS_PANEL_TITLE": "Commands",
    "ERRORS_PANEL_TITLE": "Error",
    "DEFAULT_STRING": "[default: {}]",
    "REQUIRED_LONG_STRING": "[required]",
    "ENVVAR_STRING": "[env var: {}]",
    "ABORTED_TEXT": "Aborted.",
    "RICH_HELP": "Try [blue]'{command_path} {help_option}'[/] for help.",
}
USAGE = "Usage:"

# What Typer shows in the type column (``<str>``, ``<int range>``...), as the help says it to a
# referee: a word of the catalogue. A flag (``--force``) takes no value: it shows none (Typer
# would say ``<bool>``).
TYPE_WORDS = {
    "str": "text",
    "int": "integer",
    "int range": "integer",
    "float": "number",
    "float range": "number",
    "path": "path",
    "file": "file",
    "directory": "folder",
}
_TYPE_SHOWN = re.compile(r"<(list\[)?([A-Za-z ]+)(?(1)\])>((?:\.\.\.)?)")  # <str>, <list[Path]>

# The command line's arguments (their names in the code) as the usage line, the Arguments panel
# and the usage errors name them: a word of the catalogue (Typer would show ``{game_id}``, in
# English whatever the language).
ARGUMENT_WORDS = {
    "args": "arguments",
    "end": "end",
    "file": "file",
    "files": "files",
    "game_id": "game",
    "name": "name",
    "out": "file",
    "path": "file",
    "players": "players",
    "rules": "rules",
    "user": "account",
}
SUBCOMMAND = "COMMAND [ARGS]..."  # Click's usage of a group, after its options
# The usage errors whose ``{name}`` may be an argument's.
_NAMING_ARGUMENTS = (
    "Missing argument {name}.",
    "Missing parameter: {name}",
    "Invalid value for {name}: {reason}",
)

# Typer's and Click's messages for a mistyped command line (they are written in English inside
# Typer), as templates: the French text comes from the catalogue, the values are kept; a
# ``{reason}`` is itself one of these messages.
USAGE_ERRORS = (
    "No such option: {name} (Possible options: {options})",
    "No such option: {name}",
    "No such command {name}. Did you mean {suggestions}?",
    "No such command {name}.",
    "Missing argument {name}.",
    "Missing option {name}.",
    "Missing parameter: {name}",
    "Missing command.",
    "Got unexpected extra argument(s) ({arguments})",
    "Option {name} requires an argument.",
    "Option {name} does not take a value.",
    "Invalid value for {name}: {reason}",
    "Invalid value: {reason}",
    "Input should be a valid integer, unable to parse string as an integer",
    "Input should be a valid number, unable to parse string as a number",
    "Input should be greater than or equal to {n}",
    "Input should be less than or equal to {n}",
    "Value error, {value} is not one of {choices}.",
    "{value} is not one of {choices}.",
)


def help_paragraphs(text: str | None) -> list[str]:
    """The paragraphs of a help text as the catalogue holds them: a help text is cut at blank
    lines, and each paragraph is one line (given so in English too: see :func:`_translated`)."""
    if not text:
        return []
    body = text.partition("\f")[0]
    return [" ".join(p.split()) for p in body.strip().split("\n\n") if p.strip()]


def translate_help(text: str | None, _: Callable[[str], str]) -> str | None:
    """``text`` with each paragraph translated (a paragraph left out of the catalogue stays)."""
    if not text:
        return text
    return "\n\n".join(_(p) for p in help_paragraphs(text))


def _lang_in(args: list[str]) -> str | None:
    """The value of ``--lang`` among a command's own arguments, if it is there."""
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


_LANG_KEY = "eloleague.lang"


def _remember_language(ctx: click.Context, args: list[str]) -> None:
    """Keep the ``--lang`` of these arguments (a command's own overrides ``eloleague --lang``)."""
    lang = _lang_in(args)
    if lang is not None:
        ctx.meta[_LANG_KEY] = lang


def _language(ctx: click.Context) -> str:
    """The ``--lang`` given to this command or to a parent, else the environment's language."""
    lang = ctx.meta.get(_LANG_KEY)  # the contexts of one command line share their meta
    return str(lang) if lang in LANGUAGES else pick_language()


@contextmanager
def _translated(command: click.Command, ctx: click.Context) -> Iterator[None]:
    """While help is formatted, ``command``'s texts (and its subcommands' for a group, and Typer's
    own words) are in the context's language; they are put back afterwards."""
    # English too: each paragraph one line, as the catalogue holds it (Typer's rich mode keeps a
    # docstring's line breaks, which a terminal then wraps a second time).
    _ = translator(_language(ctx), DOMAIN)
    with _replacing() as put:
        put(command, "help", translate_help(command.help, _))
        if command.short_help:
            put(command, "short_help", _(command.short_help))
        for param in command.get_params(ctx):
            if getattr(param, "help", None):
                put(param, "help", translate_help(param.help, _))  # type: ignore[attr-defined]
        if isinstance(command, TyperGroup):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                if sub is not None:
                    put(sub, "help", translate_help(sub.help, _))
                    if sub.short_help:
                        put(sub, "short_help", _(sub.short_help))
        for name, english in TYPER_WORDS.items():
            put(rich_utils, name, _(english))
        _name_arguments(command, ctx, _, put)
        typed = []  # the parameters whose type column is shown in the user's words
        try:
            for param in command.get_params(ctx):
                if hasattr(param, "display_type_rich"):  # Typer's parameters
                    shown = _type_shown(param, ctx, _)
                    param.display_type_rich = lambda ctx, shown=shown: shown
                    typed.append(param)
            yield
        finally:
            for param in typed:
                del param.display_type_rich  # type: ignore[attr-defined]


_Put = Callable[[object, str, Any], None]


@contextmanager
def _replacing() -> Iterator[_Put]:
    """A ``put(target, name, value)`` setting attributes, each put back when the block ends."""
    saved: list[tuple[object, str, Any]] = []

    def put(target: object, name: str, value: Any) -> None:
        saved.append((target, name, getattr(target, name)))
        setattr(target, name, value)

    try:
        yield put
    finally:
        for target, name, value in reversed(saved):
            setattr(target, name, value)


def _name_arguments(
    command: click.Command,
    ctx: click.Context,
    _: Callable[[str], str],
    put: _Put,
) -> None:
    """Name ``command``'s arguments (and a group's subcommand) in the catalogue's words
    (:data:`ARGUMENT_WORDS`), through ``put`` (which keeps what it replaces)."""
    if isinstance(command, TyperGroup):
        put(command, "subcommand_metavar", _(SUBCOMMAND))
    for param in command.get_params(ctx):
        if param.param_type_name == "argument" and param.name in ARGUMENT_WORDS:
            put(param, "metavar", _(ARGUMENT_WORDS[param.name]))


def _type_shown(param: Any, ctx: click.Context, _: Callable[[str], str]) -> str | None:
    """What the help's type column shows for Typer's ``param``: ``None`` for a flag, Typer's
    type in the catalogue's words (:data:`TYPE_WORDS`: ``<texte>``, ``<entier>``; an argument's
    list ``<chemin>...``), a list of choices as it is."""
    if getattr(param, "is_flag", False):
        return None
    shown: str | None = param.display_type_rich(ctx=ctx)
    found = _TYPE_SHOWN.fullmatch(shown or "")
    if found is None or found[2].lower() not in TYPE_WORDS:
        return shown
    # An argument taking a list is given several values; an option taking one is repeated (its
    # help says so), each time with one value
    several = "..." if found[1] and param.param_type_name == "argument" else found[3]
    return f"<{_(TYPE_WORDS[found[2].lower()])}>{several}"


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    regex = "".join(
        re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)" for i, part in enumerate(parts)
    )
    return re.compile(regex + "$", re.DOTALL)


_PATTERNS = [(template, _pattern(template)) for template in USAGE_ERRORS]


def translate_usage_error(message: str, lang: str) -> str:
    """A Typer or Click message about the command line (``No such option: --x``) in ``lang``;
    a message it does not know (one of eloleague's, already translated) is left as it is."""
    _ = translator(lang, DOMAIN)
    for template, pattern in _PATTERNS:
        found = pattern.match(message)
        if found:
            values = found.groupdict()
            if "reason" in values:
                values["reason"] = translate_usage_error(values["reason"], lang)
            if template in _NAMING_ARGUMENTS:
                values["name"] = _argument_named(values["name"], _)
            return _(template).format(**values)
    return message


def _argument_named(name: str, _: Callable[[str], str]) -> str:
    """``'game_id'`` in an error as the help names that argument (``'game'``, « 'partie' »)."""
    inner = name.strip("'")
    if name != f"'{inner}'" or inner not in ARGUMENT_WORDS:
        return name  # an option's name, or not quoted as Typer quotes it
    return f"'{_(ARGUMENT_WORDS[inner])}'"


@contextmanager
def errors_in(lang: str) -> Iterator[None]:
    """While the command line runs, its usage errors (and Typer's words around them) are shown in
    ``lang`` (in English too: an argument is named as the help names it)."""
    _ = translator(lang, DOMAIN)
    english_error = rich_utils.rich_format_error

    def rich_format_error(self: click.ClickException) -> None:  # Typer's signature
        english = self.format_message
        self.format_message = lambda: translate_usage_error(english(), lang)  # type: ignore[method-assign]
        english_error(self)

    saved = {name: getattr(rich_utils, name) for name in TYPER_WORDS}
    for name, english in TYPER_WORDS.items():
        setattr(rich_utils, name, _(english))
    rich_utils.rich_format_error = rich_format_error
    try:
        yield
    finally:
        rich_utils.rich_format_error = english_error
        for name, value in saved.items():
            setattr(rich_utils, name, value)


def _usage(text: str, ctx: click.Context) -> str:
    lang = _language(ctx)
    if lang == "en" or not text.startswith(USAGE):
        return text
    return translator(lang, DOMAIN)(USAGE) + text[len(USAGE) :]


class _TranslatedHelp(click.Command):
    """The usage line and the help of a command or a group, in the user's language (mixed in
    before Typer's own class, whose help it wraps)."""

    def get_usage(self, ctx: click.Context) -> str:
        """The usage line (also shown above a usage error) in the context's language."""
        with _replacing() as put:
            _name_arguments(self, ctx, translator(_language(ctx), DOMAIN), put)
            return _usage(super().get_usage(ctx), ctx)

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with _translated(self, ctx):
            super().format_help(ctx, formatter)


class TranslatedCommand(_TranslatedHelp, TyperCommand):
    """A Typer command whose help is shown in the user's language."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        _remember_language(ctx, args)
        return super().parse_args(ctx, args)


class TranslatedGroup(_TranslatedHelp, TyperGroup):
    """A Typer group whose help (and its commands' one-line help) is in the user's language; run
    as the program, its usage errors are too (:func:`errors_in`)."""

    def main(self, args: Sequence[str] | None = None, *rest: Any, **kwargs: Any) -> Any:
        given = list(sys.argv[1:] if args is None else args)
        lang = _lang_in(given)
        with errors_in(lang if lang in LANGUAGES else pick_language()):
            return super().main(args, *rest, **kwargs)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # Only the group's own options count: stop at the first word that is not an option.
        own: list[str] = []
        for arg in args:
            if not arg.startswith("-") and (not own or own[-1] != "--lang"):
                break
            own.append(arg)
        _remember_language(ctx, own)
        return super().parse_args(ctx, args)


class Typer(typer.Typer):
    """``typer.Typer`` whose help is translated (:class:`TranslatedGroup`,
    :class:`TranslatedCommand`)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("cls", TranslatedGroup)
        super().__init__(**kwargs)

    def command(  # type: ignore[override]
        self, name: str | None = None, *, cls: type[TyperCommand] | None = None, **kwargs: Any
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        return super().command(name, cls=cls or TranslatedCommand, **kwargs)
