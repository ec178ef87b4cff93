"""The registry of the regulation's provisions, caps, routes, checks and readings
(core/law/provisions.toml), read and checked once: every sentence named by its id in
docs/regulation.txt, every template, label, colour and marker in one entry per thing. The words
of a result (core/law/explain.py), the charts, the Rules page and the report all read it.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

from core.law.text import SENTENCES, paragraph, quote

REGISTRY = Path(__file__).with_name("provisions.toml")


class RegistryError(ValueError):
    """provisions.toml names something that does not exist; the message says where."""


def _sentence_ids(ids, where: str) -> tuple:
    missing = [i for i in ids if i not in SENTENCES]
    if missing:
        raise RegistryError(f"{REGISTRY.name}, {where}: no sentence {missing[0]!r} in docs/regulation.txt")
    return tuple(ids)


@dataclass(frozen=True)
class Provision:
    id: str
    title: str
    sentences: tuple          # ids in docs/regulation.txt; () when no sentence says it
    interpretation: str = ""  # the reading applied, shown to users, never hidden
    readings: tuple = ()      # the switchable readings that touch it
    only_in: str = ""         # a provision of another law only (the statute's): not the regulation's

    @property
    def text(self) -> str:
        """The regulation's own words, read from the lettered text ("" for an interpretation)."""
        return quote(*self.sentences)

    @property
    def paragraph(self) -> str:
        """'C', or 'A–B' when the provision spans paragraphs; '' for an interpretation."""
        letters = list(dict.fromkeys(paragraph(s) for s in self.sentences))
        return "–".join((letters[0], letters[-1])) if len(letters) > 1 else "".join(letters)

    @property
    def cite(self) -> str:
        """'§C', or 'an interpretation' for a provision with no sentence of its own."""
        return f"§{self.paragraph}" if self.paragraph else "an interpretation"


@dataclass(frozen=True)
class Citation:
    """Where one limit of one result comes from: its paragraph (inferred; "" for an
    interpretation with no sentence), a title and the sentences that govern it. Under another
    law than the regulation (the statute, as of a day; a variant), `law` is that law's own words
    for it: its subsection, act and number, or the variant's value; then no paragraph is given."""
    paragraph: str
    title: str
    sentences: tuple
    law: str = ""

    @property
    def words(self) -> str:
        """'§E State share of the cost remaining after the federal grant', or for an interpretation
        'What the project still lacks (not a sentence of the regulation: this tool's reading of it as a whole)';
        under another law, 'Program maximum, $300,000: Acts of 1986 ... (now Md. Code, Human Services § 10-504(a)(2))'."""
        if self.law:
            return f"{self.title}: {self.law}"
        return (f"§{self.paragraph} {self.title}" if self.paragraph
                else f"{self.title} (not a sentence of the regulation: this tool's reading of it as a whole)")


@dataclass(frozen=True)
class Cap:
    id: str
    title: str        # "Program maximum": in a table, a legend, on an axis
    label: str        # "the program maximum": in a sentence ("Held down by the program maximum")
    provision: str
    meaning: str
    colour: str       # on every chart, in the report and the PDF
    marker: str       # the Compare chart's symbol
    cites: dict       # case -> Citation
    line: str = ""    # the Sensitivity curve's colour where it holds the award ("": drawn in `colour`)


@dataclass(frozen=True)
class CheckWords:
    id: str
    label: str
    provision: str
    sentence: str     # the exception's conditions: the id of the condition's own sentence
    templates: dict   # outcome -> template


def _load() -> dict:
    try:
        return tomllib.loads(REGISTRY.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise RegistryError(f"{REGISTRY.name}: {exc}") from None


_DATA = _load()
LETTERS_INFERRED: str = _DATA["letters_inferred"]
LAW_CAPTION: str = _DATA["law_caption"]
LETTERING: tuple = tuple(_DATA["lettering"].items())
LETTERING_SEVEN: tuple = tuple(_DATA["lettering_seven"].items())
# Each paragraph of the eight-letter lettering (the sentence ids') in the seven-letter one.
SEVEN = dict(zip("ABCDEFGH", "AABCDEFG"))


def seven_letters(readings) -> bool:
    """Whether a result under these readings is lettered in seven paragraphs (f_reference=prior_grant)."""
    return getattr(readings, "f_reference", "") == "prior_grant"


def lettering(readings=None) -> tuple:
    """The lettering of a result under these readings: (letter, what it holds), in order."""
    return LETTERING_SEVEN if seven_letters(readings) else LETTERING


def relettered(paragraph: str, readings=None) -> str:
    """A paragraph letter (of the sentence ids' eight) in the lettering these readings use: 'G' -> 'F'."""
    if not seven_letters(readings):
        return paragraph
    return "–".join(dict.fromkeys(SEVEN[p] for p in paragraph.split("–"))) if paragraph else paragraph
KINDS = ("money", "share", "types", "choice")
PARAMETERS: dict[str, tuple[str, str]] = {}   # name -> (kind, the variant editor's words)
# A parameter added after rulesets were saved declares the value a ruleset that lacks it reads
# (core/law/rulesets fills it in and says so); a "choice" parameter names its choices and their words.
DEFAULTS: dict[str, object] = {}
DEFAULT_ENTRIES: dict[str, dict] = {}   # the whole entry a ruleset without the parameter reads
CHOICES: dict[str, dict[str, str]] = {}
for _name, _p in _DATA["parameters"].items():
    if _p.get("kind") not in KINDS or not _p.get("label"):
        raise RegistryError(f"parameters.{_name}: needs a kind ({', '.join(KINDS)}) and a label")
    PARAMETERS[_name] = (_p["kind"], _p["label"])
    if "default" in _p:
        DEFAULTS[_name] = _p["default"]
        DEFAULT_ENTRIES[_name] = {"value": _p["default"], "unit": _p.get("unit", _p["kind"]),
                                  "provision": _p.get("provision", ""), "description": _p.get("description", _p["label"]),
                                  "citation": _p.get("citation", "The parameter's declared default")}
    if _p["kind"] == "choice":
        if not isinstance(_p.get("choices"), dict) or DEFAULTS.get(_name) not in _p["choices"]:
            raise RegistryError(f"parameters.{_name}: a choice needs its choices and a default among them")
        CHOICES[_name] = dict(_p["choices"])
PROVISIONS: tuple[Provision, ...] = tuple(
    Provision(pid, p["title"], _sentence_ids(p["sentences"], f"provisions.{pid}"), p["interpretation"],
              tuple(p["readings"]), p.get("only_in", "")) for pid, p in _DATA["provisions"].items())
PROVISION = {p.id: p for p in PROVISIONS}


def _citation(entry: list, where: str) -> Citation:
    """[title, id, ...]; an id "C+C.1" quotes those sentences as one."""
    title, *quoted = entry
    parts = [tuple(q.split("+")) for q in quoted]
    for ids in parts:
        _sentence_ids(ids, where)
    return Citation(paragraph(parts[0][0]) if parts else "", title, tuple(quote(*ids) for ids in parts))


def _cap(cid: str, c: dict) -> Cap:
    if c["provision"] not in PROVISION:
        raise RegistryError(f"{REGISTRY.name}, caps.{cid}: no provision {c['provision']!r}")
    return Cap(cid, c["title"], c["label"], c["provision"], c["meaning"], c["colour"], c["marker"],
               {case: _citation(entry, f"caps.{cid}.cite.{case}") for case, entry in c["cite"].items()},
               c.get("line", ""))


CAPS: tuple[Cap, ...] = tuple(_cap(cid, c) for cid, c in _DATA["caps"].items())
CAP = {c.id: c for c in CAPS}
CAP_IDS = tuple(CAP)
ROUTES: dict[str, str] = dict(_DATA["routes"])
STEPS: dict[str, dict[str, str]] = _DATA["steps"]
CHECKS: dict[str, CheckWords] = {
    cid: CheckWords(cid, c["label"], c["provision"], c.get("sentence", ""),
                    {k: v for k, v in c.items() if k not in ("label", "provision", "sentence")})
    for cid, c in _DATA["checks"].items()}
# The four conditions of the Board exception, each with its own sentence of the regulation.
BPW_CONDITIONS = {cid: SENTENCES[c.sentence] for cid, c in CHECKS.items() if c.sentence}
# A provision's citations: its own cases (provisions.toml), else its title and sentences.
PROVISION_CITES = {pid: {case: _citation(entry, f"provisions.{pid}.cite.{case}")
                         for case, entry in _DATA["provisions"][pid].get("cite", {}).items()}
                   or {"default": Citation(p.paragraph, p.title, tuple(SENTENCES[i] for i in p.sentences))}
                   for pid, p in PROVISION.items()}
READING_DATA: dict = _DATA["readings"]
for _pid, _p in PROVISION.items():
    for _rid in _p.readings:
        if _rid not in READING_DATA:
            raise RegistryError(f"{REGISTRY.name}, provisions.{_pid}: no reading {_rid!r}")


def _remainder_governs(award) -> bool:
    """With a federal grant applied, the State share is §E's 50% of the remainder (unless, read
    with "§F" as the top-up paragraph, additional eligible work lifts it to §C's whole cost)."""
    return bool(award.facts.federal_applied) and award.base == award.remaining   # core.law.caps.intermediates


def _case(name: str, award) -> str:
    """Which of a cap's (or provision's) citations governs this result."""
    if name == "program_max":
        return "master_plan" if award.application.project_type == "master_plan" else "capital"
    if name == "cost_share":   # on the exception route it is only ever the remainder's (f_reference=prior_grant)
        return "remainder" if _remainder_governs(award) else "whole"
    if name == "full_cost" and award.route == "bpw_exception":
        return "exception"
    if name == "federal_first" and _remainder_governs(award):
        return "applied"
    return "default"


# The number of the law each limit (cap or provision) is set by: its ruleset parameter.
_PARAMETER_OF = {"cost_share": "state_share", "local_match": "local_share", "prior_grant_room": "prior_grant_ceiling",
                 "property_value": "bpw_test", "bpw_exception": "bpw_test",
                 "surplus_building": "surplus_certification"}


def _law_citation(name: str, award) -> Citation | None:
    """A limit's citation under a law other than the regulation: the sentence of that ruleset, and of
    the era of the day, that set its number, with the number (a variant's own value cites the variant);
    None where the law applied is the regulation's own sentence (the regulation, or a variant's
    unchanged number)."""
    rs = getattr(award, "ruleset", None)
    if rs is None or (rs.id == "regulation" and not rs.is_variant):
        return None
    title = CAP[name].title if name in CAP else PROVISION[name].title
    param = _PARAMETER_OF.get(name)
    if name == "program_max":
        plan = award.application.project_type == "master_plan" and rs.number("master_plan_cap") is not None
        param = "master_plan_cap" if plan else "capital_cap"
    if param and param in rs.parameters:
        p = rs.parameters[param]
        from core.law.rulesets import load, value_words
        regulation = load("regulation").parameters.get(param)
        own = p.history or regulation is None or p.citation != regulation.citation
        if own:
            value = value_words(param, p.value)
            if rs.is_variant and not p.history:
                return Citation("", title, (p.citation,), f"{value}, this variant's value ({rs.title}), "
                                                          "not the law in force")
            kept = (rs.dated or {}).get(param)
            where = kept.citation if kept is not None else ""
            # "(now ...)": where the Code holds it today, said only of a Code section (a parameter's citation
            # may instead say what stands in for a text not read whole: that is no place in the Code)
            now = (f" (now {where})" if where.startswith("Md. Code, ")
                   and where.removeprefix("Md. Code, ") not in p.citation else "")
            day = f"as of {rs.as_of_date.isoformat()}, " if rs.as_of_date else ""
            return Citation("", title, (p.citation,), f"{day}{value}: {p.citation}{now}")
    key = ("bpw_exception" if name == "full_cost" and getattr(award, "route", "") == "bpw_exception"
           else "federal_first" if name == "full_cost" and "full_cost" not in rs.cites else name)
    if key in rs.cites:
        return Citation("", title, (rs.cites[key],), rs.cites[key])
    return None


def citation(name: str, award) -> Citation:
    """The one citation of a cap (or of a provision's step) for this result, the same on every
    surface: calculator, Compare, report, PDF and the command line's JSON; lettered as the
    result's readings letter the text (one lettering per reading, everywhere). Under another law
    than the regulation, that law's own (`_law_citation`)."""
    own = _law_citation(name, award)
    if own is not None:
        return own
    cites = CAP[name].cites if name in CAP else PROVISION_CITES[name]
    c = cites[_case(name, award)]
    return replace(c, paragraph=relettered(c.paragraph, award.readings)) if seven_letters(award.readings) else c


def citations(award) -> list[Citation]:
    """The binding caps' citations, in order, each once."""
    return list(dict.fromkeys(citation(c, award) for c in award.binding))


def source_words(award) -> str:
    """The 'In the regulation:' line (or the statute's, or a variant's): each binding limit's citation, once."""
    return "; ".join(c.words for c in citations(award))
