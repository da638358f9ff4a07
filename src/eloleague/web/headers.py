"""Security headers on every answer: pages, API, errors, static files, the API docs (docs/web.md,
"Headers").

The Content-Security-Policy lets a page use only the site's own scripts, styles and images (no
inline script or style attribute anywhere: the API docs start from ``static/api-docs.js``), never
be framed, and post forms only to the site. A plain ASGI middleware: it only adds headers to the
response's start.
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",  # the blank favicon and Swagger UI's icons are data: URLs
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)

SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


_RAW = tuple(
    (name.lower().encode("latin-1"), value.encode("latin-1"))
    for name, value in SECURITY_HEADERS.items()
)
""":data:`SECURITY_HEADERS` as an answer's start carries them (ASGI: lower-case bytes)."""


def with_security_headers(raw: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """An answer's raw headers with the security headers it does not have yet: one pass over
    its names (Starlette's ``MutableHeaders`` looks each name up again, lowering and encoding
    it: about a quarter of what the site's layers cost an answer; docs/benchmarks.md, "Live
    results")."""
    headers = list(raw)
    present = {name.lower() for name, _ in headers}
    headers.extend(pair for pair in _RAW if pair[0] not in present)
    return headers


def secure(response: Response) -> Response:
    """``response`` with the security headers (for answers made outside the middleware, such as
    the error page of an unexpected error)."""
    response.raw_headers[:] = with_security_headers(response.raw_headers)  # its headers' list
    return response


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = with_security_headers(message.get("headers", ()))
            await send(message)

        await self.app(scope, receive, send_with_headers)
