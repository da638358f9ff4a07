"""Checkpoints store every field of an engine state, pools' method fields included, and refuse a
state with a field they do not know (it would be silently dropped)."""

from __future__ import annotations

import datetime as dt

import pytest

from eloleague.engine import EngineState
from eloleague.records import PoolKey, PoolState
from eloleague.store.checkpoints import decode_state, encode_state

IDS = {"Ana": 1, "Ben": 2}
NAMES = {1: "Ana", 2: "Ben"}


def test_a_state_with_method_fields_round_trips() -> None:
    state = EngineState(
        pools={
            PoolKey("Ana"): PoolState(1464.05, 3, (151.5, 0.059996, 0.0)),
            PoolKey("Ben", "blitz"): PoolState(1400.0, 1, (30.0, 0.06, -1.0)),
        },
        season_end=dt.date(2024, 12, 31),
        eligible=1,
        active={dt.date(2024, 12, 31): frozenset({"Ana"})},
        started=True,
        last_played={PoolKey("Ana"): dt.date(2024, 3, 1)},
        periods=7,
    )
    assert decode_state(encode_state(state, IDS), NAMES) == state


def test_an_elo_state_round_trips_without_method_fields() -> None:
    state = EngineState(pools={PoolKey("Ana"): PoolState(1500.0, 2)}, periods=2)
    back = decode_state(encode_state(state, IDS), NAMES)
    assert back == state and back.pools[PoolKey("Ana")].extra == ()


class _MoodyPool(PoolState, frozen=True, gc=False):
    mood: float = 0.0  # a pool field the checkpoints were never taught


def test_a_pool_field_the_checkpoints_do_not_store_is_refused() -> None:
    state = EngineState(pools={PoolKey("Ana"): _MoodyPool(1500.0, 2, (), 0.5)})
    with pytest.raises(RuntimeError, match="pool state fields"):
        encode_state(state, IDS)
