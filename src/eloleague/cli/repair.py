"""``verify`` and ``recompute``: whether a league's ratings are a full replay of its games, and
the repair that makes them so (docs/league.md, "Checking a league").

A thin shell over :meth:`eloleague.league.League.verify` and :meth:`~eloleague.league.League.
recompute`. ``verify`` exits with status 1 when it finds a difference (0 when none), so that a
script or a scheduled job can watch a league.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import TYPE_CHECKING, Annotated

import typer

from eloleague.cli import app
from eloleague.cli.league import (
    PROGRESS_FROM,
    DbOption,
    LeagueOption,
    _console,
    _err,
    _open,
    _progress,
    _t,
    _tn,
    _who,
)
from eloleague.i18n import grouped, pick_language, render

if TYPE_CHECKING:
    from eloleague.rules.model import RuleSet
    from eloleague.store.verify import Verification


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
    from eloleague.store.messages import verification_said

    lg = _open(db, league)
    lang = pick_language()
    games = lg.totals()[0]
    waiting = (  # a large league takes a while (about 30 s for a million games)
        _err().status(_tn("replaying {count} game…", "replaying {count} games…", games))
        if games >= PROGRESS_FROM
        else nullcontext()
    )
    with waiting:
        found = lg.verify(reference=reference)
    print(render(verification_said(lg.name, found), lang))
    if not found.agrees:
        _print_differences(lg.rules, found, lang)
        raise typer.Exit(1)


def _print_differences(rules: RuleSet, found: Verification, lang: str) -> None:
    from eloleague.cli.output import PlainTable, print_fitted
    from eloleague.store.messages import (
        checkpoints_said,
        fields_said,
        pool_named,
        pool_said,
        tail_said,
    )
    from eloleague.store.verify import SHOWN

    console = _console()
    if found.pool_differences:
        table = PlainTable(
            title=_tn(
                "{count} current rating differs",
                "{count} current ratings differ",
                len(found.pool_differences),
            ),
            title_justify="left",
        )
        table.add_column(_t("Player"))
        for heading in (_t("Stored"), _t("Replayed")):
            table.add_column(heading, justify="right", no_wrap=True)
        for d in found.pool_differences[:SHOWN]:
            table.add_row(
                pool_named(rules, d.key, lang),
                pool_said(d.stored, lang),
                pool_said(d.replayed, lang),
            )
        print_fitted(console, table)
        more = len(found.pool_differences) - SHOWN
        if more > 0:
            print(_tn("… and {count} more", "… and {count} more", more))
    if found.ledger_differences:
        table = PlainTable(
            title=_tn(
                "{count} entry of the history differs",
                "{count} entries of the history differ",
                found.ledger_differences,
            ),
            title_justify="left",
        )
        table.add_column(_t("Entry"), justify="right", no_wrap=True)
        table.add_column(_t("Game"))
        table.add_column(_t("Player"))
        table.add_column(_t("What differs"))
        for e in found.first_ledger_differences:
            table.add_row(
                grouped(e.position + 1, lang),
                e.game,
                pool_named(rules, e.key, lang),
                fields_said(e, lang),
            )
        print_fitted(console, table)
        more = found.ledger_differences - len(found.first_ledger_differences)
        if more > 0:
            print(_tn("… and {count} more", "… and {count} more", more))
    if found.tail_differences:
        print(tail_said(found.tail_differences, lang))
    if found.checkpoint_differences:
        print(render(checkpoints_said(found.checkpoint_differences), lang))
    print(_t("to rewrite them from the games: eloleague recompute"))


@app.command()
def recompute(
    db: DbOption = None,
    league: LeagueOption = None,
) -> None:
    """Rewrite every rating, games count and the rating history from the league's games (a
    repair: what eloleague verify finds different becomes the replay's). Noted in the journal.

    Example: [bold]eloleague recompute --league club[/]
    """
    from eloleague.store.messages import recomputed_said

    lg = _open(db, league)
    with _progress(lg):
        changed = lg.recompute(user=_who())
    print(render(recomputed_said(lg.name, changed), pick_language()))
