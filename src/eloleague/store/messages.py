"""The league's user-facing messages: English in the code, French in the ``league`` catalogue
(``locale/fr/LC_MESSAGES/league.po``), rendered by :func:`eloleague.i18n.render`.

Messages carry their domain (:meth:`eloleague.i18n.Text.in_domain`), so an error raised deep in the
store is translated correctly wherever it is printed: the command line's ``main()``, a web page.
"""

from __future__ import annotations

from eloleague.i18n import Text

DOMAIN = "league"


def msg(template: str, /, **params: object) -> Text:
    """A message of the ``league`` domain: ``msg("no game {id!r}", id="g1")``."""
    return Text.in_domain(DOMAIN, template, **params)


def msg_plural(singular: str, plural: str, count: int, /, **params: object) -> Text:
    """A message of the ``league`` domain with a singular and a plural form, chosen by ``count``
    (``{count}`` in them): ``msg_plural("{count} game", "{count} games", n)``."""
    return Text.plural_in_domain(DOMAIN, singular, plural, count, **params)


def season_closed(end: str, count: int) -> Text:
    """What closing a season did (the command line and the site say it alike)."""
    return msg_plural(
        "season ending {end} closed: {count} rating adjusted",
        "season ending {end} closed: {count} ratings adjusted",
        count,
        end=end,
    )


def season_reopened(end: str, count: int) -> Text:
    """What reopening a season undid."""
    return msg_plural(
        "season ending {end} reopened: {count} adjustment taken back",
        "season ending {end} reopened: {count} adjustments taken back",
        count,
        end=end,
    )


def engine_text(message: str) -> Text | str:
    """A message made by the engine or the readers (catalogue ``messages``), tagged with that
    domain so that it stays translated when it is put inside a league message."""
    if isinstance(message, Text) and message.domain is None:
        return Text.in_domain("messages", message.template, **message.params)
    return message
