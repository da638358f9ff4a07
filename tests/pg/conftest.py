"""The league tests run on SQLite and on a real PostgreSQL server (``db_url`` is parametrised)."""

from tests.pg.server import db_url, pg_server  # noqa: F401 - fixtures
