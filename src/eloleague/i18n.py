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
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from importlib import resources

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

LANGUAGES = ("fr", "en")
DEFAULT_LANGUAGE = "en"

Translate = Callable[[str], str]

NARROW_NBSP = "\u202f"
PLURAL = "_plural"  # the value of a Text.plural that holds its two English forms
_SPACES = "[ \u00a0\u202f]*"
# ":" ";" "!" "?" after a word (not "http://", "12:30", "{x:.1f}", "?!" nor "?page=2").
_BEFORE_MARK = re.compile(rf"([^\s:;!?«]){_SPACES}([:;!?])(?=[\s»)\]\"']|$)")
# "%" after a number or a placeholder ("50 %", "{p} %"), not "%(name)s".
_BEFORE_PERCENT = re.compile(rf"([\d}}]){_SPACES}%(?![(\w])")
_IN_QUOTES = (re.compile(rf"«{_SPACES}"), re.compile(rf"{_SPACES}»"))
_CODE = re.compile(r"(`[^`]*`)")  # a command or a header quoted in a message: typed as it is
# An apostrophe inside a word ("l'aide", "n'est", "d'{name}"), not a quote ('--map', '{name}').
_APOSTROPHE = re.compile(r"(?<=[^\W\d_])'(?=[^\W\d_]|\{)")
# A value quoted as Python writes it ("{name!r}": 'Zoé'), which French quotes « Zoé ».
_QUOTED_VALUE = re.compile(r"\{(\w+)!r\}")


def french_typography(text: str) -> str:
    """``text`` with French spacing: a narrow no-break space before ``:`` ``;`` ``!`` ``?`` and
    ``%`` and inside « », whatever space (or none) was typed there; the typographic apostrophe
    (``l’aide``), whichever was typed; and a value the English quotes as Python writes it
    (``{name!r}``, ``'Zoé'``) between guillemets (``« {name} »``).

    Applied to every French message when its catalogue is read (:func:`translator`), and to the
    numbers of :func:`decimal`; values put into messages (names, files) are left alone, and so is
    what a message quotes between backquotes (a command, the HTTP header ``Authorization: Bearer
    <jeton>``): the reader types it as it is written, its ``{name!r}`` quoted for the shell.
    """
    parts = _CODE.split(text)  # the even parts are prose, the odd ones `code`
    for i in range(0, len(parts), 2):
        prose = _BEFORE_MARK.sub(rf"\1{NARROW_NBSP}\2", parts[i])
        prose = _BEFORE_PERCENT.sub(rf"\1{NARROW_NBSP}%", prose)
        prose = _APOSTROPHE.sub("’", prose)
        prose = _QUOTED_VALUE.sub(r"« {\1} »", prose)
        prose = _IN_QUOTES[0].sub(f"«{NARROW_NBSP}", prose)
        parts[i] = _IN_QUOTES[1].sub(f"{NARROW_NBSP}»", prose)
    return "".join(parts)


GROUPED_FROM = 10_000
"""The smallest count written with its thousands apart (``1000`` stays whole in either language,
as French typography allows for four digits and English style guides too)."""


def grouped(count: int, lang: str) -> str:
    """A count as ``lang`` writes it: from :data:`GROUPED_FROM`, its thousands apart, by a comma
    in English (``48,512``) and a narrow no-break space in French (``48 512``)."""
    if abs(count) < GROUPED_FROM:
        return str(count)
    text = f"{count:,}"
    return text.replace(",", NARROW_NBSP) if lang == "fr" else text


class Count(int):
    """A quantity in a message: the count of a plural one (:meth:`Text.plural`: it picks the
    form), or any other value given as ``Count(n)`` (a limit: ``10,000,000 lines``). Written as
    :func:`grouped` writes it in English where the message is used as a string; :func:`render`
    writes it in the reader's language (``10 000 000 lignes``). Numbers that name a place rather
    than a quantity (a line, a byte's position, a year) stay plain ``int``: French typography
    does not group them (« ligne 12345 »)."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        return grouped(int(self), "en") if not spec else format(int(self), spec)


def colon(lang: str) -> str:
    """The separator after a label or a place (``line 3: ...``): ``"\u202f: "`` in French."""
    return f"{NARROW_NBSP}: " if lang == "fr" else ": "


def decimal(value: float, decimals: int, lang: str) -> str:
    """``value`` with ``decimals`` decimals, a decimal comma in French (``1523,5``)."""
    text = f"{value:.{decimals}f}"
    return text.replace(".", ",") if lang == "fr" else text


_NUMBER = re.compile(r"[+\-−]?\d+\.\d+")


def number(text: str, lang: str) -> str:
    """A number already written (``"1523.5"``, ``"+12.5"``) as ``lang`` writes it: a decimal comma
    in French; any other text is left alone."""
    return text.replace(".", ",") if lang == "fr" and _NUMBER.fullmatch(text) else text


def with_sign(text: str) -> str:
    """A change already written (``"12"``, ``"-4"``, ``"0,0"``) with its sign, as the pages and the
    command line print changes: ``+12``, ``-4``, and one that rounds to nothing unsigned (``0``:
    it read ``+0`` on the command line, ``-0.0`` on a page for -0.04)."""
    if not text.lstrip("-").strip("0.,"):
        return text.lstrip("-")
    return text if text.startswith("-") else "+" + text


_POINT = re.compile(r"(?<=\d)\.(?=\d)")
_LONE_NUMBER = re.compile(r"[+\-−]?\d+(\.\d+)?")  # "1731", "+12", "0.560": the page's most


def numbers_in(text: str, lang: str) -> str:
    """``text`` of formatted numbers (``"0.1–0.2"``, ``"50.0 %"``) as ``lang`` writes them: in
    French, decimal commas and a narrow no-break space before ``%``. A lone number takes its
    comma without the typography's other rules, which have nothing to change there (an event's
    page formats thousands of numbers)."""
    if lang != "fr":
        return text
    if _LONE_NUMBER.fullmatch(text):
        return text.replace(".", ",")
    return french_typography(_POINT.sub(",", text))


def percent(share: float, lang: str, decimals: int = 1) -> str:
    """A share (0.5) as a percentage: ``50.0 %`` in English, ``50,0 %`` (a narrow no-break
    space) in French."""
    text = decimal(100 * share, decimals, lang)
    return f"{text}{NARROW_NBSP}%" if lang == "fr" else f"{text} %"


_DE_BEFORE_VALUE = re.compile(r"\b([dD])e \{(\w+)\}")
_VOWELS = frozenset("aeiouàâäéèêëîïôöùûüœæAEIOUÀÂÄÉÈÊËÎÏÔÖÙÛÜŒÆ")


def elided(template: str, values: Mapping[str, object]) -> str:
    """A French ``template`` with ``de {x}`` written ``d’{x}`` where the value of ``x`` is a word
    beginning with a vowel: "Feuille de résultats d’Arène", "Historique d’Éric" ("de Hugo",
    "de Yann", "de 12" stay). A lone letter stays too: "Victoire décisive de A" is a referee
    workbook's label, read back as written."""

    def one(found: re.Match[str]) -> str:
        value = str(values.get(found.group(2), ""))
        if len(value) > 1 and value[0] in _VOWELS:
            return f"{found.group(1)}’{{{found.group(2)}}}"
        return found.group(0)

    return _DE_BEFORE_VALUE.sub(one, template)


class French(str):
    """A message of a French catalogue: filled in by ``format``, it elides ``de`` before a
    value that begins with a vowel (:func:`elided`), wherever it is formatted (:func:`render`,
    the site's templates, the sheets)."""

    __slots__ = ()

    def format(self, /, *args: object, **kwargs: object) -> str:
        return str.format(elided(self, kwargs) if kwargs else str(self), *args, **kwargs)


def _domain_catalogues(lang: str, domain: str) -> Iterator[Catalog]:
    """The catalogues of ``domain`` in ``lang`` (none in English, the source language). A domain
    may be split into parts kept by different people: ``messages.po``, ``messages-*.po``."""
    if lang == "en":
        return
    folder = resources.files("eloleague") / "locale" / lang / "LC_MESSAGES"
    if not folder.is_dir():
        return
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        name = path.name
        if name != f"{domain}.po" and not (name.startswith(f"{domain}-") and name.endswith(".po")):
            continue
        with path.open("rb") as handle:
            yield read_po(handle, locale=lang)


@lru_cache(maxsize=32)
def _catalogue(lang: str, domain: str) -> dict[str, str]:
    table: dict[str, str] = {}
    for catalog in _domain_catalogues(lang, domain):
        for m in catalog:
            if m.id and isinstance(m.id, str) and m.string and not m.fuzzy:
                text = str(m.string)
                table[m.id] = French(french_typography(text)) if lang == "fr" else text
    return table


@lru_cache(maxsize=32)
def _plurals(lang: str, domain: str) -> dict[str, tuple[str, ...]]:
    """The plural messages of a catalogue (``msgid_plural``): singular msgid -> the forms."""
    table: dict[str, tuple[str, ...]] = {}
    for catalog in _domain_catalogues(lang, domain):
        for m in catalog:
            if isinstance(m.id, tuple | list) and m.string and all(m.string) and not m.fuzzy:
                forms = tuple(str(f) for f in m.string)
                table[str(m.id[0])] = tuple(
                    French(french_typography(f)) if lang == "fr" else f for f in forms
                )
    return table


def plural_form(lang: str, count: int) -> int:
    """Which form a count takes: English ``1 place``/``0 places``, French ``0 place``/``1 place``
    /``2 places`` (gettext's ``nplurals=2``, ``plural=(n > 1)`` for French)."""
    if lang == "fr":
        return 0 if abs(count) <= 1 else 1
    return 0 if count == 1 else 1


def count_of(shown: str) -> int:
    """The count a number as shown takes the form of (:func:`plural_form`): ``"1"`` one,
    ``"2"`` two; a fraction (``"0.5"``, ``"1,5"``) the plural ("0.5 points")."""
    return int(shown) if shown.isdigit() else 2


def ngettext(lang: str, domain: str, singular: str, plural: str, count: int) -> str:
    """The template for ``count`` in ``lang`` (English when the catalogue lacks it)."""
    forms = _plurals(lang if lang in LANGUAGES else DEFAULT_LANGUAGE, domain).get(singular)
    if forms and len(forms) >= 2:
        return forms[plural_form(lang, count)]
    return singular if plural_form("en", count) == 0 else plural


def knows(lang: str, domain: str, message: Text) -> bool:
    """Whether ``domain``'s catalogue translates ``message`` into ``lang`` (its template, or its
    singular form)."""
    lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    forms = message.params.get(PLURAL)
    if isinstance(forms, tuple):
        return forms[0] in _plurals(lang, domain)
    return message.template in _catalogue(lang, domain)


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
    def plural(cls, singular: str, plural: str, count: int, /, **params: object) -> Text:
        """A message with a singular and a plural form, chosen by ``count`` (given to the
        template as ``{count}``): ``Text.plural("{count} place", "{count} places", n)``."""
        template = singular if plural_form("en", count) == 0 else plural
        # The forms travel with the values (a pickled Text keeps its template and values only).
        return cls(template, {"count": Count(count), **params, PLURAL: (singular, plural)})

    @classmethod
    def plural_in_domain(
        cls, domain: str, singular: str, plural: str, count: int, /, **params: object
    ) -> Text:
        """:meth:`plural` of a catalogue's domain (:meth:`in_domain`)."""
        made = cls.plural(singular, plural, count, **params)
        return cls(made.template, made.params, domain)

    @classmethod
    def in_domain(cls, domain: str, template: str, /, **params: object) -> Text:
        """A message that carries its catalogue's domain (for errors rendered far away)."""
        return cls(template, params, domain)

    def of_domain(self, domain: str) -> Text:
        """This message carrying ``domain``, unless it carries one: a message of the engine's
        (``messages``) put into a sentence of another domain's (a tool's) is rendered in that
        one's, and was left in English."""
        return self if self.domain else Text(self.template, self.params, domain)


class Words(str):
    """Words of a rule set in a message (the roles a game lacks): as a string, the rule file's
    names joined by commas (« Germany, Italy », what a file must hold); :func:`render` gives each
    as the rule set's ``[labels]`` give it in the message's language (« Allemagne, Italie »)."""

    names: tuple[str, ...]
    shown: dict[str, tuple[str, ...]]

    def __new__(cls, names: Iterable[str], shown: Mapping[str, Sequence[str]]) -> Words:
        listed = tuple(names)
        obj = super().__new__(cls, ", ".join(listed))
        obj.names = listed
        obj.shown = {lang: tuple(words) for lang, words in shown.items()}
        return obj

    def __reduce__(self) -> tuple[type[Words], tuple[tuple[str, ...], dict[str, tuple[str, ...]]]]:
        return (Words, (self.names, self.shown))

    def in_language(self, lang: str) -> str:
        """The words as ``lang`` reads them (the names themselves without labels in it)."""
        return ", ".join(self.shown.get(lang, self.names))


def render(message: str, lang: str, domain: str = "messages") -> str:
    """``message`` in ``lang``: a :class:`Text` is translated (in its own domain when it carries
    one, else ``domain``), a plain string is left as is."""
    if isinstance(message, Text):
        own = message.domain or domain
        params = {
            key: render(value, lang, own)
            if isinstance(value, Text)
            else value.in_language(lang)
            if isinstance(value, Words)
            else grouped(value, lang)
            if isinstance(value, Count)
            else value
            for key, value in message.params.items()
        }
        forms = message.params.get(PLURAL)
        if isinstance(forms, tuple):
            singular, plural = forms
            count = int(message.params["count"])  # type: ignore[call-overload]
            params["count"] = grouped(count, lang)
            return ngettext(lang, own, singular, plural, count).format(**params)
        return translator(lang, own)(message.template).format(**params)
    return message
