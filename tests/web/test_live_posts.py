"""The lean path of small result posts (web/live_posts.py, docs/web.md "Posting results from a
game server"): a post of a few games is answered before FastAPI, a large or chunked one by
FastAPI's route, and both give the same answers: success, retry, referee, every error."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from eloleague.league import League, write_now
from eloleague.store import db as store_db
from eloleague.store.group_commit import group_of
from eloleague.web import live_posts, views
from tests.conftest import run_cli
from tests.store.test_live_appends import assert_is_a_fresh_replay
from tests.store.test_writer_turn import Other
from tests.web.conftest import BE, Site

URL = f"/api/v1/leagues/{BE}/games"


def _game(n: int) -> dict[str, Any]:
    return {
        "id": f"lean-{n}",
        "date": "2026-04-01",
        "sides": [
            {"players": [f"Lean {n}"], "outcome": "draw"},
            {"players": [f"Lean {n + 1}"], "outcome": "draw"},
        ],
    }


@pytest.fixture
def lean_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The leagues of the posts the lean path answered (in a thread or on the event loop)."""
    calls: list[str] = []
    small_post = live_posts._small_post

    def counted(scope: Any) -> str | None:
        league = small_post(scope)
        if league is not None:
            calls.append(league)
        return league

    monkeypatch.setattr(live_posts, "_small_post", counted)
    return calls


def _chunked(body: bytes) -> Iterator[bytes]:
    """A body sent without Content-Length (chunked): FastAPI's route reads it."""
    yield body


def _post(
    client: TestClient, body: bytes, token: str | None, *, lean: bool, query: str = ""
) -> tuple[int, Any, dict[str, str]]:
    headers = {"Accept-Language": "fr"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    content: Any = body if lean else _chunked(body)
    answer = client.post(URL + query, content=content, headers=headers)
    return answer.status_code, answer.json(), dict(answer.headers)


def test_small_posts_take_the_lean_path_large_ones_the_route(
    client: TestClient, site: Site, lean_calls: list[str]
) -> None:
    small = json.dumps(_game(1)).encode()
    status, answer, headers = _post(client, small, site.officer_token, lean=True)
    assert (status, answer["added"]) == (201, 1) and lean_calls == [BE]
    # answered inside the header layers: the same headers as any API answer
    assert "content-security-policy" in headers and "Accept-Language" in headers["vary"]
    many = json.dumps([_game(n) for n in range(10, 10 + 1000, 2)]).encode()
    assert len(many) > live_posts.SMALL_BODY
    status, answer, _ = _post(client, many, site.officer_token, lean=True)
    assert (status, answer["added"]) == (201, 500) and lean_calls == [BE]  # the route's
    status, _, _ = _post(client, json.dumps(_game(2001)).encode(), site.officer_token, lean=False)
    assert status == 201 and lean_calls == [BE]  # chunked: the route's


def test_the_lean_path_and_the_route_answer_alike(client: TestClient, site: Site) -> None:
    """Each error posted once through each path: same status, same body, same headers."""
    bad = {**_game(50), "sides": [{"players": ["Solo"], "outcome": "draw"}]}
    cases: list[tuple[str, bytes, str | None, str]] = [
        ("no token", json.dumps(_game(60)).encode(), None, URL),
        ("a wrong token", json.dumps(_game(60)).encode(), "elo_not-a-token", URL),
        ("an invalid game", json.dumps(bad).encode(), site.officer_token, URL),
        ("not JSON", b"{nope", site.officer_token, URL),
        ("a bad flag", json.dumps(_game(61)).encode(), site.officer_token, URL + "?update=maybe"),
        ("no league", json.dumps(_game(62)).encode(), site.officer_token, URL.replace(BE, "Nope")),
    ]
    for name, body, token, url in cases:
        headers = {"Accept-Language": "fr"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        lean = client.post(url, content=body, headers=headers)
        route = client.post(url, content=_chunked(body), headers=headers)
        assert lean.status_code == route.status_code and lean.status_code >= 400, name
        assert lean.json() == route.json() and "error" in lean.json(), name
        assert lean.headers.get("www-authenticate") == route.headers.get("www-authenticate")
    # in French, as asked
    status, answer, _ = _post(client, b"{nope", site.officer_token, lean=True)
    assert status == 422 and "rien n’a été enregistré" in answer["error"]["message"]


def test_a_referees_post_is_held_on_either_path(client: TestClient, site: Site) -> None:
    held = [
        _post(client, json.dumps(_game(n)).encode(), site.referee_token, lean=lean)
        for n, lean in ((70, True), (72, False))
    ]
    assert [status for status, _, _ in held] == [202, 202]
    (_, first, _), (_, second, _) = held
    assert first["status"] == second["status"] == "pending_review"
    assert second["upload"] == first["upload"] + 1
    assert first["preview"]["added"] == second["preview"]["added"] == 1
    ranking = client.get(f"/api/v1/leagues/{BE}", params={"q": "Lean 7"}).json()
    assert ranking["rows"] == []  # held, not imported


def test_a_retry_gets_the_same_answer_on_either_path(client: TestClient, site: Site) -> None:
    body = json.dumps(_game(80)).encode()
    first = _post(client, body, site.officer_token, lean=True)
    again_lean = _post(client, body, site.officer_token, lean=True)
    again_route = _post(client, body, site.officer_token, lean=False)
    assert first[0] == again_lean[0] == again_route[0] == 201
    assert first[1] == again_lean[1] == again_route[1] and first[1]["added"] == 1


def test_the_upload_limit_holds_on_the_lean_path(site: Site) -> None:
    from eloleague.web import Settings, create_app

    app = create_app(Settings(db=str(site.db), max_upload_bytes=200))
    with TestClient(app) as small_limit:
        body = json.dumps([_game(90), _game(92)]).encode()
        assert 200 < len(body) <= live_posts.SMALL_BODY
        for lean in (True, False):
            status, answer, _ = _post(small_limit, body, site.officer_token, lean=lean)
            assert status == 413 and answer["error"]["code"] == "too_large"
            # the token first, on either path: a stranger learns nothing of the limit
            status, answer, _ = _post(small_limit, body, None, lean=lean)
            assert status == 401 and answer["error"]["code"] == "unauthorized"


@pytest.mark.parametrize("lean", [True, False])
def test_the_token_is_checked_before_the_league_on_either_path(
    client: TestClient, site: Site, lean: bool
) -> None:
    """The lean path reads the token and the league in one transaction: a stranger still gets
    401 whatever league he names (none, or one no league can have), a member of the site 404."""
    body = json.dumps(_game(94)).encode()
    for league in ("no-such-league", "nul\x00name"):
        url = "/api/v1/leagues/" + league.replace("\x00", "%00") + "/games"
        for token, expected in ((None, 401), ("elo_not-a-token", 401), (site.referee_token, 404)):
            headers = {"Accept-Language": "fr"}
            if token is not None:
                headers["Authorization"] = f"Bearer {token}"
            answer = client.post(url, content=body if lean else _chunked(body), headers=headers)
            assert answer.status_code == expected, (league, token, answer.text)
            code = answer.json()["error"]["code"]
            assert code == ("unauthorized" if expected == 401 else "not_found")
            if expected == 401:  # the header to send, typed as the client must send it
                message = answer.json()["error"]["message"]
                assert message.startswith("un jeton d’API valide est nécessaire\u202f: ")
                assert "`Authorization: Bearer <jeton>`" in message
    status, answer, _ = _post(client, body, site.officer_token, lean=lean)
    assert (status, answer["added"]) == (201, 1)  # the same token, the right league


def test_an_array_of_games_is_read_pretty_printed_and_its_errors_located(
    client: TestClient, site: Site
) -> None:
    """An array's games are read straight from its items (docs/web.md): spread over lines,
    with escapes; a bad item is named by its place; a broken array by the JSON error."""
    first, second = _game(300), _game(302)
    second["sides"][0]["players"] = ["L\\u00e9a 302"]  # an escape, kept as the item wrote it
    pretty = json.dumps([first, second], indent=2).replace('"L\\\\u00e9a', '"L\\u00e9a')
    assert "\n" in pretty and "\\u00e9" in pretty
    status, answer, _ = _post(client, pretty.encode(), site.officer_token, lean=True)
    assert (status, answer["added"]) == (201, 2), answer
    ranking = client.get(f"/api/v1/leagues/{BE}", params={"q": "Léa 302"}).json()
    assert [row["player"] for row in ranking["rows"]] == ["Léa 302"]

    bad = {**_game(304), "sides": [{"players": ["Solo"], "outcome": "draw"}]}
    body = json.dumps([_game(306), bad], indent=2).encode()
    status, answer, _ = _post(client, body, site.officer_token, lean=True)
    assert status == 422
    assert {p["location"] for p in answer["error"]["problems"]} == {"requête\u202f: ligne 2"}
    assert client.get(f"/api/v1/leagues/{BE}", params={"q": "Lean 306"}).json()["rows"] == []

    status, answer, _ = _post(client, b'[{"date": "2026-04-01"},', site.officer_token, lean=True)
    assert status == 422
    assert "JSON" in answer["error"]["problems"][0]["message"]


def test_malformed_json_is_located_in_the_readers_language(client: TestClient, site: Site) -> None:
    """A pretty-printed array with a missing colon on its third line: where and what, in French,
    on either path; and the same for a JSON body read by pydantic (closing a season)."""
    body = b'[\n  {"id": "x", "date": "2026-04-01",\n   "sides" []}\n]'
    for lean in (True, False):
        status, answer, _ = _post(client, body, site.officer_token, lean=lean)
        assert status == 422, answer
        (detail,) = answer["error"]["problems"]
        assert detail["message"] == (
            "le contenu n’est pas du JSON\u202f: un deux-points était attendu "
            "à la ligne 3, colonne 12"
        ), lean
    # one line cut short (read as JSON Lines): the readers' words, in French too
    status, answer, _ = _post(
        client, b'{"id": "x", "date": "2026-04-01", "sides": [', site.officer_token, lean=True
    )
    (detail,) = answer["error"]["problems"]
    assert detail["message"] == "JSON invalide (le texte s’arrête trop tôt à la colonne 45)"
    closed = client.post(
        f"/api/v1/leagues/{BE}/seasons/close",
        content=b'{"end": "2025-12-31",\n "dry_run" true}',
        headers={"Authorization": f"Bearer {site.officer_token}", "Accept-Language": "fr"},
    )
    assert closed.status_code == 422
    (detail,) = closed.json()["error"]["problems"]
    assert detail["message"] == (
        "JSON non valide\u202f: un deux-points était attendu à la ligne 2, colonne 12"
    )


def test_a_lone_surrogate_escape_is_refused_with_its_place(client: TestClient, site: Site) -> None:
    """Half a character escaped (``\\ud800`` without its other half: the standard library reads
    it, UTF-8 has no form for it) is a located error on either path, in an array or in JSON
    Lines, and nothing of the post is stored; a whole pair is one character, stored."""
    half = "Demi \\ud800 308"
    item = json.dumps(_game(308)).replace("Lean 308", half)
    column = item.index("\\ud800") + 1
    french = (
        "JSON invalide (un échappement d’un demi-caractère (\\ud800\u202f: demi-codet isolé) "
        f"à la colonne {column})"
    )
    array = f"[{json.dumps(_game(310))}, {item}]".encode()
    lines = f"{json.dumps(_game(310))}\n{item}".encode()
    for body in (array, lines):
        for lean in (True, False):
            status, answer, _ = _post(client, body, site.officer_token, lean=lean)
            assert status == 422, answer
            (problem,) = answer["error"]["problems"]
            assert problem == {"location": "requête\u202f: ligne 2", "message": french}, lean
            said = "les données ont 1 problème\u202f; rien n’a été enregistré"
            assert answer["error"]["message"] == said
    assert client.get(f"/api/v1/leagues/{BE}", params={"q": "Lean 310"}).json()["rows"] == []
    status, answer, _ = _post(client, f"{item}\n{item}".encode(), site.officer_token, lean=True)
    assert (status, len(answer["error"]["problems"])) == (422, 2)
    assert (
        answer["error"]["message"] == "les données ont 2 problèmes\u202f; rien n’a été enregistré"
    )

    whole = json.dumps(_game(312)).replace("Lean 312", "Smile \\ud83d\\ude00 312")
    status, answer, _ = _post(client, f"[{whole}]".encode(), site.officer_token, lean=True)
    assert (status, answer["added"]) == (201, 1), answer
    ranking = client.get(f"/api/v1/leagues/{BE}", params={"q": "Smile"}).json()
    assert [row["player"] for row in ranking["rows"]] == ["Smile \U0001f600 312"]


@pytest.fixture
def token_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The leagues whose post read its token and league before its write."""
    reads: list[str] = []
    lookup = views.open_league_for_token

    def counted(engine: Any, name: str, token: str) -> Any:
        reads.append(name)
        return lookup(engine, name, token)

    monkeypatch.setattr(views, "open_league_for_token", counted)  # what live_posts calls
    return reads


def test_an_officer_s_next_posts_read_nothing_before_their_write(
    client: TestClient, site: Site, token_reads: list[str]
) -> None:
    """A game server's token is read once: the next posts' own transactions check it."""
    answers = [
        _post(client, json.dumps(_game(n)).encode(), site.officer_token, lean=True)
        for n in (90, 92, 94)
    ]
    assert [status for status, _, _ in answers] == [201, 201, 201]
    assert token_reads == [BE]
    assert len(League.open(str(site.db), BE).games(player="Lean 94")) == 1


def test_a_revoked_token_is_refused_at_once_though_this_process_knew_it(
    client: TestClient, site: Site, token_reads: list[str]
) -> None:
    """Revoked by the command line (another process) between two posts: the second post's
    transaction finds the token gone and stores nothing; read again, it is a 401."""
    assert _post(client, json.dumps(_game(100)).encode(), site.officer_token, lean=True)[0] == 201
    revoked = run_cli("token", "revoke", "Claire", "--db", str(site.db))
    assert revoked.returncode == 0, revoked.stderr
    before = len(League.open(str(site.db), BE).games())
    status, answer, _ = _post(
        client, json.dumps(_game(102)).encode(), site.officer_token, lean=True
    )
    assert status == 401 and answer["error"]["code"] == "unauthorized"
    assert len(League.open(str(site.db), BE).games()) == before
    assert token_reads == [BE, BE]  # the second post read it again, after its write was refused


def test_a_token_whose_account_is_no_longer_an_officer_s_is_held_for_review(
    client: TestClient, site: Site
) -> None:
    """The account's role changed (by hand, in the database) between two posts: the second is
    answered as a referee's post is, held for an officer's review, not imported."""
    assert _post(client, json.dumps(_game(110)).encode(), site.officer_token, lean=True)[0] == 201
    with sqlite3.connect(site.db) as conn:
        conn.execute("UPDATE users SET role = 'referee' WHERE name = 'Claire'")
    before = len(League.open(str(site.db), BE).games())
    status, answer, _ = _post(
        client, json.dumps(_game(112)).encode(), site.officer_token, lean=True
    )
    assert status == 202 and answer["status"] == "pending_review"
    assert len(League.open(str(site.db), BE).games()) == before


@pytest.fixture
def loop_writes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[bool, bool, int]]:
    """Each time posts were written from the event loop: whether it was the loop's own thread,
    whether they were written (else they went to a thread), how many posts."""
    writes: list[tuple[bool, bool, int]] = []

    def seen(queued: Any) -> bool:
        try:
            on_loop = asyncio.get_running_loop() is not None
        except RuntimeError:  # no event loop runs in this thread
            on_loop = False
        done = write_now(queued)
        writes.append((on_loop, done, len(queued)))
        return done

    monkeypatch.setattr(live_posts, "write_now", seen)
    return writes


def test_a_known_officer_s_small_posts_are_written_by_the_event_loop(
    client: TestClient, site: Site, loop_writes: list[tuple[bool, bool, int]]
) -> None:
    """The first post reads its token in a thread; the next ones, from a token the process
    knows, are written by the event loop itself (docs/web.md, "Posting results from a game
    server"), and the league is what a fresh replay gives."""
    answers = [
        _post(client, json.dumps(_game(n)).encode(), site.officer_token, lean=True)
        for n in (120, 122, 124)
    ]
    assert [(status, answer["added"]) for status, answer, _ in answers] == [(201, 1)] * 3
    assert loop_writes == [(True, True, 1), (True, True, 1)]
    again = _post(client, json.dumps(_game(124)).encode(), site.officer_token, lean=True)
    assert again[:2] == answers[2][:2]  # a retry written by the loop: the same answer
    league = League.open(str(site.db), BE)
    assert len(league.games(player="Lean 124")) == 1
    assert_is_a_fresh_replay(league)


def test_a_post_the_loop_cannot_write_at_once_waits_in_a_thread(
    client: TestClient, site: Site, loop_writes: list[tuple[bool, bool, int]]
) -> None:
    """Another write of the process under way (its turn taken): the loop does not wait for it
    (the site's other requests would), the post waits in a thread and is stored after it."""
    assert _post(client, json.dumps(_game(130)).encode(), site.officer_token, lean=True)[0] == 201
    league = League.open(str(site.db), BE)
    gate = group_of(store_db.group_key(league.engine, league.id)).gate
    answered: list[Any] = []
    assert gate.acquire(timeout=10)
    try:
        poster = threading.Thread(
            target=lambda: answered.append(
                _post(client, json.dumps(_game(132)).encode(), site.officer_token, lean=True)
            )
        )
        poster.start()
        deadline = time.monotonic() + 10
        while not loop_writes:
            assert time.monotonic() < deadline, "the post never reached the loop's write"
            time.sleep(0.005)
        assert loop_writes == [(True, False, 1)] and not answered  # left at once, waiting
    finally:
        gate.release()
    poster.join(timeout=30)
    assert [(status, answer["added"]) for status, answer, _ in answered] == [(201, 1)]
    assert len(league.games(player="Lean 132")) == 1


def _posted_behind_another_process(
    client: TestClient, site: Site, loop_writes: list[tuple[bool, bool, int]], n: int, held: float
) -> list[Any]:
    """The answer to a post of game ``n`` made while another process (another worker) holds
    the database's writers' turn, ``held`` seconds after the loop found it taken; checks that
    the turn is free after."""
    assert _post(client, json.dumps(_game(n - 2)).encode(), site.officer_token, lean=True)[0] == 201
    tried = len(loop_writes)
    other = Other(site.db)
    answered: list[Any] = []
    try:
        assert other.ask("take") == "held"
        poster = threading.Thread(
            target=lambda: answered.append(
                _post(client, json.dumps(_game(n)).encode(), site.officer_token, lean=True)
            )
        )
        poster.start()
        deadline = time.monotonic() + 30
        while len(loop_writes) == tried:
            assert time.monotonic() < deadline, "the post never reached the loop's write"
            time.sleep(0.005)
        time.sleep(held)
        assert not answered  # it waits for the turn
        assert other.ask("release") == "released"
        poster.join(timeout=30)
        deadline = time.monotonic() + 30
        while other.ask("try") != "held":  # the loop gave the turn back
            assert time.monotonic() < deadline, "the turn was kept"
            time.sleep(0.01)
        assert other.ask("release") == "released"
    finally:
        other.close()
    return answered


def test_a_post_waits_on_the_loop_for_another_process_s_turn(
    client: TestClient,
    site: Site,
    loop_writes: list[tuple[bool, bool, int]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another worker has the writers' turn: the loop asks for it and goes on serving; once it
    comes, the loop writes the post (no thread waits for it), and gives the turn back."""
    monkeypatch.setattr(live_posts, "TURN_WAIT", 60.0)
    answered = _posted_behind_another_process(client, site, loop_writes, 152, held=0.3)
    assert [(status, answer["added"]) for status, answer, _ in answered] == [(201, 1)]
    assert loop_writes[-2:] == [(True, False, 1), (True, True, 1)]  # asked, then written
    league = League.open(str(site.db), BE)
    assert len(league.games(player="Lean 152")) == 1
    assert_is_a_fresh_replay(league)


def test_a_post_whose_turn_does_not_come_soon_waits_in_a_thread(
    client: TestClient,
    site: Site,
    loop_writes: list[tuple[bool, bool, int]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The turn held longer than :data:`~eloleague.web.live_posts.TURN_WAIT`: the loop takes
    its question back and the post waits for the turn in a thread, stored once it comes."""
    monkeypatch.setattr(live_posts, "TURN_WAIT", 0.05)
    answered = _posted_behind_another_process(client, site, loop_writes, 162, held=0.5)
    assert [(status, answer["added"]) for status, answer, _ in answered] == [(201, 1)]
    assert loop_writes[-1] == (True, False, 1)  # the loop did not write it
    league = League.open(str(site.db), BE)
    assert len(league.games(player="Lean 162")) == 1
    assert_is_a_fresh_replay(league)


def test_a_refused_post_lists_its_problems_line_after_line(client: TestClient, site: Site) -> None:
    """The reader's problem on line 2 (a date that is not one) after the rules' on line 1 (an
    unknown result), as a referee reads the body, then the rules' on line 2 (a game with a wrong
    date is checked too); in French with its typography."""
    first, second = _game(170), _game(172)
    first["sides"][0]["outcome"] = "triomphe"
    second["date"] = "2026-13-01"
    second["sides"][1]["outcome"] = "déroute"  # found with its date: checked all the same
    body = (json.dumps(first) + "\n" + json.dumps(second)).encode()
    for lean in (True, False):
        status, answer, _ = _post(client, body, site.officer_token, lean=lean)
        assert status == 422
        places = [p["location"] for p in answer["error"]["problems"]]
        assert places == ["requête\u202f: ligne 1"] + ["requête\u202f: ligne 2"] * 2, answer
        assert "déroute" in answer["error"]["problems"][2]["message"], answer


def test_a_post_past_a_seasons_end_gives_the_seasons_adjustments_apart(
    client: TestClient, site: Site
) -> None:
    """The site's league ends in 2024: a game of 2026 brings the inactivity penalties of the
    seasons 2024 and 2025 with it. The answer gives each change's adjustment apart: the players
    only the seasons moved have it all as adjustment, the game's two newcomers none; the next
    game of the season brings none."""
    status, answer, _ = _post(client, json.dumps(_game(1)).encode(), site.officer_token, lean=True)
    assert status == 201
    changes = {c["player"]: c for c in answer["rating_changes"]}
    players = {"Lean 1", "Lean 2"}
    assert {changes[p]["adjustment"] for p in players} == {0}
    seasons = [c for name, c in changes.items() if name not in players]
    assert seasons and all(c["adjustment"] == c["delta"] < 0 for c in seasons)
    status, answer, _ = _post(client, json.dumps(_game(3)).encode(), site.officer_token, lean=True)
    assert status == 201 and len(answer["rating_changes"]) == 2
    assert {c["adjustment"] for c in answer["rating_changes"]} == {0}


def test_a_game_stored_with_other_content_is_refused_in_the_poster_s_words(
    client: TestClient, site: Site
) -> None:
    """Same id, other content: a 422 located in the request (not under the import's label)
    that names the API's way to replace it, `?update=true`, not the command line's option; alike
    on either path, for a referee's post and for the dry run; then `?update=true` replaces it."""
    game = _game(190)
    assert _post(client, json.dumps(game).encode(), site.officer_token, lean=True)[0] == 201
    changed = {**game, "sides": [game["sides"][0], {"players": ["Lean 999"], "outcome": "draw"}]}
    body = json.dumps(changed).encode()
    remedy = "pour la remplacer, un responsable du classement la renvoie avec `?update=true`"
    answers = [_post(client, body, site.officer_token, lean=lean)[:2] for lean in (True, False)]
    answers.append(_post(client, body, site.referee_token, lean=True)[:2])
    preview = client.post(
        URL + "/preview",
        content=body,
        headers={"Authorization": f"Bearer {site.officer_token}", "Accept-Language": "fr"},
    )
    answers.append((preview.status_code, preview.json()))
    for status, answer in answers:
        assert status == 422, answer
        (problem,) = answer["error"]["problems"]
        assert problem["location"] == "requête\u202f: ligne 1", answer
        assert problem["message"].startswith("la partie «\u202flean-190\u202f» est déjà"), answer
        assert problem["message"].endswith("\u202f; " + remedy) and "--update" not in str(answer)
    english = client.post(
        URL,
        content=body,
        headers={"Authorization": f"Bearer {site.officer_token}", "Accept-Language": "en"},
    ).json()["error"]["problems"]
    assert english == [
        {
            "location": "request: line 1",
            "message": 'game "lean-190" is already in the league with different content '
            "(dated 2026-04-01); to replace it, an officer posts it again with `?update=true`",
        }
    ]
    status, answer, _ = _post(client, body, site.officer_token, lean=True, query="?update=true")
    assert (status, answer["replaced"]) == (201, 1)
    league = League.open(str(site.db), BE)
    assert league.explain("lean-190").game.sides[1].players[0].name == "Lean 999"
    assert_is_a_fresh_replay(league)


def test_a_game_dated_ahead_is_refused_on_either_path(client: TestClient, site: Site) -> None:
    """A game server whose clock (or code) dates a game years ahead gets a 422 saying so, with
    the other problems of the post, line after line; nothing is stored."""
    from eloleague.league import utc_today

    today = utc_today()
    ahead = {**_game(200), "date": (today + dt.timedelta(days=400)).isoformat()}
    wrong = {**_game(202), "sides": [{"players": ["Solo"], "outcome": "draw"}]}
    body = (json.dumps(ahead) + "\n" + json.dumps(wrong)).encode()
    for lean in (True, False):
        status, answer, _ = _post(client, body, site.officer_token, lean=lean)
        assert status == 422, answer
        first, second = answer["error"]["problems"]
        assert first["location"] == "requête\u202f: ligne 1"
        said = f"datée du {ahead['date']}, un jour qui n’est pas encore venu (nous sommes le "
        days = (today, today + dt.timedelta(days=1))  # (midnight, UTC, may pass meanwhile)
        assert first["message"] in [f"{said}{day.isoformat()})" for day in days], first
        assert second["location"] == "requête\u202f: ligne 2"
    assert "Lean 200" not in League.open(str(site.db), BE).players()
