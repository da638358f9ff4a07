"""Every write is one transaction: a process killed in the middle of a correction, a deletion, a
merge, a rule change or a season closing leaves the league as it was, never between
(docs/league.md, "Corrections"). The writes run in a real child process that is killed with
SIGKILL while its transaction is open (its recompute has begun: the rows of the change are
written, nothing is committed); then the same write runs to the end and the league equals a full
replay of its games."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
import threading
import time
from importlib import resources
from pathlib import Path
from typing import Any

import httpx
import pytest

from eloleague import accounts
from eloleague.errors import EloleagueError, InputError
from eloleague.io import parse_jsonl
from eloleague.league import League
from eloleague.records import replace
from tests.store.helpers import (
    assert_equals_full_replay,
    ranking_csv,
    read_lines,
    replay_file,
    write_lines,
)
from tests.web.conftest import free_port

# One write of each kind, by name; the child process and the test run the same code.
WRITE = textwrap.dedent(
    """
    import json, sys, time
    from eloleague.io import parse_jsonl
    from eloleague.league import League

    def write(league, kind, arg):
        if kind == "correct":
            game_id, line = arg.split(" ", 1)
            records, problems = parse_jsonl(line.encode())
            assert not problems, problems
            league.correct_game(game_id, records[0], user="test")
        elif kind == "delete":
            league.delete_game(arg)
        elif kind == "merge":
            alias, into = arg.split("|")
            league.merge_players(alias, into)
        elif kind == "rules":
            league.change_rules(arg)
        elif kind == "confirm":
            item, content = league.pending_upload(int(arg))
            records, problems = parse_jsonl(content)
            assert not problems, problems
            league.confirm_upload(int(arg), records, user="test")
        elif kind == "close":
            import datetime as dt
            league.close_season(dt.date.fromisoformat(arg))
        else:
            raise SystemExit(f"unknown write {kind}")

    if __name__ == "__main__":
        league = League.open(sys.argv[1])

        def stall(done, total):
            print("in the transaction", flush=True)
            time.sleep(120)

        league.progress = stall
        write(league, sys.argv[2], sys.argv[3])
        print("committed", flush=True)
    """
)


def _write(league: League, kind: str, arg: str) -> None:
    namespace: dict[str, Any] = {"__name__": "writes"}
    exec(WRITE, namespace)
    namespace["write"](league, kind, arg)


def _lines() -> list[dict[str, Any]]:
    """AdlG games (per-event updates); the first 40 have no id (``#1`` to ``#40``)."""
    lines = read_lines(replay_file("adlg"))[:300]
    for obj in lines[:40]:
        del obj["id"]
    return lines


def _reversed(obj: dict[str, Any]) -> str:
    """The game with its two results swapped: the correction a referee sends for a game entered
    the wrong way round."""
    first, second = obj["sides"]
    fixed = {
        **obj,
        "sides": [
            {**first, "outcome": second["outcome"]},
            {**second, "outcome": first["outcome"]},
        ],
    }
    return json.dumps(fixed, ensure_ascii=False)


def _league(db_url: str, tmp_path: Path) -> League:
    """The games of :func:`_lines`, and a misspelt player who can be merged."""
    lines = _lines()
    typo = {
        "id": "typo-1",
        "date": lines[-1]["date"],
        "sides": [
            {"players": ["Solo Typo"], "outcome": "victory"},
            {"players": ["Someone Else"], "outcome": "defeat"},
        ],
    }
    league = League.create(db_url, "adlg", "adlg")
    league.import_file(write_lines(tmp_path / "games.jsonl", [*lines, typo]))
    return league


def _state(league: League) -> tuple[str, list[Any], list[Any], str, list[Any], list[Any]]:
    waiting = [(u.id, u.status) for u in league.pending_uploads()]
    noted = [(e.action, e.detail) for e in league.journal()]
    return ranking_csv(league), league.games(), league.closings(), league.rules_text, waiting, noted


def _writes() -> list[tuple[str, str]]:
    lines = _lines()
    last_year = lines[-1]["date"][:4]
    player = lines[100]["sides"][0]["players"][0]
    return [
        ("correct", f"#5 {_reversed(lines[4])}"),
        ("correct", f"{lines[120]['id']} {_reversed(lines[120])}"),
        ("delete", "#7"),
        ("delete", lines[150]["id"]),
        ("merge", f"Solo Typo|{player}"),
        ("rules", "ADLG_SCALE_400"),
        ("close", f"{last_year}-12-31"),
        ("confirm", "the upload held by the test"),
    ]


@pytest.mark.parametrize(("kind", "arg"), _writes(), ids=lambda v: v.split(" ")[0][:20])
def test_a_write_killed_in_its_transaction_leaves_the_league_as_it_was(
    db_url: str, tmp_path: Path, kind: str, arg: str
) -> None:
    league = _league(db_url, tmp_path)
    before = _state(league)
    if kind == "confirm":  # a referee's file waits for an officer
        referee = accounts.add_user(league.engine, "Rémi", "correct horse battery", "referee")
        extra = [{**obj, "id": f"late-{n}"} for n, obj in enumerate(_lines()[-5:])]
        content = "".join(json.dumps(o) + "\n" for o in extra).encode()
        arg = str(league.hold_upload(referee.id, "late.jsonl", content))
        before = _state(league)
    if kind == "rules":  # the AdlG rules with another scale: every rating changes
        preset = resources.files("eloleague.rules") / "presets" / "adlg.toml"
        text = preset.read_text("utf-8").replace("scale = 500", "scale = 400")
        assert text != preset.read_text("utf-8")
        (tmp_path / "club.toml").write_text(text, "utf-8")
        arg = str(tmp_path / "club.toml")
    child = subprocess.Popen(
        [sys.executable, "-c", WRITE, db_url, kind, arg],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    line = child.stdout.readline().strip()
    if line != "in the transaction":
        child.kill()
        pytest.fail(f"the write did not start its recompute: {child.communicate()[1][-2000:]}")
    child.kill()
    child.wait()

    again = League.open(db_url)
    assert _state(again) == before
    assert_equals_full_replay(again)

    _write(again, kind, arg)  # the same write then goes through
    after = _state(again)
    assert after != before
    assert_equals_full_replay(again)


def test_correcting_a_game_without_id_keeps_its_number_and_equals_a_full_replay(
    db_url: str, tmp_path: Path
) -> None:
    league = _league(db_url, tmp_path)
    lines = _lines()
    records, problems = parse_jsonl(_reversed(lines[4]).encode())
    assert not problems
    report = league.correct_game("#5", records[0], user="Claire")
    assert (report.added, report.replaced) == (0, 1)
    explained = league.explain("#5")
    assert [s.outcome for s in explained.game.sides] == [
        lines[4]["sides"][1]["outcome"],
        lines[4]["sides"][0]["outcome"],
    ]
    assert len(league.games()) == len(lines) + 1
    assert_equals_full_replay(league)
    # The same correction again changes nothing; a game that does not exist is refused.
    assert league.correct_game("#5", records[0]).changed is False
    with pytest.raises(EloleagueError):
        league.correct_game("#9999", records[0])
    # The id another stored game has is refused, saying so (no import's option is involved).
    with pytest.raises(InputError) as caught:
        league.correct_game("#5", replace(records[0], id="typo-1"))
    assert str(caught.value).endswith(
        'the id "typo-1" is another game\'s (dated '
        f"{lines[-1]['date']}): keep the corrected game's own id, or give it one no other game has"
    )
    assert league.explain("#5").game.id == "#5"  # still without an id of its own
    assert_equals_full_replay(league)


def test_killing_the_server_during_corrections_of_games_without_id_loses_none(
    db_url: str, tmp_path: Path
) -> None:
    """The trial: a real ``eloleague serve`` corrects ``#5`` back and forth through the API and
    is killed with SIGKILL at a random moment of the request; after each kill the game is there,
    in its old or its new version, and the league equals a full replay."""
    league = _league(db_url, tmp_path)
    accounts.add_user(league.engine, "Claire", "correct horse battery", "officer")
    token = accounts.create_token(league.engine, "Claire")
    original = _lines()[4]
    versions = [json.loads(_reversed(original)), original]  # what #5 is sent as, in turn
    rng = random.Random(5)
    took = 0.5
    for round_ in range(4):
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "eloleague", "serve", "--db", db_url, "--port", str(port)],
            env={**os.environ, "ELOLEAGUE_SECRET": "k" * 40},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            _wait_until_up(base)
            sent = versions[round_ % 2]
            answers: list[int] = []

            started = time.perf_counter()
            thread = threading.Thread(target=_put, args=(base, token, sent, answers))
            thread.start()
            if round_ == 0:  # the first correction runs to the end: how long one takes
                thread.join()
                took = time.perf_counter() - started
            else:
                time.sleep(rng.uniform(0, took * 1.2))
        finally:
            server.kill()
            server.wait()
        thread.join()
        again = League.open(db_url)
        outcomes = [s.outcome for s in again.explain("#5").game.sides]
        assert outcomes in ([s["outcome"] for s in v["sides"]] for v in versions), (
            outcomes
        )  # one version or the other, never lost
        assert len(again.games()) == len(_lines()) + 1
        assert_equals_full_replay(again)
        if answers == [200]:  # answered: the correction is there for good
            assert outcomes == [s["outcome"] for s in sent["sides"]]


def _put(base: str, token: str, body: dict[str, Any], answers: list[int]) -> None:
    try:
        got = httpx.put(
            f"{base}/api/v1/leagues/adlg/games/%235",
            content=json.dumps(body),
            headers={"Authorization": f"Bearer {token}"},
            timeout=60,
        )
        answers.append(got.status_code)
    except httpx.HTTPError:
        answers.append(0)  # killed before it answered


def _wait_until_up(base: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/api/v1/leagues", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


CONCURRENT = textwrap.dedent(
    """
    import json, sys
    from eloleague.io import parse_jsonl
    from eloleague.league import League

    league = League.open(sys.argv[1])
    n = int(sys.argv[2])
    for step, line in enumerate(sys.argv[3:]):
        kind, _, rest = line.partition(" ")
        if kind == "import":
            records, problems = parse_jsonl(rest.encode())
            assert not problems, problems
            league.import_games(records, source=f"writer {n} step {step}")
        elif kind == "correct":
            game_id, body = rest.split(" ", 1)
            records, problems = parse_jsonl(body.encode())
            league.correct_game(game_id, records[0])
        elif kind == "delete":
            league.delete_game(rest)
    print("done", flush=True)
    """
)


def test_four_writers_at_once_lose_and_double_nothing(db_url: str, tmp_path: Path) -> None:
    """Four processes import, correct and delete in the same league at the same time: every
    write lands once, one after the other, and the league equals a full replay."""
    _league(db_url, tmp_path)
    lines = _lines()
    extra = read_lines(replay_file("adlg"))[300:340]
    children = []
    for n in range(4):
        mine = extra[n * 10 : n * 10 + 10]
        steps = [
            "import " + "\n".join(json.dumps(o) for o in mine[:5]),
            f"correct #{n + 10} {_reversed(lines[n + 9])}",
            "import " + "\n".join(json.dumps(o) for o in mine[5:]),
            f"delete {lines[200 + n]['id']}",
        ]
        children.append(
            subprocess.Popen(
                [sys.executable, "-c", CONCURRENT, db_url, str(n), *steps],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    for child in children:
        out, err = child.communicate(timeout=300)
        assert child.returncode == 0, err[-2000:]
        assert out.strip() == "done"
    again = League.open(db_url)
    stored = {g.id for g in again.games()}
    assert {o["id"] for o in extra} <= stored
    assert not {lines[200 + n]["id"] for n in range(4)} & stored
    assert len(again.games()) == len(lines) + 1 + 40 - 4
    for n in range(4):
        sides = again.explain(f"#{n + 10}").game.sides
        assert [s.outcome for s in sides] == [
            lines[n + 9]["sides"][1]["outcome"],
            lines[n + 9]["sides"][0]["outcome"],
        ]
    assert_equals_full_replay(again)
