"""The league's web site and JSON API: ``create_app(settings)`` and ``serve``.

>>> app = create_app(Settings(db="club.db"))  # doctest: +SKIP
>>> serve("club.db", "127.0.0.1", 8000)  # doctest: +SKIP
"""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import TYPE_CHECKING

from eloleague.web.app import create_app
from eloleague.web.settings import Settings

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["Settings", "app_from_environment", "create_app", "serve"]


SWITCH_INTERVAL = 0.001  # seconds


def serve(
    db: str | None = None,
    host: str = "127.0.0.1",
    port: int = 8000,
    workers: int = 1,
    default_lang: str | None = None,
    access_log: bool = True,
    forwarded_allow_ips: str | None = None,
) -> None:
    """Serve the site of the database ``db`` with Uvicorn until interrupted, in ``workers``
    processes (docs/web.md, "Several workers"). ``default_lang``: the site's language for
    visitors who ask for none (:attr:`Settings.default_lang`; else ``ELOLEAGUE_SITE_LANG``, else
    French). ``access_log``: Uvicorn's line per request (about 0.1 ms of CPU each:
    docs/benchmarks.md, "Live results"). ``forwarded_allow_ips``: the reverse proxies whose
    ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed (comma-separated addresses or
    networks, ``*`` for any; default: ``$FORWARDED_ALLOW_IPS``, else 127.0.0.1), so that the
    sign-in limit counts a visitor's wrong passwords by her own address, not the proxy's
    (docs/web.md, "Behind a reverse proxy"). The server's log is in the officer's language
    (:mod:`eloleague.web.server_log`)."""
    import os
    import socket

    import uvicorn

    from eloleague.errors import EloleagueError
    from eloleague.i18n import Text, pick_language
    from eloleague.league import engine_for
    from eloleague.web.server_log import log_config
    from eloleague.web.settings import SECRET_ENV, SITE_LANG_ENV

    settings = Settings.from_env(db=db, helper_process=True)
    if default_lang is not None:
        settings = replace(settings, default_lang=default_lang)
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        raise EloleagueError(
            Text.in_domain(
                "web",
                "cannot listen on {address}: {reason} (is another server running there? choose "
                "another --port)",
                address=f"{host}:{port}",
                reason=os.strerror(exc.errno) if exc.errno else str(exc),
            )
        ) from None
    if workers <= 1:
        app = create_app(settings)
        _share_the_interpreter()
        set_apart_what_lasts()
        uvicorn.run(
            app,
            host=host,
            port=port,
            log_level="info",
            log_config=log_config(pick_language()),
            proxy_headers=True,  # from forwarded_allow_ips only (Uvicorn's default: 127.0.0.1)
            forwarded_allow_ips=forwarded_allow_ips,
            access_log=access_log,
        )
        return
    # The schema is brought up to date once, here, before the workers start; each worker then
    # builds its own application from the environment, with the same database and the same
    # session key (a session signed in one worker is valid in the others: its record is in the
    # database).
    engine_for(settings.url).dispose()
    os.environ["ELOLEAGUE_DB"] = settings.url
    os.environ[SECRET_ENV] = settings.session_secret()
    os.environ[SITE_LANG_ENV] = settings.default_lang
    uvicorn.run(
        "eloleague.web:app_from_environment",
        factory=True,
        workers=workers,
        host=host,
        port=port,
        log_level="info",
        log_config=log_config(pick_language()),
        proxy_headers=True,  # from forwarded_allow_ips only (Uvicorn's default: 127.0.0.1)
        forwarded_allow_ips=forwarded_allow_ips,
        access_log=access_log,
    )


def app_from_environment() -> FastAPI:
    """One worker's application (``serve --workers N``): the settings from the environment."""
    _share_the_interpreter()
    app = create_app(Settings.from_env(helper_process=True))
    set_apart_what_lasts()
    return app


def set_apart_what_lasts() -> None:
    """A server process, once its application is built (and the compiled kernel loaded, when
    numba's cache holds it), sets the objects it has made so far apart from the garbage
    collector's full collections (``gc.freeze``): they last as long as the process, and each
    full collection walked all of them, some 250,000 objects, stopping every request of the
    process for 140 ms or so every twenty posts of 1,000 games; a game server's single-game post
    that met one waited that long. Only what is made later is walked (docs/web.md, "Posting
    results from a game server")."""
    import gc

    from eloleague.engine.fast import warmup

    warmup.load()
    gc.collect()
    gc.freeze()


def _share_the_interpreter() -> None:
    # Heavy requests (an upload's dry run, a recompute) run in threads beside the pages: a thread
    # waiting for the interpreter gets it within a millisecond instead of Python's default five,
    # so a ranking page keeps its speed while a 5 MB file is checked (docs/web.md).
    sys.setswitchinterval(SWITCH_INTERVAL)
