"""Rule sets: the model, the presets shipped with the package, and loading from TOML.

``load_rules("adlg")`` loads a preset; ``load_rules("my-club.toml")`` loads a community's own file.
Errors name the file, the key and what is allowed (never a traceback).
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

from pydantic import ValidationError

from eloleague.errors import RuleSetError
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
            f"unknown rule set {name!r}: give a preset name ({', '.join(preset_names())}) "
            "or the path of a .toml rule file"
        )
    return (resources.files("eloleague.rules") / "presets" / f"{name}.toml").read_text("utf-8")


def _key_path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out or "(top level)"


def parse_rules(text: str, source: str = "<rules>") -> RuleSet:
    """Parse and validate the TOML text of a rule set; ``source`` names it in errors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleSetError(f"{source}: not valid TOML: {exc}") from None
    try:
        return RuleSet.model_validate(data)
    except ValidationError as exc:
        lines = []
        for err in exc.errors():
            key = _key_path(tuple(err["loc"]))
            msg = err["msg"].removeprefix("Value error, ")
            if err["type"] == "extra_forbidden":
                msg = "unknown key (see docs/rule-sets.md for the keys a rule file may use)"
            elif err["type"] == "literal_error":
                msg = msg.replace("Input should be", "allowed:")
            lines.append(f"{source}: key {key}: {msg}")
        raise RuleSetError("\n".join(lines)) from None


def load_rules(name_or_path: str | Path) -> RuleSet:
    """Load a preset by name, or a rule file by path (RULES.md §6 ``--rules NAME_OR_PATH``)."""
    text_name = str(name_or_path)
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.is_file():
        try:
            text = path.read_text("utf-8")
        except FileNotFoundError:
            raise RuleSetError(
                f"{path}: no such rule file (presets: {', '.join(preset_names())})"
            ) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise RuleSetError(f"{path}: cannot read the rule file: {exc}") from None
        return parse_rules(text, str(path))
    return parse_rules(preset_text(text_name), f"preset {text_name}")
