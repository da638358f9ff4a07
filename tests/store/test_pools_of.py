"""A few players' current pools read for them alone (``League.pools_of``: the odds, the ratings
of a lobby), names or aliases, on SQLite and PostgreSQL: the same pools as the league's whole."""

from __future__ import annotations

from collections.abc import Callable

from eloleague.league import League
from tests.store.test_by_player import _duels


def test_the_named_players_pools_are_the_leagues(new_db: Callable[[], str]) -> None:
    league = League.create(new_db(), "pools", "bataille-empire")
    league.import_games(_duels(400, 30), source="season")
    league.rename_player("Joueur 3", "Joueuse Trois")
    every = league.current_pools()
    wanted = ["Joueur 1", "Joueur 3", "Joueur 7", "Personne", "Joueur 1"]
    pools, aliases = league.pools_of(wanted)
    assert aliases == {"Joueur 3": "Joueuse Trois"}
    named = {"Joueur 1", "Joueuse Trois", "Joueur 7"}
    assert pools == {key: pool for key, pool in every.items() if key.player in named}
    assert {key.player for key in pools} == named
    assert league.pools_of([]) == ({}, {})
