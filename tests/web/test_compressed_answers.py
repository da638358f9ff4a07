"""Answers to reads gzipped for a client that accepts it (web/compression.py, docs/web.md
"Compressed answers"), over real HTTP: pages, API reads and static files; never the answers to
writes (a game server's posts), files compressed already, or small answers."""

from __future__ import annotations

import gzip
import json
from urllib.parse import quote

import httpx

from tests.web.conftest import BE, LiveServer, Site

GZIP = {"Accept-Encoding": "gzip", "Accept-Language": "fr"}
PLAIN = {"Accept-Encoding": "identity", "Accept-Language": "fr"}


def _raw(http: httpx.Client, url: str, headers: dict[str, str]) -> tuple[httpx.Response, bytes]:
    """The answer and its bytes as they came over the wire (not decoded)."""
    with http.stream("GET", url, headers=headers) as answer:
        return answer, b"".join(answer.iter_raw())


def test_reads_are_gzipped_for_clients_that_accept_it(live: LiveServer) -> None:
    league = quote(BE)
    with httpx.Client(base_url=live.base, timeout=30) as http:
        for url in (
            f"/leagues/{league}",
            f"/api/v1/leagues/{league}/ranking",
            f"/leagues/{league}/events",
            "/static/style.css",
        ):
            plain, as_is = _raw(http, url, PLAIN)
            packed, wire = _raw(http, url, GZIP)
            assert plain.status_code == packed.status_code == 200, url
            assert "content-encoding" not in plain.headers, url
            assert packed.headers["content-encoding"] == "gzip", url
            assert gzip.decompress(wire) == as_is, url
            assert len(wire) < len(as_is) / 2, (url, len(wire), len(as_is))
            assert "Accept-Encoding" in packed.headers["vary"], url
            # the other layers' headers are on the compressed answer too
            assert "Content-Security-Policy" in packed.headers, url


def test_writes_small_answers_and_packed_files_are_sent_plain(live: LiveServer, site: Site) -> None:
    league = quote(BE)
    games = [
        {
            "id": f"gz-{n}",
            "date": "2026-04-02",
            "sides": [
                {"players": [f"Gzip {n}"], "outcome": "draw"},
                {"players": [f"Gzip {n + 1}"], "outcome": "draw"},
            ],
        }
        for n in range(40)
    ]
    with httpx.Client(base_url=live.base, timeout=60) as http:
        posted = http.post(
            f"/api/v1/leagues/{league}/games",
            content=json.dumps(games),
            headers={**GZIP, "Authorization": f"Bearer {site.officer_token}"},
        )
        assert posted.status_code == 201, posted.text
        assert len(posted.content) > 4096  # large enough to be compressed, were it a read
        assert "content-encoding" not in posted.headers
        assert posted.json()["added"] == 40
        missing, wire = _raw(http, "/api/v1/leagues/nowhere", GZIP)  # under the smallest
        assert missing.status_code == 404 and "content-encoding" not in missing.headers
        assert json.loads(wire)["error"]["code"] == "not_found"
        sheet, wire = _raw(http, f"/leagues/{league}/list.xlsx", GZIP)  # a zip already
        assert sheet.status_code == 200 and "content-encoding" not in sheet.headers
        assert wire[:2] == b"PK"
