"""French elides "de" before a vowel: "Feuille de résultats d’Arène", "Historique d’Éric", where
the catalogues write "de {league}", "de {player}" (i18n.elided), in every place a French message
is filled in: the messages, the workbooks, the site's templates."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from openpyxl import load_workbook

from eloleague.i18n import Text, elided, render
from eloleague.io.sheets.layout import tr
from tests.conftest import run_cli
from tests.web.conftest import BE, built_site, client, site  # noqa: F401 - fixtures


@pytest.mark.parametrize(
    ("player", "shown"),
    [
        ("Éric P035", "Historique d’Éric P035"),
        ("Inès", "Historique d’Inès"),
        ("Hugo", "Historique de Hugo"),  # h and y: not elided
        ("Yann", "Historique de Yann"),
        ("12", "Historique de 12"),
    ],
)
def test_de_is_elided_before_a_vowel(player: str, shown: str) -> None:
    assert render(Text.of("History of {player}", player=player), "fr", "sheets") == shown
    assert render(Text.of("History of {player}", player=player), "en", "sheets").startswith(
        "History of"
    )


def test_a_lone_letter_is_a_label_and_stays() -> None:
    """A referee workbook's results and headers name the sides A and B, and are read back as
    written: "Victoire décisive de A" must stay what the workbooks in use hold."""
    assert elided("{win} de {side}", {"win": "Victoire", "side": "A"}) == "{win} de {side}"
    assert tr("fr", "{win} for {side}", win="Victoire décisive", side="A") == (
        "Victoire décisive de A"
    )


def test_a_workbook_for_a_league_whose_name_begins_with_a_vowel(tmp_path: object) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    db = ["--db", str(folder / "club.db")]
    assert run_cli("init", "--rules", "adlg", "--league", "Arène", *db).returncode == 0
    done = run_cli("template", "--league", "Arène", "--lang", "fr", str(folder / "a.xlsx"), *db)
    assert done.returncode == 0, done.stderr
    book = load_workbook(folder / "a.xlsx")
    assert book["Instructions"]["A1"].value == "Feuille de résultats d’Arène"
    assert str(book["Résultats"]["A1"].value).startswith("Résultats d’Arène")


def test_the_site_elides_in_its_own_templates(client: TestClient) -> None:  # noqa: F811
    page = client.get(f"/leagues/{BE}/players/Éric P035", params={"lang": "fr"})
    assert page.status_code == 200
    assert "Historique de l’Elo d’Éric P035" in page.text
    assert "de Éric" not in page.text
