"""Who is asking: server-side sessions for people, bearer tokens for programs, CSRF on forms.

- A browser session is a row of ``web_sessions`` (:mod:`eloleague.store.sessions`); the cookie,
  signed by Starlette's ``SessionMiddleware`` (itsdangerous) with the settings' secret, holds only
  its random id (the database keeps the id's SHA-256 digest). Signing out, a new password and
  "sign out everywhere" delete rows, so the session ends at once on every worker. A session ends
  after ``Settings.session_idle_timeout`` seconds without a request and
  ``Settings.session_max_age`` seconds after signing in (docs/web.md, "Sessions").
- Sign-ins: after :data:`MAX_FAILURES` wrong passwords for one name from one address within
  :data:`FAILURE_WINDOW` seconds, that pair must wait (:class:`SignInThrottle`, in the database:
  every worker counts the same failures).
- Every form that changes something carries ``csrf_token``; :func:`checked_form` refuses a form
  whose token is missing or does not match the session's (compared in constant time). A signed-in
  session's token is kept in its row; before signing in, the sign-in form's token is in the cookie.
- API writes need ``Authorization: Bearer <token>`` (tokens from ``eloleague token create``).
- Roles (:mod:`eloleague.accounts`): officers may do everything; referees may upload results
  that wait for an officer's review.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Engine
from starlette.datastructures import FormData
from starlette.requests import Request

from eloleague import accounts
from eloleague.accounts import User
from eloleague.i18n import Text
from eloleague.store import sessions
from eloleague.web.errors import WebError
from eloleague.web.settings import Settings

CSRF_FIELD = "csrf_token"
_SESSION_ID = "sid"  # the cookie's only key once signed in
_ANONYMOUS_CSRF = "csrf"  # the sign-in form's token, before there is a session
_OLD_KEYS = ("uid", "stamp")  # sessions of the signed-cookie kind: they simply end
TOUCH_EVERY = dt.timedelta(seconds=60)  # a session's activity is written at most this often

Clock = Callable[[], dt.datetime]


def _now(request: Request) -> dt.datetime:
    clock: Clock = request.app.state.clock
    return clock()


def _digest(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class _Signed:
    user: User
    csrf: str


def _limits(settings: Settings, now: dt.datetime) -> dict[str, dt.datetime]:
    """Sessions idle since before ``idle_before`` or opened before ``opened_before`` are over."""
    return {
        "idle_before": now - dt.timedelta(seconds=settings.session_idle_timeout),
        "opened_before": now - dt.timedelta(seconds=settings.session_max_age),
    }


def _signed(request: Request) -> _Signed | None:
    """This browser's live session (looked up once per request), or ``None``."""
    if "_signed" in request.scope:
        cached: _Signed | None = request.scope["_signed"]
        return cached
    found = _lookup(request)
    request.scope["_signed"] = found
    return found


def _lookup(request: Request) -> _Signed | None:
    for key in _OLD_KEYS:
        request.session.pop(key, None)
    session_id = request.session.get(_SESSION_ID)
    if not isinstance(session_id, str):
        return None
    engine: Engine = request.app.state.engine
    digest = _digest(session_id)
    record = sessions.find_session(engine, digest)
    now = _now(request)
    limits = _limits(request.app.state.settings, now)
    if record is not None and (
        record.seen_at < limits["idle_before"] or record.created_at < limits["opened_before"]
    ):
        sessions.end_session(engine, digest)
        record = None
    if record is None:  # signed out, expired, or ended elsewhere: the cookie forgets it
        request.session.pop(_SESSION_ID, None)
        return None
    if now - record.seen_at >= TOUCH_EVERY:
        sessions.touch(engine, digest, now)
    return _Signed(User(record.user_id, record.user_name, record.role), record.csrf_token)


def csrf_token(request: Request) -> str:
    """The token the forms of this page carry: the session's, or (signed out) the cookie's."""
    signed = _signed(request)
    if signed is not None:
        return signed.csrf
    token = request.session.get(_ANONYMOUS_CSRF)
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        request.session[_ANONYMOUS_CSRF] = token
    return token


async def checked_form(request: Request) -> FormData:
    """The posted form, after checking its CSRF token against the session's."""
    form = await request.form()
    sent = form.get(CSRF_FIELD)
    signed = _signed(request)
    expected = signed.csrf if signed is not None else request.session.get(_ANONYMOUS_CSRF)
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
    signed = _signed(request)
    return signed.user if signed is not None else None


def log_in(request: Request, user: User) -> None:
    """Start a session for ``user``: a new random id and CSRF token (no session fixation); the
    expired sessions of everyone are forgotten meanwhile."""
    log_out(request)
    session_id = secrets.token_urlsafe(32)
    csrf = secrets.token_urlsafe(32)
    now = _now(request)
    sessions.open_session(
        request.app.state.engine,
        _digest(session_id),
        user.id,
        csrf,
        now,
        **_limits(request.app.state.settings, now),
    )
    request.session[_SESSION_ID] = session_id
    request.scope["_signed"] = _Signed(user, csrf)


def log_out(request: Request) -> None:
    """End this browser's session at once (its row is deleted: every worker sees it)."""
    session_id = request.session.get(_SESSION_ID)
    if isinstance(session_id, str):
        sessions.end_session(request.app.state.engine, _digest(session_id))
    request.session.clear()
    request.scope["_signed"] = None


def sign_out_everywhere(request: Request, name: str) -> int:
    """End every session of the account ``name`` (this browser's too when it is the caller's);
    how many there were."""
    count = accounts.sign_out_everywhere(request.app.state.engine, name)
    me = session_user(request)
    if me is not None and me.name == name:
        request.session.clear()
        request.scope["_signed"] = None
    return count


def live_sessions(request: Request) -> dict[int, int]:
    """How many live sessions each account has (account id: count)."""
    return sessions.live_sessions(
        request.app.state.engine, **_limits(request.app.state.settings, _now(request))
    )


def require_user(request: Request, *, officer: bool = False) -> User:
    """The signed-in user (pages), or 401/403."""
    user = session_user(request)
    return _allowed(user, officer)


def bearer_user(request: Request, *, officer: bool = False) -> User:
    """The user whose API token is in ``Authorization: Bearer``, or 401/403."""
    token = bearer_token(request)
    user = accounts.user_for_token(request.app.state.engine, token) if token else None
    return token_holder(user, officer=officer)


def bearer_token(request: Request) -> str:
    """The token of ``Authorization: Bearer <token>`` ('' when there is none)."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def token_holder(user: User | None, *, officer: bool = False) -> User:
    """The user a bearer token belongs to (:func:`eloleague.accounts.user_for_token`), or
    401/403."""
    if user is None:
        raise WebError(
            401,
            "unauthorized",
            Text.of(
                "a valid API token is needed: send `Authorization: Bearer <token>` "
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


class SignInThrottle:
    """Wrong passwords per (address, name), kept in the database for :data:`FAILURE_WINDOW`
    seconds (every worker and machine counts the same ones): enough to turn password guessing
    into a crawl without locking an officer out everywhere."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @staticmethod
    def _key(address: str, name: str) -> str:
        pair = f"{address}\x00{name.strip().casefold()}"
        return hashlib.sha256(pair.encode("utf-8", "surrogatepass")).hexdigest()

    def wait(self, address: str, name: str, now: dt.datetime) -> int:
        """Seconds before this pair may try again (0: now)."""
        window = dt.timedelta(seconds=FAILURE_WINDOW)
        recent = sessions.recent_failures(self.engine, self._key(address, name), now - window)
        if len(recent) < MAX_FAILURES:
            return 0
        return max(1, int((recent[-MAX_FAILURES] + window - now).total_seconds()))

    def failed(self, address: str, name: str, now: dt.datetime) -> None:
        """Note a wrong password (and forget the failures past the window, of every pair)."""
        forget = now - dt.timedelta(seconds=FAILURE_WINDOW)
        sessions.add_failure(self.engine, self._key(address, name), now, forget_before=forget)

    def succeeded(self, address: str, name: str) -> None:
        """The right password: this pair's failures are forgotten."""
        sessions.clear_failures(self.engine, self._key(address, name))
