"""Dated values: a parameter's list of `values`, each with the day it takes effect (`from`), its
`source` and, where that day is not known, an `uncertain` note and its window (`not_before`,
`known_by`, `year_known`). `in_force(rs, day)` (Ruleset.as_of) is the law in force on a day, with
notes in words where a day is uncertain (core/law/rulesets/definitions.py: Dated.doubt).
"""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import date

from core.law.provisions import PARAMETERS
from core.law.rulesets.definitions import (AS_RECEIVED, PARAMETER_KINDS, Dated, DateError, Ruleset, RulesetError, lower,
                                           parse_value, value_words)

DATED_KEYS = {"from", "value", "source", "uncertain", "year_known", "not_before", "known_by", "caveat"}
MAX_DATED = 100


def parse_day(raw, field: str = "--as-of") -> date:
    """A day written YYYY-MM-DD."""
    if isinstance(raw, date):
        return raw
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(raw).strip()):
        try:
            return date.fromisoformat(str(raw).strip())
        except ValueError:
            raise RulesetError(f"{field}: {raw!r} is not a day of the calendar; write it YYYY-MM-DD") from None
    raise RulesetError(f"{field}: {raw!r} is not a day; write it YYYY-MM-DD, such as 2025-01-01")


def read_history(name: str, kind: str, values) -> tuple[Dated, ...]:
    """A parameter's dated values, checked: each a table of from, value, source (and uncertain), in date order."""
    where = f"parameters.{name}.values"
    if not isinstance(values, list) or not values or len(values) > MAX_DATED:
        raise RulesetError(f"{where}: a list of 1 to {MAX_DATED} dated values, each with from, value and source")
    out: list[Dated] = []
    for i, v in enumerate(values, start=1):
        out.append(_dated(name, kind, v, f"{where}[{i}]", out[-1].start if out else None))
    return tuple(out)


def _dated(name: str, kind: str, v, at: str, previous: date | None) -> Dated:
    """One dated value, its keys checked, taking effect after the `previous` one."""
    if not isinstance(v, dict):
        raise RulesetError(f"{at}: a table with from, value and source")
    extra = set(v) - DATED_KEYS
    if extra:
        raise RulesetError(f"{at}.{sorted(extra)[0]}: unknown key; allowed: {', '.join(sorted(DATED_KEYS))}")
    for key in ("from", "value", "source"):
        if key not in v:
            raise RulesetError(f"{at}.{key}: missing")
    for key in ("source", "uncertain"):
        if key in v and (not isinstance(v[key], str) or not v[key].strip()):
            raise RulesetError(f"{at}.{key}: must be text (for a value as received, write source = \"{AS_RECEIVED}\")")
    start = parse_day(v["from"], f"{at}.from")
    if previous is not None and start <= previous:
        raise RulesetError(f"{at}.from: {start.isoformat()} is not after {previous.isoformat()}; "
                           "list the values oldest first, each from a later day")
    value = parse_value(name, kind, v["value"], f"{at}.value")   # "none": the provision did not exist then
    if not isinstance(v.get("year_known", False), bool):
        raise RulesetError(f"{at}.year_known: true or false")
    if "caveat" in v and (not isinstance(v["caveat"], str) or not v["caveat"].strip()):
        raise RulesetError(f"{at}.caveat: a sentence said with every result while this value is in force")
    window = _window(v, at, start)
    return Dated(start, value, v["value"], v["source"].strip(), v.get("uncertain", "").strip(),
                 v.get("year_known", False), window.get("not_before"), window.get("known_by"),
                 v.get("caveat", "").strip())


def _window(v: dict, at: str, start: date) -> dict:
    """The days an uncertain value's day lies between, where the file gives them."""
    window = {}
    for key in ("not_before", "known_by"):
        if key in v:
            if not v.get("uncertain"):
                raise RulesetError(f"{at}.{key}: only for a value whose day is uncertain (say why in uncertain)")
            window[key] = parse_day(v[key], f"{at}.{key}")
    if window.get("not_before", start) > start or window.get("known_by", start) < start:
        raise RulesetError(f"{at}: not_before must be on or before from ({start.isoformat()}), "
                           "and known_by on or after it")
    return window


def in_force(rs: Ruleset, day: date | str | None = None) -> Ruleset:
    """The values in force on `day` (today when None). A day before the first value is refused
    with that day named; a value known superseded on a day not known says so in `notes`."""
    day = date.today() if day is None else parse_day(day)
    source = rs.dated or rs.parameters
    _check_first_day(rs, day)
    params, notes = {}, [p.filled for p in source.values() if p.filled]   # a saved ruleset's filled numbers
    uncertain: dict[str, list[str]] = {}
    caveats = []   # those of the values in force as of the day (the file's own stand in rs.caveats)
    for name, p in source.items():
        if not p.history:
            params[name] = p
            continue
        i = max(i for i, v in enumerate(p.history) if (v.start or rs.start or day) <= day)
        v = p.history[i]
        if v.caveat:
            caveats.append(v.caveat)
        if v.doubt(day):   # in force as of the day taken, perhaps not yet on the day asked
            sep = ": " if PARAMETER_KINDS[name] in ("choice", "types") else " "   # "the capital maximum $200,000"
            uncertain.setdefault(v.uncertain, []).append(f"{lower(PARAMETERS[name][1])}{sep}{value_words(name, v.value)}")
        later = p.history[i + 1] if i + 1 < len(p.history) else None
        if later is not None and later.doubt(day):   # not yet in force as taken, perhaps already
            notes.append(_perhaps_already(name, v, later, day))
        params[name] = replace(p, value=v.value, raw=v.raw, citation=v.source)
    notes += [f"{text} (read for the {'; the '.join(whom)}.)" for text, whom in uncertain.items()]
    return replace(rs, parameters=params, as_of_date=day, notes=tuple(dict.fromkeys(notes)), dated=source,
                   era_caveats=tuple(dict.fromkeys(caveats)))


def _check_first_day(rs: Ruleset, day: date) -> None:
    first = rs.first_day
    if first is not None and day < first:
        what = ("its dated values begin then" if rs.is_dated else
                f"its values are {AS_RECEIVED} in its edition of that day; the text carries no date of its own")
        raise DateError(f"as of {day.isoformat()}: {rs.in_sentence} has no values before {first.isoformat()} "
                        f"({what}); choose {first.isoformat()} or later")


def _perhaps_already(name: str, v: Dated, later: Dated, day: date) -> str:
    """A value taken as in force on `day` that a later one, of an uncertain day, may already have replaced."""
    label = lower(PARAMETERS[name][1])
    return (f"The {label} is read as {value_words(name, v.value)} ({v.source}); it was later "
            f"replaced by {value_words(name, later.value)} ({later.source}). {later.uncertain} "
            f"As of {day.isoformat()} the {label} may already be {value_words(name, later.value)}.")
