"""The league's face: an officer sets a display name, a description, a colour and a logo (on the
site or with ``eloleague face``); the header and the home page show them; the home page shows
each league with its top players and latest event."""

from __future__ import annotations

import re
import struct
import zlib
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from eloleague.cli import app
from eloleague.league import League
from tests.web.conftest import BE, DIPLO, PASSWORD, Site, make_client


def _png() -> bytes:
    """A real 1×1 PNG image."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found is not None
    return found.group(1)


def _login(client: TestClient, name: str) -> str:
    page = client.get("/login").text
    client.post("/login", data={"name": name, "password": PASSWORD, "csrf_token": _csrf(page)})
    return _csrf(client.get("/admin").text)


def test_an_officer_sets_the_face_and_the_site_shows_it(site: Site) -> None:
    client = make_client(site)
    token = _login(client, "Claire")
    form = client.get(f"/leagues/{BE}/face", params={"lang": "en"})
    assert form.status_code == 200 and "Display name" in form.text
    saved = client.post(
        f"/leagues/{BE}/face",
        data={
            "csrf_token": token,
            "display_name": "Ligue de Lyon",
            "description": "Parties du jeudi soir",
            "colour": "green",
        },
        files={"logo": ("logo.png", _png(), "image/png")},
        follow_redirects=False,
    )
    assert saved.status_code == 303
    ranking = client.get(f"/leagues/{BE}", params={"lang": "en"}).text
    assert '<a class="brand" href="/">Ligue de Lyon</a>' in ranking
    assert "face-green" in ranking and "Parties du jeudi soir" in ranking
    logo = client.get(f"/leagues/{BE}/logo")
    assert logo.status_code == 200 and logo.headers["content-type"] == "image/png"
    assert logo.content == _png()
    home = client.get("/", params={"lang": "en"}).text
    assert "Ligue de Lyon" in home and f"/leagues/{BE.replace(' ', '%20')}/logo" in home


def test_a_bad_logo_is_refused_and_nothing_changes(site: Site) -> None:
    client = make_client(site)
    token = _login(client, "Claire")
    refused = client.post(
        f"/leagues/{BE}/face",
        data={"csrf_token": token, "display_name": "Autre nom", "lang": "fr"},
        files={"logo": ("logo.svg", b"<svg><script>alert(1)</script></svg>", "image/svg+xml")},
        headers={"Accept-Language": "fr"},
    )
    assert refused.status_code == 422
    assert "Le logo doit être une image PNG ou JPEG" in refused.text
    assert 'value="Autre nom"' in refused.text  # what was typed is kept
    assert League.open(str(site.db), BE).face().display_name is None
    assert client.get(f"/leagues/{BE}/logo").status_code == 404


def test_only_officers_set_the_face(site: Site) -> None:
    client = make_client(site)
    assert client.get(f"/leagues/{BE}/face").status_code in (401, 403)
    token = _login(client, "Rémi")  # a referee
    assert client.get(f"/leagues/{BE}/face").status_code == 403
    denied = client.post(f"/leagues/{BE}/face", data={"csrf_token": token, "display_name": "x"})
    assert denied.status_code == 403
    assert League.open(str(site.db), BE).face().display_name is None


def test_the_cli_sets_the_face(site: Site, tmp_path: Path) -> None:
    logo = tmp_path / "logo.png"
    logo.write_bytes(_png())
    runner = CliRunner()
    args = ["face", "--db", str(site.db), "--league", DIPLO, "--colour", "purple"]
    done = runner.invoke(app, [*args, "--name", "Diplo", "--logo", str(logo)])
    assert done.exit_code == 0, done.output
    wrong = runner.invoke(app, [*args[:-2], "--colour", "chartreuse"], env={"ELOLEAGUE_LANG": "en"})
    # in-process the error reaches the caller (the entry point prints it as one line)
    assert "unknown colour 'chartreuse'" in str(wrong.exception)
    face = League.open(str(site.db), DIPLO).face()
    assert (face.display_name, face.colour, face.logo_type) == ("Diplo", "purple", "image/png")


def test_the_home_page_shows_top_players_and_latest_event(read_client: TestClient) -> None:
    home = read_client.get("/", params={"lang": "en"}).text
    for league in (BE, DIPLO):
        data = read_client.get(
            f"/api/v1/leagues/{league}", params={"per_page": "5"}, follow_redirects=True
        ).json()
        if league == DIPLO:
            data = read_client.get(
                f"/api/v1/leagues/{league}",
                params={"per_page": "5", "role": "*", "mode": "classic"},
            ).json()
        for row in data["rows"]:
            assert row["player"] in home
    latest = read_client.get(f"/api/v1/leagues/{BE}/events").json()["events"][0]["name"]
    assert "Latest event" in home and latest in home
