"""Season boundaries and the inactivity rule (docs/rule-sets.md; the Bataille Empire and L'Art de la Guerre rules)."""

from __future__ import annotations

import bisect
import datetime as dt

from eloleague.engine.formulas import inactivity_penalty
from eloleague.rules.model import Season


def season_end(season: Season, day: dt.date) -> dt.date | None:
    """The last day of the season that contains ``day``; ``None`` after the last explicit end."""
    if season.ends:
        i = bisect.bisect_left(season.ends, day)
        return season.ends[i] if i < len(season.ends) else None
    month, dom = (int(x) for x in season.year_end.split("-"))
    end = _safe_date(day.year, month, dom)
    return end if end >= day else _safe_date(day.year + 1, month, dom)


def next_season_end(season: Season, end: dt.date) -> dt.date | None:
    """The end of the season that follows the one ending on ``end``."""
    return season_end(season, end + dt.timedelta(days=1))


def _safe_date(year: int, month: int, day: int) -> dt.date:
    return dt.date(year, month, day)


def inactivity_rating(season: Season, rating: float) -> float:
    """The rating of an inactive player after a season's end: the first tier whose threshold
    the rating is strictly above takes its penalty, never below the season floor.
    """
    for tier in season.inactivity:
        if rating > tier.above:
            floor = season.floor
            return inactivity_penalty(rating, tier.penalty, floor is not None, floor or 0.0)
    return rating
