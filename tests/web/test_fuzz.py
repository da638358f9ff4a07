"""Garbage never breaks the API: random bodies get the error shape (never a 500) and change
nothing (hypothesis)."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eloleague.league import League
from tests.web.conftest import BE, Site

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
# Values no league can hold (docs/formats.md, "Limits"): the readers' trial found them passing.
# A lone surrogate: json.dumps writes it as an escape, which UTF-8 has no form for.
_beyond = st.sampled_from(["a\u0000b", "x" * 201, "#²", "#3", "tab\there", "\u0085", "\ud800"])
_game_like = st.fixed_dictionaries(
    {
        "date": st.sampled_from(["2026-01-01", "2026-02-30", "", "x", "9999-12-31", "0999-01-01"]),
        "sides": st.lists(
            st.fixed_dictionaries(
                {
                    "players": st.lists(st.text(max_size=6) | _beyond, max_size=2),
                    "outcome": st.sampled_from(["defeat", "draw", "decisive_victory", "win", ""]),
                }
            ),
            max_size=3,
        ),
    },
    optional={
        "id": st.text(max_size=5) | _beyond,
        "round": _json | st.sampled_from([2**31, 2**63, 10**40, -1]),
        "rated": _json,
        "event": _beyond,
        "mode": _beyond,
    },
)
bodies = (
    st.binary(max_size=200)
    | _json.map(lambda v: json.dumps(v).encode())
    | st.lists(_game_like, max_size=3).map(lambda v: json.dumps(v).encode())
    | _game_like.map(lambda v: json.dumps(v).encode())
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=bodies)
def test_random_bodies_get_the_error_shape_and_change_nothing(
    client: TestClient, site: Site, body: bytes
) -> None:
    league = League.open(str(site.db), BE)
    before = len(league.games())
    got = client.post(
        f"/api/v1/leagues/{BE}/games",
        content=body,
        headers={"Authorization": f"Bearer {site.officer_token}"},
    )
    assert got.status_code in (200, 201, 400, 422), (body, got.text)
    if got.status_code >= 400:
        error = got.json()["error"]
        assert error["code"] in ("invalid_input", "bad_request") and error["message"]
        assert all(p["message"] for p in error["problems"])
        assert len(league.games()) == before
    else:
        assert len(league.games()) == before + got.json()["added"]


def test_damaged_workbooks_and_bombs_uploaded_on_the_site_are_refused_in_words(
    client: TestClient, site: Site
) -> None:
    import io
    import zipfile

    from tests.sheets.fill import filled_workbook, to_bytes
    from tests.web.test_writes import _csrf, _login

    league = League.open(str(site.db), BE)
    good = to_bytes(filled_workbook(league.rules, league.games()[:3], "en", "Tournoi", []))
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as book:
        book.writestr("xl/worksheets/sheet1.xml", b" " * 60_000_000)
    cut = good[: len(good) // 2]
    flipped = bytearray(good)
    flipped[len(good) // 3 : len(good) // 3 + 40] = b"\x00" * 40
    _login(client)
    before = len(league.games())
    for data, words in (
        (bomb.getvalue(), "inflates to more than 40 MB"),
        (cut, "not an Excel workbook"),
        (bytes(flipped), "damaged"),
    ):
        page = client.get(f"/leagues/{BE}/upload?lang=en")
        got = client.post(
            f"/leagues/{BE}/upload",
            data={"csrf_token": _csrf(page.text)},
            files={"sheet": ("tournoi.xlsx", data, "application/octet-stream")},
        )
        assert got.status_code == 422, got.status_code
        assert words in got.text, got.text[-2000:]
    assert len(league.games()) == before
