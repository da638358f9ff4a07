"""The league's web site and JSON API: ``create_app(settings)`` and ``serve``.

>>> app = create_app(Settings(db="club.db"))  # doctest: +SKIP
>>> serve("club.db", "127.0.0.1", 8000)  # doctest: +SKIP
"""

from __future__ import annotations

import sys

from eloleague.web.app import create_app
from eloleague.web.settings import Settings

__all__ = ["Settings", "create_app", "serve"]


SWITCH_INTERVAL = 0.001  # seconds


def serve(db: str | None = None, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Serve the site of the database ``db`` with Uvicorn until interrupted."""
    import os
    import socket

    import uvicorn

    from eloleague.errors import EloleagueError

    app = create_app(Settings.from_env(db=db))
    # Heavy requests (an upload's dry run, a recompute) run in threads beside the pages: a thread
    # waiting for the interpreter gets it within a millisecond instead of Python's default five,
    # so a ranking page keeps its speed while a 5 MB file is checked (docs/web.md).
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        raise EloleagueError(
            f"cannot listen on {host}:{port}: {os.strerror(exc.errno) if exc.errno else exc} "
            "(is another server running there? "
            "choose another --port)"
        ) from None
    uvicorn.run(app, host=host, port=port, log_level="info", proxy_headers=False)
