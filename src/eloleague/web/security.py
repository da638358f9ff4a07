"""Who is asking: signed-cookie sessions for people, bearer tokens for programs, CSRF on forms.

- Sessions live in a cookie signed by Starlette's ``SessionMiddleware`` (itsdangerous) with the
  settings' secret; they hold the user's id, a fingerprint of the password they were opened
  with (a new password ends them) and the session's CSRF token, nothing else.
- Sign-ins: after :data:`MAX_FAILURES` wrong passwords for one name from one address within
  :data:`FAILURE_WINDOW` seconds, that pair must wait (:class:`SignInThrottle`).
- Every form that changes something carries ``csrf_token``; :func:`checked_form` refuses a form
  whose token is missing or does not match the session's (compared in constant time).
- API writes need ``Authorization: Bearer <token>`` (tokens from ``eloleague token create``).
- Roles (:mod:`eloleague.accounts`): officers may do everything; referees may upload results
  that wait for an officer's review.
"""

from __future__ import annotations

import hmac
import secrets

from starlette.datastructures import FormData
from starlette.requests import Request

from eloleague import accounts
from eloleague.accounts import User
from eloleague.i18n import Text
from eloleague.web.errors import WebError

CSRF_FIELD = "csrf_token"
_SESSION_USER = "uid"
_SESSION_CSRF = "csrf"
_SESSION_STAMP = "stamp"  # the password's fingerprint: a new password ends old sessions


def csrf_token(request: Request) -> str:
    """The session's CSRF token (created on first use)."""
    token = request.session.get(_SESSION_CSRF)
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        request.session[_SESSION_CSRF] = token
    return token


async def checked_form(request: Request) -> FormData:
    """The posted form, after checking its CSRF token against the session's."""
    form = await request.form()
    sent = form.get(CSRF_FIELD)
    expected = request.session.get(_SESSION_CSRF)
    if (
        not isinstance(sent, str)
        or not isinstance(expected, str)
        or not hmac.compare_digest(sent.encode(), expected.encode())
    ):
        raise WebError(
            403,
            "csrf",
            Text.of(
                "the form has expired or did not come from this site: reload the page and try again"
            ),
        )
    return form


def session_user(request: Request) -> User | None:
    """The signed-in user of this browser session, if any."""
    if "_user" in request.scope:
        cached: User | None = request.scope["_user"]
        return cached
    uid = request.session.get(_SESSION_USER)
    stamp = request.session.get(_SESSION_STAMP)
    user = (
        accounts.get_user(request.app.state.engine, uid, stamp)
        if isinstance(uid, int) and isinstance(stamp, str)
        else None
    )
    request.scope["_user"] = user
    return user


def log_in(request: Request, user: User) -> None:
    """Start a session for ``user`` (a fresh CSRF token too: no session fixation)."""
    request.session.clear()
    request.session[_SESSION_USER] = user.id
    request.session[_SESSION_STAMP] = accounts.session_stamp(request.app.state.engine, user.id)
    request.session[_SESSION_CSRF] = secrets.token_urlsafe(32)
    request.scope["_user"] = user


def log_out(request: Request) -> None:
    """End the session."""
    request.session.clear()
    request.scope["_user"] = None


def require_user(request: Request, *, officer: bool = False) -> User:
    """The signed-in user (pages), or 401/403."""
    user = session_user(request)
    return _allowed(user, officer)


def bearer_user(request: Request, *, officer: bool = False) -> User:
    """The user whose API token is in ``Authorization: Bearer``, or 401/403."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    user = None
    if scheme.lower() == "bearer" and token.strip():
        user = accounts.user_for_token(request.app.state.engine, token.strip())
    if user is None:
        raise WebError(
            401,
            "unauthorized",
            Text.of(
                "a valid API token is needed: send 'Authorization: Bearer <token>' "
                "(create one with `eloleague token create USER`)"
            ),
            headers={"WWW-Authenticate": "Bearer"},
        )
    return _allowed(user, officer)


def _allowed(user: User | None, officer: bool) -> User:
    if user is None:
        raise WebError(401, "unauthorized", Text.of("sign in first"))
    if officer and not user.is_officer:
        raise WebError(403, "forbidden", Text.of("only an officer may do this"))
    return user


MAX_FAILURES = 5
FAILURE_WINDOW = 15 * 60
MAX_TRACKED = 10_000


class SignInThrottle:
    """Wrong passwords per (address, name), kept in memory for :data:`FAILURE_WINDOW` seconds:
    enough to turn password guessing into a crawl without locking an officer out everywhere."""

    def __init__(self) -> None:
        self._failures: dict[tuple[str, str], list[float]] = {}

    def _recent(self, key: tuple[str, str], now: float) -> list[float]:
        kept = [t for t in self._failures.get(key, []) if now - t < FAILURE_WINDOW]
        if kept:
            self._failures[key] = kept
        else:
            self._failures.pop(key, None)
        return kept

    def wait(self, address: str, name: str, now: float) -> int:
        """Seconds before this pair may try again (0: now)."""
        recent = self._recent((address, name.strip().casefold()), now)
        if len(recent) < MAX_FAILURES:
            return 0
        return max(1, int(recent[0] + FAILURE_WINDOW - now))

    def failed(self, address: str, name: str, now: float) -> None:
        key = (address, name.strip().casefold())
        self._recent(key, now)
        self._failures.setdefault(key, []).append(now)
        if len(self._failures) > MAX_TRACKED:  # many names tried: forget the expired ones
            for other in list(self._failures):
                self._recent(other, now)

    def succeeded(self, address: str, name: str) -> None:
        self._failures.pop((address, name.strip().casefold()), None)
