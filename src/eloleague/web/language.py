"""Which language a visitor reads: ``?lang=``, then the ``lang`` cookie, then ``Accept-Language``.

The communities are French-speaking first: when nothing says otherwise, pages are in French
(the default comes from :class:`eloleague.web.settings.Settings`).
"""

from __future__ import annotations

from functools import lru_cache

from starlette.requests import Request

from eloleague.i18n import LANGUAGES

COOKIE = "lang"


@lru_cache(maxsize=256)
def accepted(header: str) -> str | None:
    """The preferred of French and English in an ``Accept-Language`` header, or ``None`` (kept
    for the last few headers read: a browser, or a game's server, sends the same one each time)."""
    best: tuple[float, int, str] | None = None
    for n, part in enumerate(header.split(",")):
        pieces = part.strip().split(";")
        code = pieces[0].strip().lower().split("-")[0]
        if code not in LANGUAGES:
            continue
        quality = 1.0
        for param in pieces[1:]:
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if quality <= 0:
            continue
        candidate = (-quality, n, code)
        if best is None or candidate < best:
            best = candidate
    return best[2] if best else None


def choose(request: Request, default: str) -> str:
    """The language of this request (see the module's docstring). The query and the cookies are
    parsed only when the request has some: a game's server posting results sends neither, and
    its posts are answered many times a second."""
    if request.scope.get("query_string"):
        explicit = request.query_params.get("lang")
        if explicit in LANGUAGES:
            return explicit
    headers = request.headers
    if "cookie" in headers:
        cookie = request.cookies.get(COOKIE)
        if cookie in LANGUAGES:
            return cookie
    return accepted(headers.get("accept-language", "")) or default
