"""Request bodies (web/bodies.py; docs/web.md, "Posting results from a game server"): bounded by
the site's upload limit on every route; sent with ``Content-Encoding: gzip``, read as the same
body sent plain, the limit counting the decompressed bytes; refused in words when they are not
gzip or in another coding; a stranger still gets 401. Through the app in-process, then a real
server and a real client."""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from eloleague.league import League
from eloleague.web import Settings, create_app
from eloleague.web.bodies import _Gunzip
from tests.web.conftest import BE, Site, in_a_loop_of_its_own, serving

GAMES = f"/api/v1/leagues/{BE}/games"


def games(n: int, prefix: str = "gz") -> bytes:
    """``n`` new games between the league's players, as JSON Lines."""
    lines = (
        {
            "id": f"{prefix}-{k}",
            "date": "2026-01-10",
            "sides": [
                {"players": [f"Joueur {k % 7}"], "outcome": "decisive_victory"},
                {"players": [f"Joueur {(k + 3) % 7}"], "outcome": "defeat"},
            ],
        }
        for k in range(n)
    )
    return b"\n".join(json.dumps(line).encode() for line in lines)


def send(client: TestClient, path: str, body: bytes, token: str | None, **headers: str) -> Any:
    auth = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post(path, content=body, headers={**auth, "Accept-Language": "en", **headers})


def stored(site: Site) -> set[str]:
    return {g.id for g in League.open(str(site.db), BE).games() if g.id is not None}


def test_a_gzip_body_is_read_as_the_same_body_sent_plain(client: TestClient, site: Site) -> None:
    body = games(300)
    plain = send(client, GAMES + "/preview", body, site.officer_token)
    packed = send(
        client, GAMES + "/preview", gzip.compress(body), site.officer_token,
        **{"Content-Encoding": "gzip"},
    )  # fmt: skip
    assert plain.status_code == packed.status_code == 200, packed.text
    assert packed.json() == plain.json() and packed.json()["added"] == 300
    # The post itself, small enough for the lean path had it been plain; x-gzip is gzip too.
    for n, coding in enumerate(("gzip", "x-gzip", "GZip ")):
        few = games(3, f"p{n}")
        got = send(
            client, GAMES, gzip.compress(few), site.officer_token, **{"Content-Encoding": coding}
        )
        assert got.status_code == 201, got.text
        assert got.json()["added"] == 3
    assert {f"p{n}-{k}" for n in range(3) for k in range(3)} <= stored(site)
    identity = send(client, GAMES, games(2, "id"), site.officer_token, **{"Content-Encoding": "identity"})  # fmt: skip
    assert identity.status_code == 201 and {"id-0", "id-1"} <= stored(site)


def test_a_stranger_gets_401_whatever_the_coding(client: TestClient, site: Site) -> None:
    for coding, body in (("gzip", gzip.compress(games(3))), ("br", b"\x1b\x00"), ("gzip", b"x")):
        got = send(client, GAMES, body, None, **{"Content-Encoding": coding})
        assert got.status_code == 401, (coding, got.text)


def test_what_is_not_the_gzip_it_says_is_refused_in_words(client: TestClient, site: Site) -> None:
    before = stored(site)
    packed = gzip.compress(games(5))
    cases = {
        "it is not gzip data": games(5),  # sent plain, said gzip
        "it ends before its gzip data does": packed[: len(packed) // 2],
        "something follows its gzip data": packed + b"more",
    }
    for why, body in cases.items():
        got = send(client, GAMES, body, site.officer_token, **{"Content-Encoding": "gzip"})
        assert got.status_code == 400, got.text
        assert got.json()["error"]["message"] == (
            f"the body is not what its Content-Encoding says (gzip): {why}"
        )
    french = send(
        client, GAMES, games(5), site.officer_token,
        **{"Content-Encoding": "gzip", "Accept-Language": "fr"},
    )  # fmt: skip
    assert french.json()["error"]["message"] == (
        "le corps de la requête n’est pas ce que dit son Content-Encoding (gzip)\u202f: ce ne "
        "sont pas des données gzip"
    )
    assert stored(site) == before


@pytest.mark.parametrize("coding", ["br", "zstd", "deflate", "gzip, gzip"])
def test_another_coding_is_refused_with_415(client: TestClient, site: Site, coding: str) -> None:
    got = send(client, GAMES, zlib.compress(games(2)), site.officer_token, **{"Content-Encoding": coding})  # fmt: skip
    assert got.status_code == 415, got.text
    error = got.json()["error"]
    assert error["code"] == "unsupported_encoding"
    assert error["message"] == (
        f"the body is encoded as {coding}, which the site does not read: send it as it is, or "
        "compressed with gzip (`Content-Encoding: gzip`)"
    )


def test_a_request_without_a_body_goes_on_whatever_its_coding(
    client: TestClient, site: Site
) -> None:
    """Nothing to decode: a request that says a coding and sends no body is answered as the
    same request without the header (a post without games: "no games in the request")."""
    plain = send(client, GAMES, b"", site.officer_token)
    assert plain.status_code == 422, plain.text
    for coding in ("gzip", "br"):
        got = send(client, GAMES, b"", site.officer_token, **{"Content-Encoding": coding})
        assert (got.status_code, got.json()) == (plain.status_code, plain.json())
        listed = client.get("/api/v1/leagues", headers={"Content-Encoding": coding})
        assert listed.status_code == 200


async def _messages(reader: Any, count: int) -> list[Any]:
    return [await reader() for _ in range(count)]


def test_after_the_body_the_route_hears_the_client_leave() -> None:
    """Once the body's end is handed on, what the server receives next (the client leaving) is
    handed on as it comes, as a response listening for it expects (not the body's end again)."""
    sent = iter(
        [
            {"type": "http.request", "body": gzip.compress(b"[1, 2]"), "more_body": False},
            {"type": "http.disconnect"},
        ]
    )

    async def receive() -> Any:
        return next(sent)

    got = in_a_loop_of_its_own(_messages(_Gunzip(receive, 1000), 3))
    assert [m.get("body") for m in got[:2]] == [b"[1, 2]", b""]
    assert got[1]["more_body"] is False and got[2] == {"type": "http.disconnect"}


def test_the_upload_limit_counts_the_decompressed_bytes(site: Site) -> None:
    app = create_app(Settings(db=str(site.db), secret="s" * 40, max_upload_bytes=100_000))
    client = TestClient(app, raise_server_exceptions=False)
    bomb = gzip.compress(b" " * 50_000_000)  # 50 MB of spaces, about 50 KB sent
    assert len(bomb) < 100_000
    got = send(client, GAMES, bomb, site.officer_token, **{"Content-Encoding": "gzip"})
    assert got.status_code == 413 and got.json()["error"]["code"] == "too_large"
    fits = games(200)  # about 30 KB: under the limit, compressed or not
    got = send(client, GAMES, gzip.compress(fits), site.officer_token, **{"Content-Encoding": "gzip"})  # fmt: skip
    assert got.status_code == 201 and got.json()["added"] == 200


def test_every_route_bounds_its_body(site: Site) -> None:
    """The odds of a game (public, its body read by FastAPI) read any body whole before: now
    refused past the upload limit, sent plain or as a gzip that decompresses to gigabytes."""
    app = create_app(Settings(db=str(site.db), secret="s" * 40, max_upload_bytes=100_000))
    client = TestClient(app, raise_server_exceptions=False)
    predict = f"/api/v1/leagues/{BE}/predict"
    big = b'{"sides": [["A"], ["B"]], "x": "' + b"y" * 300_000 + b'"}'
    for body, headers in ((big, {}), (gzip.compress(big), {"Content-Encoding": "gzip"})):
        got = send(client, predict, body, None, **headers)
        assert got.status_code == 413, got.text
        assert got.json()["error"]["message"] == "the upload is larger than 100,000 bytes"
    # the limit as each language writes a quantity: its thousands apart
    got = send(client, predict, big, None, **{"Accept-Language": "fr"})
    assert got.json()["error"]["message"] == "l’envoi dépasse 100\u202f000 octets"
    a, b = list(League.open(str(site.db), BE).players())[:2]
    odds = json.dumps({"sides": [[a], [b]]}).encode()
    as_json = {"Content-Type": "application/json"}
    fine = send(client, predict, odds, None, **as_json)
    packed = send(
        client, predict, gzip.compress(odds), None, **as_json, **{"Content-Encoding": "gzip"}
    )
    assert fine.status_code == packed.status_code == 200 and fine.json() == packed.json()


@pytest.fixture
def served(site: Site) -> Iterator[str]:
    with serving(str(site.db)) as (base, _):
        yield base


def test_a_game_server_posts_a_thousand_games_compressed(served: str, site: Site) -> None:
    body = games(1000, "big")
    packed = gzip.compress(body)
    assert len(packed) * 5 < len(body)
    with httpx.Client(base_url=served, timeout=60) as http:
        got = http.post(
            GAMES,
            content=packed,
            headers={
                "Authorization": f"Bearer {site.officer_token}",
                "Content-Encoding": "gzip",
                "Content-Type": "application/x-ndjson",
            },
        )
    assert got.status_code == 201, got.text
    assert got.json()["added"] == 1000
    assert {f"big-{k}" for k in range(1000)} <= stored(site)
