"""Time-based decay of idle pools (docs/rule-sets.md, "decay").

After ``idle_days`` without a rated game a pool loses ``points`` every ``every_days``: the n-th
loss is dated ``last game + idle_days + n * every_days``. Over one idle spell the losses never
exceed ``cap_percent`` % of the rating the spell began with (the last loss is cut to fit). A rated
game ends the spell. Pools with no known last game (an initial state) do not decay until they play.
"""

from __future__ import annotations

import datetime as dt
import heapq
from collections.abc import Iterator, Mapping

from eloleague.engine.formulas import decay_loss
from eloleague.records import PoolKey, PoolState
from eloleague.rules.model import RuleSet

DECAY = "decay"


class Decayer:
    """Schedules and computes decay losses; the replay applies them in date order."""

    def __init__(
        self,
        rules: RuleSet,
        last_played: Mapping[PoolKey, dt.date],
        spells: Mapping[PoolKey, tuple[float, float]],
    ) -> None:
        self.rule = rules.decay
        self._last = last_played
        self._spells: dict[PoolKey, tuple[float, float]] = dict(spells)
        # (date of the next loss, pool, pool's schedule): losses of one day go in the order of
        # the pools' keys, so that a replay resumed from a state orders them as a whole replay
        # does; a pool that played twice on one day keeps only its newer schedule.
        self._queue: list[tuple[dt.date, tuple[str, str, str], int, PoolKey]] = []
        self._current: dict[PoolKey, int] = {}
        self._seq = 0
        if self.rule is not None:
            for key, last in last_played.items():
                lost = self._spells.get(key, (0.0, 0.0))[1]
                losses_done = round(lost / self.rule.points) if lost else 0
                self._start(key, last, losses_done + 1)

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
        """A rated game ends the pool's idle spell and restarts its clock."""
        if self.rule is None:
            return
        self._spells.pop(key, None)
        self._start(key, day, 1)

    def due(
        self, limit: dt.date, inclusive: bool, pools: Mapping[PoolKey, PoolState]
    ) -> Iterator[tuple[dt.date, PoolKey, float]]:
        """Yield ``(date, pool, points lost)`` for every loss dated before ``limit``, in order."""
        rule = self.rule
        assert rule is not None
        queue = self._queue
        while queue and (queue[0][0] <= limit if inclusive else queue[0][0] < limit):
            when, _, schedule, key = heapq.heappop(queue)
            if self._current.get(key) != schedule:
                continue  # the pool played since: this schedule is stale
            last = self._last[key]
            start, lost = self._spells.get(key, (pools[key].rating, 0.0))
            cap = rule.cap_percent
            loss = decay_loss(rule.points, cap is not None, cap or 0.0, start, lost)
            if loss <= 1e-12:
                continue  # the cap is reached: no more losses in this spell
            self._spells[key] = (start, lost + loss)
            nth = ((when - last).days - rule.idle_days) // rule.every_days + 1
            self._push(key, last, nth, schedule)
            yield when, key, loss

    def spells(self) -> dict[PoolKey, tuple[float, float]]:
        """Pools in an idle spell: (rating when it began, points lost so far)."""
        return dict(self._spells)
