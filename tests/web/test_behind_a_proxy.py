"""Behind a reverse proxy (docs/web.md, "Behind a reverse proxy"): ``eloleague serve`` believes
the ``X-Forwarded-For`` of the proxies it is told of (127.0.0.1 unless told otherwise), so the
sign-in limit counts each visitor's wrong passwords by her own address: a stranger guessing an
officer's password from one address does not lock the officer out at every other. A real server
in its own process, real HTTP."""

from __future__ import annotations

import httpx
import pytest

from tests.web.conftest import PASSWORD, Site, serving
from tests.web.test_writes import _csrf


def sign_in(base: str, address: str, password: str) -> int:
    """A sign-in as Claire by a visitor at ``address`` (as the proxy on 127.0.0.1 says)."""
    with httpx.Client(base_url=base, headers={"X-Forwarded-For": address}) as http:
        token = _csrf(http.get("/login").text)
        data = {"name": "Claire", "password": password, "csrf_token": token}
        return http.post("/login", data=data, follow_redirects=False).status_code


@pytest.mark.parametrize(
    ("options", "believed"),
    [((), True), (("--forwarded-allow-ips", "10.9.9.9"), False)],
    ids=["the-proxy-on-this-machine", "another-proxy-only"],
)
def test_wrong_passwords_count_by_the_visitors_own_address(
    site: Site, options: tuple[str, ...], believed: bool
) -> None:
    with serving(str(site.db), *options) as (base, _):
        guesses = [sign_in(base, "203.0.113.7", f"guess {n}") for n in range(5)]
        assert guesses == [401] * 5
        assert sign_in(base, "203.0.113.7", PASSWORD) == 429  # the guesser waits
        # Claire herself, elsewhere: signed in when the proxy's word is believed; when it is
        # not, every visitor is the proxy's address, and she waits with the guesser.
        assert sign_in(base, "198.51.100.2", PASSWORD) == (303 if believed else 429)
