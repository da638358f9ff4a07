"""The league tests run on SQLite and on a real PostgreSQL server (``db_url`` is parametrised)."""

from collections.abc import Callable

import pytest

from tests.pg.server import PgServer, db_url, pg_server  # noqa: F401 - fixtures


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.pg)])
def new_db(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Callable[[], str]:
    """Makes the URL of a fresh database at each call (one or more per Hypothesis example)."""
    if request.param == "sqlite":
        return lambda: f"sqlite:///{tmp_path_factory.mktemp('live') / 'league.db'}"
    server: PgServer = request.getfixturevalue("pg_server")
    return server.new_database
