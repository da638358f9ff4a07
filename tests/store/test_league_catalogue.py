"""Every English message of the league (library, store, commands) has its French translation in
locale/fr/LC_MESSAGES/league.po, with the same placeholders."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from babel.messages.pofile import read_po

from eloleague.i18n import render
from eloleague.store.messages import msg

SRC = Path(__file__).parents[2] / "src" / "eloleague"
SOURCES = [
    SRC / "league.py",
    SRC / "cli" / "league.py",
    SRC / "cli" / "output.py",
    SRC / "demo.py",
    *(SRC / "store").glob("*.py"),
]


def _msgids() -> set[str]:
    """The first argument of every ``msg(...)``, ``_t(...)`` and ``_(...)`` call (the league's
    messages)."""
    ids: set[str] = set()
    for module in SOURCES:
        for node in ast.walk(ast.parse(module.read_text("utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in {"msg", "_t", "_"}
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                text = node.args[0].value
                assert isinstance(text, str), text
                ids.add(text)
    return ids


def test_every_league_message_is_translated() -> None:
    folder = SRC / "locale" / "fr" / "LC_MESSAGES"
    catalogue = {}
    for path in [folder / "league.po", *sorted(folder.glob("league-*.po"))]:  # and its parts
        with path.open("rb") as handle:
            catalogue.update({m.id: str(m.string) for m in read_po(handle) if m.id})
    ids = _msgids()
    assert len(ids) > 60
    assert sorted(i for i in ids if not catalogue.get(i)) == []
    for msgid, text in catalogue.items():
        assert set(re.findall(r"\{[^}]+\}", str(msgid))) == set(re.findall(r"\{[^}]+\}", text))


def test_a_message_carries_its_catalogue() -> None:
    message = msg("the season ending {end} is already closed", end="2024-12-31")
    assert message == "the season ending 2024-12-31 is already closed"
    assert render(message, "fr") == "la saison se terminant le 2024-12-31 est déjà close"
    assert render(message, "en", "messages") == str(message)
