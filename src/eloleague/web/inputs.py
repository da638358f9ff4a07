"""What a write route receives before it runs: who is asking, the checked form, the body.

Write routes are plain ``def`` functions: FastAPI runs them in its thread pool, so reading a
workbook, an import's dry run, a recompute or a tool never holds the event loop, and the pages of
the ranking keep being served meanwhile (docs/web.md, "Heavy requests"). Only reading the request
itself (the posted form, the body, in chunks) happens on the event loop, in the async
dependencies below. FastAPI resolves a route's dependencies in the order of its parameters: a
route lists who may call it first, then its form or body, so a stranger gets 401 or 403 before
anything large is read.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from starlette.datastructures import FormData

from eloleague.accounts import User
from eloleague.i18n import Text
from eloleague.web.errors import WebError
from eloleague.web.security import bearer_user, checked_form, require_user


def _member(request: Request) -> User:
    return require_user(request)


def _officer(request: Request) -> User:
    return require_user(request, officer=True)


def _token_member(request: Request) -> User:
    return bearer_user(request)


def _token_officer(request: Request) -> User:
    return bearer_user(request, officer=True)


async def _body(request: Request) -> bytes:
    """The request's body, refused with 413 past the site's upload limit (read in chunks)."""
    limit = request.app.state.settings.max_upload_bytes
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_large(limit)
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large(limit)
        chunks.append(chunk)
    return b"".join(chunks)


def too_large(limit: int) -> WebError:
    """The 413 of a file or body past the site's upload limit (« l’envoi dépasse 5 000 000
    octets »: the same words for a form's file and a game server's post)."""
    return WebError(
        413,
        "too_large",
        Text.plural(
            "the upload is larger than {count} byte",
            "the upload is larger than {count} bytes",
            limit,
        ),
    )


Member = Annotated[User, Depends(_member)]
"""A signed-in person (session cookie), else 401."""
Officer = Annotated[User, Depends(_officer)]
"""A signed-in officer, else 401 or 403."""
TokenMember = Annotated[User, Depends(_token_member)]
"""The owner of the bearer token, else 401."""
TokenOfficer = Annotated[User, Depends(_token_officer)]
"""An officer's bearer token, else 401 or 403."""
Form = Annotated[FormData, Depends(checked_form)]
"""The posted form, its CSRF token checked (403 otherwise)."""
Body = Annotated[bytes, Depends(_body)]
"""The request's body, at most the site's upload limit (413 otherwise)."""
