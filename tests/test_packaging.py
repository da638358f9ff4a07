"""The installed package holds every file it reads at run time: templates, the vendored static
assets, the French catalogues, the rule presets, the demo data and Alembic's script template.

A wheel built before this test existed lacked the templates and catalogues (``pip install`` of it
served no page); every non-Python file of the package must match a ``package-data`` pattern.
"""

from __future__ import annotations

import tomllib
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).parents[1]
PACKAGE = ROOT / "src" / "eloleague"


def _matches(relative: PurePosixPath, pattern: str) -> bool:
    if "**" in pattern:  # setuptools: "**" spans folders
        head, _, tail = pattern.partition("**/")
        return str(relative).startswith(head) and relative.match(tail or "*")
    return relative.match(pattern) and len(relative.parts) == len(PurePosixPath(pattern).parts)


def test_every_data_file_is_packaged() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["eloleague"]
    data = [
        PurePosixPath(p.relative_to(PACKAGE).as_posix())
        for p in PACKAGE.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts
    ]
    assert len(data) > 40
    missing = [str(p) for p in data if not any(_matches(p, pat) for pat in patterns)]
    assert missing == []
