"""The web application factory: ``create_app(settings)`` builds everything, nothing at import.

Pages (:mod:`pages`), the officers' area (:mod:`admin`) and the JSON API (:mod:`api`) share one
database engine, one template environment, one error handler (:mod:`errors`) and server-side
sessions (:mod:`security`; the cookie, signed by Starlette's ``SessionMiddleware``, holds their id).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources

from fastapi import FastAPI
from starlette.middleware.sessions import SessionMiddleware
from starlette.responses import HTMLResponse
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from eloleague.league import copy_log_in_background, engine_for, utc_now
from eloleague.web import admin, api, errors, pages, tools_api, tools_pages
from eloleague.web.bodies import RequestBodies
from eloleague.web.compression import CompressedReads
from eloleague.web.headers import SecurityHeaders
from eloleague.web.live_posts import GamePosts
from eloleague.web.offload import Offload
from eloleague.web.security import SignInThrottle
from eloleague.web.settings import Settings


def create_app(settings: Settings | None = None) -> FastAPI:
    """A new application serving the leagues of ``settings.db`` (schema migrated if needed)."""
    settings = settings or Settings.from_env()
    app = FastAPI(
        lifespan=_lifespan,
        title="eloleague",
        summary="Elo rankings of game communities: ranking, players, events, results.",
        version="1",
        openapi_url="/api/v1/openapi.json",
        docs_url=None,  # served below from the vendored Swagger UI: no CDN
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.engine = engine_for(settings.url)
    app.state.templates = pages.templates()
    app.state.sign_ins = SignInThrottle(app.state.engine)
    app.state.clock = utc_now  # sessions' and sign-ins' time (tests give another clock)
    app.state.offload = Offload(enabled=settings.helper_process, seconds=settings.request_seconds)
    app.add_middleware(
        SessionMiddleware,
        secret_key=settings.session_secret(),
        session_cookie="eloleague_session",
        max_age=settings.session_max_age,
        same_site="lax",
        https_only=settings.https_only_cookies,
    )
    static = resources.files("eloleague.web") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.state.routers = (
        api.router,
        tools_api.router,
        admin.router,
        tools_pages.router,
        pages.router,
    )
    for router in app.state.routers:
        app.include_router(router)
    app.add_middleware(GamePosts)  # inside the header layers, outside the session's
    app.add_middleware(RequestBodies)  # what GamePosts and the routes read: bounded, decompressed
    app.add_middleware(VaryByVisitor)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(CompressedReads)  # outermost: what it compresses has every header
    app.add_api_route("/api/v1/docs", _swagger_ui, include_in_schema=False)
    errors.install(app)
    return app


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The helper process for heavy requests starts with the server and stops with it, and so
    does the thread copying SQLite's log into the database (store/wal.py: results posted live
    no longer pay for that copy)."""
    app.state.offload.start()
    copier = copy_log_in_background(app.state.engine)
    try:
        yield
    finally:
        if copier is not None:
            copier.close()
        app.state.offload.close()


_VARY = (b"vary", b"Accept-Language, Cookie")


class VaryByVisitor:
    """Pages and API answers depend on the language (``Accept-Language``, the ``lang`` cookie)
    and on who is signed in: ``Vary`` tells shared caches not to hand one visitor's answer to
    another. A plain ASGI middleware (it only adds a header to the response's start)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith("/static/"):
            await self.app(scope, receive, send)
            return

        async def send_with_vary(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), _VARY]
            await send(message)

        await self.app(scope, receive, send_with_vary)


_SWAGGER_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>eloleague API</title>
<link rel="stylesheet" href="/static/swagger-ui/swagger-ui.css">
<link rel="icon" href="/static/swagger-ui/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/static/swagger-ui/swagger-ui-bundle.js"></script>
<script src="/static/api-docs.js"></script>
</body>
</html>
"""


def _swagger_ui() -> HTMLResponse:
    """The browsable API documentation, from ``static/swagger-ui`` (swagger-ui-dist 5.35.0,
    Apache-2.0, vendored so that it works offline), started by ``static/api-docs.js`` (no inline
    script: the Content-Security-Policy forbids them)."""
    return HTMLResponse(_SWAGGER_PAGE)
