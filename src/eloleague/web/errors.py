"""One error shape for the whole site (datasette's habit: one handler, one shape).

Every API error is ``{"error": {"code", "message", "problems": [{"location", "message"}]}}``;
every page error is the ``error.html`` page built from the same values. No traceback ever reaches
a visitor: anything unexpected becomes a generic 500 and is logged. Error answers carry the
security headers themselves (:func:`eloleague.web.headers.secure`): Starlette answers an unexpected
error outside every middleware.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Match

from eloleague.errors import (
    BusyError,
    EloleagueError,
    InputError,
    Problem,
    UnavailableError,
    in_source,
)
from eloleague.i18n import Text, knows, render
from eloleague.io.json_errors import json_problem
from eloleague.store.db import unavailable_text, unreachable

log = logging.getLogger("eloleague.web")

RETRY_AFTER = 1  # seconds a client waits before sending again a write refused as busy (503)
UNAVAILABLE_RETRY_AFTER = 5  # the same when the database cannot be reached (a server restarting)


class WebError(Exception):
    """An error to show the visitor or the program: HTTP status, code, message, problems."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        problems: list[Problem] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.problems = list(problems or [])
        self.headers = headers

    def __reduce__(self) -> tuple[type[WebError], tuple[object, ...]]:
        # Pickled whole: it crosses from the helper process (web/offload.py).
        return (type(self), (self.status, self.code, self.message, self.problems, self.headers))


def not_found(what: str, **params: object) -> WebError:
    """A 404 with a translatable message, e.g. ``not_found("no player named {name}", name=n)``."""
    return WebError(404, "not_found", Text.of(what, **params))


class ProblemOut(BaseModel):
    """One problem of a refused request: where (``line 3``, ``body.sides``; empty when the
    message says it all) and what, in the request's language."""

    location: str
    message: str


class ErrorBody(BaseModel):
    """What went wrong: a stable ``code`` (``invalid_input``, ``busy``, ...), a message in the
    request's language, and each problem."""

    code: str
    message: str
    problems: list[ProblemOut]


class ErrorOut(BaseModel):
    """The one error shape: ``{"error": {"code", "message", "problems": [...]}}``."""

    error: ErrorBody


def error_body(error: WebError, lang: str) -> dict[str, Any]:
    """The JSON error shape (:class:`ErrorOut`, which the OpenAPI describes), in ``lang``."""
    problems = [
        ProblemOut(location=translate(p.location, lang), message=translate(p.message, lang))
        for p in error.problems
    ]
    body = ErrorBody(code=error.code, message=translate(error.message, lang), problems=problems)
    return ErrorOut(error=body).model_dump()


DOMAINS = ("web", "league", "tools", "sheets", "messages-readers", "messages")


def translate(message: str, lang: str) -> str:
    """A message in ``lang``, from the first catalogue that knows it (the site's own, then those
    of the league service, the tools, the sheets and the readers)."""
    if isinstance(message, Text):  # its template looked up (rendered, it would always differ)
        found = next((d for d in DOMAINS if knows(lang, d, message)), DOMAINS[0])
        return render(message, lang, found)
    for domain in DOMAINS:
        translated = render(message, lang, domain)
        if translated != message:
            return translated
    return message


def as_web_error(exc: Exception) -> WebError:
    """Any exception as the error the visitor sees."""
    if isinstance(exc, WebError):
        return exc
    if isinstance(exc, InputError):
        message = Text.plural(
            "the input has {count} problem; nothing was stored",
            "the input has {count} problems; nothing was stored",
            len(exc.problems),
        )
        located = [in_source(exc.source, p) if exc.source else p for p in exc.problems]
        return WebError(422, "invalid_input", message, located)
    if isinstance(exc, UnavailableError) or unreachable(exc):  # a database restarting
        detail = exc.detail if isinstance(exc, UnavailableError) else str(exc)
        _note_unreachable(detail)  # the driver's words name hosts: never to a visitor
        return WebError(
            503,
            "unavailable",
            unavailable_text(),
            headers={"Retry-After": str(UNAVAILABLE_RETRY_AFTER)},
        )
    if isinstance(exc, BusyError):  # nothing was stored: the client sends it again later
        return WebError(503, "busy", exc.message, headers={"Retry-After": str(RETRY_AFTER)})
    if isinstance(exc, EloleagueError):
        return WebError(400, "bad_request", exc.message)
    if isinstance(exc, RequestValidationError):
        problems = [_request_problem(e) for e in exc.errors()]
        return WebError(422, "invalid_request", Text.of("the request is not valid"), problems)
    if isinstance(exc, StarletteHTTPException) and isinstance(exc.__cause__, WebError):
        # what reading the body met (web/bodies.py), which FastAPI gives as its own 400
        return exc.__cause__
    if isinstance(exc, StarletteHTTPException):
        codes = {401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed"}
        messages = {
            401: Text.of("sign in first"),
            403: Text.of("you are not allowed to do this"),
            404: Text.of("page not found"),
            405: Text.of("this method is not allowed here"),
        }
        return WebError(
            exc.status_code,
            codes.get(exc.status_code, "http_error"),
            messages.get(exc.status_code, str(exc.detail)),
            headers=dict(exc.headers) if exc.headers else None,
        )
    log.exception(Text.of("internal error"), exc_info=exc)
    return WebError(500, "internal_error", Text.of("internal error: the site could not answer"))


UNREACHABLE_LOG_EVERY = 10.0  # seconds between two log lines of an unreachable database


class _Outage:
    """When an unreachable database was last logged, and the requests refused since."""

    lock = threading.Lock()
    logged = float("-inf")
    refused = 0


def _note_unreachable(detail: str) -> None:
    """Log that the database cannot be reached, once every :data:`UNREACHABLE_LOG_EVERY`
    seconds with the count of requests refused since: under live load an outage would
    otherwise write hundreds of identical lines a second."""
    with _Outage.lock:
        _Outage.refused += 1
        now = time.monotonic()
        if now - _Outage.logged < UNREACHABLE_LOG_EVERY:
            return
        refused, _Outage.logged, _Outage.refused = _Outage.refused, now, 0
    log.warning(
        Text.plural(
            "the database cannot be reached ({count} request refused since the last such line): "
            "{detail}",
            "the database cannot be reached ({count} requests refused since the last such line): "
            "{detail}",
            refused,
            detail=detail,
        )
    )


def _request_problem(error: Mapping[str, Any]) -> Problem:
    """One of pydantic's problems with a request's body, in words the site translates (its own
    are English only); a kind of problem not listed keeps pydantic's words."""
    location = ".".join(str(x) for x in error.get("loc", ()))
    kind = str(error.get("type"))
    if kind == "json_invalid" and isinstance(error.get("input"), str | bytes):
        # pydantic's detail is its parser's English: say what and where in the page's language
        return Problem(
            location, Text.of("not valid JSON: {error}", error=json_problem(error["input"]))
        )
    words = _WORDS.get(kind)
    if words is not None:
        try:
            return Problem(location, words(error.get("ctx") or {}))
        except (KeyError, TypeError):  # a context other than the one expected
            pass
    return Problem(location, str(error.get("msg", "")))


Context = Mapping[str, Any]

# pydantic's kinds of problem (its ``type``), each with the words the site says it in.
_KINDS: tuple[tuple[tuple[str, ...], Callable[[Context], Text]], ...] = (
    (("missing",), lambda c: Text.of("required")),
    (("extra_forbidden",), lambda c: Text.of("not expected here")),
    (("int_type", "int_parsing", "int_from_float"), lambda c: Text.of("expected a whole number")),
    (("float_type", "float_parsing"), lambda c: Text.of("expected a number")),
    (("bool_type", "bool_parsing"), lambda c: Text.of("expected true or false")),
    (("string_type",), lambda c: Text.of("expected a text")),
    (("list_type", "tuple_type"), lambda c: Text.of("expected a list")),
    (("dict_type", "model_type", "model_attributes_type"), lambda c: Text.of("expected an object")),
    (
        ("date_type", "date_parsing", "date_from_datetime_parsing", "date_from_datetime_inexact"),
        lambda c: Text.of("expected a date (YYYY-MM-DD)"),
    ),
    (("greater_than_equal",), lambda c: Text.of("expected {low} or more", low=c["ge"])),
    (("less_than_equal",), lambda c: Text.of("expected {le} or less", le=c["le"])),
    (("greater_than",), lambda c: Text.of("expected more than {gt}", gt=c["gt"])),
    (("less_than",), lambda c: Text.of("expected less than {lt}", lt=c["lt"])),
    (
        ("too_long",),
        lambda c: Text.of(
            "expected at most {most} items, not {count}",
            most=c["max_length"],
            count=c["actual_length"],
        ),
    ),
    (
        ("too_short",),
        lambda c: Text.plural(
            "expected at least {count} item", "expected at least {count} items", c["min_length"]
        ),
    ),
    (
        ("string_too_long",),
        lambda c: Text.of("expected at most {most} characters", most=c["max_length"]),
    ),
    (
        ("string_too_short",),
        lambda c: Text.plural(
            "expected at least {count} character",
            "expected at least {count} characters",
            c["min_length"],
        ),
    ),
    (("json_invalid",), lambda c: Text.of("not valid JSON: {error}", error=c["error"])),
)
_WORDS = {kind: words for kinds, words in _KINDS for kind in kinds}


def wants_json(request: Request) -> bool:
    """API paths answer in JSON; pages answer in HTML."""
    return request.url.path.startswith("/api/")


def install(app: FastAPI) -> None:
    """Route every error through :func:`respond`."""

    async def handler(request: Request, exc: Exception) -> Response:
        error = as_web_error(exc)
        allowed = allowed_methods(request) if error.status == 405 else None
        if allowed:  # Starlette names only the methods of the first route that matched
            error.headers = {**(error.headers or {}), "Allow": allowed}
        return respond(request, error)

    for kind in (
        WebError,
        EloleagueError,
        RequestValidationError,
        StarletteHTTPException,
        Exception,
    ):
        app.add_exception_handler(kind, handler)


_METHOD_ORDER = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods(request: Request) -> str | None:
    """Every method some route accepts at the request's path (a 405's ``Allow``), from the
    app's own routes and those of the routers it includes (``app.state.routers``)."""
    scope = {**request.scope, "method": "GET"}
    routes = [*request.app.router.routes]
    for router in getattr(request.app.state, "routers", ()):
        routes.extend(router.routes)
    found: set[str] = set()
    for route in routes:
        methods = getattr(route, "methods", None)
        if methods and route.matches(scope)[0] != Match.NONE:
            found |= set(methods)
    if not found:
        return None
    return ", ".join(sorted(found, key=lambda m: (*_METHOD_ORDER, m).index(m)))


def respond(request: Request, error: WebError) -> Response:
    """The error as JSON (API) or as the error page."""
    from eloleague.web.headers import secure
    from eloleague.web.pages import page_lang, render_page

    lang = page_lang(request)
    if wants_json(request):
        return secure(
            JSONResponse(error_body(error, lang), status_code=error.status, headers=error.headers)
        )
    body = error_body(error, lang)["error"]
    try:
        response = render_page(request, "error.html", {"error": body}, status=error.status)
    except Exception:  # the error page itself failed: a plain answer, never a traceback
        log.exception(Text.of("the error page failed"))
        return secure(Response("error", status_code=error.status, media_type="text/plain"))
    if error.headers:
        response.headers.update(error.headers)
    return secure(response)
