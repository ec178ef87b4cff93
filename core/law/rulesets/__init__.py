"""Rulesets: the law's parameters as data, each with its citation.

A ruleset file is TOML. The loader rejects unknown keys, duplicate keys (TOML itself
forbids them), wrong types and impossible values, naming the key. A ruleset's version
is a hash of its content, so every result says exactly which numbers produced it.

A parameter is one `value` (undated: as received, in force from the edition of a regulation,
on any date for a variant) or a list of `values`, each with the date it takes effect (`from`),
its `source` and, where that date is not known, an `uncertain` note. `Ruleset.as_of(day)` is the
law in force on a day, with notes in words where a date is uncertain. A saved ruleset that lacks
a parameter added since reads it from the shipped ruleset (or its declared default) and says so.
"""
from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from pathlib import Path

from core.law.fields import PROJECT_TYPES
from core.law.money import ValidationError, to_cents
from core.law.provisions import CHOICES, DEFAULT_ENTRIES, DEFAULTS, PARAMETERS
from core.law.text import SENTENCES

HERE = Path(__file__).parent


class RulesetError(ValueError):
    """A ruleset that cannot be used; the message names the key."""


# PARAMETERS: every parameter a ruleset may set, with its kind and the variant editor's words,
# from the registry's [parameters] (core/law/provisions.toml).
PARAMETER_KINDS = {name: kind for name, (kind, _) in PARAMETERS.items()}
TOP_KEYS = {"id", "title", "kind", "description", "based_on", "edition", "parameters", "caveats", "cites"}
# The labels people read (a file's own): one line each, no hidden character, a sentence long.
LABEL_LIMITS = {"title": 200, "edition": 120}
PARAM_KEYS = {"value", "unit", "provision", "description", "citation"}
DATED_KEYS = {"from", "value", "source", "uncertain", "year_known", "not_before", "known_by", "caveat"}
AS_RECEIVED = "as received"
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_EDITION_DAY = re.compile(r"(" + "|".join(_MONTHS) + r") (\d{1,2}), (\d{4})")
KINDS = ("regulation", "variant")
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


@dataclass(frozen=True)
class Dated:
    """One value of a parameter and the day it takes effect (None: as received, see `Ruleset.start`).

    Where that day is not known (`uncertain`), the true day lies between `earliest` and `surely_by`:
    an answer as of a day in that window says so. `not_before` is the first day the value can have
    taken effect (an act of a session cannot be in force before the session met); `known_by`, the day
    it is known in force by. Without them: a value whose year is known (`year_known`) took effect
    within that year; one whose year is not known may have taken effect on any earlier day, and is
    read as surely in force from the second January after the day taken."""
    start: date | None
    value: object          # as Parameter.value; None where the provision did not exist then ("none")
    raw: object
    source: str
    uncertain: str = ""    # what is not known about the date, in words
    year_known: bool = False   # only the day within a known year is assumed: it matters within that year
    not_before: date | None = None   # the first day it can have taken effect (uncertain values only)
    known_by: date | None = None     # the day it is known in force by (uncertain values only)
    caveat: str = ""       # said with every result as of a day this value is in force

    @property
    def earliest(self) -> date:
        """The first day this value may be in force."""
        if not self.uncertain:
            return self.start
        if self.not_before:
            return self.not_before
        return date(self.start.year, 1, 1) if self.year_known else date.min

    @property
    def surely_by(self) -> date:
        """The first day this value is surely in force."""
        if not self.uncertain:
            return self.start
        if self.known_by:
            return self.known_by
        return date(self.start.year + (1 if self.year_known else 2), 1, 1)

    def doubt(self, day: date) -> bool:
        """Whether this value's uncertain day matters for an answer as of `day`: in force as of `day`
        but perhaps not yet, or not yet in force as of `day` but perhaps already."""
        return bool(self.uncertain) and self.earliest <= day < self.surely_by


@dataclass(frozen=True)
class Parameter:
    name: str
    value: object          # int cents, Fraction share, tuple of project types, or a choice's id
    raw: object            # as written in the file
    unit: str
    provision: str
    description: str
    citation: str
    history: tuple = ()    # Dated values, oldest first; () for one undated value
    given: bool = True     # False: not in the file, read from elsewhere (not in its fingerprint)
    filled: str = ""       # where a saved ruleset's missing parameter was read from, in words


class DateError(RulesetError):
    """An as-of day the ruleset has no value for; the message names its first day."""


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


def _lower(label: str) -> str:
    return label[:1].lower() + label[1:]


def differences(then: "Ruleset", now: "Ruleset") -> list[tuple[str, str, str]]:
    """Each number whose value differs between two readings of a ruleset (one dated ruleset as of
    two days): (its name in a sentence, its value in `then`, in `now`), in the registry's order."""
    return [(_lower(PARAMETERS[n][1]), value_words(n, then.parameters[n].value), value_words(n, now.parameters[n].value))
            for n in PARAMETERS if n in then.parameters and n in now.parameters
            and then.parameters[n].value != now.parameters[n].value]


def value_words(name: str, value) -> str:
    """A parameter's value as people read it: "$600,000", "50%", "conversion, renovation", a choice's words."""
    from core.law.money import fmt
    kind = PARAMETER_KINDS[name]
    if value is None:
        return "no such provision"
    if kind == "money":
        return fmt(value)
    if kind == "share":
        return f"{float(value * 100):g}%"
    if kind == "choice":
        return CHOICES[name][value]
    return ", ".join(PROJECT_TYPES[t].lower() for t in value) or "none"


@dataclass(frozen=True)
class Ruleset:
    id: str
    title: str
    kind: str
    description: str
    based_on: str | None
    parameters: dict = field(hash=False)
    version: str = ""      # fingerprint of the content (the record); people read `edition`
    edition: str = ""      # for people: "edition 1, November 2026"; not part of the fingerprint
    as_of_date: date | None = None   # set by as_of: the day whose law the parameters are
    notes: tuple = ()      # what the reader must know of these values (uncertain dates, filled parameters)
    dated: dict | None = field(default=None, hash=False, compare=False, repr=False)  # before as_of
    caveats: tuple = ()    # said with every result under this ruleset (the file's own)
    cites: dict = field(default_factory=dict, hash=False, compare=False)   # provision id -> the law's own words
    era_caveats: tuple = ()   # as of a day: the caveats of the values in force then (a dated value's `caveat`)

    def __post_init__(self):
        # ruleset.capital_cap -> the parameter's value, as a plain attribute: the caps read several
        # on every evaluation, and __getattr__ (below, for any other name) was ~10% of their time.
        for name, p in self.parameters.items():
            if not hasattr(type(self), name) and name not in self.__dataclass_fields__:
                object.__setattr__(self, name, p.value)

    @property
    def law_notes(self) -> tuple:
        """Every sentence a result under this ruleset must carry: its caveats, then the as-of notes."""
        return self.all_caveats + tuple(self.notes)

    @property
    def all_caveats(self) -> tuple:
        """The sentences said with every result under this ruleset as of its day: the file's own, and
        those of the values in force that day (the statute's (d), from the act of 1987 that added it)."""
        return tuple(self.caveats) + tuple(self.era_caveats)

    @property
    def start(self) -> date | None:
        """The day an undated value takes effect: a regulation's edition day (the text as received
        carries none of its own); a variant's what-if holds on any day (None)."""
        if self.kind != "regulation":
            return None
        found = _EDITION_DAY.search(self.edition or "")
        return date(int(found.group(3)), _MONTHS.index(found.group(1)) + 1, int(found.group(2))) if found else None

    @property
    def first_day(self) -> date | None:
        """The first day on which every parameter has a value. In a dated ruleset an undated value (one
        set once, or a number added later read as its declared default) holds on every day of the others."""
        source = (self.dated or self.parameters).values()
        days = [p.history[0].start or self.start for p in source if p.history] if self.is_dated else [self.start]
        days = [d for d in days if d is not None]
        return max(days) if days else None

    @property
    def is_dated(self) -> bool:
        return any(p.history for p in (self.dated or self.parameters).values())

    def as_of(self, day: date | str | None = None) -> "Ruleset":
        """The values in force on `day` (today when None). A day before the first value is refused
        with that day named; a value known superseded on a day not known says so in `notes`."""
        day = date.today() if day is None else parse_day(day)
        source = self.dated or self.parameters
        first = self.first_day
        if first is not None and day < first:
            what = ("its dated values begin then" if self.is_dated else
                    f"its values are {AS_RECEIVED} in its edition of that day; the text carries no date of its own")
            raise DateError(f"as of {day.isoformat()}: {self.in_sentence} has no values before {first.isoformat()} "
                            f"({what}); choose {first.isoformat()} or later")
        params, notes = {}, [p.filled for p in source.values() if p.filled]   # a saved ruleset's filled numbers
        uncertain: dict[str, list[str]] = {}
        caveats = []   # those of the values in force as of the day (the file's own stand in self.caveats)
        for name, p in source.items():
            if not p.history:
                params[name] = p
                continue
            i = max(i for i, v in enumerate(p.history) if (v.start or self.start or day) <= day)
            v = p.history[i]
            label = _lower(PARAMETERS[name][1])
            if v.caveat:
                caveats.append(v.caveat)
            if v.doubt(day):   # in force as of the day taken, perhaps not yet on the day asked
                uncertain.setdefault(v.uncertain, []).append(f"{label} {value_words(name, v.value)}")
            later = p.history[i + 1] if i + 1 < len(p.history) else None
            if later is not None and later.doubt(day):   # not yet in force as taken, perhaps already
                notes.append(f"The {label} is read as {value_words(name, v.value)} ({v.source}); it was later "
                             f"replaced by {value_words(name, later.value)} ({later.source}). {later.uncertain} "
                             f"As of {day.isoformat()} the {label} may already be {value_words(name, later.value)}.")
            params[name] = Parameter(name, v.value, v.raw, p.unit, p.provision, p.description,
                                     v.source, p.history, p.given, p.filled)
        notes += [f"{text} (read for the {'; the '.join(whom)}.)" for text, whom in uncertain.items()]
        return Ruleset(self.id, self.title, self.kind, self.description, self.based_on, params, self.version,
                       self.edition, day, tuple(dict.fromkeys(notes)), source, self.caveats, self.cites,
                       tuple(dict.fromkeys(caveats)))

    @property
    def is_variant(self) -> bool:
        return self.kind != "regulation"

    @property
    def label(self) -> str:
        if self.is_variant:
            return f"{self.title} (variant, not the regulation in force)"
        return self.title

    @property
    def in_sentence(self) -> str:
        """The label inside a sentence: 'Maximum awards under the regulation in force'."""
        return "the" + self.label[3:] if self.label.startswith("The ") else self.label

    def __getattr__(self, name):  # ruleset.capital_cap -> the parameter's value
        params = self.__dict__.get("parameters", {})
        if name in params:
            return params[name].value
        raise AttributeError(name)

    def program_max(self, project_type: str) -> int:
        """The most a grant of this type may be: computed by the caps from the parameters
        (core.law.caps.most_for_type), so a new maximum for one type is counted without naming it here."""
        from core.law.caps import most_for_type   # the caps read rulesets: imported when asked
        return most_for_type(self, project_type)

    def to_data(self) -> dict:
        """The file's content, as a dict that `from_data` accepts."""
        data = {"id": self.id, "title": self.title, "kind": self.kind, "description": self.description}
        if self.based_on:
            data["based_on"] = self.based_on
        if self.edition:
            data["edition"] = self.edition
        if self.caveats:
            data["caveats"] = list(self.caveats)
        if self.cites:
            data["cites"] = dict(self.cites)
        data["parameters"] = {p.name: _entry(p) for p in (self.dated or self.parameters).values() if p.given}
        return data

    def with_changes(self, new_id: str, title: str, changes: dict, note: str = "") -> "Ruleset":
        """A labelled variant of this ruleset with some parameter values changed."""
        data = self.to_data()
        data.update(id=new_id, title=title, kind="variant", based_on=self.id,
                    edition=f"made {date.today():%B %-d, %Y}")
        if note:
            data["description"] = note
        for name, value in changes.items():
            if name not in PARAMETER_KINDS:
                raise RulesetError(f"parameters.{name}: unknown parameter; known: {', '.join(PARAMETER_KINDS)}")
            if name not in data["parameters"]:   # read from elsewhere: the variant writes it out
                data["parameters"][name] = _entry(self.parameters[name]) | {"value": self.parameters[name].raw}
            data["parameters"][name].pop("values", None)   # a variant's value is a what-if, on any day
            data["parameters"][name]["value"] = value
            # The variant cites itself: the value it replaces is named, the replaced sentence not
            # quoted (it would read as the source of the variant's number; issue 47).
            data["parameters"][name]["citation"] = (
                f"Variant value ({title}), a what-if and not the law in force, in place of "
                f"{value_words(name, self.parameters[name].value)} under {self.in_sentence}")
        return from_data(data)


def _entry(p: Parameter) -> dict:
    """A parameter as the file writes it: one value, or its dated values."""
    entry = {"unit": p.unit, "provision": p.provision, "description": p.description, "citation": p.citation}
    if not p.history:
        return {"value": p.raw} | entry
    return entry | {"values": [{"from": v.start.isoformat(), "value": v.raw, "source": v.source}
                               | ({"uncertain": v.uncertain} if v.uncertain else {})
                               | ({"year_known": True} if v.year_known else {})
                               | ({"not_before": v.not_before.isoformat()} if v.not_before else {})
                               | ({"known_by": v.known_by.isoformat()} if v.known_by else {})
                               | ({"caveat": v.caveat} if v.caveat else {}) for v in p.history]}


def _parse_value(name: str, kind: str, raw, key: str = ""):
    key = key or f"parameters.{name}.value"
    if kind == "choice":
        if raw not in CHOICES[name]:
            raise RulesetError(f"{key}: {raw!r} is not one of {', '.join(CHOICES[name])}")
        return raw
    if kind == "money":
        if isinstance(raw, float):
            raise RulesetError(f"{key}: write money as a string or integer, not {raw!r}")
        try:
            return to_cents(raw, key)
        except ValidationError as exc:
            raise RulesetError(str(exc)) from None
    if kind == "share":
        if isinstance(raw, bool) or not isinstance(raw, (str, int)):
            raise RulesetError(f"{key}: a share is a string such as \"0.50\", not {raw!r}")
        try:
            dec = Decimal(str(raw))
        except InvalidOperation:
            raise RulesetError(f"{key}: {raw!r} is not a number") from None
        if not dec.is_finite() or not (0 <= dec <= 1):
            raise RulesetError(f"{key}: {raw!r} is outside 0..1")
        if dec.as_tuple().exponent < -4:
            raise RulesetError(f"{key}: {raw!r} has more than four decimal places")
        return Fraction(dec)
    if kind == "types":
        if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw):
            raise RulesetError(f"{key}: a list of project types, not {raw!r}")
        unknown = [t for t in raw if t not in PROJECT_TYPES]
        if unknown:
            raise RulesetError(f"{key}: unknown project type {unknown[0]!r}; known: {', '.join(PROJECT_TYPES)}")
        if len(set(raw)) != len(raw):
            raise RulesetError(f"{key}: a project type is listed twice")
        return tuple(raw)
    raise AssertionError(kind)


def _check_top(data) -> None:
    """The ruleset's own keys: known, present, of the right type and form."""
    if not isinstance(data, dict):
        raise RulesetError("a ruleset is a table of keys")
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise RulesetError(f"{sorted(unknown)[0]}: unknown key; allowed: {', '.join(sorted(TOP_KEYS))}")
    for key in ("id", "title", "kind", "parameters"):
        if key not in data:
            raise RulesetError(f"{key}: missing")
    for key in ("id", "title", "kind", "description", "based_on", "edition"):
        if key in data and not isinstance(data[key], str):
            raise RulesetError(f"{key}: must be text, not {data[key]!r}")
    for key, limit in LABEL_LIMITS.items():   # shown wherever the ruleset is named: no hidden characters
        if data.get(key):
            from core.law.names import check_text
            try:
                check_text(data[key], key, limit, what="text")
            except ValidationError as err:
                raise RulesetError(str(err)) from None
    if not _ID.match(data["id"]):
        raise RulesetError(f"id: {data['id']!r} must be lower-case letters, digits, '-' or '_'")
    if data["kind"] not in KINDS:
        raise RulesetError(f"kind: {data['kind']!r} must be one of {', '.join(KINDS)}")
    if data["kind"] == "variant" and data["id"] == "regulation":
        raise RulesetError("id: a variant may not be called 'regulation'")
    if not isinstance(data["parameters"], dict):
        raise RulesetError("parameters: must be a table")
    cites = data.get("cites", {})
    if not isinstance(cites, dict) or not all(isinstance(k, str) and isinstance(c, str) and c.strip()
                                              for k, c in cites.items()):
        raise RulesetError("cites: a table of provision ids, each with the law's own words for it")
    from core.law.provisions import CAP, PROVISION
    unknown = [k for k in cites if k not in PROVISION and k not in CAP]
    if unknown:
        raise RulesetError(f"cites.{unknown[0]}: no such provision or limit; known: {', '.join(PROVISION)}")
    caveats = data.get("caveats", [])
    if not isinstance(caveats, list) or len(caveats) > 10 or not all(isinstance(c, str) and c.strip() for c in caveats):
        raise RulesetError("caveats: a list of at most 10 sentences said with every result")


def _inherit(data: dict) -> dict:
    """A variant holds only what it changes: every parameter, and every key of a parameter,
    that it does not give is inherited from the ruleset it is based on."""
    if data["based_on"] == data["id"]:
        raise RulesetError(f"based_on: a ruleset cannot be based on itself ({data['id']!r})")
    try:
        base = load(data["based_on"])
    except RulesetError:
        raise RulesetError(f"based_on: unknown ruleset {data['based_on']!r}; available: "
                           f"{', '.join(available())}") from None
    own, inherited = data["parameters"], base.to_data()["parameters"]
    merged = {}
    for name in PARAMETER_KINDS:
        given, base_entry = own.get(name), inherited.get(name)
        if given is None and base_entry is None:
            continue   # neither gives it: read as a missing parameter is
        if isinstance(given, dict) and base_entry is not None and ({"value", "values"} & set(given)):
            base_entry = {k: v for k, v in base_entry.items() if k not in ("value", "values")}
        merged[name] = (base_entry if given is None else (base_entry or {}) | given if isinstance(given, dict)
                        else given)
    merged |= {name: value for name, value in own.items() if name not in merged}
    return data | {"parameters": merged}


def _parameter(name: str, kind: str, entry) -> Parameter:
    """One parameter: a table of its value (or dated values) and the keys that say where it comes from."""
    if entry is None:
        raise RulesetError(f"parameters.{name}: missing")
    if not isinstance(entry, dict):
        raise RulesetError(f"parameters.{name}: must be a table with a value and its citation")
    extra = set(entry) - PARAM_KEYS - {"values"}
    if extra:
        raise RulesetError(f"parameters.{name}.{sorted(extra)[0]}: unknown key; allowed: "
                           f"{', '.join(sorted(PARAM_KEYS | {'values'}))}")
    if ("value" in entry) == ("values" in entry):
        raise RulesetError(f"parameters.{name}: give either value or values (a list of dated values), not "
                           f"{'both' if 'value' in entry else 'neither'}")
    for key in PARAM_KEYS - {"value"}:
        if key not in entry:
            raise RulesetError(f"parameters.{name}.{key}: missing")
        if not isinstance(entry[key], str):
            raise RulesetError(f"parameters.{name}.{key}: must be text")
    if not entry["citation"].strip():
        raise RulesetError(f"parameters.{name}.citation: every value needs its citation")
    cited = _cited(name, entry["citation"])
    if "value" in entry:   # "none": no such provision in this ruleset (a number added for another)
        value = None if entry["value"] == "none" and kind in ("money", "share") else _parse_value(name, kind, entry["value"])
        return Parameter(name, value, entry["value"], entry["unit"], entry["provision"], entry["description"], cited)
    history = _history(name, kind, entry["values"])
    last = history[-1]
    return Parameter(name, last.value, last.raw, entry["unit"], entry["provision"], entry["description"],
                     cited, history)


MAX_DATED = 100


def _history(name: str, kind: str, values) -> tuple[Dated, ...]:
    """A parameter's dated values, checked: each a table of from, value, source (and uncertain), in date order."""
    where = f"parameters.{name}.values"
    if not isinstance(values, list) or not values or len(values) > MAX_DATED:
        raise RulesetError(f"{where}: a list of 1 to {MAX_DATED} dated values, each with from, value and source")
    out = []
    for i, v in enumerate(values, start=1):
        at = f"{where}[{i}]"
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
        if out and start <= out[-1].start:
            raise RulesetError(f"{at}.from: {start.isoformat()} is not after {out[-1].start.isoformat()}; "
                               "list the values oldest first, each from a later day")
        # "none": the provision did not exist then (an amount or a share only)
        value = None if v["value"] == "none" and kind in ("money", "share") else _parse_value(name, kind, v["value"], f"{at}.value")
        if not isinstance(v.get("year_known", False), bool):
            raise RulesetError(f"{at}.year_known: true or false")
        if "caveat" in v and (not isinstance(v["caveat"], str) or not v["caveat"].strip()):
            raise RulesetError(f"{at}.caveat: a sentence said with every result while this value is in force")
        window = {}
        for key in ("not_before", "known_by"):
            if key in v:
                if not v.get("uncertain"):
                    raise RulesetError(f"{at}.{key}: only for a value whose day is uncertain (say why in uncertain)")
                window[key] = parse_day(v[key], f"{at}.{key}")
        if window.get("not_before", start) > start or window.get("known_by", start) < start:
            raise RulesetError(f"{at}: not_before must be on or before from ({start.isoformat()}), "
                               "and known_by on or after it")
        out.append(Dated(start, value, v["value"], v["source"].strip(), v.get("uncertain", "").strip(),
                         v.get("year_known", False), window.get("not_before"), window.get("known_by"),
                         v.get("caveat", "").strip()))
    return tuple(out)


def _missing(name: str, data: dict, shipped: bool) -> tuple[dict, bool, str]:
    """A parameter the ruleset does not give (it was saved before the parameter existed): its entry,
    whether it counts as given, and the words that say where it was read from. A saved ruleset reads
    it from the shipped ruleset of its id (or the one it is based on, or the regulation), with every
    dated value, so an evaluation as of the scenario's day reads the value of that day; failing that,
    from the parameter's declared default."""
    if not shipped:
        for source_id in dict.fromkeys([data["id"], data.get("based_on"), "regulation"]):
            if source_id and source_id in available():
                base = load(source_id)
                p = base.parameters.get(name)
                if p is not None and p.given:
                    return _entry(p), False, (f"This saved ruleset has no {_lower(PARAMETERS[name][1])} (it was "
                                              f"saved before that number was added): read from the shipped "
                                              f"ruleset {base.id!r} ({base.title}).")
                if p is not None:   # the shipped one reads the declared default too: nothing differs to say
                    shipped = True
                break
    if name in DEFAULTS:
        words = "" if shipped else (f"This saved ruleset has no {_lower(PARAMETERS[name][1])} (it was saved before "
                                    "that number was added): read as its declared default, "
                                    f"{value_words(name, DEFAULTS[name])}.")
        return dict(DEFAULT_ENTRIES[name]), False, words
    raise RulesetError(f"parameters.{name}: missing")


def _cited(name: str, citation: str) -> str:
    """A citation written as a sentence's id ("§C.1") is that sentence of docs/regulation.txt,
    read from there, not pasted; any other citation is kept as written."""
    ref = re.fullmatch(r"§([A-Z](?:\.\d+)?)", citation.strip())
    if not ref:
        return citation
    if ref.group(1) not in SENTENCES:
        raise RulesetError(f"parameters.{name}.citation: {citation!r} names no sentence of the regulation; "
                           f"use one of {', '.join('§' + i for i in SENTENCES)}")
    return SENTENCES[ref.group(1)]


def from_data(data: dict, shipped: bool = False) -> Ruleset:
    """A ruleset from its data; `shipped` for a file of this folder (which reads a parameter it lacks
    as the declared default, silently: that is its value)."""
    _check_top(data)
    if data["kind"] == "variant" and data.get("based_on"):
        data = _inherit(data)
    for name in data["parameters"]:
        if name not in PARAMETER_KINDS:
            raise RulesetError(f"parameters.{name}: unknown parameter; known: {', '.join(PARAMETER_KINDS)}")
    params = {}
    for name, kind in PARAMETER_KINDS.items():
        if data["parameters"].get(name) is not None:
            params[name] = _parameter(name, kind, data["parameters"][name])
        else:
            entry, given, words = _missing(name, data, shipped)
            p = _parameter(name, kind, entry)
            params[name] = Parameter(p.name, p.value, p.raw, p.unit, p.provision, p.description, p.citation,
                                     p.history, given, words)
    # the fingerprint is of the sentences cited, whether written out or named by their ids, and of the
    # parameters the ruleset gives (one read from elsewhere leaves a saved ruleset's fingerprint as it was)
    data = data | {"parameters": {n: data["parameters"][n] | {"citation": p.citation}
                                  for n, p in params.items() if n in data["parameters"]}}
    data = {"description": ""} | data   # the same ruleset with or without an empty description
    # the edition is a label for people: the fingerprint is of the content alone
    canonical = json.dumps({k: data[k] for k in sorted(data) if k != "edition"}, sort_keys=True, default=str)
    version = hashlib.sha256(canonical.encode()).hexdigest()[:12]
    filled = tuple(p.filled for p in params.values() if p.filled)
    return Ruleset(data["id"], data["title"], data["kind"], data.get("description", ""),
                   data.get("based_on"), params, version, data.get("edition", ""), None, filled,
                   caveats=tuple(data.get("caveats", ())), cites=dict(data.get("cites", {})))


def version_words(rs: "Ruleset") -> str:
    """The ruleset as people read it: title and edition, with the fingerprint kept for the record."""
    return edition_words(rs.label, rs.edition, rs.version)


def edition_words(label: str, edition: str, version: str) -> str:
    """The ruleset as people read it. Its edition is of this tool's copy of the text (the file), not a
    date of the law: the law's own days are its dated values, or none (the regulation carries none)."""
    if not edition:
        return f"{label} (fingerprint {version})"
    return f"{label} (this tool's copy of the text: {edition}, not a date of the law; fingerprint {version})"


MAX_TOML_CHARS = 256 * 1024   # the shipped files are ~5 KB


def load_text(text: str, source: str = "ruleset", shipped: bool = False) -> Ruleset:
    from core.law.inputs import MAX_DEPTH, depth
    if len(text) > MAX_TOML_CHARS:
        raise RulesetError(f"{source}: {len(text):,} characters; a ruleset file has at most {MAX_TOML_CHARS:,}")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:  # includes duplicate keys
        raise RulesetError(f"{source}: {exc}") from None
    except RecursionError:  # arrays nested thousands deep
        raise RulesetError(f"{source}: nested more than {MAX_DEPTH} levels deep; not a ruleset file") from None
    except ValueError:  # an integer of thousands of digits (Python's own words, cut, said nothing useful)
        raise RulesetError(f"{source}: {_long_number(text)}") from None
    if depth(data) > MAX_DEPTH:
        raise RulesetError(f"{source}: nested more than {MAX_DEPTH} levels deep; not a ruleset file")
    return from_data(data, shipped)


def _long_number(text: str) -> str:
    """Where the number too long to read is, in words."""
    import re
    found = max(re.finditer(r"\d[\d_]*", text), key=lambda m: len(m.group()), default=None)
    if found is None:
        return "a value cannot be read; check the file is a ruleset written as the shipped ones are"
    line = text.count("\n", 0, found.start()) + 1
    return (f"line {line} holds a number of {len(found.group()):,} digits, too long for an amount or a share; "
            f"write money as dollars, such as \"600000.00\"")


def load_file(path: Path, shipped: bool = False) -> Ruleset:
    return load_text(Path(path).read_text(encoding="utf-8"), str(path), shipped)


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


def to_toml(rs: Ruleset) -> str:
    """The ruleset as a file that `load_text` reads back to the same version."""
    def val(v):
        if isinstance(v, list):
            return "[" + ", ".join(json.dumps(x) for x in v) + "]"
        if isinstance(v, Decimal):   # an amount given as a Decimal: TOML would read 800000.00 as a float
            return json.dumps(str(v))
        return json.dumps(v) if isinstance(v, str) else str(v).lower() if isinstance(v, bool) else str(v)

    data = rs.to_data()
    lines = [f"{k} = {val(data[k])}" for k in ("id", "title", "kind", "description", "based_on", "edition",
                                               "caveats") if k in data]
    if data.get("cites"):
        lines += ["", "[cites]"] + [f"{k} = {val(v)}" for k, v in data["cites"].items()]
    for name, entry in data["parameters"].items():
        lines += ["", f"[parameters.{name}]"] + [f"{k} = {val(v)}" for k, v in entry.items() if k != "values"]
        for v in entry.get("values", ()):
            lines += ["", f"[[parameters.{name}.values]]"] + [f"{k} = {val(x)}" for k, x in v.items()]
    return "\n".join(lines) + "\n"
