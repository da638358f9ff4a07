"""Rule-set features beyond the five seeds (issue 7), on hand-computed cases."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from eloleague.engine import replay
from eloleague.engine.decay import DECAY
from eloleague.engine.ledger import LedgerEntry
from eloleague.io.ratings_csv import format_number
from eloleague.records import PoolKey
from eloleague.rules import RuleSet, load_rules, parse_rules
from tests.conftest import DATA, run_cli
from tests.engine.helpers import duel

COMMUNITY = load_rules(DATA / "rules" / "community.toml")


def _rules(extra: str, *, updates: str = 'updates = "per_game"') -> RuleSet:
    return parse_rules(
        f'name = "t"\nmethod = "duel"\nstart_rating = 1500\nscale = 400\n{updates}\n'
        f"{extra}\n[outcomes]\n"
        'win = { score = 1, against = ["loss"] }\nloss = { score = 0, against = ["win"] }\n'
        'draw = { score = 0.5, against = ["draw"] }\n'
    )


class TestRatingPeriods:
    def test_a_day_is_rated_from_the_ratings_at_its_start(self) -> None:
        rules = _rules("[k]\ndefault = 20", updates='updates = "per_period"\nperiod = "day"')
        games = [
            duel("2025-01-01", "A", "win", "B", "loss", event="x"),
            duel("2025-01-01", "A", "win", "C", "loss", event="y"),  # another event, same day
            duel("2025-01-02", "A", "win", "D", "loss"),
        ]
        ledger = replay(rules, games).ledger
        assert ledger[0].before == ledger[2].before == 1500
        assert ledger[0].delta == ledger[2].delta == 10
        assert ledger[4].before == 1520  # the next day sees both changes

    @pytest.mark.parametrize(
        ("period", "dates", "batched"),
        [
            ("week", ["2025-01-06", "2025-01-12", "2025-01-13"], [True, False]),  # Mon, Sun, Mon
            ("month", ["2025-01-01", "2025-01-31", "2025-02-01"], [True, False]),
        ],
    )
    def test_weeks_and_months_are_calendar_periods(
        self, period: str, dates: list[str], batched: list[bool]
    ) -> None:
        rules = _rules("[k]\ndefault = 20", updates=f'updates = "per_period"\nperiod = "{period}"')
        games = [duel(d, "A", "win", f"X{i}", "loss") for i, d in enumerate(dates)]
        ledger = replay(rules, games).ledger
        before = [e.before for e in ledger[::2]]
        assert (before[1] == before[0]) is batched[0]
        assert (before[2] == before[1]) is batched[1]

    def test_games_count_grows_or_stays_frozen_inside_a_period(self) -> None:
        k = "[k]\ndefault = 10\ncount_current_game = true\ntiers = [{ k = 50, games_below = 2 }]"
        games = [duel("2025-01-01", "A", "win", f"X{i}", "loss") for i in range(3)]
        frozen = _rules(k, updates='updates = "per_period"\nperiod = "day"')
        grows = _rules(
            k, updates='updates = "per_period"\nperiod = "day"\nperiod_games_count = "grows"'
        )
        assert [e.k for e in replay(frozen, games).ledger[::2]] == [50, 50, 50]
        assert [e.k for e in replay(grows, games).ledger[::2]] == [50, 10, 10]


class TestRoundingToAPrecision:
    @pytest.mark.parametrize(
        ("mode", "want"), [("half_up", 10.3), ("trunc", 10.2), ("half_even", 10.2)]
    )
    def test_delta_rounded_to_one_decimal(self, mode: str, want: float) -> None:
        # Equal ratings, K 20.5: 20.5 * (1 - 0.5) = 10.25 exactly.
        rules = _rules(f'delta_rounding = {{ mode = "{mode}", decimals = 1 }}\n[k]\ndefault = 20.5')
        entry = replay(rules, [duel("2025-01-01", "A", "win", "B", "loss")]).ledger[0]
        assert entry.raw_delta == 10.25
        assert entry.delta == want
        assert entry.after == 1500 + want

    def test_half_even_on_an_exact_half(self) -> None:
        # Equal ratings: K 25 * (1 - 0.5) = 12.5 -> 12 (half_even) / 13 (half_up) at 0 decimals.
        for mode, want in (("half_even", 12), ("half_up", 13), ("trunc", 12)):
            rules = _rules(
                f'delta_rounding = {{ mode = "{mode}", decimals = 0 }}\n[k]\ndefault = 25'
            )
            entry = replay(rules, [duel("2025-01-01", "A", "win", "B", "loss")]).ledger[0]
            assert entry.delta == want, mode

    def test_ratings_stay_on_the_grid_and_show_truncated(self) -> None:
        games = [
            duel(
                f"2025-01-{d:02d}", "A", "win" if d % 3 else "loss", "B", "loss" if d % 3 else "win"
            )
            for d in range(1, 29)
        ]
        result = replay(COMMUNITY, games)
        for entry in result.ledger:
            assert round(entry.after, 1) == entry.after
            assert round(entry.delta * 10) == pytest.approx(entry.delta * 10, abs=1e-9)
        shown = COMMUNITY.shown
        assert format_number(1612.36, shown) == "1612.3"
        assert format_number(1499.99, shown) == "1499.9"


class TestDecay:
    RULES = _rules(
        "[k]\ndefault = 20\n[decay]\nidle_days = 100\npoints = 3\nevery_days = 30\ncap_percent = 1"
    )

    def test_a_season_closes_after_the_losses_of_its_last_days_and_before_the_next_ones(
        self,
    ) -> None:
        """A, idle all 2023, has lost 65 points by December 27th (1445): the season's inactivity
        is judged on that rating (above 1442: 100 points), before the loss of January 26th, 2024,
        whatever game comes next."""
        rules = _rules(
            "[k]\ndefault = 20\n[decay]\nidle_days = 30\npoints = 5\nevery_days = 30\n"
            "[season]\ninactivity = [{ above = 1442, penalty = 100 }]"
        )
        as_of = dt.date(2024, 2, 20)
        for later in ("2024-01-27", "2024-02-15", None):  # a game after the loss, or none
            games = [duel("2022-11-02", "A", "win", "B", "loss")]
            if later:
                games.append(duel(later, "C", "win", "D", "loss"))
            ledger = [e for e in replay(rules, games, as_of=as_of).ledger if e.key.player == "A"]
            assert [e.date for e in ledger] == sorted(e.date for e in ledger)
            assert [(e.date.isoformat(), e.before, e.after, e.warning) for e in ledger[-3:]] == [
                ("2023-12-27", 1450, 1445, "decay"),
                ("2023-12-31", 1445, 1345, "inactivity"),
                ("2024-01-26", 1345, 1340, "decay"),
            ]

    def test_losses_dated_and_capped(self) -> None:
        # A plays on 2024-01-01 then idles; A's rating after the game is 1510 (cap 1 % = 15.1).
        games = [duel("2024-01-01", "A", "win", "B", "loss")]
        result = replay(self.RULES, games, as_of=dt.date(2024, 12, 31))
        losses = [e for e in result.ledger if e.key.player == "A" and DECAY in e.fired]
        first = dt.date(2024, 1, 1) + dt.timedelta(days=130)
        assert [e.date for e in losses] == [first + dt.timedelta(days=30 * i) for i in range(6)]
        assert [e.delta for e in losses] == pytest.approx([-3, -3, -3, -3, -3, -0.1])
        assert result.pools[PoolKey("A")].rating == pytest.approx(1510 - 15.1)
        assert all(e.warning == "decay" and e.game == "" for e in losses)

    def test_playing_again_stops_the_decay_and_starts_a_new_spell(self) -> None:
        games = [
            duel("2024-01-01", "A", "win", "B", "loss"),
            duel("2024-06-01", "A", "win", "B", "loss"),
        ]
        result = replay(self.RULES, games, as_of=dt.date(2024, 6, 1))
        dates = [e.date for e in result.ledger if DECAY in e.fired and e.key.player == "A"]
        # 2024-05-10 and ... : losses only between day 130 and the next game.
        assert dates == [dt.date(2024, 5, 10)]
        assert result.state.decay_spells == {}

    def test_decay_is_evaluated_up_to_the_as_of_date(self) -> None:
        games = [duel("2024-01-01", "A", "win", "B", "loss")]
        early = replay(self.RULES, games, as_of=dt.date(2024, 5, 9))
        assert not [e for e in early.ledger if DECAY in e.fired]
        on_day = replay(self.RULES, games, as_of=dt.date(2024, 5, 10))
        assert len([e for e in on_day.ledger if DECAY in e.fired and e.key.player == "A"]) == 1

    def test_two_games_on_one_day_start_one_idle_spell(self) -> None:
        games = [
            duel("2024-01-01", "A", "win", "B", "loss"),
            duel("2024-01-01", "A", "loss", "C", "win"),
        ]
        result = replay(self.RULES, games, as_of=dt.date(2024, 7, 1))
        dates = [e.date for e in result.ledger if DECAY in e.fired and e.key.player == "A"]
        assert dates == [dt.date(2024, 5, 10), dt.date(2024, 6, 9)]

    @pytest.mark.parametrize("every", [1, 3, 7])
    def test_resuming_at_any_day_equals_one_replay(self, every: int) -> None:
        """A stream cut where its date changes and resumed from the first part's state gives
        the same ledger and ratings as one replay (what the league's checkpoints rely on)."""
        rules = _rules(
            "[k]\ndefault = 20\n[decay]\nidle_days = 20\npoints = 4\n"
            f"every_days = {every}\ncap_percent = 10"
        )
        players = ["A", "B", "C", "D", "E"]
        games = []
        day = dt.date(2024, 1, 1)
        for n in range(60):
            day += dt.timedelta(days=(n * 7) % 23)
            a, b = players[n % 5], players[(n * 3 + 1) % 5]
            if a == b:
                b = players[(n + 2) % 5]
            games.append(duel(day.isoformat(), a, "win", b, "loss", gid=f"g{n}"))
            if n % 4 == 0:  # the same players again that day
                games.append(duel(day.isoformat(), b, "win", a, "loss", gid=f"r{n}"))
        as_of = day + dt.timedelta(days=400)
        whole = replay(rules, games, as_of=as_of)
        assert any(DECAY in e.fired for e in whole.ledger)

        def key(entries: list[LedgerEntry]) -> list[tuple[object, ...]]:
            return [(e.date, e.key.player, e.game, round(e.delta, 9)) for e in entries]

        for cut in range(1, len(games)):
            if games[cut].date == games[cut - 1].date:
                continue
            first = replay(rules, games[:cut])
            second = replay(rules, games[cut:], initial=first.state, as_of=as_of)
            assert {k: (round(v.rating, 9), v.games) for k, v in second.pools.items()} == {
                k: (round(v.rating, 9), v.games) for k, v in whole.pools.items()
            }
            assert key([*first.ledger, *second.ledger]) == key(list(whole.ledger)), cut


def test_provisional_title_needs_a_maximum_games_count() -> None:
    assert COMMUNITY.title_for(1500, 10) == "provisional"
    assert COMMUNITY.title_for(1500, 11) == "established"


def test_a_title_listed_twice_is_held_either_way() -> None:
    """Two ``[[titles]]`` of one name are one title reached either way (docs/rule-sets.md): 1,800
    points, or 1,700 with 100 games; the next title a player is shown is the way listed last."""
    from eloleague.web.player_facts import next_title

    rules = _rules(
        "[k]\ndefault = 20\n"
        '[[titles]]\nname = "Grand maître"\nmin_rating = 1800\n'
        '[[titles]]\nname = "Grand maître"\nmin_rating = 1700\nmin_games = 100\n'
        '[[titles]]\nname = "Maître"\nmin_rating = 1600\n'
    )
    assert rules.title_for(1800, 0) == rules.title_for(1750, 120) == "Grand maître"
    assert rules.title_for(1750, 99) == "Maître"
    ahead = next_title(rules, 1750, 99)
    assert ahead is not None and (ahead["title"], ahead["games_needed"]) == ("Grand maître", 1)
    assert next_title(rules, 1750, 120) is None  # held: nothing above it


def test_rate_prints_the_shown_value_and_hides_inactive_players(tmp_path: Path) -> None:
    lines = [
        '{"date": "2020-01-01", "sides": [{"players": ["Old"], "outcome": "win"}, {"players": ["Gone"], "outcome": "loss"}]}',
        '{"date": "2025-01-01", "sides": [{"players": ["Ana"], "outcome": "win"}, {"players": ["Ben"], "outcome": "loss"}]}',
    ]
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rules = str(DATA / "rules" / "community.toml")
    done = run_cli("rate", str(path), "--rules", rules)
    assert done.returncode == 0, done.stderr
    rows = done.stdout.splitlines()
    assert rows[1] == "Ana,,,1525.0,1,provisional"
    old = next(r for r in rows if r.startswith("Old,"))
    # 1827 days idle: losses on days 1130, 1160, ..., 1820 (24 of them), far from the 15 % cap.
    assert old.split(",")[3] == "1453.0"
    active = run_cli("rate", str(path), "--rules", rules, "--active-days", "365")
    assert [r.split(",")[0] for r in active.stdout.splitlines()[1:]] == ["Ana", "Ben"]
