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
    try:
        json.loads(data, parse_constant=seen.add, parse_float=partial(_float, seen))
    except json.JSONDecodeError as exc:
        return _said(exc, one_line="\n" not in data.rstrip("\r\n"))
    except RecursionError:  # [[[[...]]]] thousands deep: no game is shaped like that
        return Text.in_domain("messages", "nested too deeply")
    # The standard library reads what the stricter parsers refuse: NaN, Infinity, 1e400.
    if seen & {"NaN", "Infinity", "-Infinity"}:
        return Text.in_domain("messages", "NaN and Infinity are not JSON numbers")
    if "out of range" in seen:
        return Text.in_domain("messages", "a number out of range")
    return Text.in_domain("messages", "not valid JSON")


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
    if one_line:
        where = Text.in_domain("messages", "at column {column}", column=exc.colno)
    else:
        where = Text.in_domain(
            "messages", "at line {line}, column {column}", line=exc.lineno, column=exc.colno
        )
    if what is None:
        return where
    return Text.in_domain("messages", "{what} {where}", what=what, where=where)
