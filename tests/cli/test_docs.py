"""Every command has help with an example, and is documented (HOUSE_STYLE: docs do not drift)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer.main

from eloleague.cli import app

ROOT = Path(__file__).resolve().parents[2]
DOCS = "\n".join(p.read_text("utf-8") for p in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")])


def _commands(group: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """(full name, command) of every leaf command (Typer ships its own click: duck typing)."""
    out = []
    for name, command in getattr(group, "commands", {}).items():
        full = f"{prefix} {name}".strip()
        if hasattr(command, "commands"):
            out += _commands(command, full)
        else:
            out.append((full, command))
    return out


COMMANDS = _commands(typer.main.get_command(app))


def test_there_are_commands() -> None:
    assert {"rate", "rules list", "import", "ranking", "serve", "template"} <= {
        name for name, _ in COMMANDS
    }


def test_every_command_has_an_example() -> None:
    missing = [name for name, command in COMMANDS if "Example" not in (command.help or "")]
    assert missing == []


def test_every_command_is_documented() -> None:
    missing = [name for name, _ in COMMANDS if f"eloleague {name}" not in DOCS]
    assert missing == []
