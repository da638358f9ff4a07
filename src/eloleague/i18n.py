"""French and English for everything users read.

Messages are written in English in the code and translated through gettext catalogues kept as
``.po`` files in ``locale/<lang>/LC_MESSAGES/<domain>.po`` (one domain per area: ``messages``
for the engine and readers, ``web`` for the site, ``sheets`` for the referee workbooks...); a
domain may be split into ``<domain>-<part>.po`` files.
Babel reads the ``.po`` files directly, so there is no compiled catalogue to keep in sync.

``translator("fr")`` returns a ``gettext``-like function; ``pick_language`` chooses between French
and English from an explicit choice, ``ELOLEAGUE_LANG`` or ``LANG``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import lru_cache
from importlib import resources

from babel.messages.pofile import read_po

LANGUAGES = ("fr", "en")
DEFAULT_LANGUAGE = "en"

Translate = Callable[[str], str]


@lru_cache(maxsize=32)
def _catalogue(lang: str, domain: str) -> dict[str, str]:
    if lang == "en":
        return {}
    folder = resources.files("eloleague") / "locale" / lang / "LC_MESSAGES"
    table: dict[str, str] = {}
    if not folder.is_dir():
        return table
    # A domain may be split into parts kept by different people: messages.po, messages-*.po.
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        name = path.name
        if name != f"{domain}.po" and not (name.startswith(f"{domain}-") and name.endswith(".po")):
            continue
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=lang)
        for m in catalog:
            if m.id and isinstance(m.id, str) and m.string and not m.fuzzy:
                table[m.id] = str(m.string)
    return table


def translator(lang: str, domain: str = "messages") -> Translate:
    """A function that translates an English message into ``lang`` (unknown: left in English)."""
    table = _catalogue(lang if lang in LANGUAGES else DEFAULT_LANGUAGE, domain)

    def gettext(message: str) -> str:
        return table.get(message, message)

    return gettext


def pick_language(explicit: str | None = None) -> str:
    """``explicit`` if given, else ``ELOLEAGUE_LANG``, else French when ``LANG`` is French."""
    for value in (explicit, os.environ.get("ELOLEAGUE_LANG"), os.environ.get("LANG")):
        if value:
            code = value.split("_")[0].split(".")[0].lower()
            if code in LANGUAGES:
                return code
            if explicit is not None and value is explicit:
                continue
    return DEFAULT_LANGUAGE


class Text(str):
    """An English message that remembers its template and values, to be translated later.

    ``Text.of("side {side}: no players", side=2)`` is the string ``"side 2: no players"``
    everywhere a string is expected; :func:`render` gives it in another language.
    """

    template: str
    params: dict[str, object]
    domain: str | None

    def __new__(cls, template: str, params: dict[str, object], domain: str | None = None) -> Text:
        obj = super().__new__(cls, template.format(**params))
        obj.template = template
        obj.params = params
        obj.domain = domain
        return obj

    def __reduce__(self) -> tuple[type[Text], tuple[str, dict[str, object], str | None]]:
        # Pickled as template and values (a subclass as a plain Text): still translatable on the
        # other side of a process.
        return (Text, (self.template, self.params, self.domain))

    @classmethod
    def of(cls, template: str, /, **params: object) -> Text:
        """A message of the caller's domain (given when it is rendered)."""
        return cls(template, params)

    @classmethod
    def in_domain(cls, domain: str, template: str, /, **params: object) -> Text:
        """A message that carries its catalogue's domain (for errors rendered far away)."""
        return cls(template, params, domain)


def render(message: str, lang: str, domain: str = "messages") -> str:
    """``message`` in ``lang``: a :class:`Text` is translated (in its own domain when it carries
    one, else ``domain``), a plain string is left as is."""
    if isinstance(message, Text):
        own = message.domain or domain
        params = {
            key: render(value, lang, own) if isinstance(value, Text) else value
            for key, value in message.params.items()
        }
        return translator(lang, own)(message.template).format(**params)
    return message
