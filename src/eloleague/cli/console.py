"""The console every command and the demo print through."""

from __future__ import annotations

from rich.console import Console


def console(*, stderr: bool = False) -> Console:
    """A console whose messages are lines the terminal wraps, not rich: a message cut by
    newlines at 80 columns (rich's width when the output is a file or a pipe) breaks a
    suggested command (``--map "A=B"``) and a ``grep`` of a log. Tables still fit the width."""
    return Console(stderr=stderr, soft_wrap=True)
