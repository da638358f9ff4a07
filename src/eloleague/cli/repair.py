"""``verify`` and ``recompute``: whether a league's ratings are a full replay of its games, and
the repair that makes them so (docs/league.md, "Checking a league").

A thin shell over :meth:`eloleague.league.League.verify` and :meth:`~eloleague.league.League.
recompute`. ``verify`` exits with status 1 when it finds a difference (0 when none), so that a
script or a scheduled job can watch a league.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from eloleague.cli import app
from eloleague.cli.league import (
    DbOption,
    LeagueOption,
    _console,
    _open,
    _progress,
    _t,
    _tn,
    _who,
)
from eloleague.i18n import grouped, number, pick_language

if TYPE_CHECKING:
    from eloleague.records import PoolKey, PoolState
    from eloleague.store.verify import LedgerDifference, Verification


@app.command()
def verify(
    reference: Annotated[
        bool,
        typer.Option(
            "--reference",
            help="Replay with the engine's reference code instead of its compiled path (slower).",
        ),
    ] = False,
    db: DbOption = None,
    league: LeagueOption = None,
) -> None:
    """Check that the stored ratings, games counts and rating history are exactly a full
    replay of the league's games; exit status 1 when anything differs. Nothing is written.

    Example: [bold]eloleague verify --league club[/]
    """
    lg = _open(db, league)
    found = lg.verify(reference=reference)
    lang = pick_language()
    if found.agrees:
        print(
            _t(
                'the stored ratings of league "{name}" are those of a full replay of its games: '
                "{games}, {entries}, {pools} compared",
                name=lg.name,
                games=_tn("{count} game", "{count} games", found.games),
                entries=_tn(
                    "{count} entry of the history",
                    "{count} entries of the history",
                    found.ledger_entries,
                ),
                pools=_tn("{count} rating", "{count} ratings", found.pools),
            )
        )
        return
    _print_differences(lg.name, found, lang)
    raise typer.Exit(1)


def _print_differences(name: str, found: Verification, lang: str) -> None:
    from eloleague.cli.output import PlainTable, print_fitted

    console = _console()
    print(
        _t(
            'the stored ratings of league "{name}" differ from a full replay of its games',
            name=name,
        )
    )
    if found.pool_differences:
        table = PlainTable(
            title=_tn(
                "{count} current rating differs", "{count} current ratings differ",
                len(found.pool_differences),
            ),
            title_justify="left",
        )  # fmt: skip
        table.add_column(_t("Player"))
        for heading in (_t("Stored"), _t("Replayed")):
            table.add_column(heading, justify="right", no_wrap=True)
        for d in found.pool_differences[:SHOWN_POOLS]:
            table.add_row(_pool(d.key), _state(d.stored, lang), _state(d.replayed, lang))
        print_fitted(console, table)
        more = len(found.pool_differences) - SHOWN_POOLS
        if more > 0:
            print(_tn("… and {count} more", "… and {count} more", more))
    if found.ledger_differences:
        table = PlainTable(
            title=_tn(
                "{count} entry of the history differs", "{count} entries of the history differ",
                found.ledger_differences,
            ),
            title_justify="left",
        )  # fmt: skip
        table.add_column(_t("Entry"), justify="right", no_wrap=True)
        table.add_column(_t("Game"))
        table.add_column(_t("Player"))
        table.add_column(_t("What differs"))
        for e in found.first_ledger_differences:
            table.add_row(
                grouped(e.position + 1, lang),
                e.game,
                "" if e.key is None else _pool(e.key),
                _fields(e, lang),
            )
        print_fitted(console, table)
        more = found.ledger_differences - len(found.first_ledger_differences)
        if more > 0:
            print(_tn("… and {count} more", "… and {count} more", more))
    if found.tail_differences:
        print(
            _t(
                "the state kept for results posted live differs: {parts}",
                parts=", ".join(_t(TAIL_PARTS.get(part, part)) for part in found.tail_differences),
            )
        )
    print(_t("to rewrite them from the games: eloleague recompute"))


SHOWN_POOLS = 20
"""The most differing ratings ``verify`` lists (it counts them all)."""

TAIL_PARTS = {
    "tail": "the state after the last game",
    "last_game": "the last game",
    "games": "the number of games",
    "ledger_next": "the length of the history",
    "pools": "the number of ratings",
    "as_of": "the day the ratings stand at",
    "season_end": "the end of the season in progress",
    "eligible": "the ratings the season began with",
    "started": "the start of the seasons",
    "periods": "the number of rating periods",
    "active": "the players active in the season",
}
"""The parts of the state kept for live results (:func:`eloleague.store.verify.verify`), in
words."""


def _pool(key: PoolKey) -> str:
    """A pool as the tables name it: the player, then her mode and role when she has them."""
    return " · ".join(part for part in (key.player, key.mode, key.role) if part)


def _value(value: object, lang: str) -> str:
    from eloleague.io.ratings_csv import format_plain

    if value is None:
        return "—"
    if isinstance(value, float):
        return number(format_plain(value), lang)
    if isinstance(value, tuple):
        return ",".join(_value(v, lang) for v in value) or "—"
    return str(value)


def _state(pool: PoolState | None, lang: str) -> str:
    """A pool's rating and games, or a dash when that side has no such pool."""
    if pool is None:
        return "—"
    games = _tn("{count} game", "{count} games", pool.games)
    return f"{_value(pool.rating, lang)} ({games})"


def _fields(e: LedgerDifference, lang: str) -> str:
    """What differs in a ledger entry: each column's stored and replayed values, or the entry
    missing from one side."""
    if e.fields == ("missing",):
        return _t("missing from the stored history")
    if e.fields == ("extra",):
        return _t("not in the replay")
    from eloleague.io.csv_dialect import COLUMNS_FR

    return " · ".join(
        _t(
            "{field}: {stored} stored, {replayed} replayed",
            field=COLUMNS_FR.get(f, f) if lang == "fr" else f,
            stored=_value(e.stored[f], lang),
            replayed=_value(e.replayed[f], lang),
        )
        for f in e.fields
    )


@app.command()
def recompute(
    db: DbOption = None,
    league: LeagueOption = None,
) -> None:
    """Rewrite every rating, games count and the rating history from the league's games (a
    repair: what eloleague verify finds different becomes the replay's). Noted in the journal.

    Example: [bold]eloleague recompute --league club[/]
    """
    lg = _open(db, league)
    with _progress(lg):
        changed = lg.recompute(user=_who())
    print(
        _t(
            'league "{name}" recomputed from its games: {changed}',
            name=lg.name,
            changed=_tn("{count} rating changed", "{count} ratings changed", changed),
        )
    )
