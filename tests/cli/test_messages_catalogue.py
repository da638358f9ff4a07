"""Every message of the readers and of the command line's own errors has its French text in the
``messages`` catalogue (messages.po and its parts, messages-*.po)."""

from __future__ import annotations

import ast
import re
from importlib import resources
from pathlib import Path

from babel.messages.pofile import read_po

PACKAGE = Path(str(resources.files("eloleague")))
MODULES = [
    *sorted((PACKAGE / "io").glob("*.py")),
    PACKAGE / "cli" / "__init__.py",
    PACKAGE / "cli" / "rules.py",
    PACKAGE / "engine" / "validate.py",
    *sorted((PACKAGE / "engine" / "methods").glob("*.py")),
]


def _texts(module: Path) -> set[str]:
    """The English templates of ``Text.of(...)`` and ``Text.in_domain("messages", ...)``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(module.read_text("utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        args = node.args
        if node.func.attr == "in_domain" and args and getattr(args[0], "value", None) == "messages":
            args = args[1:]
        elif node.func.attr != "of":
            continue
        if args and isinstance(args[0], ast.Constant) and isinstance(args[0].value, str):
            found.add(args[0].value)
    return found


def test_every_reader_and_command_line_message_is_translated() -> None:
    folder = PACKAGE / "locale" / "fr" / "LC_MESSAGES"
    catalogue: dict[str, str] = {}
    for path in [folder / "messages.po", *sorted(folder.glob("messages-*.po"))]:
        with path.open("rb") as handle:
            catalogue.update(
                {
                    m.id: m.string
                    for m in read_po(handle)
                    if isinstance(m.id, str) and isinstance(m.string, str)
                }
            )
    wanted = set().union(*(_texts(m) for m in MODULES))
    assert len(wanted) > 30
    missing = sorted(t for t in wanted if not catalogue.get(t))
    assert missing == []
    for msgid in wanted:  # placeholders survive translation
        assert set(re.findall(r"\{\w+", msgid)) == set(re.findall(r"\{\w+", catalogue[msgid]))
