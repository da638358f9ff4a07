"""Shared fixtures: the spec's examples (copied into tests/data), temporary files, the CLI runner."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

# Property tests check results, not speed (speed is measured in benchmarks/): no per-example
# deadline, which a loaded CI machine or a first compilation would break. A test that bounds a
# hang on purpose (the readers' trial) sets its own.
settings.register_profile("eloleague", deadline=None)
settings.load_profile("eloleague")

DATA = Path(__file__).parent / "data"
REPLAY = DATA / "replay"
PRESETS = ("bataille-empire", "bataille-empire-en", "adlg", "card-battle", "diplomacy")
# The replay expectations of the duel presets were computed with --as-of 2025-06-01.
AS_OF = {"bataille-empire": "2025-06-01", "bataille-empire-en": "2025-06-01", "adlg": "2025-06-01"}


@pytest.fixture
def data_dir() -> Path:
    return DATA


def seed_examples() -> list[dict[str, Any]]:
    examples: list[dict[str, Any]] = json.loads((DATA / "seed-examples.json").read_text("utf-8"))
    return examples


def run_cli(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the real ``eloleague`` command in a subprocess (as a user would)."""
    full_env = {**os.environ, "ELOLEAGUE_LANG": "en", "COLUMNS": "200", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "eloleague", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=full_env,
        input=stdin,
        timeout=600,
    )


@pytest.fixture(autouse=True)
def _language_kept() -> Iterator[None]:
    """`eloleague --lang X` sets ELOLEAGUE_LANG for the rest of its process (a command line's
    whole life); commands run in-process by a test must not change the next test's language."""
    before = os.environ.get("ELOLEAGUE_LANG")
    yield
    if before is None:
        os.environ.pop("ELOLEAGUE_LANG", None)
    else:
        os.environ["ELOLEAGUE_LANG"] = before


@pytest.fixture(autouse=True)
def _postgresql_connections_closed() -> Iterator[None]:
    """The PostgreSQL engines a test made closed after it (their connections, not the engines,
    which stay usable). Each test database's engine kept up to five idle connections in its pool
    until the session ended, and the suite's server takes a hundred: a run of the store's tests
    alone met "too many clients" two hundred tests in."""
    from eloleague import league

    before = set(league._ENGINES)
    yield
    for url, engine in list(league._ENGINES.items()):
        if url not in before and engine.dialect.name == "postgresql":
            engine.dispose()
