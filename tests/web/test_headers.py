"""Security headers on every answer (docs/web.md, "Headers"): pages, API, errors (even an
unexpected one), redirects, static files, the API docs."""

from __future__ import annotations

import httpx2
import pytest
from fastapi.testclient import TestClient

from eloleague.web import Settings, create_app
from eloleague.web.headers import CONTENT_SECURITY_POLICY, with_security_headers
from tests.web.conftest import BE, Site


def _check(headers: httpx2.Headers) -> None:  # TestClient is an httpx2 client
    csp = headers.get("content-security-policy")
    assert csp == CONTENT_SECURITY_POLICY
    for part in (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "frame-ancestors 'none'",
        "form-action 'self'",
        "base-uri 'self'",
    ):
        assert part in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert headers.get("x-frame-options") == "DENY"
    assert headers.get("x-content-type-options") == "nosniff"
    assert headers.get("referrer-policy") == "same-origin"


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("get", "/", 200),
        ("get", f"/leagues/{BE}", 200),
        ("get", "/login", 200),
        ("get", "/admin", 303),
        ("get", "/no-such-page", 404),
        ("get", f"/api/v1/leagues/{BE}", 200),
        ("get", "/api/v1/leagues/Nowhere", 404),
        ("get", f"/api/v1/leagues/{BE}?page=x", 422),
        ("post", f"/api/v1/leagues/{BE}/games", 401),
        ("patch", "/api/v1/leagues", 405),
        ("post", "/login", 403),
        ("get", "/static/style.css", 200),
        ("get", "/static/swagger-ui/swagger-ui-bundle.js", 200),
        ("get", "/static/nothing.css", 404),
        ("get", "/api/v1/docs", 200),
        ("get", "/api/v1/openapi.json", 200),
    ],
)
def test_every_answer_carries_the_security_headers(
    read_client: TestClient, method: str, path: str, status: int
) -> None:
    got = read_client.request(method, path, follow_redirects=False)
    assert got.status_code == status
    _check(got.headers)


def test_an_unexpected_error_carries_them_too(site: Site) -> None:
    app = create_app(Settings(db=str(site.db), secret="s" * 40))

    def broken() -> None:
        raise RuntimeError("a bug")

    app.add_api_route("/api/v1/broken", broken)
    app.add_api_route("/broken", broken)
    client = TestClient(app, raise_server_exceptions=False)
    for path in ("/api/v1/broken", "/broken"):
        got = client.get(path)
        assert got.status_code == 500 and "a bug" not in got.text
        _check(got.headers)


def test_the_api_docs_page_has_no_inline_script(read_client: TestClient) -> None:
    page = read_client.get("/api/v1/docs").text
    assert '<script src="/static/api-docs.js"></script>' in page
    assert "<script>" not in page and "style=" not in page
    started = read_client.get("/static/api-docs.js")
    assert started.status_code == 200 and "SwaggerUIBundle(" in started.text


def test_an_answer_s_own_security_header_is_kept_and_not_doubled() -> None:
    """The layer adds what an answer lacks, whatever the case of the names the answer wrote."""
    own = [(b"Content-Security-Policy", b"default-src 'none'"), (b"content-type", b"text/plain")]
    got = with_security_headers(own)
    names = [name.lower() for name, _ in got]
    assert names.count(b"content-security-policy") == 1
    assert (b"Content-Security-Policy", b"default-src 'none'") in got
    assert {b"x-frame-options", b"x-content-type-options", b"referrer-policy"} <= set(names)
    assert len(got) == len(own) + 3
