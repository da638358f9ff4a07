"""The server's log in the officer's language: Uvicorn's lines and eloleague's own, the access
line's status phrase (docs/web.md, "Start it")."""

from __future__ import annotations

import http
import logging
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

from eloleague.i18n import Text, knows
from eloleague.store.messages import msg
from eloleague.web.server_log import (
    DOMAIN,
    UVICORN_LINES,
    AccessLineFormatter,
    ServerFormatter,
    said_again,
    status_phrase,
)
from tests.web.conftest import BE, Site, free_port
from tests.web.test_workers import _children, _cmd, _get, _serve

NNBSP = "\u202f"


def test_every_line_and_status_phrase_has_its_french() -> None:
    for template in UVICORN_LINES:
        names = dict.fromkeys(re.findall(r"\{(\w+)\}", template), "1")
        assert knows("fr", DOMAIN, Text.of(template, **names)), template
    for status in (200, 201, 204, 303, 304, 400, 401, 403, 404, 405, 409, 413, 415, 422, 429, 500):
        phrase = http.HTTPStatus(status).phrase
        assert status_phrase(status, "fr") != phrase or phrase == "OK", status
        assert status_phrase(status, "en") == phrase
    assert status_phrase(503, "fr") == "Service indisponible"
    assert said_again("Started server process [4242]", "fr") == "Processus serveur démarré [4242]"
    assert said_again("Uvicorn running on http://[::1]:80 (Press CTRL+C to quit)", "fr") == (
        "Site servi sur http://[::1]:80 (Ctrl-C pour arrêter)"
    )
    assert said_again("Some line a later Uvicorn adds", "fr") is None  # printed as written


def _line(formatter: logging.Formatter, level: int, message: object, *args: object) -> str:
    record = logging.LogRecord("eloleague.web", level, __file__, 1, message, args, None)
    return formatter.format(record)


def test_eloleagues_own_lines_are_said_in_the_officers_language() -> None:
    french = ServerFormatter("%(levelprefix)s %(message)s", use_colors=False, lang="fr")
    english = ServerFormatter("%(levelprefix)s %(message)s", use_colors=False, lang="en")
    unset = Text.of(
        "{name} is not set: sessions end when the server restarts", name="ELOLEAGUE_SECRET"
    )
    assert _line(french, logging.WARNING, unset) == (
        f"ATTENTION{NNBSP}:  ELOLEAGUE_SECRET n’est pas définie{NNBSP}: les sessions prendront fin "
        "au redémarrage du serveur"
    )
    assert _line(english, logging.WARNING, unset) == (
        "WARNING:  ELOLEAGUE_SECRET is not set: sessions end when the server restarts"
    )
    # A message of the store's own domain, and a line nobody translates (left as written).
    copying = msg("copying the SQLite log of {path} failed: {reason}", path="a.db", reason="full")
    assert _line(french, logging.WARNING, copying).endswith(
        f"la copie du journal SQLite d’a.db a échoué{NNBSP}: full"  # "de" elided before a vowel
    )
    assert _line(french, logging.INFO, "Loaded %d rows", 3) == f"INFO{NNBSP}:       Loaded 3 rows"
    access = AccessLineFormatter(
        '%(levelprefix)s %(client_addr)s - "%(request_line)s" %(status_code)s',
        use_colors=False,
        lang="fr",
    )
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", "/nope", "1.1", 404),
        None,
    )
    assert access.format(record) == (
        f'INFO{NNBSP}:       127.0.0.1:5000 - "GET /nope HTTP/1.1" 404 Introuvable'
    )


def test_the_real_server_logs_in_french_or_english(site: Site, tmp_path: Path) -> None:
    """``eloleague serve`` as an officer runs it: its start, a request, a missing page, its
    stop, each line in the command's language, none of Uvicorn's English left in French."""
    for lang in ("fr", "en"):
        port = free_port()
        log = tmp_path / f"serve-{lang}.log"
        server = _serve(site.db, port, log=log, lang=lang)
        try:
            assert _get(port, f"/api/v1/leagues/{BE}").status_code == 200
            assert _get(port, "/no-such-page").status_code == 404
        finally:
            server.terminate()
            server.wait(timeout=20)
        text = log.read_text("utf-8")
        lines = text.splitlines()
        if lang == "fr":
            assert any(line.startswith(f"INFO{NNBSP}:") for line in lines), text
            assert "Processus serveur démarré [" in text
            assert f"Site servi sur http://127.0.0.1:{port} (Ctrl-C pour arrêter)" in text
            assert "Application démarrée." in text and "Application arrêtée." in text
            assert f'"GET /api/v1/leagues/{quote(BE)} HTTP/1.1" 200 OK' in text
            assert '"GET /no-such-page HTTP/1.1" 404 Introuvable' in text
            for english in ("Started server process", "Press CTRL+C", "Not Found", "INFO:"):
                assert english not in text, (english, text)
        else:
            assert "INFO:     Started server process [" in text
            assert f"Uvicorn running on http://127.0.0.1:{port} (Press CTRL+C to quit)" in text
            assert '"GET /no-such-page HTTP/1.1" 404 Not Found' in text


def test_ctrl_c_at_the_terminal_stops_the_server_without_a_traceback(
    site: Site, tmp_path: Path
) -> None:
    """A Ctrl-C reaches every process of the terminal's foreground group: the server and its
    helper process for heavy requests. The server stops cleanly, the helper silently."""
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "eloleague", "serve", "--db", str(site.db), "--port", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "ELOLEAGUE_LANG": "fr"},
            start_new_session=True,  # its own group, as a terminal's foreground job
        )
        try:
            assert _get(port, f"/leagues/{BE}").status_code == 200
            helper = [c for c in _children(server.pid) if "spawn_main" in _cmd(c)]
            assert helper, "the helper process for heavy requests runs beside the server"
            os.killpg(server.pid, signal.SIGINT)
            assert server.wait(timeout=20) == 0
        finally:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()
    text = log.read_text("utf-8")
    assert "Processus serveur terminé" in text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
