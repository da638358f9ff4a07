"""The records passed between readers, the engine and the store (eloleague.records): plain
immutable values, a game equal to the same game read from another file, none of them walked by
the garbage collector."""

from __future__ import annotations

import datetime as dt
import gc
import operator
import pickle
from typing import Any

import pytest

from eloleague.records import (
    GameRecord,
    Participant,
    PoolKey,
    PoolState,
    Side,
    field_names,
    replace,
)

DAY = dt.date(2026, 11, 28)


def _game(origin: str = "line 1", **changes: Any) -> GameRecord:
    game = GameRecord(
        DAY,
        (Side((Participant("Ana"),), "win"), Side((Participant("Ben", "France"),), "loss")),
        id="g1",
        origin=origin,
    )
    return replace(game, **changes) if changes else game


def test_a_game_read_from_two_files_is_the_same_game() -> None:
    here, there = _game("line 1"), _game("Résultats!B7")
    assert here == there
    assert operator.ne(here, there) is False  # != too (msgspec's own would see the origin)
    assert hash(here) == hash(there)
    assert len({here, there}) == 1
    assert here.origin != there.origin  # still told where it came from


def test_a_game_without_origin_is_pointed_at_by_its_id_in_either_language() -> None:
    from eloleague.i18n import render

    assert _game("line 4").where == "line 4"
    stored = _game("")  # a stored game, or one a program gave the library
    assert (render(stored.where, "en"), render(stored.where, "fr")) == ("game g1", "partie g1")
    assert _game("", id=None).where == ""  # nothing to point at


@pytest.mark.parametrize(
    "change",
    [
        {"date": DAY + dt.timedelta(days=1)},
        {"sides": (Side((Participant("Ana"),), "win"), Side((Participant("Ben"),), "loss"))},
        {"id": "g2"},
        {"event": "Open"},
        {"round": 2},
        {"mode": "blitz"},
        {"rated": False},
        {"home": 0},
        {"neutral": True},
    ],
)
def test_every_other_field_tells_games_apart(change: dict[str, Any]) -> None:
    assert _game(**change) != _game()


def test_records_are_immutable_and_replace_copies() -> None:
    game = _game()
    with pytest.raises(AttributeError):
        game.id = "g2"  # type: ignore[misc]
    renamed = replace(game, id="g2")
    assert (renamed.id, game.id) == ("g2", "g1")
    assert type(renamed) is GameRecord and renamed.origin == game.origin
    assert field_names(PoolState) == ("rating", "games", "extra")


def test_pools_are_keys_and_values() -> None:
    ratings = {
        PoolKey("Ana"): PoolState(1500.0, 3),
        PoolKey("Ana", "", "France"): PoolState(1400.0),
    }
    assert ratings[PoolKey("Ana", "", "")] == PoolState(1500.0, 3, ())
    assert PoolKey("Ana") != PoolKey("Ana", "", "France")


def test_records_cross_processes_and_stay_out_of_the_collector() -> None:
    game = _game()
    assert pickle.loads(pickle.dumps(game)) == game
    kinds = [game, game.sides[0], game.sides[0].players[0], PoolKey("Ana"), PoolState(1500.0)]
    assert not any(gc.is_tracked(record) for record in kinds)
