"""Plural forms (``Text.plural``, ``msgid_plural`` in the catalogues): "1 place", "3 places" in
English, and French's own rule (0 and 1 are singular)."""

from __future__ import annotations

import datetime as dt
import pickle
import re
from pathlib import Path

import pytest

from eloleague.accounts import signed_out_text
from eloleague.i18n import Text, grouped, ngettext, plural_form, render
from eloleague.io.limits import LINES_MAX, lines_problem, score_problem
from eloleague.league import League
from eloleague.records import GameRecord, Participant, Side
from eloleague.store.journal import JournalEntry
from eloleague.store.messages import season_closed, season_reopened
from eloleague.store.reports import ImportReport, _summary_in
from eloleague.tools.balance import balance
from eloleague.tools.players import ToolError
from tests.conftest import run_cli
from tests.web.conftest import Site, make_client


def test_the_plural_rule_of_each_language() -> None:
    assert [plural_form("en", n) for n in (0, 1, 2)] == [1, 0, 1]
    assert [plural_form("fr", n) for n in (0, 1, 2)] == [0, 0, 1]


def test_every_french_catalogue_says_the_plural_rule_its_forms_follow() -> None:
    """Without the header, Babel reads a catalogue with the language's rule from its own data,
    which gives French three forms since Babel 2.19: the two forms written then read as
    incomplete, and every plural message was said in English."""
    folder = Path(__file__).parent.parent / "src/eloleague/locale/fr/LC_MESSAGES"
    catalogues = sorted(folder.glob("*.po"))
    assert catalogues
    for path in catalogues:
        assert '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"' in path.read_text("utf-8"), (
            path.name
        )
    plural = ngettext("fr", "league", "added {count} game", "added {count} games", 2)
    assert plural == "{count} parties ajoutées"


def _together_error(teams: int, players: int) -> Text:
    ratings = {f"P{i}": 1000.0 + i for i in range(players)}
    with pytest.raises(ToolError) as info:
        balance(
            ratings,
            teams=teams,
            together=[["P0", "P1"]],
            expected_score=lambda a, b: 0.5,
        )
    assert isinstance(info.value.text, Text)
    return info.value.text


def test_balance_says_one_place_and_two_places_in_both_languages() -> None:
    one = _together_error(teams=3, players=3)
    assert str(one).endswith("the largest team has 1 place")
    assert render(one, "fr", "tools").endswith("la plus grande équipe a 1 place")
    assert render(one, "en", "tools").endswith("has 1 place")
    back = pickle.loads(pickle.dumps(one))  # an error sent by another process keeps its forms
    assert render(back, "fr", "tools") == render(one, "fr", "tools")


def test_a_catalogue_without_the_message_falls_back_to_english() -> None:
    assert ngettext("fr", "tools", "{count} apple", "{count} apples", 2) == "{count} apples"
    assert ngettext("en", "tools", "{count} apple", "{count} apples", 1) == "{count} apple"


def test_an_import_says_each_count_with_its_own_noun_in_both_languages() -> None:
    """ "1 partie ajoutée, 0 remplacée", "2 parties ajoutées": each count of an import's summary
    takes its own form (French: 0 and 1 singular), for an import and for a dry run."""
    one = ImportReport("a.jsonl", False, added=1, new_players=["Zoé"]).summary()
    two = ImportReport("a.jsonl", False, added=2, replaced=2, unchanged=3).summary()
    assert render(one, "en") == "a.jsonl: added 1 game, replaced 0, 0 already there; 1 new player"
    assert render(two, "en") == "a.jsonl: added 2 games, replaced 2, 3 already there; 0 new players"
    assert render(one, "fr") == (
        "a.jsonl\u202f: 1 partie ajoutée, 0 remplacée, 0 déjà présente\u202f; 1 nouveau joueur"
    )
    assert render(two, "fr") == (
        "a.jsonl\u202f: 2 parties ajoutées, 2 remplacées, 3 déjà présentes\u202f; 0 nouveau joueur"
    )
    dry = ImportReport("a.jsonl", True, added=2, new_players=["Zoé", "Léa"]).summary()
    assert render(dry, "en") == (
        "a.jsonl: would add 2 games, replace 0, 0 already there; 2 new players"
    )
    assert render(dry, "fr") == (
        "a.jsonl\u202f: ajouterait 2 parties, en remplacerait 0, 0 déjà présente\u202f; "
        "2 nouveaux joueurs"
    )


def test_an_import_summary_rendered_once_per_counts_is_the_rendered_summary() -> None:
    """``summary_in`` (kept once rendered: a game server's posts get the same line again and
    again) gives what rendering ``summary()`` gives, for each count, language and dry run, and a
    kept line never answers for other counts."""
    reports = [
        ImportReport(source, dry, added=added, replaced=replaced, new_players=["Zoé"] * players)
        for source in ("api", "a.jsonl")
        for dry in (False, True)
        for added in (0, 1, 2, 12345)
        for replaced in (0, 1)
        for players in (0, 1, 2)
    ]
    for lang in ("fr", "en"):
        lines = [report.summary_in(lang) for report in reports]
        kept = _summary_in.cache_info().hits
        again = [report.summary_in(lang) for report in reports]
        assert _summary_in.cache_info().hits - kept == len(reports)  # not rendered again
        assert lines == again == [render(report.summary(), lang) for report in reports]
        assert len(set(lines)) == len(reports)


def test_the_journal_and_the_seasons_say_their_counts_in_both_languages() -> None:
    entry = JournalEntry(
        dt.datetime(2026, 1, 1), "Claire", "import", {"source": "x", "added": 1, "replaced": 0}
    )
    assert render(entry.text(), "fr", "league") == "x\u202f: 1 partie ajoutée, 0 remplacée"
    many = JournalEntry(
        dt.datetime(2026, 1, 1), None, "import", {"source": "x", "added": 5, "replaced": 2}
    )
    assert render(many.text(), "en", "league") == "x: 5 games added, 2 replaced"
    start = JournalEntry(dt.datetime(2026, 1, 1), None, "initial", {"source": "l.csv", "pools": 1})
    assert render(start.text(), "en", "league") == "1 starting rating from l.csv"
    assert render(season_closed("2025-12-31", 3), "fr") == (
        "saison se terminant le 2025-12-31 close\u202f: 3 Elo modifiés"
    )
    assert render(season_reopened("2025-12-31", 1), "en") == (
        "season ending 2025-12-31 reopened: 1 adjustment taken back"
    )
    assert (
        render(signed_out_text("Rémi", 0), "fr") == "Rémi est déconnecté partout (0 session fermée)"
    )


def test_the_pages_say_one_game_one_round_one_row(tmp_path: Path) -> None:
    """An event of one game in one round between two players: the site's counts take their
    noun's form (it said "1 rounds")."""
    db = tmp_path / "small.db"
    league = League.create(str(db), "Petite", "bataille-empire")
    game = GameRecord(
        dt.date(2026, 3, 1),
        (Side((Participant("Ana"),), "decisive_victory"), Side((Participant("Bob"),), "defeat")),
        id="g1",
        event="Open",
        round=1,
    )
    league.import_games([game], source="api")
    League.create(
        str(db), "Vide", "adlg"
    )  # two leagues: the home page lists them (one: goes to it)
    client = make_client(Site(db, "", ""))

    def text(url: str, lang: str) -> str:
        return re.sub(r"\s+", " ", client.get(url, params={"lang": lang}).text)

    assert "1 partie · 2 joueurs · 1 ronde" in text("/leagues/Petite/events/Open", "fr")
    assert "1 game · 2 players · 1 round" in text("/leagues/Petite/events/Open", "en")
    assert "Tout le classement (2 lignes)" in text("/", "fr")
    ranking = text("/leagues/Petite", "en")
    assert "2 rows" in ranking and "1 game" in ranking and "1 games" not in ranking


def test_rules_check_counts_outcomes_and_titles_in_both_languages() -> None:
    presets = Path(__file__).parents[1] / "src" / "eloleague" / "rules" / "presets"
    french = run_cli("--lang", "fr", "rules", "check", str(presets / "diplomacy.toml"))
    assert french.returncode == 0 and "échelle 400, 0 résultat, 0 titre)" in french.stdout
    english = run_cli("--lang", "en", "rules", "check", str(presets / "adlg.toml"))
    assert english.returncode == 0 and "scale 500, 3 outcomes, 10 titles)" in english.stdout


def test_large_counts_have_their_thousands_apart_in_each_language() -> None:
    """From 10,000 a count's thousands are set apart: by a comma in English, by a narrow
    no-break space in French; four digits stay whole."""
    assert [grouped(n, "en") for n in (9999, 10000, 1234567, -48512)] == [
        "9999",
        "10,000",
        "1,234,567",
        "-48,512",
    ]
    assert grouped(48512, "fr") == "48\u202f512" and grouped(1000, "fr") == "1000"
    run = JournalEntry(
        dt.datetime(2026, 1, 1, 15),
        "srv",
        "import",
        {"source": "api", "added": 48512, "replaced": 0},
        games=48512,
        changes=12000,
        first_at=dt.datetime(2026, 1, 1, 14, tzinfo=dt.UTC),
    )
    assert render(run.text(), "en", "league") == (
        "api: 48,512 games added, 0 replaced (12,000 imports since 14:00 UTC)"
    )
    assert render(run.text(), "fr", "league") == (
        "api\u202f: 48\u202f512 parties ajoutées, 0 remplacée (12\u202f000 imports depuis 14:00 UTC)"
    )
    added = Text.plural("{count} game added", "{count} games added", 25000)
    assert str(added) == "25,000 games added"  # the message as a plain string: English
    kept = pickle.loads(pickle.dumps(added))  # as a process hands it to another
    assert render(kept, "fr", "league") == "25\u202f000 parties ajoutées"


def test_a_limit_in_a_message_is_a_quantity_and_a_line_a_place() -> None:
    """A bound given as ``Count`` (the lines a file may have, a score's range) has its thousands
    apart in the reader's language; a line's number names a place and stays whole."""
    too_long = lines_problem(b"\n" * LINES_MAX + b"x")
    assert too_long is not None
    assert str(too_long) == "the file has more than 10,000,000 lines: split it into several files"
    assert render(too_long, "fr").startswith(
        "le fichier a plus de 10\u202f000\u202f000 lignes\u202f:"
    )
    score = score_problem(1e300)
    assert score is not None
    assert render(score, "fr") == (
        "le score 1e+300 est hors des limites (de -1\u202f000\u202f000\u202f000 à 1\u202f000\u202f000\u202f000)"
    )
    line = Text.of("line {line}", line=123456)
    assert render(line, "fr") == "ligne 123456" and str(line) == "line 123456"


def test_the_pages_set_a_large_leagues_thousands_apart(tmp_path: Path) -> None:
    """A league of 10,000 players: its ranking says 10,000 rows (10 000 lignes), a player's rank
    is out of 10,000, the home page's link counts them so too."""
    db = tmp_path / "big.db"
    league = League.create(str(db), "Grande", "bataille-empire")
    games = [
        GameRecord(
            dt.date(2026, 3, 1),
            (
                Side((Participant(f"Joueur {2 * n:05}"),), "decisive_victory"),
                Side((Participant(f"Joueur {2 * n + 1:05}"),), "defeat"),
            ),
            id=f"g{n}",
        )
        for n in range(5000)
    ]
    league.import_games(games, source="season")
    League.create(str(db), "Vide", "adlg")  # two leagues: the home page lists them
    client = make_client(Site(db, "", ""))

    def text(url: str, lang: str) -> str:  # (ASCII spaces only: not the narrow no-break one)
        return re.sub(r"[ \t\r\n]+", " ", client.get(url, params={"lang": lang}).text)

    assert "10\u202f000 lignes" in text("/leagues/Grande", "fr")
    assert "10,000 rows" in text("/leagues/Grande", "en")
    assert "sur 10\u202f000" in text("/leagues/Grande/players/Joueur 00001", "fr")
    assert "of 10,000" in text("/leagues/Grande/players/Joueur 00001", "en")
    assert "Tout le classement (10\u202f000 lignes)" in text("/", "fr")
    for lang, players in (("fr", "10\u202f000"), ("en", "10,000")):
        log = run_cli("log", "--db", str(db), "--league", "Grande", env={"ELOLEAGUE_LANG": lang})
        assert log.returncode == 0, log.stderr
        assert f" {players} │\n" in log.stdout, log.stdout  # the journal's players column
        # In a narrow terminal too: Rich breaks a line at any space, the narrow no-break one of
        # "10 000" included, and a number cut in two reads as two numbers.
        narrow = run_cli(
            "log",
            "--db",
            str(db),
            "--league",
            "Grande",
            env={"ELOLEAGUE_LANG": lang, "COLUMNS": "30"},
        )
        assert narrow.returncode == 0, narrow.stderr
        # too narrow for the table: each entry's cells on a line with their headings, the
        # number whole at the end of it (the terminal folds the line itself)
        heading = "Joueurs\u202f: " if lang == "fr" else "Players: "
        ends = [
            line.rsplit(heading, 1)[1] for line in narrow.stdout.splitlines() if heading in line
        ]
        assert players in ends, narrow.stdout
        assert not {"10", "000"} & set(ends), narrow.stdout
