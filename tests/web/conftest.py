"""Web fixtures: a league database built once per session (real SQLite, real imports), copied for
tests that write; accounts and tokens; the app in-process and a real Uvicorn server on loopback."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient

from eloleague import accounts
from eloleague.league import League, engine_for
from eloleague.web import Settings, create_app
from tests.conftest import REPLAY

BE = "Bataille Empire"
DIPLO = "Diplomatie"
PASSWORD = "correct horse battery"


@dataclass(frozen=True)
class Site:
    """A database with two leagues, an officer and a referee, and their API tokens."""

    db: Path
    officer_token: str
    referee_token: str

    @property
    def url(self) -> str:
        return f"sqlite:///{self.db}"


def _build(path: Path) -> Site:
    be = League.create(str(path), BE, "bataille-empire")
    be.import_file(REPLAY / "bataille-empire.jsonl")
    diplo = League.create(str(path), DIPLO, "diplomacy")
    diplo.import_file(REPLAY / "diplomacy.jsonl")
    engine = engine_for(str(path))
    accounts.add_user(engine, "Claire", PASSWORD, "officer")
    accounts.add_user(engine, "Rémi", PASSWORD, "referee")
    return Site(
        path, accounts.create_token(engine, "Claire"), accounts.create_token(engine, "Rémi")
    )


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return _build(tmp_path_factory.mktemp("site") / "league.db")


def copy_site(site: Site, target: Path) -> Site:
    """A private copy of the database (SQLite's backup API: the WAL is included)."""
    with sqlite3.connect(site.db) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    return Site(target, site.officer_token, site.referee_token)


@pytest.fixture
def site(built_site: Site, tmp_path: Path) -> Site:
    """A database of one's own (for tests that write)."""
    return copy_site(built_site, tmp_path / "league.db")


def app_of(client: TestClient) -> FastAPI:
    """The application a test client drives (the client types it as any ASGI application)."""
    assert isinstance(client.app, FastAPI)
    return client.app


def make_client(site: Site) -> TestClient:
    app = create_app(Settings(db=str(site.db), secret="test-secret-" + "x" * 32))
    return TestClient(app, raise_server_exceptions=False)


@pytest.fixture
def client(site: Site) -> TestClient:
    """The app in-process, on a private database."""
    return make_client(site)


@pytest.fixture(scope="session")
def shared_client(built_site: Site) -> TestClient:
    return make_client(built_site)


@pytest.fixture
def read_client(shared_client: TestClient) -> TestClient:
    """The app in-process, on the shared database (tests that only read), without the cookies
    (language, session) an earlier test left."""
    shared_client.cookies.clear()
    return shared_client


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """A real Uvicorn server in a thread, on a free loopback port."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        app = create_app(Settings(db=str(site.db), secret="live-secret-" + "y" * 32))
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def live(site: Site) -> Iterator[LiveServer]:
    """A real server on a private database."""
    with LiveServer(site) as server:
        yield server


@contextlib.contextmanager
def serving(
    db: str, *options: str, secret: str = "served-" + "s" * 40
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``eloleague serve --db DB OPTIONS`` in its own process (and session: its workers are
    stopped with it) on a free loopback port, once it answers; (base URL, process)."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "eloleague", "serve", "--db", db, "--port", str(port), *options],
        env={**os.environ, "ELOLEAGUE_SECRET": secret},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/api/v1/leagues", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("the server did not start")
            time.sleep(0.1)
        yield base, proc
    finally:
        # The whole group: killing Uvicorn's supervisor alone leaves its workers running.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=20)


T = TypeVar("T")


def in_a_loop_of_its_own(work: Coroutine[Any, Any, T]) -> T:
    """``work`` run by an event loop of a thread of its own (the suite's browser tests may leave
    one set in this thread, where ``asyncio.run`` refuses to start another)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, work).result()
