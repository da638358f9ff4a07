"""Two first-time `eloleague init` at once on a new PostgreSQL database: the schema is built once
(an advisory lock around the migration), both leagues are created, neither process is told the
database is "not an eloleague database, or damaged"."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from eloleague.league import League
from eloleague.store import db
from tests.pg.server import PgServer, pg_server  # noqa: F401  (fixture)

pytestmark = pytest.mark.pg


# The command, started once its modules are loaded and a line arrives on standard input: both
# processes then reach the empty database within a millisecond or so (a plain start differs by
# the import time, which hides the race).
_READY_THEN_RUN = """
import sys
import eloleague.cli.league, eloleague.league, alembic.command
from eloleague.cli import main
print("ready", flush=True)
sys.stdin.readline()
sys.argv = ["eloleague", *sys.argv[1:]]
main()
"""


def _init(url: str, league: str) -> subprocess.Popen[str]:
    run = subprocess.Popen(
        [sys.executable, "-c", _READY_THEN_RUN, "init", "--rules", "diplomacy", "-l", league],
        env={**os.environ, "ELOLEAGUE_DB": url, "ELOLEAGUE_LANG": "en"},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert run.stdout is not None and run.stdout.readline().strip() == "ready"
    return run


@pytest.mark.parametrize("trial", range(3))
def test_two_first_inits_at_once_on_postgresql(pg_server: PgServer, trial: int) -> None:  # noqa: F811
    url = pg_server.new_database()
    runs = [_init(url, "Nord"), _init(url, "Sud")]
    for run in runs:
        assert run.stdin is not None
        run.stdin.write("go\n")
        run.stdin.flush()
    results = [(run.wait(timeout=120), *run.communicate()) for run in runs]
    for code, _out, err in results:
        assert code == 0, err
        assert "damaged" not in err and "internal error" not in err
    assert sorted(League.names(url)) == ["Nord", "Sud"]
    assert db.current_revision(db.connect(url)) == db.HEAD
