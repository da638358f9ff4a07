"""``make fuzz``: schemathesis against the JSON API's OpenAPI, on a real server (docs/web.md,
"Fuzzing the API").

Builds the demo database in a temporary folder (one league per preset, an officer account), gives
the officer an API token, serves the site with ``eloleague serve`` on a free loopback port, then
runs ``schemathesis run`` with every check and the officer's token, a bounded number of examples
per operation (``--max-examples``, default 40) and a fixed seed: a few minutes at most. Exits
with schemathesis' status: 0 when there was no server error and no answer that breaks the schema.

    python scripts/fuzz_api.py [--max-examples N] [--seed S] [--league NAME]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from rich.console import Console

from eloleague import accounts, demo
from eloleague.league import League, engine_for

CONFIG = """\
[generation]
max-examples = {examples}

# Every path names the demo league, and a player, an event and games of it: past the 404s.
[parameters]
league = {league}

[[operations]]
include-path-regex = "/(players|history)/"
parameters = {{ name = {player} }}

[[operations]]
include-path = "/api/v1/leagues/{{league}}/events/{{name}}"
parameters = {{ name = {event} }}

# Corrections reach their body's checks only for a game that exists; reading and deleting games
# keep generated ids (shapes like "#²" must be answered too).
[[operations]]
include-path = "/api/v1/leagues/{{league}}/games/{{game}}"
include-method = "PUT"
parameters = {{ game = {game} }}

# "preview" is also a game id for /games/{{game}}: GET, PUT and DELETE are allowed there too, and
# the 405's Allow header says so, which the schema's two paths cannot tell schemathesis.
[[operations]]
include-path = "/api/v1/leagues/{{league}}/games/preview"
phases.coverage.unexpected-methods = []
"""


def _config(db: Path, league_name: str, examples: int) -> str:
    """The schemathesis configuration, with names taken from the demo league."""
    league = League.open(str(db), league_name)
    games = league.games()
    events = league.events()
    values = {
        "league": league_name,
        "player": league.players()[0],
        "event": events[0].name if events else "no event",
        "game": games[0].id,
    }
    return CONFIG.format(examples=examples, **{k: json.dumps(v) for k, v in values.items()})


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for(url: str, server: subprocess.Popen[bytes], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server stopped (exit {server.returncode})")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server did not answer {url} within {seconds:.0f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-examples", type=int, default=40)
    parser.add_argument("--seed", type=int, default=20261123)
    parser.add_argument("--league", default="bataille-empire", help="the league every path names")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="eloleague-fuzz-") as folder:
        db = Path(folder) / "fuzz.db"
        demo.build(db, Console(stderr=True, quiet=True))
        token = accounts.create_token(engine_for(str(db)), demo.DEMO_USER, "make fuzz")
        config = Path(folder) / "schemathesis.toml"
        config.write_text(_config(db, args.league, args.max_examples))
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        env = {**os.environ, "ELOLEAGUE_SECRET": "fuzz-" + "k" * 40}
        log = (Path(folder) / "server.log").open("w+b")
        server = subprocess.Popen(  # its access log would drown schemathesis' report: kept aside
            [sys.executable, "-m", "eloleague", "serve", "--db", str(db), "--port", str(port)],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            _wait_for(f"{base}/api/v1/leagues", server)
            run = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "schemathesis.cli",
                    "--config-file",
                    str(config),
                    "run",
                    f"{base}/api/v1/openapi.json",
                    "--checks",
                    "all",
                    # Schema-valid requests the league's rules refuse (a season's last day, a game
                    # nobody can rate, odds of a free-for-all) are answered 400/422, as documented.
                    "--exclude-checks",
                    "positive_data_acceptance",
                    "--header",
                    f"Authorization: Bearer {token}",
                    "--seed",
                    str(args.seed),
                    # One worker: with two threads, Hypothesis' lambda introspection in the
                    # coverage phase hit CPython 3.11's "AST constructor recursion depth
                    # mismatch" (a schemathesis runtime error, not a finding).
                    "--workers",
                    "1",
                    "--request-timeout",
                    "30",
                    "--no-color",
                ],
                cwd=folder,
                check=False,
            )
        finally:
            server.terminate()
            server.wait(timeout=30)
            log.seek(0)
            errors = [line for line in log.read().decode().splitlines() if "Traceback" in line]
            log.close()
        if errors:  # a server error schemathesis did not see as one must not pass either
            print(f"the server logged {len(errors)} traceback(s)", file=sys.stderr)
            return 1
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
