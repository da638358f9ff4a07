"""The league's web site and JSON API (issue 5): ``create_app(settings)`` and ``serve``.

>>> app = create_app(Settings(db="club.db"))  # doctest: +SKIP
>>> serve("club.db", "127.0.0.1", 8000)  # doctest: +SKIP
"""

from __future__ import annotations

from eloleague.web.app import create_app
from eloleague.web.settings import Settings

__all__ = ["Settings", "create_app", "serve"]


def serve(db: str | None = None, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Serve the site of the database ``db`` with Uvicorn until interrupted."""
    import uvicorn

    app = create_app(Settings.from_env(db=db))
    uvicorn.run(app, host=host, port=port, log_level="info", proxy_headers=False)
