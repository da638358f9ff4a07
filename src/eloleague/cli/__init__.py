"""The ``eloleague`` command line: a thin Typer shell over the library.

Each group of commands lives in its own module and registers itself on :data:`app`. Library
errors (:class:`eloleague.errors.EloleagueError`) become their message on standard error and
exit status 2; nothing else reaches the user as a traceback.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable

import typer

from eloleague.cli.help import Typer
from eloleague.errors import EloleagueError, InputError, UnavailableError
from eloleague.i18n import LANGUAGES, Text, pick_language, render

app = Typer(
    name="eloleague",
    help="Elo rankings for game communities, with their own rules as data files.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


@app.callback()
def _root(
    lang: str | None = typer.Option(
        None, "--lang", help="fr or en (default: ELOLEAGUE_LANG, then LANG).", metavar="LANG"
    ),
) -> None:
    """Elo rankings for game communities, with their own rules as data files.

    Start with [bold]eloleague rate GAMES.jsonl --rules bataille-empire[/].
    """
    use_language(lang)


def use_language(lang: str | None) -> None:
    """Make ``lang`` the language of this command's messages, its errors included (``--lang``
    of ``eloleague`` or of a command that also uses it otherwise); not fr or en: refused."""
    if lang is not None:
        if lang not in LANGUAGES:
            raise typer.BadParameter(f"{lang!r}: choose fr or en", param_hint="--lang")
        os.environ["ELOLEAGUE_LANG"] = lang


# Command modules register on `app` when imported.
from eloleague.cli import league as _league  # noqa: E402,F401
from eloleague.cli import rate as _rate  # noqa: E402,F401
from eloleague.cli import repair as _repair  # noqa: E402,F401
from eloleague.cli import rules as _rules  # noqa: E402,F401
from eloleague.cli import sheets as _sheets  # noqa: E402,F401
from eloleague.cli import tools as _tools  # noqa: E402,F401
from eloleague.cli import web as _web  # noqa: E402,F401

_REASONS = {
    errno.ENOENT: "no such file or folder",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EISDIR: "this is a folder, not a file",
    errno.ENOTDIR: "a part of this path is not a folder",
    errno.ENOSPC: "the disk is full",
    errno.EROFS: "the disk is read-only",
}


def file_problem(exc: OSError) -> Text:
    """A file the system refused, in words: ``"out/x.xlsx: no such file or folder"``."""
    reason = _REASONS.get(exc.errno or 0)
    words: str = Text.of(reason) if reason else (exc.strerror or str(exc))
    if exc.filename is None:
        return Text.of("{reason}", reason=words)
    return Text.of("{file}: {reason}", file=str(exc.filename), reason=words)


def fail(message: str, code: int = 2) -> None:
    """Print ``message`` on standard error and stop with ``code``."""
    sys.stderr.write(message.rstrip("\n") + "\n")
    raise SystemExit(code)


def main() -> None:
    """Console entry point."""
    guarded(app)


def guarded(run: Callable[[], object]) -> None:
    """``run()``, its errors said in words on standard error (exit status 2; 70 for a bug, its
    kind only, and 130 when interrupted): the command line's, and the demo's."""
    try:
        run()
    except InputError as exc:
        fail(exc.render(pick_language()))
    except UnavailableError as exc:  # the operator needs the driver's words (host, port)
        # Not the site's "send the request again in a moment": a wrong address or database
        # name is not cured by waiting, and the driver's words below say which it is.
        said = Text.of("the database cannot be reached; nothing was changed")
        fail(render(said, pick_language()) + (f"\n{exc.detail}" if exc.detail else ""))
    except EloleagueError as exc:
        fail(render(exc.message, pick_language()))
    except OSError as exc:  # a file that cannot be read or written: say which, and why
        fail(render(file_problem(exc), pick_language()))
    except KeyboardInterrupt:
        fail("interrupted", 130)
    except Exception as exc:  # the last line of defence: no traceback reaches a user
        if os.environ.get("ELOLEAGUE_DEBUG"):
            raise
        fail(
            f"internal error: {internal_error(exc)}\n"
            "This is a bug in eloleague; set ELOLEAGUE_DEBUG=1 to see the details.",
            70,
        )


def internal_error(exc: BaseException) -> str:
    """What an internal error may show: a database error's text holds the SQL statement and its
    parameters (names, values of the league), so only its kind is told."""
    kind = type(exc)
    if kind.__module__.split(".")[0] in {"sqlalchemy", "psycopg", "psycopg2", "sqlite3"}:
        return f"{kind.__name__} (database)"
    text = str(exc)
    return f"{kind.__name__}: {text[:200]}" if text else kind.__name__
