"""The floor of a single-game post over HTTP (benchmarks/live_api.py): an ASGI application that
reads a request's body and answers ``201`` with a small JSON body, nothing else, served by Uvicorn
as ``eloleague serve`` serves the site (uvloop, httptools) but without its line per request.

What a post costs above this floor is eloleague's (its layers, the token, the import, the answer);
the floor itself is this machine's HTTP round trip of the moment: its speed moves within minutes
(docs/benchmarks.md, "Live results"), and a figure read beside this floor says which moved.

    .venv/bin/python -m uvicorn --app-dir benchmarks http_floor:app --loop uvloop --http httptools
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Message = MutableMapping[str, Any]

ANSWER = b'{"added": 1, "unchanged": 0, "replaced": 0, "rating_changes": []}'
HEADERS = [(b"content-type", b"application/json"), (b"content-length", str(len(ANSWER)).encode())]


async def app(
    scope: MutableMapping[str, Any],
    receive: Callable[[], Awaitable[Message]],
    send: Callable[[Message], Awaitable[None]],
) -> None:
    """Read the whole body, answer ``201`` (any method, any path; lifespan messages ignored)."""
    if scope["type"] != "http":
        return
    more = True
    while more:
        message = await receive()
        more = bool(message.get("more_body", False))
    await send({"type": "http.response.start", "status": 201, "headers": HEADERS})
    await send({"type": "http.response.body", "body": ANSWER})
