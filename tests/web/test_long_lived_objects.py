"""A server process sets the objects it made while starting apart from the garbage collector's full
collections (eloleague.web.set_apart_what_lasts): each full collection walked all of them and
stopped every request of the process for about 140 ms (docs/web.md, "Posting results from a game
server"). Checked in fresh processes, as ``eloleague serve`` and each of its workers start; the
test process's own collector is left alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from eloleague.engine.fast import warmup
from eloleague.league import League

_REPORT = """
import gc, json, sys
print(json.dumps({"frozen": gc.get_freeze_count(),
                  "kernel": "eloleague.engine.fast.kernel" in sys.modules}))
"""


def _in_a_fresh_process(code: str, db: Path) -> dict[str, object]:
    env = {**os.environ, "ELOLEAGUE_DB": str(db)}
    done = subprocess.run(
        [sys.executable, "-c", code + _REPORT],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=300,
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert isinstance(found, dict)
    return found


def test_a_server_process_sets_apart_what_it_made_while_starting(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    League.create(str(db), "Club", "bataille-empire")
    warmup.compile_kernel()  # into numba's cache, if a test has not yet
    # eloleague serve (one process): everything up to Uvicorn's start, which is replaced here
    one = _in_a_fresh_process(
        "import uvicorn\nuvicorn.run = lambda *a, **k: None\n"
        f"from eloleague.web import serve\nserve({str(db)!r}, port=0)\n",
        db,
    )
    # a worker of serve --workers N builds its application from the environment
    worker = _in_a_fresh_process(
        "from eloleague.web import app_from_environment\napp_from_environment()\n", db
    )
    plain = _in_a_fresh_process("from eloleague.web import create_app\ncreate_app()\n", db)
    for started in (one, worker):
        assert isinstance(started["frozen"], int) and started["frozen"] > 10_000
    assert plain["frozen"] == 0  # building an application (a test's, a program's) freezes nothing
    # the compiled kernel (in numba's cache, compiled above) is loaded first: set apart too
    assert one["kernel"] is True and worker["kernel"] is True
