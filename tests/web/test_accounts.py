"""Accounts: argon2 password hashes, API tokens stored as digests, the `user` and `token`
commands, and the session key kept next to the database so a restart keeps people signed in."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from eloleague import accounts
from eloleague.errors import EloleagueError
from eloleague.league import engine_for
from eloleague.web import Settings, create_app
from eloleague.web.language import accepted
from tests.conftest import run_cli


def test_passwords_are_argon2_hashes_and_tokens_are_digests(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    engine = engine_for(str(db))
    user = accounts.add_user(engine, "Claire", "a long password", "officer")
    token = accounts.create_token(engine, "Claire", "game server")
    with sqlite3.connect(db) as conn:
        (stored,) = conn.execute("SELECT password_hash FROM users").fetchone()
        (digest, label) = conn.execute("SELECT token_hash, label FROM api_tokens").fetchone()
    assert stored.startswith("$argon2id$") and "a long password" not in stored
    assert token.startswith("elo_") and len(token) > 40
    assert token not in digest and len(digest) == 64 and label == "game server"
    assert accounts.authenticate(engine, "Claire", "a long password") == user
    assert accounts.authenticate(engine, "Claire", "a long passworD") is None
    assert accounts.authenticate(engine, "Nobody", "a long password") is None
    assert accounts.user_for_token(engine, token) == user
    assert accounts.user_for_token(engine, token + "x") is None
    assert accounts.revoke_tokens(engine, "Claire") == 1
    assert accounts.user_for_token(engine, token) is None


def test_a_process_keeps_an_officer_s_token_a_minute_then_forgets_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tokens a server process found to be officers' (accounts.known_officer) are known
    for TOKEN_USE_EVERY, then looked up again; those no longer used are not kept for ever."""
    engine = engine_for(str(tmp_path / "club.db"))
    claire = accounts.add_user(engine, "Claire", "a long password", "officer")
    first, second = (accounts.create_token(engine, "Claire", f"server {n}") for n in (1, 2))
    now = [1000.0]
    monkeypatch.setattr("eloleague.accounts.time.monotonic", lambda: now[0])
    monkeypatch.setattr(accounts, "_KNOWN", {})
    accounts.remember_officer(engine, first, claire)
    found = accounts.known_officer(engine, first)
    assert found is not None and found[0] == claire
    assert accounts.known_officer(engine, second) is None  # never looked up
    now[0] += accounts.TOKEN_USE_EVERY.total_seconds()
    assert accounts.known_officer(engine, first) is None  # a minute on: looked up again
    accounts.remember_officer(engine, second, claire)
    assert list(accounts._KNOWN) == [(engine, accounts._digest(second))]  # the first forgotten


@pytest.mark.parametrize(
    ("name", "password", "role", "words"),
    [
        ("Claire", "a long password", "officer", "already exists"),
        ("Other", "short", "officer", "at least 8 characters"),
        ("Other", "a long password", "admin", "unknown role"),
        ("  ", "a long password", "referee", "empty"),
    ],
)
def test_bad_accounts_are_refused_clearly(
    tmp_path: Path, name: str, password: str, role: str, words: str
) -> None:
    engine = engine_for(str(tmp_path / "club.db"))
    accounts.add_user(engine, "Claire", "a long password", "officer")
    with pytest.raises(EloleagueError, match=words):
        accounts.add_user(engine, name, password, role)


def test_user_and_token_commands(tmp_path: Path) -> None:
    db = str(tmp_path / "club.db")
    done = run_cli(
        "user",
        "add",
        "Rémi",
        "--role",
        "referee",
        "--password-stdin",
        "--db",
        db,
        stdin="a long password\n",
    )
    assert done.returncode == 0, done.stderr
    assert "Rémi" in done.stdout
    again = run_cli(
        "user", "add", "Rémi", "--password-stdin", "--db", db, stdin="a long password\n"
    )
    assert again.returncode == 2 and "already exists" in again.stderr
    assert "Traceback" not in again.stderr
    listed = run_cli("user", "list", "--db", db)
    assert listed.stdout.strip() == "Rémi\treferee"
    token = run_cli("token", "create", "Rémi", "--db", db)
    assert token.returncode == 0
    assert accounts.user_for_token(engine_for(db), token.stdout.strip()) is not None
    missing = run_cli("token", "create", "Nobody", "--db", db)
    assert missing.returncode == 2 and "no user named" in missing.stderr
    changed = run_cli(
        "user", "password", "Rémi", "--password-stdin", "--db", db, stdin="another long one\n"
    )
    assert changed.returncode == 0
    assert accounts.authenticate(engine_for(db), "Rémi", "another long one") is not None
    assert run_cli("token", "revoke", "Rémi", "--db", db).returncode == 0


def test_a_restart_keeps_sessions(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    accounts.add_user(engine_for(str(db)), "Claire", "a long password", "officer")
    first = TestClient(create_app(Settings(db=str(db))))
    page = first.get("/login").text
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    first.post(
        "/login", data={"name": "Claire", "password": "a long password", "csrf_token": token}
    )
    assert (tmp_path / "club.db.secret").stat().st_mode & 0o077 == 0
    restarted = TestClient(create_app(Settings(db=str(db))))
    restarted.cookies.update(first.cookies)
    assert restarted.get("/admin", follow_redirects=False).status_code == 200
    other_key = TestClient(create_app(Settings(db=str(db), secret="another-" + "k" * 40)))
    other_key.cookies.update(first.cookies)
    assert other_key.get("/admin", follow_redirects=False).status_code == 303


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("fr-FR,fr;q=0.9,en;q=0.8", "fr"),
        ("en-US,en;q=0.9", "en"),
        ("de,en;q=0.5,fr;q=0.4", "en"),
        ("fr;q=0.2,en;q=0.9", "en"),
        ("de-DE", None),
        ("", None),
        ("en;q=0,fr;q=0.1", "fr"),
    ],
)
def test_accept_language(header: str, lang: str | None) -> None:
    assert accepted(header) == lang


def test_a_password_typed_twice_is_asked_in_the_officers_language(tmp_path: Path) -> None:
    """`eloleague user add` without --password-stdin asks the password twice, in French for a
    French officer, and again when the two differ; the account gets the password confirmed."""
    db = str(tmp_path / "club.db")
    typed = "a long password\na longer password\na long password\na long password\n"
    done = run_cli("user", "add", "Zoé", "--db", db, env={"ELOLEAGUE_LANG": "fr"}, stdin=typed)
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr
    assert said.count("Mot de passe") == 2 and said.count("Retapez-le pour confirmer") == 2
    assert said.count("les deux mots de passe diffèrent") == 1
    # (Python's getpass warns in English that input may be echoed: no terminal in a test)
    assert "Password:" not in said and "Repeat" not in said and "do not match" not in said
    engine = engine_for(db)
    assert accounts.authenticate(engine, "Zoé", "a long password") is not None
    assert accounts.authenticate(engine, "Zoé", "a longer password") is None


def test_a_password_too_short_is_asked_again_not_refused_after_both_typings(
    tmp_path: Path,
) -> None:
    """A too-short password typed at the prompt is said too short at once, in the officer's
    language, and asked again: the command goes on with the next one."""
    db = str(tmp_path / "club.db")
    typed = "court\na long password\na long password\n"
    done = run_cli("user", "add", "Zoé", "--db", db, env={"ELOLEAGUE_LANG": "fr"}, stdin=typed)
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr
    assert "le mot de passe est trop court" in said
    assert said.count("Mot de passe") == 2 and said.count("Retapez-le pour confirmer") == 1
    assert accounts.authenticate(engine_for(db), "Zoé", "a long password") is not None


@pytest.mark.parametrize(
    ("command", "words"),
    [
        (("user", "password", "Personne"), "aucun utilisateur nommé «\u202fPersonne\u202f»"),
        (("user", "add", "Claire"), "un utilisateur nommé «\u202fClaire\u202f» existe déjà"),
        (("user", "add", "Zoé", "--role", "admin"), "rôle inconnu «\u202fadmin\u202f»"),
    ],
)
def test_a_command_that_cannot_succeed_says_so_before_asking_a_password(
    tmp_path: Path, command: tuple[str, ...], words: str
) -> None:
    """An unknown account, a taken name or an unknown role is said before the password is
    typed (twice) for nothing."""
    db = str(tmp_path / "club.db")
    accounts.add_user(engine_for(db), "Claire", "a long password", "officer")
    typed = "a long password\na long password\n"
    done = run_cli(*command, "--db", db, env={"ELOLEAGUE_LANG": "fr"}, stdin=typed)
    assert done.returncode == 2
    assert words in done.stderr
    assert "mot de passe" not in (done.stdout + done.stderr).lower()
    assert accounts.authenticate(engine_for(db), "Claire", "a long password") is not None
