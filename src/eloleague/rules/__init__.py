"""Rule sets: the model, the presets shipped with the package, and loading from TOML.

``load_rules("adlg")`` loads a preset; ``load_rules("my-club.toml")`` loads a community's own file.
Errors name the file, the key and what is allowed (never a traceback).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from eloleague.errors import RuleSetError
from eloleague.i18n import Text
from eloleague.rules.model import (
    Decay,
    FreeForAll,
    GainCap,
    InactivityTier,
    KLinear,
    KRule,
    KTier,
    Outcome,
    Pools,
    Rounding,
    RuleSet,
    Season,
    Teams,
    Title,
)

__all__ = [
    "Decay",
    "FreeForAll",
    "GainCap",
    "InactivityTier",
    "KLinear",
    "KRule",
    "KTier",
    "Outcome",
    "Pools",
    "Rounding",
    "RuleSet",
    "Season",
    "Teams",
    "Title",
    "load_rules",
    "parse_rules",
    "preset_names",
    "preset_text",
]


def preset_names() -> list[str]:
    """Names of the rule sets shipped with the package, sorted."""
    folder = resources.files("eloleague.rules") / "presets"
    return sorted(
        p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml")
    )


def preset_text(name: str) -> str:
    """The TOML text of a preset (raises :class:`RuleSetError` listing the presets if unknown)."""
    if name not in preset_names():
        raise RuleSetError(
            Text.of(
                "unknown rule set {name!r}: give a preset name ({presets}) or the path of a .toml "
                "rule file",
                name=name,
                presets=", ".join(preset_names()),
            )
        )
    return (resources.files("eloleague.rules") / "presets" / f"{name}.toml").read_text("utf-8")


def _key_path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out


# What pydantic's error types mean in a rule file, in words an officer understands.
_TYPES = {
    "missing": "a required key is missing",
    "extra_forbidden": "unknown key (see docs/rule-sets.md for the keys a rule file may use)",
    "greater_than": "must be greater than {gt}",
    "greater_than_equal": "must be at least {ge}",
    "less_than": "must be less than {lt}",
    "less_than_equal": "must be at most {le}",
    "literal_error": "allowed: {expected}",
    "enum": "allowed: {expected}",
    "int_type": "expected a whole number",
    "int_parsing": "expected a whole number",
    "int_from_float": "expected a whole number",
    "float_type": "expected a number",
    "float_parsing": "expected a number",
    "decimal_type": "expected a number",
    "decimal_parsing": "expected a number",
    "string_type": "expected text (in quotes)",
    "bool_type": "expected true or false",
    "bool_parsing": "expected true or false",
    "list_type": "expected a list [...]",
    "tuple_type": "expected a list [...]",
    "dict_type": "expected a table ([section] or {{ ... }})",
    "model_type": "expected a table ([section] or {{ ... }})",
    "model_attributes_type": "expected a table ([section] or {{ ... }})",
    "date_type": "expected a date (YYYY-MM-DD)",
    "date_parsing": "expected a date (YYYY-MM-DD)",
    "date_from_datetime_parsing": "expected a date (YYYY-MM-DD)",
}


def _problem(err: ErrorDetails) -> str:
    """One validation error of a rule file as a translatable message (English when unknown)."""
    ctx = err.get("ctx") or {}
    cause = ctx.get("error")
    if isinstance(cause, ValueError) and cause.args and isinstance(cause.args[0], Text):
        return cause.args[0]  # the rule set's own check (model.py)
    template = _TYPES.get(err["type"])
    if template is None:
        return err["msg"]
    params = {k: _shown(v) for k, v in ctx.items() if "{" + k + "}" in template}
    return Text.of(template, **params)


def _shown(value: object) -> object:
    """A bound as written in a rule file: ``0``, not ``0.0``."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _lines(lines: Sequence[str]) -> Text:
    """Several messages, one per line, each translated on its own."""
    return Text(
        "\n".join(f"{{line{n}}}" for n in range(len(lines))),
        {f"line{n}": line for n, line in enumerate(lines)},
    )


def parse_rules(text: str, source: str = "<rules>") -> RuleSet:
    """Parse and validate the TOML text of a rule set; ``source`` names it in errors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleSetError(
            Text.of("{source}: not valid TOML: {error}", source=source, error=str(exc))
        ) from None
    except RecursionError:  # a = [[[[...]]]] thousands deep: no rule is shaped like that
        raise RuleSetError(
            Text.of("{source}: not valid TOML: {error}", source=source, error="nested too deeply")
        ) from None
    try:
        return RuleSet.model_validate(data)
    except ValidationError as exc:
        lines = [_located(text, source, err) for err in exc.errors()]
        raise RuleSetError(_lines(lines)) from None


def _located(text: str, source: str, err: ErrorDetails) -> Text:
    """One validation error: the file, the line where the key is written (when it can be found),
    the key and what is wrong."""
    loc = tuple(err["loc"])
    if not loc:
        return Text.of("{source}: {problem}", source=source, problem=_problem(err))
    # Past the first item of a list (tiers[1], a second [[titles]]) the line could be another
    # item's: then the key alone is given.
    later_item = any(isinstance(part, int) and part > 0 for part in loc)
    line = None if later_item else key_line(text, [p for p in loc if isinstance(p, str)])
    if line is None:
        return Text.of(
            "{source}: key {key}: {problem}",
            source=source,
            key=_key_path(loc),
            problem=_problem(err),
        )
    return Text.of(
        "{source}, line {line}: key {key}: {problem}",
        source=source,
        line=line,
        key=_key_path(loc),
        problem=_problem(err),
    )


def key_line(text: str, path: Sequence[str]) -> int | None:
    """The line (from 1) where the deepest findable key of ``path`` is written in the TOML
    ``text``: ``key =`` under its table, ``[table]`` or ``[[table]]`` headers, dotted keys
    (``k.tiers = ...``) and the keys of a one-line inline table (``win = { score = 1 }``)."""
    best: tuple[int, int] | None = None  # (how many keys of path it names, line)
    table: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        inline: list[str] = []
        if line.startswith("["):
            keys = table = _dotted(line.strip("[]"))
        elif "=" in line:
            name, _, value = line.partition("=")
            keys = table + _dotted(name)
            inline = [k.strip('"') for k in re.findall(r'[{,]\s*([\w"-]+)\s*=', value)]
        else:
            continue
        if keys != list(path[: len(keys)]):
            continue
        depth = len(keys) + (len(keys) < len(path) and path[len(keys)] in inline)
        if best is None or depth > best[0]:
            best = (depth, number)
    return best[1] if best else None


def _dotted(name: str) -> list[str]:
    return [part.strip().strip('"') for part in name.split(".")]


def load_rules(name_or_path: str | Path) -> RuleSet:
    """Load a preset by name, or a rule file by path (docs/formats.md ``--rules NAME_OR_PATH``)."""
    text_name = str(name_or_path)
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.is_file():
        try:
            text = path.read_text("utf-8")
        except FileNotFoundError:
            raise RuleSetError(
                Text.of(
                    "{path}: no such rule file (presets: {presets})",
                    path=str(path),
                    presets=", ".join(preset_names()),
                )
            ) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise RuleSetError(
                Text.of(
                    "{path}: cannot read the rule file: {error}", path=str(path), error=str(exc)
                )
            ) from None
        return parse_rules(text, str(path))
    return parse_rules(preset_text(text_name), f"preset {text_name}")
