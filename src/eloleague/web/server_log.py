"""The server's log in the officer's language (docs/web.md, "Start it").

``eloleague serve`` prints Uvicorn's lines (the server started, where it listens, each request)
and eloleague's own (a session key not kept, the database out of reach). Uvicorn writes its lines
in English; the formatters here write them in the language the officer reads the command line in
(:func:`eloleague.i18n.pick_language`): eloleague's own lines are logged as
:class:`~eloleague.i18n.Text` and rendered, Uvicorn's are recognised by their English wording
(:data:`UVICORN_LINES`) and said again from the catalogue, and the access line's status phrase
(« 404 Introuvable ») is translated too. A line not recognised (another Uvicorn version's new
wording) is printed as Uvicorn wrote it.
"""

from __future__ import annotations

import copy
import http
import logging
import re
from functools import lru_cache
from typing import Any

from uvicorn.config import LOGGING_CONFIG
from uvicorn.logging import AccessFormatter, DefaultFormatter

from eloleague.i18n import NARROW_NBSP, Text, render, translator

DOMAIN = "web"

# Uvicorn 0.54's lines of the error log, as it writes them, each value named (the catalogue's
# entries: locale/fr/LC_MESSAGES/web-server-log.po).
UVICORN_LINES = (
    "Started server process [{pid}]",
    "Finished server process [{pid}]",
    "Started parent process [{pid}]",
    "Stopping parent process [{pid}]",
    "Waiting for child process [{pid}]",
    "Terminated child process [{pid}]",
    "Child process [{pid}] died",
    "Child process [{pid}] failed to start, stopping the parent process.",
    "Waiting for application startup.",
    "Application startup complete.",
    "Application startup failed. Exiting.",
    "Waiting for application shutdown.",
    "Application shutdown complete.",
    "Application shutdown failed. Exiting.",
    "Uvicorn running on {address} (Press CTRL+C to quit)",
    "Shutting down",
    "Waiting for connections to close. (CTRL+C to force quit)",
    "Waiting for background tasks to complete. (CTRL+C to force quit)",
    "Cancel {count} running task(s), timeout graceful shutdown exceeded",
    "Received SIGINT, exiting.",
    "Received SIGTERM, exiting.",
    "Received SIGHUP, restarting processes.",
)

# What each level is called at the start of a line, in French.
LEVELS = {
    "DEBUG": "DÉBOGAGE",
    "INFO": "INFO",
    "WARNING": "ATTENTION",
    "ERROR": "ERREUR",
    "CRITICAL": "CRITIQUE",
}


def _pattern(template: str) -> re.Pattern[str]:
    """A line of ``template``'s wording, each ``{name}`` any text (the shortest)."""
    parts = re.split(r"\{(\w+)\}", template)
    regex = "".join(
        re.escape(part) if i % 2 == 0 else f"(?P<{part}>.*?)" for i, part in enumerate(parts)
    )
    return re.compile(regex + r"\Z")


_PATTERNS = [(template, _pattern(template)) for template in UVICORN_LINES]


@lru_cache(maxsize=256)
def said_again(line: str, lang: str) -> str | None:
    """``line``, one of Uvicorn's English lines, in ``lang`` (None if it is not one of them)."""
    for template, pattern in _PATTERNS:
        found = pattern.match(line)
        if found:
            return translator(lang, DOMAIN)(template).format(**found.groupdict())
    return None


@lru_cache(maxsize=256)
def status_phrase(code: int, lang: str) -> str:
    """The status phrase of the access line (« Introuvable »): HTTP's own, translated."""
    try:
        phrase = http.HTTPStatus(code).phrase
    except ValueError:
        return ""
    return translator(lang, DOMAIN)(phrase)


class _InLanguage:
    """What both formatters share: the language, the level's name, the message translated."""

    use_colors: bool

    def __init__(self, *args: Any, lang: str = "en", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # Uvicorn's formatter, next in the order of classes
        self.lang = lang

    def _prefix(self, record: logging.LogRecord) -> str:
        if self.lang == "fr":
            name, mark, width = (
                LEVELS.get(record.levelname, record.levelname),
                f"{NARROW_NBSP}:",
                12,
            )
        else:
            name, mark, width = record.levelname, ":", 9
        separator = " " * max(0, width - len(name) - len(mark))  # the messages aligned
        if self.use_colors:
            colour = self.color_level_name(name, record.levelno)  # type: ignore[attr-defined]
            return f"{colour}{mark}{separator}"
        return f"{name}{mark}{separator}"

    def _message(self, record: logging.LogRecord) -> str | None:
        """The record's message in the language, if eloleague or this module can say it."""
        if isinstance(record.msg, Text):
            return render(record.msg, self.lang, DOMAIN)
        if self.lang == "en":
            return None
        return said_again(record.getMessage(), self.lang)


class ServerFormatter(_InLanguage, DefaultFormatter):
    """Uvicorn's formatter of the error log, in ``lang``."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        shown = copy.copy(record)
        message = self._message(record)
        if message is not None:
            shown.message = message
        elif self.use_colors and "color_message" in shown.__dict__:
            shown.msg = shown.__dict__["color_message"]
            shown.message = shown.getMessage()
        shown.__dict__["levelprefix"] = self._prefix(record)
        return logging.Formatter.formatMessage(self, shown)


class AccessLineFormatter(_InLanguage, AccessFormatter):
    """Uvicorn's formatter of the access log, its level and status phrase in ``lang``."""

    def get_status_code(self, status_code: int) -> str:
        shown = f"{status_code} {status_phrase(status_code, self.lang)}".rstrip()
        if self.use_colors:
            colour = self.status_code_colours.get(status_code // 100)
            return colour(shown) if colour else shown
        return shown

    def formatMessage(self, record: logging.LogRecord) -> str:
        client, method, path, version, status = record.args  # type: ignore[misc]
        request = f"{method} {path} HTTP/{version}"
        shown = copy.copy(record)
        shown.__dict__.update(
            client_addr=client,
            request_line=request,
            status_code=self.get_status_code(int(status)),  # type: ignore[arg-type]
            levelprefix=self._prefix(record),
        )
        return logging.Formatter.formatMessage(self, shown)


def log_config(lang: str) -> dict[str, Any]:
    """Uvicorn's logging configuration with the formatters of this module in ``lang``, and
    eloleague's own lines (``eloleague.*`` loggers) printed as Uvicorn's are."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["default"]["()"] = f"{__name__}.ServerFormatter"
    config["formatters"]["default"]["lang"] = lang
    config["formatters"]["access"]["()"] = f"{__name__}.AccessLineFormatter"
    config["formatters"]["access"]["lang"] = lang
    config["loggers"]["eloleague"] = {"handlers": ["default"], "level": "INFO", "propagate": False}
    return config
