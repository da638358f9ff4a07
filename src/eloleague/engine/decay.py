"""Time-based decay of idle pools (docs/rule-sets.md, "decay").

After ``idle_days`` without a rated game a pool loses ``points`` (or its ``step`` formula) every
``every_days``: the n-th loss is dated ``last game + idle_days + n * every_days``. The losses
never exceed ``cap_percent`` % of the rating the idle spell began with (the last loss is cut to
fit, down to the ratings' grid): over one spell (``cap_scope = "spell"``) or over the pool's whole
career (``"career"``: the running total never resets, the base is the rating its first spell began
with). Amounts are exact decimals. A rated game ends the spell. Pools with no known last game (an
initial state) do not decay until they play.
"""

from __future__ import annotations

import datetime as dt
import heapq
from collections.abc import Iterator, Mapping
from decimal import Decimal

from eloleague.engine.maths import clean_loss, exact
from eloleague.engine.rule_formulas import evaluated
from eloleague.records import PoolKey, PoolState
from eloleague.rules.model import RuleSet

DECAY = "decay"
_HUNDRED = Decimal(100)


class Decayer:
    """Schedules and computes decay losses; the replay applies them in date order."""

    def __init__(
        self,
        rules: RuleSet,
        last_played: Mapping[PoolKey, dt.date],
        spells: Mapping[PoolKey, tuple[float, float]],
        steps: Mapping[PoolKey, int] | None = None,
    ) -> None:
        self.rules = rules
        self.rule = rules.decay
        self._last = last_played
        self._spells: dict[PoolKey, tuple[float, float]] = dict(spells)
        self._steps: dict[PoolKey, int] = dict(steps or {})
        # (date of the next loss, pool, pool's schedule): losses of one day go in the order of
        # the pools' keys, so that a replay resumed from a state orders them as a whole replay
        # does; a pool that played twice on one day keeps only its newer schedule.
        self._queue: list[tuple[dt.date, tuple[str, str, str], int, PoolKey]] = []
        self._current: dict[PoolKey, int] = {}
        self._seq = 0
        if self.rule is not None:
            for key, last in last_played.items():
                done = self._steps.get(key)
                if done is None:  # a state written before steps were kept: whole points
                    lost = self._spells.get(key, (0.0, 0.0))[1]
                    points = self.rule.points
                    in_spell = self.rule.cap_scope == "spell" and lost and points
                    done = round(lost / points) if in_spell and points else 0
                self._start(key, last, done + 1)

    def _start(self, key: PoolKey, last: dt.date, nth: int) -> None:
        """Schedule the pool's ``nth`` loss after ``last``, replacing any earlier schedule."""
        self._seq += 1
        self._current[key] = self._seq
        self._push(key, last, nth, self._seq)

    def _push(self, key: PoolKey, last: dt.date, nth: int, schedule: int) -> None:
        assert self.rule is not None
        when = last + dt.timedelta(days=self.rule.idle_days + nth * self.rule.every_days)
        heapq.heappush(self._queue, (when, (key.player, key.mode, key.role), schedule, key))

    def played(self, key: PoolKey, day: dt.date) -> None:
        """A rated game ends the pool's idle spell and restarts its clock (the career total of
        ``cap_scope = "career"`` stays)."""
        if self.rule is None:
            return
        if self.rule.cap_scope == "spell":
            self._spells.pop(key, None)
        self._steps.pop(key, None)
        self._start(key, day, 1)

    def _loss(self, nth: int, rating: float, start: float, lost: float) -> Decimal:
        """The next loss, cut by the cap and to the grid (0 or less: no more losses)."""
        rule = self.rule
        assert rule is not None
        formula = rule.step_formula
        if formula is None:
            assert rule.points is not None  # the model asks for points or a step
            amount = exact(rule.points)
        else:
            values = {
                "rating": rating,
                "start": start,
                "lost": lost,
                "nth": float(nth),
                "points": rule.points or 0.0,
            }
            amount = exact(evaluated(self.rules, "decay.step", formula, values, ""))
        if rule.cap_percent is not None:
            room = exact(start) * exact(rule.cap_percent) / _HUNDRED - exact(lost)
            amount = min(amount, room)
        return clean_loss(self.rules, amount)

    def due(
        self, limit: dt.date, inclusive: bool, pools: Mapping[PoolKey, PoolState]
    ) -> Iterator[tuple[dt.date, PoolKey, Decimal]]:
        """Yield ``(date, pool, points lost)`` for every loss dated before ``limit``, in order."""
        rule = self.rule
        assert rule is not None
        queue = self._queue
        while queue and (queue[0][0] <= limit if inclusive else queue[0][0] < limit):
            when, _, schedule, key = heapq.heappop(queue)
            if self._current.get(key) != schedule:
                continue  # the pool played since: this schedule is stale
            last = self._last[key]
            rating = pools[key].rating
            start, lost = self._spells.get(key, (rating, 0.0))
            nth = ((when - last).days - rule.idle_days) // rule.every_days
            loss = self._loss(nth, rating, start, lost)
            if loss <= 0:
                continue  # the cap is reached: no more losses in this spell
            self._spells[key] = (start, float(exact(lost) + loss))
            self._steps[key] = nth
            self._push(key, last, nth + 1, schedule)
            yield when, key, loss

    def spells(self) -> dict[PoolKey, tuple[float, float]]:
        """Pools in an idle spell (career scope: every pool that ever decayed): the rating the
        spell began with and the points lost so far."""
        return dict(self._spells)

    def steps(self) -> dict[PoolKey, int]:
        """Pools in an idle spell: how many losses it took so far."""
        return dict(self._steps)
