"""The web site's settings: which database, the cookie secret, page sizes.

Nothing is read at import time: :meth:`Settings.from_env` reads the environment when the app is
created, so tests build as many apps as they like, each with its own database.
"""

from __future__ import annotations

import logging
import os
import secrets
from dataclasses import dataclass, replace
from pathlib import Path

from sqlalchemy.engine import make_url

from eloleague.i18n import LANGUAGES, Text
from eloleague.store.db import database_url

log = logging.getLogger("eloleague.web")

SECRET_ENV = "ELOLEAGUE_SECRET"
SITE_LANG_ENV = "ELOLEAGUE_SITE_LANG"  # the site's language for visitors who ask for none


@dataclass(frozen=True)
class Settings:
    """Everything :func:`eloleague.web.create_app` needs.

    ``db``: a database URL or a SQLite file path (default: ``ELOLEAGUE_DB`` or ``eloleague.db``).
    ``secret``: the key that signs session cookies; default ``ELOLEAGUE_SECRET``, else a key kept
    in ``<database file>.secret`` (created on first start, so restarts keep sessions).
    ``default_lang``: the language when neither the visitor nor the browser chose one.
    ``session_max_age``: seconds a browser session lasts at most after signing in (absolute
    timeout, 14 days); ``session_idle_timeout``: seconds without a request after which it ends
    (2 hours). See docs/web.md, "Sessions".
    ``helper_process``: read uploads and run dry runs in a helper process (``eloleague serve``
    turns it on), which also stops any of them that runs past ``request_seconds`` (a 503). See
    docs/web.md, "Heavy requests".
    """

    db: str | None = None
    secret: str | None = None
    default_lang: str = "fr"
    page_size: int = 50
    max_page_size: int = 1000
    max_upload_bytes: int = 5_000_000
    https_only_cookies: bool = False
    session_max_age: int = 14 * 24 * 3600
    session_idle_timeout: int = 2 * 3600
    helper_process: bool = False
    request_seconds: float = 120.0

    @classmethod
    def from_env(cls, db: str | None = None, **overrides: object) -> Settings:
        """Settings from the environment (``ELOLEAGUE_DB``, ``ELOLEAGUE_SECRET``,
        ``ELOLEAGUE_SITE_LANG``: fr or en, anything else is ignored), then ``overrides``."""
        base = cls(db=db or os.environ.get("ELOLEAGUE_DB"), secret=os.environ.get(SECRET_ENV))
        lang = os.environ.get(SITE_LANG_ENV, "").strip().lower()
        if lang in LANGUAGES:
            base = replace(base, default_lang=lang)
        return replace(base, **overrides)  # type: ignore[arg-type]

    @property
    def url(self) -> str:
        """The database URL."""
        return database_url(self.db)

    def session_secret(self) -> str:
        """The cookie-signing key: given, or kept in a file next to the SQLite database."""
        if self.secret:
            return self.secret
        url = make_url(self.url)
        if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
            path = Path(url.database + ".secret")
            try:
                if path.is_file():
                    text = path.read_text("ascii").strip()
                    if len(text) >= 32:
                        return text
                key = secrets.token_urlsafe(48)
                path.write_text(key + "\n", "ascii")
                path.chmod(0o600)
                return key
            except OSError as exc:
                log.warning(
                    Text.of(
                        "cannot keep the session key in {path} ({reason}): sessions end on restart",
                        path=str(path),
                        reason=exc.strerror or str(exc),
                    )
                )
        else:
            log.warning(
                Text.of("{name} is not set: sessions end when the server restarts", name=SECRET_ENV)
            )
        return secrets.token_urlsafe(48)
