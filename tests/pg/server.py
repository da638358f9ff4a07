"""A throwaway PostgreSQL server for the tests, from Debian's ``postgresql`` package (DESIGN.md).

``initdb`` refuses to run as root, so when the tests run as root the server is started through
``runuser -u postgres --``, its data folder, socket folder and log owned by ``postgres``. Set
``ELOLEAGUE_TEST_PG_URL`` to use an existing server instead (a URL whose user may create
databases). Without either, the PostgreSQL tests skip with a message saying how to enable them;
with ``ELOLEAGUE_TEST_PG=1`` (CI) a missing server is an error instead.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

HOW_TO = (
    "PostgreSQL tests need Debian's postgresql package (apt-get install -y postgresql) "
    "or ELOLEAGUE_TEST_PG_URL=postgresql+psycopg://USER@HOST:PORT/DB"
)


def _binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    """A running server: :meth:`new_database` gives the URL of a fresh, empty database; a server
    the tests started themselves can be stopped and started again (:meth:`stop`, :meth:`start`)."""

    def __init__(self, admin_url: str, control: list[str] | None = None) -> None:
        self.admin_url = admin_url
        self._control = control  # pg_ctl and its options, when the tests run the server

    @property
    def controlled(self) -> bool:
        """Whether :meth:`stop` and :meth:`start` can be used (not with ELOLEAGUE_TEST_PG_URL)."""
        return self._control is not None

    def stop(self) -> None:
        """Stop the server (connections are cut, as when it restarts for maintenance)."""
        assert self._control is not None
        subprocess.run(_as_postgres([*self._control, "-m", "fast", "-w", "stop"]), check=True)

    def start(self) -> None:
        """Start it again, same port and data."""
        assert self._control is not None
        subprocess.run(
            _as_postgres([*self._control, "-w", "start"]), check=True, capture_output=True
        )

    def new_database(self) -> str:
        import psycopg

        name = f"t_{uuid.uuid4().hex[:16]}"
        plain = self.admin_url.replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(plain, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        base = self.admin_url.rsplit("/", 1)[0]
        return f"{base}/{name}"


def _as_postgres(args: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


def start_server() -> Iterator[PgServer]:
    """Start a server (or use ``ELOLEAGUE_TEST_PG_URL``); stop and remove it afterwards."""
    given = os.environ.get("ELOLEAGUE_TEST_PG_URL")
    if given:
        yield PgServer(given)
        return
    bindir = _binaries()
    if bindir is None:
        if os.environ.get("ELOLEAGUE_TEST_PG") == "1":
            pytest.fail(f"ELOLEAGUE_TEST_PG=1 but no PostgreSQL server: {HOW_TO}")
        pytest.skip(HOW_TO)
    root = Path(tempfile.mkdtemp(prefix="eloleague-pg-"))
    data, sock, log = root / "data", root / "sock", root / "log"
    sock.mkdir()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
        shutil.chown(sock, "postgres", "postgres")
    port = _free_port()
    subprocess.run(
        _as_postgres(
            [
                str(bindir / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--locale=C.UTF-8",
            ]
        ),
        check=True,
        capture_output=True,
    )
    options = f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off"
    control = [str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options]
    subprocess.run(_as_postgres([*control, "-w", "start"]), check=True, capture_output=True)
    try:
        yield PgServer(f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres", control)
    finally:
        from eloleague import league

        for engine in list(league._ENGINES.values()):
            if engine.dialect.name == "postgresql":
                engine.dispose()
        subprocess.run(
            _as_postgres([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A PostgreSQL server for the whole session."""
    yield from start_server()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.pg)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a fresh league database: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'league.db'}"
    server: PgServer = request.getfixturevalue("pg_server")
    return server.new_database()
