"""``eloleague serve --workers N``: several real server processes share one database; a session
opened in one process is good in the others and ends in all of them at sign-out (docs/web.md,
"Several workers")."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import httpx

from tests.web.conftest import BE, PASSWORD, Site, free_port
from tests.web.test_writes import _csrf


def _children(pid: int) -> list[int]:
    listed = subprocess.run(
        ["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True, check=False
    )
    return [int(x) for x in listed.stdout.split()]


def test_two_workers_share_sessions_and_sign_out(site: Site, tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k != "ELOLEAGUE_SECRET"}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "eloleague",
            "serve",
            "--db",
            str(site.db),
            "--port",
            str(port),
            "--workers",
            "2",
            "--lang",
            "en",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{base}/api/v1/leagues", timeout=2)
                workers = [c for c in _children(server.pid) if "spawn_main" in _cmd(c)]
                if len(workers) == 2:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.2)
        # No keep-alive: every request is a new connection, taken by whichever worker is free.
        fresh = httpx.Limits(max_keepalive_connections=0)
        with httpx.Client(base_url=base, limits=fresh, timeout=30) as browser:
            token = _csrf(browser.get("/login").text)
            signed = browser.post(
                "/login",
                data={"name": "Claire", "password": PASSWORD, "csrf_token": token},
                follow_redirects=False,
            )
            assert signed.status_code == 303
            kept = dict(browser.cookies)
            for _ in range(20):
                assert browser.get("/admin", follow_redirects=False).status_code == 200
            token = _csrf(browser.get(f"/leagues/{BE}/upload").text)
            out = browser.post("/logout", data={"csrf_token": token}, follow_redirects=False)
            assert out.status_code == 303
        with httpx.Client(base_url=base, limits=fresh, timeout=30, cookies=kept) as replay:
            for _ in range(20):
                got = replay.get("/admin", follow_redirects=False)
                assert got.status_code == 303, got.status_code  # to the sign-in page
        # The site answers on every worker: the ranking, many times over new connections; each
        # worker speaks the language given to serve to a browser that asks for none.
        with httpx.Client(base_url=base, limits=fresh, timeout=30) as reader:
            for _ in range(20):
                assert reader.get(f"/api/v1/leagues/{BE}").status_code == 200
                assert '<html lang="en"' in reader.get(f"/leagues/{BE}").text
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def _cmd(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text()
    except OSError:
        return ""


def _serve(
    db: Path, port: int, *options: str, log: Path | None = None, lang: str = "en"
) -> subprocess.Popen[bytes]:
    """``eloleague serve`` in its own process, what it prints into ``log`` when given; the
    command's language (of its log) ``lang`` whatever this machine's."""
    command = ["serve", "--db", str(db), "--port", str(port), *options]
    out = subprocess.DEVNULL if log is None else log.open("wb")
    return subprocess.Popen(
        [sys.executable, "-m", "eloleague", *command],
        stdout=out,
        stderr=subprocess.STDOUT if log is not None else subprocess.DEVNULL,
        env={**os.environ, "ELOLEAGUE_LANG": lang},
    )


def _get(port: int, path: str, **headers: str) -> httpx.Response:
    """``path`` from the server on ``port``, once it answers (it may still be starting)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            return httpx.get(f"http://127.0.0.1:{port}{path}", headers=headers, timeout=2)
        except httpx.HTTPError:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)


def test_serve_lang_is_the_sites_language_for_a_browser_that_asks_for_none(site: Site) -> None:
    for options, lang in (((), "fr"), (("--lang", "en"), "en")):
        port = free_port()
        server = _serve(site.db, port, *options)
        try:
            assert f'<html lang="{lang}"' in _get(port, f"/leagues/{BE}").text
            asked = _get(port, f"/leagues/{BE}", **{"Accept-Language": "fr"})
            assert '<html lang="fr"' in asked.text  # the browser's choice still comes first
        finally:
            server.terminate()
            server.wait(timeout=20)


def test_the_access_log_can_be_turned_off(site: Site, tmp_path: Path) -> None:
    """A busy results API may go without Uvicorn's line per request; the default keeps it."""
    for options, logged in (((), True), (("--no-access-log",), False)):
        port = free_port()
        log = tmp_path / f"serve-{logged}.log"
        server = _serve(site.db, port, *options, log=log)
        try:
            assert _get(port, f"/api/v1/leagues/{BE}").status_code == 200
        finally:
            server.terminate()
            server.wait(timeout=20)
        text = log.read_text("utf-8")
        assert "Application startup complete" in text  # the server's own lines stay
        assert (f'"GET /api/v1/leagues/{quote(BE)} HTTP/1.1" 200' in text) is logged
