"""Why a text is not JSON, in the reader's language: what is wrong and where (line, column).

The parsers say it in English of their own ("Expecting ',' delimiter: line 1 column 8 (char 7)",
"JSON is malformed: expected ',' (byte 7)"), and an officer reading a French page got that English
inside a French sentence. :func:`json_problem` parses the refused text again with the standard
library, whose error gives the kind of problem and its line and column, and says the kinds it
knows in words the catalogues translate (docs/formats.md, "Errors"). It runs only once a text
has been refused, so its cost does not matter.

The texts carry the readers' catalogue (``messages``): a page or a command renders them alike.
"""

from __future__ import annotations

import json
import math
import re
from functools import partial

from eloleague.i18n import Text

# The standard library's kinds of problem (the start of ``JSONDecodeError.msg``, Python 3.11 to
# 3.14), each with the words said instead. A kind not listed is told by its place only.
_KINDS: tuple[tuple[str, Text], ...] = (
    ("Expecting value", Text.in_domain("messages", "a value was expected")),
    ("Expecting ',' delimiter", Text.in_domain("messages", "a comma was expected")),
    ("Expecting ':' delimiter", Text.in_domain("messages", "a colon was expected")),
    (
        "Expecting property name enclosed in double quotes",
        Text.in_domain("messages", 'a field name in double quotes (") was expected'),
    ),
    ("Extra data", Text.in_domain("messages", "more text after the end of the JSON")),
    (
        "Invalid control character",
        Text.in_domain("messages", "a control character (tab, line break) inside quotes"),
    ),
    ("Invalid \\", Text.in_domain("messages", "a backslash (\\) that starts no valid escape")),
    ("Unterminated string", Text.in_domain("messages", "quotes that are not closed")),
)
_TRAILING_COMMA = Text.in_domain("messages", "a comma before a closing bracket or brace")
_CUT_SHORT = Text.in_domain("messages", "the text ends too early")


def json_problem(data: str | bytes) -> Text:
    """What is wrong with ``data``, a text a JSON parser refused, and where: ``a comma was
    expected at line 3, column 18``; only the column when the text is one line."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            return Text.in_domain("messages", "not UTF-8 text: save the file as UTF-8")
    if not data.strip():
        return Text.in_domain("messages", "the text is empty")
    seen: set[str] = set()
    one_line = "\n" not in data.rstrip("\r\n")
    try:
        json.loads(data, parse_constant=seen.add, parse_float=partial(_float, seen))
    except json.JSONDecodeError as exc:
        return _said(exc, one_line=one_line)
    except RecursionError:  # [[[[...]]]] thousands deep: no game is shaped like that
        return Text.in_domain("messages", "nested too deeply")
    # The standard library reads what the stricter parsers refuse: NaN, Infinity, 1e400.
    if seen & {"NaN", "Infinity", "-Infinity"}:
        return Text.in_domain("messages", "NaN and Infinity are not JSON numbers")
    if "out of range" in seen:
        return Text.in_domain("messages", "a number out of range")
    surrogate = _lone_surrogate(data, one_line)
    if surrogate is not None:
        return surrogate
    return Text.in_domain("messages", "not valid JSON")


_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.DOTALL)


def _lone_surrogate(data: str, one_line: bool) -> Text | None:
    """Where ``data`` (a text the standard library reads) escapes half a character: a ``\\u``
    escape of a surrogate without its other half (``\\ud83d\\ude00`` is one character,
    ``\\ud83d`` alone none). The standard library reads it; a stricter parser, and UTF-8 text,
    do not. In a JSON text that parses, a backslash only appears in strings, and each escape
    starts where the one before it ends, so the escapes are found in order from the start."""
    escapes = [(found, _code(found)) for found in _ESCAPE.finditer(data)]
    n = 0
    while n < len(escapes):
        found, code = escapes[n]
        if code is None or not 0xD800 <= code <= 0xDFFF:
            n += 1
        elif code <= 0xDBFF and n + 1 < len(escapes) and _low_after(found, *escapes[n + 1]):
            n += 2  # a pair: one character
        else:
            line = data.count("\n", 0, found.start()) + 1
            column = found.start() - (data.rfind("\n", 0, found.start()) + 1) + 1
            what = Text.in_domain(
                "messages",
                "an escape of half a character ({escape}: a lone surrogate)",
                escape=found.group(0),
            )
            where = _where(line, column, one_line)
            return Text.in_domain("messages", "{what} {where}", what=what, where=where)
    return None


def _low_after(high: re.Match[str], escape: re.Match[str], code: int | None) -> bool:
    """Whether ``escape`` is the second half of the surrogate pair ``high`` begins."""
    return escape.start() == high.end() and code is not None and 0xDC00 <= code <= 0xDFFF


def _code(escape: re.Match[str]) -> int | None:
    digits = escape.group(1)
    return None if digits is None else int(digits, 16)


def _where(line: int, column: int, one_line: bool) -> Text:
    if one_line:
        return Text.in_domain("messages", "at column {column}", column=column)
    return Text.in_domain("messages", "at line {line}, column {column}", line=line, column=column)


def _float(seen: set[str], text: str) -> float:
    number = float(text)
    if math.isinf(number):
        seen.add("out of range")
    return number


def _said(exc: json.JSONDecodeError, *, one_line: bool) -> Text:
    what = next((words for kind, words in _KINDS if exc.msg.startswith(kind)), None)
    before = exc.doc[: exc.pos].rstrip()
    if before.endswith(",") and exc.doc[exc.pos : exc.pos + 1] in ("}", "]"):
        what = _TRAILING_COMMA  # Python 3.11 expects another field or value there
    elif exc.pos >= len(exc.doc.rstrip()) and what is not None and not exc.msg.startswith("Extra"):
        what = _CUT_SHORT  # whatever was expected never came
    where = _where(exc.lineno, exc.colno, one_line)
    if what is None:
        return where
    return Text.in_domain("messages", "{what} {where}", what=what, where=where)
