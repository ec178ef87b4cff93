"""A ruleset across releases: a variant's inheritance (`based_on`), a saved ruleset's numbers added
since it was saved, a saved ruleset's numbers added by a newer release, and a variant made on the
Rules page (`variant_of`).

- A variant holds only what it changes: every parameter, and every key of a parameter, that it does
  not give is inherited from the ruleset it is based on (`inherit`).
- A saved ruleset lacking a number added since (one with a declared default in
  core/law/provisions.toml) reads it from the shipped ruleset of its id, the one it is based on, or the
  regulation (every dated value with it), else as the declared default, and says so in its notes; it
  is not part of the fingerprint (`fill`). A variant the library kept (`read_saved`: a scenario's, a
  kept variant's) keeps the numbers it was saved with and its fingerprint: a number its base gained
  since is read so too, not inherited into it. A variant file (shipped, uploaded) follows its base.
- A saved ruleset written by a newer release may hold a number this release does not know: the
  library reads it without that number (`read_saved`), says so, and leaves the saved data untouched.
"""
from __future__ import annotations

from datetime import date

from core.law.provisions import DEFAULT_ENTRIES, DEFAULTS, PARAMETERS
from core.law.rulesets.definitions import PARAMETER_KINDS, Parameter, Ruleset, RulesetError, entry, lower, value_words


def _shelf():
    """The shipped rulesets (the package's `load` and `available`; tests point them at a copy)."""
    import core.law.rulesets as shelf
    return shelf


def inherit(data: dict, kept: bool = False) -> dict:
    """The variant's data with what it does not give read from the ruleset it is based on. A variant
    the library kept (`kept`: whole, as Ruleset.to_data wrote it) does not take a number its base
    gained after it was saved (one with a declared default): `fill` reads that one, says so, and
    leaves the variant's fingerprint as it was. A file (shipped, uploaded) follows its base."""
    if data["based_on"] == data["id"]:
        raise RulesetError(f"based_on: a ruleset cannot be based on itself ({data['id']!r})")
    shelf = _shelf()
    try:
        base = shelf.load(data["based_on"])
    except RulesetError:
        raise RulesetError(f"based_on: unknown ruleset {data['based_on']!r}; available: "
                           f"{', '.join(shelf.available())}") from None
    own, inherited = data["parameters"], base.to_data()["parameters"]
    merged = {}
    for name in PARAMETER_KINDS:
        given, base_entry = own.get(name), inherited.get(name)
        if given is None and (base_entry is None or (kept and name in DEFAULTS)):
            continue   # read as a missing parameter is (fill)
        if isinstance(given, dict) and base_entry is not None and ({"value", "values"} & set(given)):
            base_entry = {k: v for k, v in base_entry.items() if k not in ("value", "values")}
        merged[name] = (base_entry if given is None else (base_entry or {}) | given if isinstance(given, dict)
                        else given)
    merged |= {name: value for name, value in own.items() if name not in merged}
    return data | {"parameters": merged}


def fill(name: str, kind: str, data: dict, shipped: bool) -> Parameter:
    """A parameter the ruleset does not give, read from elsewhere (`missing`): not given, so not in
    its fingerprint, with the words that say where it was read from."""
    from core.law.rulesets.reading import parameter
    source, words = missing(name, data, shipped)
    p = parameter(name, kind, source)
    return Parameter(p.name, p.value, p.raw, p.unit, p.provision, p.description, p.citation, p.history,
                     False, words)


def missing(name: str, data: dict, shipped: bool) -> tuple[dict, str]:
    """A parameter the ruleset does not give (it was saved before the parameter existed): its entry
    and the words that say where it was read from. A saved ruleset reads it from the shipped ruleset
    of its id (or the one it is based on, or the regulation), with every dated value, so an evaluation
    as of the scenario's day reads the value of that day; failing that, from the declared default."""
    if not shipped:
        shelf = _shelf()
        for source_id in dict.fromkeys([data["id"], data.get("based_on"), "regulation"]):
            if source_id and source_id in shelf.available():
                base = shelf.load(source_id)
                p = base.parameters.get(name)
                if p is not None and p.given:
                    return entry(p), (f"This saved ruleset has no {lower(PARAMETERS[name][1])} (it was saved "
                                      f"before that number was added): read from the shipped ruleset {base.id!r} "
                                      f"({base.title}).")
                if p is not None:   # the shipped one reads the declared default too: nothing differs to say
                    shipped = True
                break
    if name in DEFAULTS:
        words = "" if shipped else (f"This saved ruleset has no {lower(PARAMETERS[name][1])} (it was saved before "
                                    "that number was added): read as its declared default, "
                                    f"{value_words(name, DEFAULTS[name])}.")
        return dict(DEFAULT_ENTRIES[name]), words
    raise RulesetError(f"parameters.{name}: missing")


def unread_words(what) -> str:
    """The note a saved ruleset of a newer release carries: what of it this release did not read."""
    return (f"Saved by a newer release of this tool: {', '.join(what)} not read by this release "
            "(the award is worked out without it); the saved ruleset is kept as it was.")


def read_saved(data: dict) -> Ruleset:
    """A saved ruleset as the library reads it: what this release does not know (a number, a key of
    the ruleset or of a number, saved by a newer release) is left out and said in its notes; `data`
    itself is not changed. A file loaded by hand is checked whole (`from_data`)."""
    from core.law.rulesets.reading import PARAM_KEYS, TOP_KEYS, from_data
    if not isinstance(data, dict) or not isinstance(data.get("parameters"), dict):
        return from_data(data, kept=True)
    unread = [f"the key {k!r}" for k in data if k not in TOP_KEYS]
    params = {}
    for name, given in data["parameters"].items():
        if name not in PARAMETER_KINDS:
            unread.append(f"the number {name!r}")
        elif isinstance(given, dict) and set(given) - PARAM_KEYS - {"values"}:
            unread += [f"the key {k!r} of the {lower(PARAMETERS[name][1])}" for k in given
                       if k not in PARAM_KEYS | {"values"}]
            params[name] = {k: v for k, v in given.items() if k in PARAM_KEYS | {"values"}}
        else:
            params[name] = given
    if not unread:
        return from_data(data, kept=True)
    known = {k: v for k, v in data.items() if k in TOP_KEYS} | {"parameters": params}
    return from_data(known, unread=tuple(unread), kept=True)


def variant_of(rs: Ruleset, new_id: str, title: str, changes: dict, note: str = "") -> Ruleset:
    """A labelled variant of `rs` with some parameter values changed (the Rules page's variant editor)."""
    from core.law.rulesets.reading import from_data
    data = rs.to_data()
    data.update(id=new_id, title=title, kind="variant", based_on=rs.id, edition=f"made {date.today():%B %-d, %Y}")
    if note:
        data["description"] = note
    for name, value in changes.items():
        if name not in PARAMETER_KINDS:
            raise RulesetError(f"parameters.{name}: unknown parameter; known: {', '.join(PARAMETER_KINDS)}")
        if name not in data["parameters"]:   # read from elsewhere: the variant writes it out
            data["parameters"][name] = entry(rs.parameters[name]) | {"value": rs.parameters[name].raw}
        data["parameters"][name].pop("values", None)   # a variant's value is a what-if, on any day
        data["parameters"][name]["value"] = value
        # The variant cites itself: the value it replaces is named, the replaced sentence not
        # quoted (it would read as the source of the variant's number; issue 47).
        data["parameters"][name]["citation"] = (
            f"Variant value ({title}), a what-if and not the law in force, in place of "
            f"{value_words(name, rs.number(name))} under {rs.in_sentence}")
    return from_data(data)
