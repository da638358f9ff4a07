"""Browser tests: Playwright for Python driving Debian's Chromium (never `playwright install`).

They run when ``ELOLEAGUE_TEST_BROWSER=1`` (CI) or ``/usr/bin/chromium`` exists; otherwise they
are skipped with a message saying how to enable them (``apt-get install chromium``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import built_site, live, site  # noqa: F401  (fixtures)

if TYPE_CHECKING:
    from playwright.sync_api import Page

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
SHOTS = (
    Path(os.environ.get("ELOLEAGUE_SCREENSHOTS", ""))
    if os.environ.get("ELOLEAGUE_SCREENSHOTS")
    else None
)


def _wanted() -> bool:
    return os.environ.get("ELOLEAGUE_TEST_BROWSER") == "1" or CHROMIUM.exists()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not _wanted():
        pytest.skip(
            "browser tests need Chromium: apt-get install chromium (or set "
            "ELOLEAGUE_TEST_BROWSER=1 where it is installed)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        yield launched
        launched.close()


def screenshot(page: Page, name: str) -> None:
    """Keep a screenshot when ELOLEAGUE_SCREENSHOTS names a folder (to look at the pages)."""
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
