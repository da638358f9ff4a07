"""Every English text of the web site has its French translation in locale/fr/.../web.po (or a
part of the domain, web-*.po)."""

from __future__ import annotations

import ast
import re
from importlib import resources
from pathlib import Path

from babel.messages.pofile import read_po

WEB = Path(str(resources.files("eloleague.web")))


def _msgids() -> set[str]:
    ids: set[str] = set()
    for page in (WEB / "templates").glob("*.html"):
        ids |= set(re.findall(r"_\('((?:[^'\\]|\\.)*)'\)", page.read_text("utf-8")))
    for module in WEB.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text("utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "of"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                text = node.args[0].value
                assert isinstance(text, str), text
                ids.add(text)
    # The rating methods' summaries, shown on the rules page.
    from eloleague.engine import methods

    ids |= {methods.get(name).summary for name in methods.names()}
    ids |= {field for name in methods.names() for field in methods.get(name).shown_fields}
    # The accounts' messages (shown by the site and by `eloleague user ...`) use `_t(...)`.
    for node in ast.walk(ast.parse((WEB.parent / "accounts.py").read_text("utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "_t"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            text = node.args[0].value
            assert isinstance(text, str), text
            ids.add(text)
    return ids


def test_every_web_text_is_translated() -> None:
    folder = WEB.parent / "locale" / "fr" / "LC_MESSAGES"
    catalogue = {}
    for path in [folder / "web.po", *sorted(folder.glob("web-*.po"))]:  # web.po and its parts
        with path.open("rb") as handle:
            catalogue.update({m.id: m.string for m in read_po(handle) if m.id})
    ids = _msgids()
    assert len(ids) > 100
    missing = sorted(i for i in ids if not catalogue.get(i))
    assert missing == []
    for msgid, text in catalogue.items():  # placeholders survive translation
        assert set(re.findall(r"\{\w+\}", str(msgid))) == set(re.findall(r"\{\w+\}", str(text)))
