"""Rulesets: the law's parameters as data, each with its citation, and the shelf of the shipped ones.

The package is four modules, one idea each, and this shelf:
- definitions.py: what a ruleset is (`Ruleset`, `Parameter`, `Dated`), a number read by its name
  (`rs.number("capital_cap")`), how a value is read from a file and how people read it;
- reading.py: a file read and checked (`from_data`, `load_text`, `load_file`), its fingerprint,
  and written back (`to_toml`);
- dating.py: dated values (`values`, each `from` a day) and the law in force on a day (`as_of`);
- saved.py: a ruleset across releases: inheritance (`based_on`), a saved ruleset's numbers added
  since (read from elsewhere and said, its fingerprint kept) or added by a newer release (left out
  and said: `read_saved`), a variant made on the Rules page (`with_changes`).

A parameter is one `value` (undated: as received, in force from the edition of a regulation,
on any date for a variant) or a list of `values`, each with the date it takes effect (`from`),
its `source` and, where that date is not known, an `uncertain` note. `Ruleset.as_of(day)` is the
law in force on a day, with notes in words where a date is uncertain.
"""
from __future__ import annotations

from pathlib import Path

from core.law.provisions import PARAMETERS
from core.law.rulesets.dating import parse_day
from core.law.rulesets.definitions import (AS_RECEIVED, PARAMETER_KINDS, Dated, DateError, Parameter, Ruleset,
                                           RulesetError, differences, edition_words, parse_value, value_words,
                                           version_words)
from core.law.rulesets.reading import MAX_TOML_CHARS, from_data, load_file, load_text, to_toml
from core.law.rulesets.saved import read_saved

HERE = Path(__file__).parent
_parse_value = parse_value   # the name the tests knew it by

_CACHE: dict[str, Ruleset] = {}


def available() -> list[str]:
    """Ids of the rulesets shipped in this folder, the regulation first."""
    ids = sorted(p.stem for p in HERE.glob("*.toml"))
    return sorted(ids, key=lambda i: i != "regulation")


def load(ruleset_id: str = "regulation") -> Ruleset:
    if ruleset_id not in _CACHE:
        if ruleset_id not in available():
            raise RulesetError(f"ruleset: unknown id {ruleset_id!r}; available: {', '.join(available())}")
        rs = load_file(HERE / f"{ruleset_id}.toml", shipped=True)
        if rs.id != ruleset_id:
            raise RulesetError(f"{ruleset_id}.toml: its id is {rs.id!r}; file name and id must agree")
        _CACHE[ruleset_id] = rs
    return _CACHE[ruleset_id]


__all__ = ["AS_RECEIVED", "HERE", "MAX_TOML_CHARS", "PARAMETERS", "PARAMETER_KINDS", "Dated", "DateError", "Parameter",
           "Ruleset", "RulesetError", "available", "differences", "edition_words", "from_data", "load", "load_file",
           "load_text", "parse_day", "parse_value", "read_saved", "to_toml", "value_words", "version_words"]
