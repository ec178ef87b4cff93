"""What a ruleset is: its numbers (parameters, each with its citation and, in a dated ruleset, its
dated values), the `Ruleset` that holds them, how a number is read from a file (`parse_value`) and
how people read it (`value_words`). The machinery that loads a file, fills a saved ruleset, inherits
(`based_on`) and dates values is beside it: reading.py, saved.py, dating.py.

A number is read by its name in the registry (core/law/provisions.toml `[parameters]`):
`rs.number("capital_cap")`; a name the ruleset does not have is an error naming it and the ruleset.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from core.law.fields import PROJECT_TYPES
from core.law.money import ValidationError, to_cents
from core.law.provisions import CHOICES, PARAMETERS


class RulesetError(ValueError):
    """A ruleset that cannot be used; the message names the key."""


class DateError(RulesetError):
    """An as-of day the ruleset has no value for; the message names its first day."""


# PARAMETERS: every parameter a ruleset may set, with its kind and the variant editor's words,
# from the registry's [parameters] (core/law/provisions.toml).
PARAMETER_KINDS = {name: kind for name, (kind, _) in PARAMETERS.items()}
AS_RECEIVED = "as received"
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
EDITION_DAY = re.compile(r"(" + "|".join(MONTHS) + r") (\d{1,2}), (\d{4})")


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


def lower(label: str) -> str:
    """A label inside a sentence: "the capital maximum", but "the State share" (a proper noun stays)."""
    return label if label.startswith(("State ", "Board ")) else label[:1].lower() + label[1:]


def parse_value(name: str, kind: str, raw, key: str = ""):
    """A number as a file writes it, read and checked: cents, a Fraction, a tuple of project types or
    a choice's id; "none" for an amount or a share is None (no such provision in this law)."""
    key = key or f"parameters.{name}.value"
    if raw == "none" and kind in ("money", "share"):
        return None
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
        return _share(key, raw)
    if kind == "types":
        return _types(key, raw)
    raise AssertionError(kind)


def _share(key: str, raw) -> Fraction:
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


def _types(key: str, raw) -> tuple:
    if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw):
        raise RulesetError(f"{key}: a list of project types, not {raw!r}")
    unknown = [t for t in raw if t not in PROJECT_TYPES]
    if unknown:
        raise RulesetError(f"{key}: unknown project type {unknown[0]!r}; known: {', '.join(PROJECT_TYPES)}")
    if len(set(raw)) != len(raw):
        raise RulesetError(f"{key}: a project type is listed twice")
    return tuple(raw)


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


def differences(then: "Ruleset", now: "Ruleset") -> list[tuple[str, str, str]]:
    """Each number whose value differs between two readings of a ruleset (one dated ruleset as of
    two days): (its name in a sentence, its value in `then`, in `now`), in the registry's order."""
    return [(lower(PARAMETERS[n][1]), value_words(n, then.number(n)), value_words(n, now.number(n)))
            for n in PARAMETERS if n in then.parameters and n in now.parameters
            and then.number(n) != now.number(n)]


def entry(p: Parameter) -> dict:
    """A parameter as the file writes it: one value, or its dated values."""
    written = {"unit": p.unit, "provision": p.provision, "description": p.description, "citation": p.citation}
    if not p.history:
        return {"value": p.raw} | written
    return written | {"values": [{"from": v.start.isoformat(), "value": v.raw, "source": v.source}
                                 | ({"uncertain": v.uncertain} if v.uncertain else {})
                                 | ({"year_known": True} if v.year_known else {})
                                 | ({"not_before": v.not_before.isoformat()} if v.not_before else {})
                                 | ({"known_by": v.known_by.isoformat()} if v.known_by else {})
                                 | ({"caveat": v.caveat} if v.caveat else {}) for v in p.history]}


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
        # name -> value, read once: the caps read several numbers on every evaluation
        object.__setattr__(self, "_numbers", {name: p.value for name, p in self.parameters.items()})

    def number(self, name: str):
        """The value of the parameter `name` (core/law/provisions.toml [parameters]) in this ruleset:
        cents, a Fraction, a tuple of project types, a choice's id, or None where this law has no
        such provision ("none"). A name the ruleset does not have is a RulesetError naming both."""
        try:
            return self._numbers[name]
        except KeyError:
            raise RulesetError(f"parameters.{name}: no such parameter in the ruleset {self.id!r} ({self.title}); "
                               f"its parameters: {', '.join(self.parameters)}") from None

    def __getattr__(self, name):
        # copy and pickle look for hooks on an object whose fields are not set yet: plain AttributeError
        if name in PARAMETER_KINDS:
            raise AttributeError(f"{name}: a parameter of the ruleset, read with .number({name!r})")
        raise AttributeError(name)

    def largest_award(self, project_type: str) -> int:
        """The most any grant of this type may be under this ruleset: the least cap on the standard
        route of an application no other limit holds (core.law.caps.most_for_type). The program
        maximum, or less where the law has another maximum for this type alone."""
        from core.law.caps import most_for_type   # the caps read rulesets: imported when asked
        return most_for_type(self, project_type)

    def program_maximum(self, project_type: str) -> int:
        """§A–B's program maximum for a type: the master-plan maximum for a master plan (the capital
        maximum where the law has none, as the statute before 1986), the capital maximum otherwise."""
        plan = self.number("master_plan_cap")
        return plan if project_type == "master_plan" and plan is not None else self.number("capital_cap")

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
        found = EDITION_DAY.search(self.edition or "")
        return date(int(found.group(3)), MONTHS.index(found.group(1)) + 1, int(found.group(2))) if found else None

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
        """The values in force on `day` (today when None): core/law/rulesets/dating.py."""
        from core.law.rulesets.dating import in_force
        return in_force(self, day)

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
        data["parameters"] = {p.name: entry(p) for p in (self.dated or self.parameters).values() if p.given}
        return data

    def with_changes(self, new_id: str, title: str, changes: dict, note: str = "") -> "Ruleset":
        """A labelled variant of this ruleset with some parameter values changed (core/law/rulesets/saved.py)."""
        from core.law.rulesets.saved import variant_of
        return variant_of(self, new_id, title, changes, note)


def version_words(rs: Ruleset) -> str:
    """The ruleset as people read it: title and edition, with the fingerprint kept for the record."""
    return edition_words(rs.label, rs.edition, rs.version)


def edition_words(label: str, edition: str, version: str) -> str:
    """The ruleset as people read it. Its edition is of this tool's copy of the text (the file), not a
    date of the law: the law's own days are its dated values, or none (the regulation carries none)."""
    if not edition:
        return f"{label} (fingerprint {version})"
    return f"{label} (this tool's copy of the text: {edition}, not a date of the law; fingerprint {version})"
