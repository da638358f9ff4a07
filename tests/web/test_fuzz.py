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
_game_like = st.fixed_dictionaries(
    {
        "date": st.sampled_from(["2026-01-01", "2026-02-30", "", "x"]),
        "sides": st.lists(
            st.fixed_dictionaries(
                {
                    "players": st.lists(st.text(max_size=6), max_size=2),
                    "outcome": st.sampled_from(["defeat", "draw", "decisive_victory", "win", ""]),
                }
            ),
            max_size=3,
        ),
    },
    optional={"id": st.text(max_size=5), "round": _json, "rated": _json},
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
