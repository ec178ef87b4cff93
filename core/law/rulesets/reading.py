"""A ruleset file read and checked, and written back. A ruleset file is TOML; the reader rejects
unknown keys, duplicate keys (TOML itself forbids them), wrong types and impossible values, naming
the key. A ruleset's version is a hash of its content (`fingerprint`), so every result says exactly
which numbers produced it. A variant's inheritance and a saved ruleset's missing numbers are
saved.py's; dated values are dating.py's.
"""
from __future__ import annotations

import hashlib
import json
import re
import tomllib
from decimal import Decimal
from pathlib import Path

from core.law.money import ValidationError
from core.law.provisions import PARAMETERS
from core.law.rulesets.dating import read_history
from core.law.rulesets.definitions import PARAMETER_KINDS, Parameter, Ruleset, RulesetError, parse_value
from core.law.text import SENTENCES

TOP_KEYS = {"id", "title", "kind", "description", "based_on", "edition", "parameters", "caveats", "cites"}
# The labels people read (a file's own): one line each, no hidden character, a sentence long.
LABEL_LIMITS = {"title": 200, "edition": 120}
PARAM_KEYS = {"value", "unit", "provision", "description", "citation"}
KINDS = ("regulation", "variant")
ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
MAX_TOML_CHARS = 256 * 1024   # the shipped files are ~5 KB


def from_data(data: dict, shipped: bool = False, unread: tuple = (), kept: bool = False) -> Ruleset:
    """A ruleset from its data; `shipped` for a file of this folder (which reads a parameter it lacks
    as the declared default, silently: that is its value). `kept` for a ruleset the library kept (a
    scenario's, a kept variant's: saved.read_saved): a variant keeps the numbers it was saved with,
    one its base gained since is read from elsewhere and said, not taken into it (saved.py). `unread`:
    what of a newer release the library reader left out, said in the ruleset's notes."""
    from core.law.rulesets import saved
    check_top(data)
    if data["kind"] == "variant" and data.get("based_on"):
        data = saved.inherit(data, kept)
    for name in data["parameters"]:
        if name not in PARAMETER_KINDS:
            raise RulesetError(f"parameters.{name}: unknown parameter; known: {', '.join(PARAMETER_KINDS)}")
    params = {}
    for name, kind in PARAMETER_KINDS.items():
        if data["parameters"].get(name) is not None:
            params[name] = parameter(name, kind, data["parameters"][name])
        else:
            params[name] = saved.fill(name, kind, data, shipped)
    notes = tuple(p.filled for p in params.values() if p.filled) + ((saved.unread_words(unread),) if unread else ())
    return Ruleset(data["id"], data["title"], data["kind"], data.get("description", ""),
                   data.get("based_on"), params, fingerprint(data, params), data.get("edition", ""), None, notes,
                   caveats=tuple(data.get("caveats", ())), cites=dict(data.get("cites", {})))


def fingerprint(data: dict, params: dict) -> str:
    """The hash of the sentences cited, whether written out or named by their ids, and of the
    parameters the ruleset gives (one read from elsewhere leaves a saved ruleset's fingerprint as it
    was); the edition is a label for people: the fingerprint is of the content alone."""
    data = data | {"parameters": {n: data["parameters"][n] | {"citation": p.citation}
                                  for n, p in params.items() if n in data["parameters"]}}
    data = {"description": ""} | data   # the same ruleset with or without an empty description
    canonical = json.dumps({k: data[k] for k in sorted(data) if k != "edition"}, sort_keys=True, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()[:12]


def check_top(data) -> None:
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
    _check_labels(data)
    if not ID.match(data["id"]):
        raise RulesetError(f"id: {data['id']!r} must be lower-case letters, digits, '-' or '_'")
    if data["kind"] not in KINDS:
        raise RulesetError(f"kind: {data['kind']!r} must be one of {', '.join(KINDS)}")
    if data["kind"] == "variant" and data["id"] == "regulation":
        raise RulesetError("id: a variant may not be called 'regulation'")
    if not isinstance(data["parameters"], dict):
        raise RulesetError("parameters: must be a table")
    _check_cites_and_caveats(data)


def _check_labels(data: dict) -> None:
    from core.law.names import check_text
    for key, limit in LABEL_LIMITS.items():   # shown wherever the ruleset is named: no hidden characters
        if data.get(key):
            try:
                check_text(data[key], key, limit, what="text")
            except ValidationError as err:
                raise RulesetError(str(err)) from None


def _check_cites_and_caveats(data: dict) -> None:
    from core.law.provisions import CAP, PROVISION
    cites = data.get("cites", {})
    if not isinstance(cites, dict) or not all(isinstance(k, str) and isinstance(c, str) and c.strip()
                                              for k, c in cites.items()):
        raise RulesetError("cites: a table of provision ids, each with the law's own words for it")
    unknown = [k for k in cites if k not in PROVISION and k not in CAP]
    if unknown:
        raise RulesetError(f"cites.{unknown[0]}: no such provision or limit; known: {', '.join(PROVISION)}")
    caveats = data.get("caveats", [])
    if not isinstance(caveats, list) or len(caveats) > 10 or not all(isinstance(c, str) and c.strip() for c in caveats):
        raise RulesetError("caveats: a list of at most 10 sentences said with every result")


def parameter(name: str, kind: str, entry) -> Parameter:
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
        return Parameter(name, parse_value(name, kind, entry["value"]), entry["value"], entry["unit"],
                         entry["provision"], entry["description"], cited)
    history = read_history(name, kind, entry["values"])
    last = history[-1]
    return Parameter(name, last.value, last.raw, entry["unit"], entry["provision"], entry["description"],
                     cited, history)


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


def load_text(text: str, source: str = "ruleset", shipped: bool = False) -> Ruleset:
    from core.law.inputs import MAX_DEPTH, depth
    text = text.removeprefix("\ufeff")   # a byte-order mark, as Windows editors save UTF-8: not part of the TOML
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
    found = max(re.finditer(r"\d[\d_]*", text), key=lambda m: len(m.group()), default=None)
    if found is None:
        return "a value cannot be read; check the file is a ruleset written as the shipped ones are"
    line = text.count("\n", 0, found.start()) + 1
    return (f"line {line} holds a number of {len(found.group()):,} digits, too long for an amount or a share; "
            f"write money as dollars, such as \"600000.00\"")


def load_file(path: Path, shipped: bool = False) -> Ruleset:
    return load_text(Path(path).read_text(encoding="utf-8"), str(path), shipped)


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


__all__ = ["PARAMETERS", "from_data", "load_text", "load_file", "to_toml", "MAX_TOML_CHARS"]
