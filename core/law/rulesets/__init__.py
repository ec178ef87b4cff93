"""Rulesets: the regulation's parameters as data, each with its citation.

A ruleset file is TOML. The loader rejects unknown keys, duplicate keys (TOML itself
forbids them), wrong types and impossible values, naming the key. A ruleset's version
is a hash of its content, so every result says exactly which numbers produced it.
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
from core.law.provisions import PARAMETERS
from core.law.text import SENTENCES

HERE = Path(__file__).parent


class RulesetError(ValueError):
    """A ruleset that cannot be used; the message names the key."""


# PARAMETERS: every parameter a ruleset may set, with its kind and the variant editor's words,
# from the registry's [parameters] (core/law/provisions.toml).
PARAMETER_KINDS = {name: kind for name, (kind, _) in PARAMETERS.items()}
TOP_KEYS = {"id", "title", "kind", "description", "based_on", "edition", "parameters"}
# The labels people read (a file's own): one line each, no hidden character, a sentence long.
LABEL_LIMITS = {"title": 200, "edition": 120}
PARAM_KEYS = {"value", "unit", "provision", "description", "citation"}
KINDS = ("regulation", "variant")
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


@dataclass(frozen=True)
class Parameter:
    name: str
    value: object          # int cents, Fraction share, or tuple of project types
    raw: object            # as written in the file
    unit: str
    provision: str
    description: str
    citation: str


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
        data["parameters"] = {
            p.name: {"value": p.raw, "unit": p.unit, "provision": p.provision,
                     "description": p.description, "citation": p.citation}
            for p in self.parameters.values()
        }
        return data

    def with_changes(self, new_id: str, title: str, changes: dict, note: str = "") -> "Ruleset":
        """A labelled variant of this ruleset with some parameter values changed."""
        data = self.to_data()
        data.update(id=new_id, title=title, kind="variant", based_on=self.id,
                    edition=f"made {date.today():%B %-d, %Y}")
        if note:
            data["description"] = note
        for name, value in changes.items():
            if name not in data["parameters"]:
                raise RulesetError(f"parameters.{name}: unknown parameter; known: {', '.join(PARAMETER_KINDS)}")
            data["parameters"][name]["value"] = value
            data["parameters"][name]["citation"] = (
                f"Variant value (was {self.parameters[name].raw!r} under {self.id}): "
                + self.parameters[name].citation)
        return from_data(data)


def _parse_value(name: str, kind: str, raw):
    key = f"parameters.{name}.value"
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
        given = own.get(name)
        merged[name] = (inherited[name] if given is None else inherited[name] | given if isinstance(given, dict)
                        else given)
    merged |= {name: value for name, value in own.items() if name not in merged}
    return data | {"parameters": merged}


def _parameter(name: str, kind: str, entry) -> Parameter:
    """One parameter: a table of its value and the keys that say where it comes from."""
    if entry is None:
        raise RulesetError(f"parameters.{name}: missing")
    if not isinstance(entry, dict):
        raise RulesetError(f"parameters.{name}: must be a table with a value and its citation")
    extra = set(entry) - PARAM_KEYS
    if extra:
        raise RulesetError(f"parameters.{name}.{sorted(extra)[0]}: unknown key; allowed: {', '.join(sorted(PARAM_KEYS))}")
    for key in PARAM_KEYS:
        if key not in entry:
            raise RulesetError(f"parameters.{name}.{key}: missing")
        if key != "value" and not isinstance(entry[key], str):
            raise RulesetError(f"parameters.{name}.{key}: must be text")
    if not entry["citation"].strip():
        raise RulesetError(f"parameters.{name}.citation: every value needs its citation")
    return Parameter(name, _parse_value(name, kind, entry["value"]), entry["value"],
                     entry["unit"], entry["provision"], entry["description"], _cited(name, entry["citation"]))


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


def from_data(data: dict) -> Ruleset:
    _check_top(data)
    if data["kind"] == "variant" and data.get("based_on"):
        data = _inherit(data)
    for name in data["parameters"]:
        if name not in PARAMETER_KINDS:
            raise RulesetError(f"parameters.{name}: unknown parameter; known: {', '.join(PARAMETER_KINDS)}")
    params = {name: _parameter(name, kind, data["parameters"].get(name)) for name, kind in PARAMETER_KINDS.items()}
    # the fingerprint is of the sentences cited, whether written out or named by their ids
    data = data | {"parameters": {n: data["parameters"][n] | {"citation": p.citation} for n, p in params.items()}}
    data = {"description": ""} | data   # the same ruleset with or without an empty description
    # the edition is a label for people: the fingerprint is of the content alone
    canonical = json.dumps({k: data[k] for k in sorted(data) if k != "edition"}, sort_keys=True, default=str)
    version = hashlib.sha256(canonical.encode()).hexdigest()[:12]
    return Ruleset(data["id"], data["title"], data["kind"], data.get("description", ""),
                   data.get("based_on"), params, version, data.get("edition", ""))


def version_words(rs: "Ruleset") -> str:
    """The ruleset as people read it: title and edition, with the fingerprint kept for the record."""
    return edition_words(rs.label, rs.edition, rs.version)


def edition_words(label: str, edition: str, version: str) -> str:
    return f"{label}, {edition} (fingerprint {version})" if edition else f"{label} (fingerprint {version})"


MAX_TOML_CHARS = 256 * 1024   # the shipped files are ~5 KB


def load_text(text: str, source: str = "ruleset") -> Ruleset:
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
    return from_data(data)


def _long_number(text: str) -> str:
    """Where the number too long to read is, in words."""
    import re
    found = max(re.finditer(r"\d[\d_]*", text), key=lambda m: len(m.group()), default=None)
    if found is None:
        return "a value cannot be read; check the file is a ruleset written as the shipped ones are"
    line = text.count("\n", 0, found.start()) + 1
    return (f"line {line} holds a number of {len(found.group()):,} digits, too long for an amount or a share; "
            f"write money as dollars, such as \"600000.00\"")


def load_file(path: Path) -> Ruleset:
    return load_text(Path(path).read_text(encoding="utf-8"), str(path))


_CACHE: dict[str, Ruleset] = {}


def available() -> list[str]:
    """Ids of the rulesets shipped in this folder, the regulation first."""
    ids = sorted(p.stem for p in HERE.glob("*.toml"))
    return sorted(ids, key=lambda i: i != "regulation")


def load(ruleset_id: str = "regulation") -> Ruleset:
    if ruleset_id not in _CACHE:
        if ruleset_id not in available():
            raise RulesetError(f"ruleset: unknown id {ruleset_id!r}; available: {', '.join(available())}")
        rs = load_file(HERE / f"{ruleset_id}.toml")
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
    lines = [f"{k} = {val(data[k])}" for k in ("id", "title", "kind", "description", "based_on", "edition")
             if k in data]
    for name, entry in data["parameters"].items():
        lines += ["", f"[parameters.{name}]"] + [f"{k} = {val(v)}" for k, v in entry.items()]
    return "\n".join(lines) + "\n"
