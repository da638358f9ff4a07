"""French everywhere a user reads: every command's ``--help`` and output on the demo league with
``--lang fr``, the workbooks it writes, and every page with ``Accept-Language: fr``, hold no English
text of the catalogues left untranslated.

"English text" is every literal piece of a catalogue's English side (msgids, placeholders cut out)
whose French translation differs and does not repeat it; the few words that read the same in a
French sentence are listed in :data:`ALLOWED`.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sqlite3
from collections.abc import Iterator
from html.parser import HTMLParser
from importlib import resources
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient
from openpyxl import load_workbook
from rich.console import Console
from typer.main import get_command
from typer.testing import CliRunner

from eloleague import accounts, demo
from eloleague.accounts import ROLES
from eloleague.cli import app
from eloleague.errors import EloleagueError
from eloleague.i18n import french_typography, render, translator
from eloleague.io.ratings_csv import LEDGER_COLUMNS, RATING_COLUMNS
from eloleague.league import League, engine_for
from eloleague.store.faces import COLOURS
from eloleague.web import Settings, create_app

LOCALE = Path(str(resources.files("eloleague"))) / "locale" / "fr" / "LC_MESSAGES"

# English pieces that French output may show as they are: names of programs and methods, and
# words that are French too ("Place moyenne", "Option inconnue").
ALLOWED = {"Elo", "Glicko-2", "OpenSkill", "Brier", "Diplomacy", "JSON Lines", "Place", "Option"}

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_MARKUP = re.compile(r"\[/?[a-z ]*\]")


def english_pieces() -> list[str]:
    """The literal pieces of every English message whose French text differs."""
    pieces: set[str] = set()
    for path in LOCALE.glob("*.po"):
        with path.open("rb") as handle:
            catalogue = read_po(handle, locale="fr")
        for message in catalogue:
            if not message.id or not message.string:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            texts = message.string if isinstance(message.string, tuple) else (message.string,)
            french = " ".join(str(t) for t in texts)
            for msgid in ids:
                if str(msgid) == french:
                    continue
                for part in _PLACEHOLDER.split(_MARKUP.sub(" ", str(msgid))):
                    piece = " ".join(part.split()).strip(" .,;:!?()'\"«»—–-*#/|=")
                    if (
                        re.search(r"[A-Za-z]{3}", piece)
                        and piece not in french
                        and piece not in ALLOWED
                    ):
                        pieces.add(piece)
    return sorted(pieces, key=len, reverse=True)


PIECES = english_pieces()
# Case-sensitive, whole words: "Rating" in an English sentence, not "rating" inside "ratings.csv".
FINDER = re.compile(r"(?<![\w\-./])(" + "|".join(map(re.escape, PIECES)) + r")(?![\w\-/])")


def _command_words() -> set[str]:
    """The names of commands, options and their values, which are typed, not translated."""
    words: set[str] = set()

    def walk(command: object) -> None:
        for name, sub in getattr(command, "commands", {}).items():
            words.add(name)
            walk(sub)
        for param in getattr(command, "params", []):
            words.update(o.lstrip("-") for o in param.opts)
            words.add(param.name or "")

    walk(get_command(app))
    # Values typed after an option, and the column names of the CSV formats (docs/formats.md).
    return words | set(COLOURS) | set(ROLES) | set(RATING_COLUMNS) | set(LEDGER_COLUMNS)


COMMAND_WORDS = _command_words()


def english_in(text: str, typed: set[str] = COMMAND_WORDS) -> list[str]:
    """The untranslated English pieces found in ``text`` (spaces of any kind made plain), except
    the names of commands and options (``typed``)."""
    plain = " ".join(text.replace("\u202f", " ").replace("\u00a0", " ").split())
    return sorted({m.group(1) for m in FINDER.finditer(plain)} - typed)


# Code and data shown as they are (a game's JSON line in the correction form), not sentences.
SKIPPED = ("script", "style", "code", "pre", "textarea")


class _Text(HTMLParser):
    """The text a visitor reads on a page (no tags, attributes, scripts or styles)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED:
            self._skip += 1
        for name, value in attrs:  # what is read aloud or shown on hover
            if name in ("title", "alt", "aria-label", "placeholder") and value:
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def page_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return "\n".join(parser.parts)


def workbook_text(path: Path) -> str:
    book = load_workbook(path)
    cells = [ws.title for ws in book.worksheets]
    for ws in book.worksheets:
        for row in ws.iter_rows(values_only=True):
            cells += [str(v) for v in row if isinstance(v, str)]
    return "\n".join(cells)


# The community's words, one French word for each thing whatever the surface (the site, the
# workbooks, the command line): an event is a « manifestation », the word of the rule documents
# (docs/league.md, "Languages").
WORDS = {"Event": "Manifestation", "Events": "Manifestations", "Game": "Partie", "Player": "Joueur"}
NOT_THE_WORD = re.compile(r"[ée]v[ée]nement", re.IGNORECASE)


def test_one_thing_has_one_french_word_everywhere() -> None:
    seen: dict[str, set[tuple[str, str]]] = {msgid: set() for msgid in WORDS}
    other_word: list[str] = []
    for path in LOCALE.glob("*.po"):
        with path.open("rb") as handle:
            catalogue = read_po(handle, locale="fr")
        for message in catalogue:
            if isinstance(message.id, str) and message.id in WORDS and message.string:
                seen[message.id].add((path.name, str(message.string)))
            string = message.string  # a tuple (or a list) of plural forms, or one text
            texts = string if isinstance(string, (tuple, list)) else (string,)
            other_word += [f"{path.name}: {t}" for t in texts if t and NOT_THE_WORD.search(t)]
    for msgid, french in WORDS.items():
        assert seen[msgid], msgid  # the heading is translated somewhere
        assert {said for _, said in seen[msgid]} == {french}, sorted(seen[msgid])
    assert other_word == []


def test_french_messages_take_the_typographic_apostrophe() -> None:
    """« l’aide », not « l'aide », whichever the catalogue's translator typed; a quoted option
    ('--map') and a command between backquotes are written as they are typed."""
    assert french_typography("l'aide : n'est pas d'{name}") == "l’aide\u202f: n’est pas d’{name}"
    assert french_typography("Essayez '{command_path} --help' ; '--map'") == (
        "Essayez '{command_path} --help'\u202f; '--map'"
    )
    assert french_typography("tapez `eloleague l'x`") == "tapez `eloleague l'x`"
    straight = re.compile(r"[^\W\d_]'[^\W\d_]")
    for name, prose in _french_prose():
        assert not straight.search(prose), (name, prose)


def _french_prose() -> Iterator[tuple[str, str]]:
    """Every French catalogue entry as the user reads it, without what it quotes between
    backquotes (a command): its file's name and its text."""
    for path in LOCALE.glob("*.po"):
        domain = path.stem.split("-")[0]
        with path.open("rb") as handle:
            catalogue = read_po(handle, locale="fr")
        translate = translator("fr", domain)
        for message in catalogue:
            if isinstance(message.id, str) and message.id and message.string:
                yield path.name, re.sub(r"`[^`]*`", "", translate(message.id))


def test_french_messages_quote_values_between_guillemets(tmp_path: Path) -> None:
    """« aucun joueur nommé « Zoé » », not « nommé 'Zoé' » as Python writes a value; a command
    between backquotes keeps the shell's quotes, which the reader types as they are."""
    assert french_typography("aucun joueur nommé {name!r} dans {league!r}") == (
        "aucun joueur nommé «\u202f{name}\u202f» dans «\u202f{league}\u202f»"
    )
    assert french_typography("utilisez : `eloleague player merge {old!r} {new!r}`") == (
        "utilisez\u202f: `eloleague player merge {old!r} {new!r}`"
    )
    for name, prose in _french_prose():
        assert "!r}" not in prose, (name, prose)
    league = League.create(f"sqlite:///{tmp_path / 'l.db'}", "Club", rules="bataille-empire")
    league.add_player("Zoé")
    league.add_player("Léa")
    with pytest.raises(EloleagueError) as caught:
        league.rename_player("Zoé", "Léa")
    english, french = render(caught.value.message, "en"), render(caught.value.message, "fr")
    assert english.startswith("'Léa' is already a player (or an alias of one) in league 'Club'")
    assert french.startswith(
        "«\u202fLéa\u202f» est déjà un joueur (ou l’autre nom d’un joueur) de la ligue «\u202fClub\u202f»"
    )
    assert french.endswith("utilisez\u202f: `eloleague player merge 'Zoé' 'Léa'`")
    # A name the site's API, the accounts or the command line put into a message, alike.
    site = TestClient(create_app(Settings(db=str(tmp_path / "l.db"), secret="s" * 40)))
    missing = site.get("/api/v1/leagues/Nope", headers={"Accept-Language": "fr"}).json()
    assert missing["error"]["message"] == "aucune ligue nommée «\u202fNope\u202f»"
    english_answer = site.get("/api/v1/leagues/Nope", headers={"Accept-Language": "en"})
    assert english_answer.json()["error"]["message"] == "no league named 'Nope'"
    with pytest.raises(EloleagueError) as caught:
        accounts.set_password(league.engine, "Nobody", "a long password")
    assert render(caught.value.message, "fr").startswith(
        "aucun utilisateur nommé «\u202fNobody\u202f»"
    )


def test_the_finder_sees_english_and_lets_french_through() -> None:
    assert len(PIECES) > 500
    assert english_in("Rating changes") == ["Rating changes"]
    assert english_in("Show this message and exit.") == ["Show this message and exit"]
    assert english_in("Afficher ce message et quitter.") == []
    assert english_in("les tailles d'équipe 3,3 totalisent 6") == []


# The demo league --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("demo") / "demo.db"
    demo.build(db, Console(quiet=True))
    return db


@pytest.fixture
def french(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[CliRunner]:
    """A runner in French with wide tables (``--lang fr`` also sets ELOLEAGUE_LANG: restored)."""
    monkeypatch.setenv("ELOLEAGUE_LANG", "fr")
    monkeypatch.setenv("COLUMNS", "250")
    monkeypatch.chdir(tmp_path)
    yield CliRunner()


def _commands() -> list[list[str]]:
    """Every command path: ``[]`` (eloleague itself), ``["ranking"]``, ``["season", "close"]``..."""
    found: list[list[str]] = [[]]

    def walk(command: object, path: list[str]) -> None:
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            found.append([*path, name])
            walk(sub, [*path, name])

    walk(get_command(app), [])
    return found


@pytest.mark.parametrize("path", _commands(), ids=lambda p: " ".join(p) or "eloleague")
def test_every_help_is_in_french(path: list[str], french: CliRunner) -> None:
    done = french.invoke(app, ["--lang", "fr", *path, "--help"])
    assert done.exit_code == 0, done.output
    assert english_in(done.output) == [], done.output
    assert "Utilisation" in done.output and "Afficher ce message et quitter" in done.output


def test_help_follows_the_language_given_anywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ELOLEAGUE_LANG", raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("COLUMNS", "250")
    runner = CliRunner()
    english = runner.invoke(app, ["balance", "--help"]).output
    assert "The players to split." in english and "Usage:" in english
    own = runner.invoke(app, ["balance", "--lang", "fr", "--help"]).output  # the command's --lang
    assert "Les joueurs à répartir." in own and "Utilisation" in own
    assert "The players to split" not in own
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert "Les joueurs à répartir." in runner.invoke(app, ["balance", "--help"]).output
    group = runner.invoke(app, ["--lang", "fr", "season", "--help"]).output
    assert "Clore une saison maintenant" in group and "Commandes" in group


def _demo_runs(db: Path) -> list[list[str]]:
    adlg = League.open(str(db), "adlg")
    diplo = League.open(str(db), "diplomacy")
    top = [r.player for r in adlg.ranking(top=6)]
    game = next(g.id for g in adlg.games() if g.id)
    event = adlg.events()[0].name
    last = max(g.date for g in adlg.games())
    year_end = dt.date(last.year, 12, 31).isoformat()
    ffa = next(g for g in diplo.games() if g.rated)
    sides = [f"{s.players[0].name}:{s.players[0].role}" for s in ffa.sides]
    d = ["--db", str(db)]
    return [
        ["leagues", *d],
        ["ranking", "-f", "table", *d, "--league", "adlg"],
        ["ranking", "-f", "table", *d, "--league", "diplomacy", "--top", "30"],
        ["ranking", "-f", "table", *d, "--league", "bataille-empire-en"],
        ["player", top[0], *d, "--league", "adlg"],
        ["player", sides[0].split(":")[0], *d, "--league", "diplomacy"],
        ["explain", game, *d, "--league", "adlg"],
        ["explain", ffa.id or "#1", *d, "--league", "diplomacy"],
        ["events", *d, "--league", "adlg"],
        ["events", event, *d, "--league", "adlg"],
        ["games", *d, "--league", "card-battle"],
        ["log", *d, "--league", "adlg"],
        ["season", "close", year_end, "--dry-run", *d, "--league", "adlg"],
        ["rules", "list"],
        [
            "rules",
            "check",
            str(Path(str(resources.files("eloleague"))) / "rules/presets/adlg.toml"),
        ],
        ["predict", top[0], top[1], *d, "--league", "adlg"],
        ["predict", *sides, "--mode", ffa.mode or "classic", *d, "--league", "diplomacy"],
        ["balance", *top, *d, "--league", "adlg"],
        ["balance", *top[:5], "--teams", "2", *d, "--league", "adlg", "--sizes", "4,1"],
        ["compare", "--rules", "bataille-empire-en", *d, "--league", "bataille-empire"],
        ["evaluate", *d, "--league", "adlg"],
        ["verify", *d, "--league", "diplomacy"],
        ["user", "list", *d],
        ["import", "--dry-run", str(demo.sample_files()["adlg"]), *d, "--league", "adlg"],
    ]


def test_every_command_speaks_french_on_the_demo_league(demo_db: Path, french: CliRunner) -> None:
    shown: dict[str, list[str]] = {}
    for args in _demo_runs(demo_db):
        done = french.invoke(app, ["--lang", "fr", *args])
        assert done.exit_code == 0, (args, done.output, done.exception)
        found = english_in(done.output)
        if found:
            shown[" ".join(args[:2])] = found
    assert shown == {}


def test_the_list_of_games_puts_contre_between_the_sides(demo_db: Path, french: CliRunner) -> None:
    listed = french.invoke(app, ["--lang", "fr", "games", "--db", str(demo_db), "--league", "adlg"])
    assert listed.exit_code == 0, listed.output
    assert " contre " in listed.output and " vs " not in listed.output


def test_the_workbooks_and_csv_files_are_in_french(demo_db: Path, french: CliRunner) -> None:
    adlg = League.open(str(demo_db), "adlg")
    player = adlg.ranking(top=1)[0].player
    event = adlg.events()[0].name
    d = ["--db", str(demo_db), "--league", "adlg"]
    for args, name in (
        (["ranking", "-o", "classement.xlsx"], "classement"),
        (["player", player, "-o", "joueur.xlsx"], "joueur"),
        (["events", event, "-o", "evenement.xlsx"], "evenement"),
    ):
        done = french.invoke(app, ["--lang", "fr", *args, *d])
        assert done.exit_code == 0, done.output
        text = workbook_text(Path(f"{name}.xlsx"))
        assert english_in(text) == [], (name, english_in(text))
        for word in ("overwhelming_victory", "defeat", "rounding", "Knight", "Soldier"):
            assert word not in text, (name, word)
        csv = Path(f"{name}.csv").read_bytes()
        assert csv.startswith(b"\xef\xbb\xbf"), name
        assert b";" in csv.splitlines()[0] and b"," not in csv.splitlines()[0], name
    assert "Chevalier" in workbook_text(Path("classement.xlsx"))
    assert "Victoire" in workbook_text(Path("evenement.xlsx"))


# Every page -------------------------------------------------------------------------------------


def _pages(db: Path) -> list[str]:
    urls = ["/", "/login", "/admin"]
    for name in League.names(str(db)):
        lg = League.open(str(db), name)
        base = f"/leagues/{name}"
        player = lg.ranking(top=1)[0].player
        game = next(g.id for g in lg.games() if g.id)
        events = lg.events()
        urls += [f"{base}/events/{events[0].name}"] if events else []
        urls += [
            base,
            f"{base}/list",
            f"{base}/players/{player}",
            f"{base}/games/{game}",
            f"{base}/events",
            f"{base}/rules",
            f"{base}/titles",
            f"{base}/tools",
            f"{base}/tools/balance",
            f"{base}/tools/compare",
            f"{base}/tools/evaluate",
            f"{base}/face",
            f"{base}/upload",
            f"{base}/games/{game}/edit",
        ]
    return urls


@pytest.fixture(scope="module")
def officer(demo_db: Path, tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    db = tmp_path_factory.mktemp("site") / "site.db"
    with sqlite3.connect(demo_db) as src, sqlite3.connect(db) as dst:
        src.backup(dst)  # the WAL included
    accounts.add_user(engine_for(str(db)), "Claire", "correct horse battery", "officer")
    client = TestClient(
        create_app(Settings(db=str(db), secret="test-secret-" + "x" * 32)),
        raise_server_exceptions=False,
        headers={"Accept-Language": "fr-FR,fr;q=0.9"},
    )
    page = client.get("/login").text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token is not None
    client.post(
        "/login",
        data={"name": "Claire", "password": "correct horse battery", "csrf_token": token.group(1)},
    )
    return client


def test_every_page_speaks_french(demo_db: Path, officer: TestClient) -> None:
    shown: dict[str, list[str]] = {}
    for url in _pages(demo_db):
        page = officer.get(url)
        assert page.status_code == 200, url
        assert '<html lang="fr"' in page.text, url
        text = page_text(page.text)
        found = english_in(text) + re.findall(r"(?<![\d.])\d+\.\d+(?![\d.])", text)
        if found:  # English words, or numbers with a decimal point
            shown[url] = found
    assert shown == {}


def test_pages_write_numbers_the_french_way(demo_db: Path, officer: TestClient) -> None:
    page = page_text(officer.get("/leagues/diplomacy/list").text)
    assert re.search(r"\b\d{3,4},\d\b", page), page[:2000]  # 1872,6: a decimal comma
    assert not re.search(r"\b\d{3,4}\.\d\b", page)
    assert "Turquie" in page or "Allemagne" in page


@pytest.mark.parametrize(
    ("args", "french"),
    [
        (["ranking", "--bogus"], "Option inconnue"),
        (["rankin"], "Vouliez-vous dire 'ranking'"),
        (["explain"], "Argument manquant"),
        (["ranking", "--top", "x"], "un nombre entier est attendu"),
        (["ranking", "--top", "0"], "supérieure ou égale à 1"),
        (["ranking", "--format", "foo"], "n’est pas l’une des valeurs permises"),
        (["ranking", "--top"], "demande une valeur"),
        (["leagues", "a", "b"], "En trop sur la ligne de commande\u202f: a b"),  # no "(s)"
        (["leagues", "a"], "En trop sur la ligne de commande\u202f: a"),
    ],
)
def test_a_mistyped_command_line_is_told_in_french(
    args: list[str], french: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    runner = CliRunner()
    done = runner.invoke(app, ["--lang", "fr", *args])
    assert done.exit_code == 2
    assert french in done.output and "Erreur" in done.output, done.output
    assert english_in(done.output) == [], done.output
    monkeypatch.setenv("ELOLEAGUE_LANG", "en")  # and English stays English
    english = runner.invoke(app, args).output
    assert "Error" in english and french not in english


def test_the_officer_s_forms_answer_in_french(demo_db: Path, officer: TestClient) -> None:
    """The pages a form leads to: an upload's preview (with the players it would add and the
    names it looks like) and a season closing's list of adjustments."""
    token = re.search(r'name="csrf_token" value="([^"]+)"', officer.get("/admin").text)
    assert token is not None
    adlg = League.open(str(demo_db), "adlg")
    last = max(g.date for g in adlg.games())
    known = adlg.ranking(top=2)
    new = [  # a new event: a registered player, and a misspelt one
        json.dumps(
            {
                "id": f"new-{n}",
                "date": last.isoformat(),
                "event": "Nouvel Open",
                "sides": [
                    {"players": [known[0].player], "outcome": "victory"},
                    {"players": [known[1].player[:-1] + "x"], "outcome": "defeat"},
                ],
            }
        )
        for n in range(2)
    ]
    preview = officer.post(
        "/leagues/adlg/upload",
        files={"sheet": ("nouvel-open.jsonl", "\n".join(new).encode(), "text/plain")},
        data={"csrf_token": token.group(1)},
    )
    assert "ressemble" in preview.text, page_text(preview.text)[-1500:]
    closing = officer.post(
        "/leagues/adlg/seasons/close",
        data={"csrf_token": token.group(1), "end": f"{last.year}-12-31"},
    )
    for page in (preview, closing):
        assert page.status_code == 200, page.text[:500]
        text = page_text(page.text)
        assert english_in(text) == [], english_in(text)
        assert not re.findall(r"(?<![\d.])\d+\.\d+(?![\d.])", text)
