"""Pages, API reads and static files sent gzipped to the browsers and programs that accept it
(docs/web.md, "Compressed answers"): Starlette's ``GZipMiddleware``, for ``GET`` requests only.

A player reading the site on a phone gets a page of the ranking in a fifth of the bytes, an
event's page of 200 games in a tenth (docs/benchmarks.md, "Web site"). Answers to writes stay
plain: a game server's post of 1,000 games is answered with about 280 KB that its server's CPU
would otherwise compress, on the path whose speed is measured (docs/benchmarks.md, "Live
results"). Files that are compressed already (the list's workbook and PDF, images, fonts) are
sent as they are.
"""

from __future__ import annotations

from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

LEVEL = 6
"""zlib's level: its default, about the bytes of level 9 for much less time on a large page."""

SMALLEST = 1024
"""Bytes below which an answer is sent plain (a redirect, an error, a small API answer)."""

PACKED = (
    *DEFAULT_EXCLUDED_CONTENT_TYPES,
    "application/pdf",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
)
"""Content types sent as they are: their data is compressed already."""


class CompressedReads:
    """``GET`` answers gzipped when the request accepts it; every other request passed on."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzipped = GZipMiddleware(
            app, minimum_size=SMALLEST, compresslevel=LEVEL, exclude_content_types=PACKED
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            await self.gzipped(scope, receive, send)
        else:
            await self.app(scope, receive, send)
