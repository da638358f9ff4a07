"""What a game may hold: the bounds every reader applies before anything is stored (docs/formats.md,
"Limits").

The same bounds hold for ``eloleague rate``, ``eloleague import``, the site's uploads and the API:
:func:`game_problems` is called for every game by :func:`eloleague.io.validate_games` and by the
workbook reader. They are far above what a real sheet holds and below what the league database and
the engine can take: texts fit their columns (on PostgreSQL too), with no control character (a NUL
cannot be stored in PostgreSQL text); rounds fit a 32-bit INTEGER; dates leave the engine room to
count days forward (seasons, inactivity) without leaving the calendar.
"""

from __future__ import annotations

import datetime as dt
import math
import re

from eloleague.i18n import Count, Text
from eloleague.records import GameRecord, Participant, Side

NAME_MAX = 200
"""Characters of a player's name, a game id or an event name."""
LABEL_MAX = 100
"""Characters of a mode, a role or an outcome label."""
ID_MAX = 50
"""A player's federation id (licence number): short, so that ``"name (id)"`` fits a name."""
ROUND_MAX = 2**31 - 1
"""The largest round number (a signed 32-bit integer, as SQLite and PostgreSQL hold it)."""
FIRST_DAY = dt.date(1000, 1, 1)
LAST_DAY = dt.date(8999, 12, 31)
"""Game dates (and the as-of dates of ``rate`` and ``ranking``) lie within ``FIRST_DAY .. LAST_DAY``."""
UNDATED = dt.date(2000, 1, 1)
"""The date a reader gives a game whose own date is missing or wrong, so that the rules check the
rest of it in the same pass (all of a line's problems at once): its date problem refuses the
import, so such a game is never stored or rated."""
SCORE_MAX = 1e9
"""Scores lie within ``-SCORE_MAX .. SCORE_MAX``."""
SIDES_MAX = 100
"""Sides of one game."""
PLAYERS_PER_SIDE_MAX = 100
"""Players of one side."""
LINES_MAX = 10_000_000
"""Lines of a JSON Lines or CSV file (ten times the largest league measured, docs/benchmarks.md)."""

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
"""Control characters (C0, DEL, C1) and lone surrogates (no UTF-8 text holds them)."""

GAME_NUMBER = re.compile(r"#([0-9]+)")
"""``#N``: how a game without id is named (its arrival number), in ASCII digits only."""


def game_number(text: str) -> int | None:
    """The arrival number ``N`` of ``"#N"``, or ``None`` when ``text`` is not of that shape."""
    found = GAME_NUMBER.fullmatch(text)
    return int(found.group(1)) if found is not None and len(text) <= 20 else None


def cut(value: str, width: int = 40) -> str:
    """``value`` for a message: control characters written as ``\\x00``, a long value cut."""
    text = _CONTROL.sub(
        lambda m: m.group().encode("unicode_escape", "backslashreplace").decode("ascii"),
        value[:width],
    )
    return text + "…" if len(value) > width else text


def clipped(text: str, width: int) -> str:
    """``text`` at most ``width`` characters long: a longer one cut, ending with « … »."""
    return text if len(text) <= width else text[: width - 1] + "…"


def shown(value: str, width: int = 40) -> str:
    """``value`` quoted for a message (see :func:`cut`)."""
    return f'"{cut(value, width)}"'


def text_problem(what: Text, value: str, limit: int = NAME_MAX) -> Text | None:
    """Why ``value`` (the ``what`` of a game) cannot be stored, or ``None`` when it can."""
    if len(value) > limit:
        return Text.of(
            "{what} is {n} characters long: at most {max} are allowed",
            what=what,
            n=len(value),
            max=limit,
        )
    bad = _CONTROL.search(value)
    if bad is not None:
        return Text.of(
            "{what} {value} contains a control character (U+{code:04X}): remove it",
            what=what,
            value=shown(value),
            code=ord(bad.group()),
        )
    return None


def storable(value: str, limit: int = NAME_MAX) -> bool:
    """Whether a league could hold ``value`` (a name, an id): what it cannot hold, it does not
    have, so a lookup of such a text finds nothing without asking the database."""
    return len(value) <= limit and _CONTROL.search(value) is None


def day_problem(day: dt.date) -> Text | None:
    """Why ``day`` is outside the dates a league can hold, or ``None``."""
    if FIRST_DAY <= day <= LAST_DAY:
        return None
    return Text.of(
        "the date {value} is out of range ({first} to {last})",
        value=day.isoformat(),
        first=FIRST_DAY.isoformat(),
        last=LAST_DAY.isoformat(),
    )


def round_problem(value: int) -> Text | None:
    """Why a round number cannot be stored, or ``None``."""
    if 0 <= value <= ROUND_MAX:
        return None
    return Text.of(
        "round {value} is out of range (0 to {max})", value=clipped(str(value), 30), max=ROUND_MAX
    )


def score_problem(value: float) -> Text | None:
    """Why a score cannot be used, or ``None``."""
    if math.isfinite(value) and -SCORE_MAX <= value <= SCORE_MAX:
        return None
    return Text.of(
        "the score {value} is out of range ({min} to {max})",
        value=f"{value:g}",
        min=Count(-int(SCORE_MAX)),
        max=Count(int(SCORE_MAX)),
    )


def _side_problems(side_no: int, side: Side, out: list[Text]) -> None:
    if len(side.players) > PLAYERS_PER_SIDE_MAX:
        out.append(
            Text.of(
                "side {side}: {n} players: at most {max} are allowed",
                side=side_no,
                n=len(side.players),
                max=PLAYERS_PER_SIDE_MAX,
            )
        )
        return
    for n, player in enumerate(side.players, start=1):
        found = text_problem(
            Text.of("side {side}: the name of player {n}", side=side_no, n=n), player.name
        )
        if found is not None:
            out.append(found)
        if player.role:
            found = text_problem(
                Text.of("side {side}: the role of player {n}", side=side_no, n=n),
                player.role,
                LABEL_MAX,
            )
            if found is not None:
                out.append(found)
        out.extend(identity_problems(side_no, n, player))
    if side.outcome is not None:
        found = text_problem(
            Text.of("side {side}: the outcome", side=side_no), side.outcome, LABEL_MAX
        )
        if found is not None:
            out.append(found)
    if side.score is not None:
        found = score_problem(side.score)
        if found is not None:
            out.append(Text.of("side {side}: {problem}", side=side_no, problem=found))


def identity_problems(side_no: int, n: int, player: Participant) -> list[Text]:
    """What a league cannot hold of a player's federation id, club and region."""
    out = []
    for value, what, limit in (
        (player.federation_id, "side {side}: the id of player {n}", ID_MAX),
        (player.club, "side {side}: the club of player {n}", NAME_MAX),
        (player.region, "side {side}: the region of player {n}", NAME_MAX),
    ):
        if value is not None:
            found = text_problem(Text.of(what, side=side_no, n=n), value, limit)
            if found is not None:
                out.append(found)
    return out


def _identity_fine(p: Participant) -> bool:
    return (
        (p.federation_id is None or _fine(p.federation_id, ID_MAX))
        and (p.club is None or _fine(p.club, NAME_MAX))
        and (p.region is None or _fine(p.region, NAME_MAX))
    )


def game_problems(game: GameRecord, checked: set[object] | None = None) -> list[Text]:
    """Every value of ``game`` the store cannot hold, as messages without location.

    ``checked`` remembers what was already found fine (sides by identity, since readers share
    equal sides between games; event names and modes), so that a million-game file is checked
    in a fraction of a second.
    """
    seen: set[object] = set() if checked is None else checked
    ident, event, mode, number = game.id, game.event, game.mode, game.round
    if (
        FIRST_DAY <= game.date <= LAST_DAY
        and (ident is None or (ident[:1] != "#" and _fine(ident, NAME_MAX)))
        and (event is None or event in seen or _remember(seen, event, NAME_MAX))
        and (not mode or mode in seen or _remember(seen, mode, LABEL_MAX))
        and (number is None or 0 <= number <= ROUND_MAX)
        and len(game.sides) <= SIDES_MAX
    ):
        for side in game.sides:
            if id(side) not in seen and not _side_fine(side, seen):
                return _game_messages(game)
        return []
    return _game_messages(game)


def _fine(text: str, limit: int) -> bool:
    # isprintable() (C speed) is True for most names; it is False for spaces other than " " and
    # format characters too, which are allowed: the regular expression decides then.
    return len(text) <= limit and (text.isprintable() or _CONTROL.search(text) is None)


def _remember(seen: set[object], text: str, limit: int) -> bool:
    if not _fine(text, limit):
        return False
    if len(text) <= LABEL_MAX:  # fine for every limit: remembered as such
        seen.add(text)
    return True


def _side_fine(side: Side, seen: set[object]) -> bool:
    score = side.score
    fine = (
        len(side.players) <= PLAYERS_PER_SIDE_MAX
        and all(_fine(p.name, NAME_MAX) and _fine(p.role, LABEL_MAX) for p in side.players)
        and all(_identity_fine(p) for p in side.players if p.identified)
        and (side.outcome is None or _fine(side.outcome, LABEL_MAX))
        and (score is None or (math.isfinite(score) and -SCORE_MAX <= score <= SCORE_MAX))
    )
    if fine:
        seen.add(id(side))
    return fine


def _game_messages(game: GameRecord) -> list[Text]:
    out: list[Text] = []
    found = day_problem(game.date)
    if found is not None:
        out.append(found)
    if game.id is not None:
        found = text_problem(Text.of("the game id"), game.id)
        if found is not None:
            out.append(found)
        elif game.id.startswith("#"):
            out.append(
                Text.of(
                    "the game id {value} starts with #: #N names a game without id (its "
                    "arrival number), so a game id cannot start with #",
                    value=shown(game.id),
                )
            )
    if game.event is not None:
        found = text_problem(Text.of("the event"), game.event)
        if found is not None:
            out.append(found)
    if game.mode:
        found = text_problem(Text.of("the mode"), game.mode, LABEL_MAX)
        if found is not None:
            out.append(found)
    if game.round is not None:
        found = round_problem(game.round)
        if found is not None:
            out.append(found)
    sides = game.sides
    if len(sides) > SIDES_MAX:
        out.append(Text.of("{n} sides: at most {max} are allowed", n=len(sides), max=SIDES_MAX))
        return out
    for s, side in enumerate(sides, start=1):
        _side_problems(s, side, out)
    return out


def lines_problem(data: bytes) -> Text | None:
    """Why a JSON Lines or CSV file is too long to be a league's games, or ``None``."""
    if len(data) <= LINES_MAX or data.count(b"\n") < LINES_MAX:
        return None
    return Text.of(
        "the file has more than {max} lines: split it into several files", max=Count(LINES_MAX)
    )
