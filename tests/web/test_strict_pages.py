"""Pages hold what a strict Content-Security-Policy allows (default-src 'self'; no inline script
or style): no <script> or <style> element, no style="..." or on...="..." attribute, nothing
loaded from another site."""

from __future__ import annotations

import re
from urllib.parse import quote

from fastapi.testclient import TestClient

from tests.web.conftest import BE, DIPLO

INLINE = re.compile(r"<script|<style|\sstyle=|\son[a-z]+=|(?:src|href)=\"(?:https?:)?//", re.I)


def test_public_pages_have_no_inline_script_or_style(read_client: TestClient) -> None:
    event = read_client.get(f"/api/v1/leagues/{BE}/events").json()["events"][0]["name"]
    top = read_client.get(f"/api/v1/leagues/{BE}", params={"per_page": "1"}).json()["rows"][0]
    diplo = read_client.get(
        f"/api/v1/leagues/{DIPLO}", params={"per_page": "1", "role": "*", "mode": "classic"}
    ).json()["rows"][0]
    urls = [
        "/",
        f"/leagues/{BE}",
        f"/leagues/{BE}/players/{quote(top['player'])}",
        f"/leagues/{DIPLO}/players/{quote(diplo['player'])}",
        f"/leagues/{BE}/games/g1",
        f"/leagues/{BE}/events",
        f"/leagues/{BE}/events/{quote(event)}",
        f"/leagues/{BE}/list",
        f"/leagues/{BE}/titles",
        f"/leagues/{BE}/rules",
        "/login",
    ]
    for url in urls:
        for lang in ("fr", "en"):
            page = read_client.get(url, params={"lang": lang}, follow_redirects=True)
            assert page.status_code == 200, url
            assert INLINE.findall(page.text) == [], url


def test_french_pages_put_a_narrow_no_break_space_before_a_colon(read_client: TestClient) -> None:
    rules = read_client.get(f"/leagues/{BE}/rules", params={"lang": "fr"}).text
    assert "Règles\u202f: " in rules and "Règles: " not in rules
    home = read_client.get("/", params={"lang": "fr"}).text
    assert "Dernière manifestation\u202f: " in home
    english = read_client.get(f"/leagues/{BE}/rules", params={"lang": "en"}).text
    assert "Rules: " in english
