"""Every tool command has an example in its help and a section in docs/tools.md."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from eloleague.cli import app

DOC = Path(__file__).parents[2] / "docs" / "tools.md"


@pytest.mark.parametrize("command", ["predict", "balance", "compare", "evaluate"])
def test_command_documented(command: str) -> None:
    text = DOC.read_text("utf-8")
    assert f"## {command}:" in text
    assert f"eloleague {command} " in text
    result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "Example" in result.output
    assert f"eloleague {command}" in result.output


def test_doc_shows_the_seed_table() -> None:
    text = DOC.read_text("utf-8")
    for value in ("-8", "+7", "+22", "+29", "+37", "-43", "-13", "+17", "+32", "+47"):
        assert f" {value} │" in text
