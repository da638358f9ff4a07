"""Every English message of the sheets and of the engine's checks has its French translation."""

from __future__ import annotations

import ast
from pathlib import Path

from eloleague.i18n import _catalogue
from eloleague.io.sheets import layout

SRC = Path(__file__).parents[2] / "src" / "eloleague"


def _templates(path: Path, calls: dict[str, int]) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            index = calls.get(name)
            if index is not None and len(node.args) > index:
                arg = node.args[index]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.append(arg.value)
    return found


def test_every_sheet_message_is_in_the_french_catalogue() -> None:
    wanted = [
        m
        for p in sorted((SRC / "io" / "sheets").glob("*.py"))
        for m in _templates(p, {"tr": 1, "error": 1, "warn": 1})
    ]
    wanted += _templates(SRC / "cli" / "sheets.py", {"_t": 0})
    wanted += list(layout.SHEET_TITLES.values()) + [label for _, label in layout.EVENT_FIELDS]
    wanted += [
        c.label
        for c in layout.layout_for(
            __import__("eloleague.rules").rules.load_rules("diplomacy")
        ).columns
    ]
    assert len(wanted) > 60
    french = _catalogue("fr", "sheets")
    assert [m for m in wanted if m not in french] == []


def test_every_engine_check_is_in_the_french_catalogue() -> None:
    wanted = _templates(SRC / "engine" / "validate.py", {"t": 0, "of": 0})
    for module in sorted((SRC / "engine" / "methods").glob("*.py")):
        wanted += _templates(module, {"t": 0, "of": 0})
    assert len(wanted) >= 15
    french = _catalogue("fr", "messages")
    assert [m for m in wanted if m not in french] == []
