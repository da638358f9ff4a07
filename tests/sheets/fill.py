"""A script that fills a generated template the way a referee would, cell by cell (openpyxl).

It knows the template only by its header labels, so a test that fills then reads a workbook checks
that the template and the reader agree on the layout a human sees.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Iterable, Sequence

from openpyxl import Workbook, load_workbook
from openpyxl.worksheet.worksheet import Worksheet

from eloleague.engine.methods import ranked
from eloleague.io.sheets import build_template
from eloleague.records import GameRecord
from eloleague.rules.model import RuleSet

FR = {"event": "Manifestation", "results": "Résultats", "for": "de", "yes": "oui", "no": "non"}
EN = {"event": "Event", "results": "Results", "for": "for", "yes": "yes", "no": "no"}


def words(lang: str) -> dict[str, str]:
    return FR if lang == "fr" else EN


def result_text(rules: RuleSet, game: GameRecord, lang: str) -> str:
    """The result as the referee picks it, seen from side A ("Victoire décisive de A")."""
    a, b = (side.outcome or "" for side in game.sides)
    if rules.method == "team_and_personal":
        return a

    def wording(label: str) -> str:
        outcome = rules.outcomes[label]
        return (outcome.fr if lang == "fr" else outcome.en) or label

    if a == b:
        return wording(a)
    if rules.outcomes[a].score > rules.outcomes[b].score:
        return f"{wording(a)} {words(lang)['for']} A"
    return f"{wording(b)} {words(lang)['for']} B"


def header_columns(ws: Worksheet) -> tuple[int, dict[str, int]]:
    """The header row and each header label's column."""
    for number, row in enumerate(ws.iter_rows(min_row=1, max_row=5), start=1):
        labels = {str(c.value): c.column for c in row if c.value is not None}
        if "Date" in labels and len(labels) > 3:
            return number, labels
    raise AssertionError("no header row")


def fill_event(
    book: Workbook,
    lang: str,
    name: str | None,
    start: dt.date | None,
    end: dt.date | None,
    place: str = "Lyon",
    referee: str = "Rémi Arbitre",
) -> None:
    ws = book[words(lang)["event"]]
    for row, value in ((2, name), (3, start), (4, end), (5, place), (6, referee)):
        ws.cell(row=row, column=2, value=value)


def fill_two_sided(
    book: Workbook,
    rules: RuleSet,
    games: Sequence[GameRecord],
    lang: str,
    table_of: Iterable[int] | None = None,
) -> None:
    ws = book[words(lang)["results"]]
    header, cols = header_columns(ws)
    player = "Joueur" if lang == "fr" else "Player"
    tables = list(table_of) if table_of is not None else list(range(1, len(games) + 1))
    for i, game in enumerate(games):
        row = header + 1 + i
        ws.cell(row=row, column=cols["Date"], value=game.date)
        ws.cell(row=row, column=cols["Ronde" if lang == "fr" else "Round"], value=game.round)
        ws.cell(row=row, column=cols["Table"], value=tables[i])
        for side, letter in zip(game.sides, "AB", strict=True):
            for n, p in enumerate(side.players, start=1):
                ws.cell(row=row, column=cols[f"{player} {letter}{n}"], value=p.name)
        ws.cell(
            row=row,
            column=cols["Résultat" if lang == "fr" else "Result"],
            value=result_text(rules, game, lang),
        )


def fill_ffa(book: Workbook, rules: RuleSet, games: Sequence[GameRecord], lang: str) -> None:
    """One block per game: the first row holds id, date, mode, rated; then one row per role."""
    ws = book[words(lang)["results"]]
    header, cols = header_columns(ws)
    fr = lang == "fr"
    row = header + 1
    for game in games:
        ws.cell(row=row, column=cols["Partie" if fr else "Game"], value=game.id)
        ws.cell(row=row, column=cols["Date"], value=game.date)
        ws.cell(row=row, column=cols["Mode"], value=game.mode)
        ws.cell(
            row=row,
            column=cols["Classée" if fr else "Rated"],
            value=words(lang)["yes" if game.rated else "no"],
        )
        by_role = {p.role: (p.name, side.score) for side in game.sides for p in side.players}
        # The roles' column is headed as the rule file calls them (Diplomacy: « Pays »).
        roles_column = cols[rules.roles_heading(lang) or ("Rôle" if fr else "Role")]
        for i, role in enumerate(rules.roles, start=1):
            # The template names the roles in the sheet's language ([labels.fr]: "Angleterre").
            written = ws.cell(row=row + i, column=roles_column).value
            assert written == rules.label(role, lang)
            if role in by_role:
                name, score = by_role[role]
                ws.cell(row=row + i, column=cols["Joueur" if fr else "Player"], value=name)
                ws.cell(row=row + i, column=cols["Score"], value=score)
        row += len(rules.roles) + 2  # the template's blocks: a first row, the roles, a blank row


def filled_workbook(
    rules: RuleSet,
    games: Sequence[GameRecord],
    lang: str = "fr",
    event: str | None = None,
    players: Iterable[str] = (),
) -> Workbook:
    """A template for ``rules`` filled with ``games`` (one event, or none)."""
    book = build_template(rules, "Ligue test", players, lang)
    dates = [g.date for g in games]
    if event is not None:
        fill_event(book, lang, event, min(dates), max(dates))
    if ranked(rules):
        fill_ffa(book, rules, games, lang)
    else:
        fill_two_sided(book, rules, games, lang)
    return book


def to_bytes(book: Workbook) -> bytes:
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def reopen(data: bytes) -> Workbook:
    return load_workbook(io.BytesIO(data))
