"""Errors a user can meet, each with its location and words an officer understands.

Readers collect every :class:`Problem` before they give up, then raise one :class:`InputError`
holding all of them (docs/formats.md: nothing partial, every problem with its line).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the input, and where: ``"line 14"``, ``"Résultats, row 7, column C"``."""

    location: str
    message: str

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message

    def render(self, lang: str) -> str:
        """The problem in ``lang`` (``"fr"`` or ``"en"``)."""
        from eloleague.i18n import colon as i18n_colon
        from eloleague.i18n import render

        message = render(self.message, lang)
        location = render(self.location, lang)
        colon = i18n_colon(lang)
        return f"{location}{colon}{message}" if location else message


def first_problems(problems: Sequence[Problem], shown: int = 20) -> list[Problem]:
    """The first ``shown`` of ``problems``, then "… and 3 more problems" when there are more
    (a replay of a whole league under another rule set can find thousands)."""
    from eloleague.i18n import Text

    first = list(problems[:shown])
    if len(problems) > shown:
        more = len(problems) - shown
        words = Text.plural_in_domain(  # the tools' words, wherever the problems are shown
            "tools", "… and {count} more problem", "… and {count} more problems", more
        )
        first.append(Problem("", words))
    return first


def in_source(source: str, problem: Problem) -> Problem:
    """``problem`` of the file or request ``source``, its location kept translatable
    ("club.jsonl: line 3" reads "club.jsonl : ligne 3" in French)."""
    from eloleague.i18n import Text

    if not problem.location:
        return Problem(source, problem.message)
    where = Text.in_domain(
        "messages", "{source}: {location}", source=source, location=problem.location
    )
    return Problem(where, problem.message)


@dataclass(frozen=True, slots=True)
class LookAlike(Problem):
    """A warning that a name in the input looks like a registered player's (``name`` as written)."""

    name: str = ""


@dataclass(frozen=True, slots=True)
class StoredConflict(Problem):
    """A game whose id the league holds with other content: an import refuses it unless it
    replaces stored games (``update``). The message says what; how to replace it depends on
    where the user is (``--update`` on the command line, ``?update=true`` for the API), and each
    shell adds it (:func:`with_remedy`). ``game``: the game's id."""

    game: str = ""


def with_remedy(error: InputError, remedy: str, source: str | None = None) -> InputError:
    """``error`` with ``remedy`` (how to replace a stored game, in the words of the shell the
    user is in) after the message of each of its :class:`StoredConflict` problems, which then
    become plain problems (a shell's words are final); ``source``: where its problems are, if
    not the error's own place (the API's "request" instead of the import's label)."""
    from eloleague.i18n import Text

    problems = [
        Problem(
            p.location,
            Text.in_domain("messages", "{problem}; {remedy}", problem=p.message, remedy=remedy),
        )
        if isinstance(p, StoredConflict)
        else p
        for p in error.problems
    ]
    return InputError(problems, error.source if source is None else source)


class EloleagueError(Exception):
    """Base of every error meant for the user: its text is printed as is, without a traceback."""

    @property
    def message(self) -> str:
        """The message as raised: a translatable :class:`~eloleague.i18n.Text` stays one, so the
        command line and the site can show it in the user's language."""
        first = self.args[0] if self.args else None
        return first if isinstance(first, str) and not isinstance(self, InputError) else str(self)


class InputError(EloleagueError):
    """Bad input: the list of every problem found, with its location."""

    def __init__(self, problems: list[Problem], source: str = "") -> None:
        self.problems = list(problems)
        self.source = source
        super().__init__(self.render())

    def __reduce__(self) -> tuple[type[InputError], tuple[list[Problem], str]]:
        # Pickled with its problems (it crosses from the site's helper process, web/offload.py).
        return (type(self), (self.problems, self.source))

    def render(self, lang: str = "en") -> str:
        """Every problem on its own line, in ``lang``."""
        from eloleague.i18n import colon as i18n_colon
        from eloleague.i18n import render

        colon = i18n_colon(lang)
        prefix = f"{render(self.source, lang)}{colon}" if self.source else ""
        return "\n".join(prefix + p.render(lang) for p in self.problems)


class RuleSetError(EloleagueError):
    """A rule file that cannot be used: names the file, the key and what is allowed."""


class BusyError(EloleagueError):
    """Another write to the same league held its lock longer than the caller would wait: nothing
    was changed, and the same request can be sent again (the site answers 503 with
    ``Retry-After``)."""


class UnavailableError(BusyError):
    """The database could not be reached (a PostgreSQL server restarting, a connection cut):
    nothing was changed, and the same request can be sent again once it is back (the site
    answers 503 with ``Retry-After``). ``detail``: the driver's words, for the operator's eyes
    only (a log, the command line): they name hosts and ports."""

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail


class LeagueExists(EloleagueError):
    """A league of that name is in the database already (``name``): each shell says how to name
    another (the command line's ``--league``, the site's form)."""

    def __init__(self, message: str, name: str) -> None:
        super().__init__(message)
        self.name = name

    def __reduce__(self) -> tuple[type[LeagueExists], tuple[str, str]]:
        return (type(self), (self.args[0], self.name))
