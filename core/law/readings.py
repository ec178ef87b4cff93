"""Readings: the places where the regulation's text can be read two ways (docs/rules.md,
"Readings"), stored as data like the parameters of a ruleset.

A `Readings` value names the alternative chosen for each of the five readings; every one
of the 32 combinations is valid. The default of each reading is the one docs/rules.md's
"The computation" applies. A law whose text has no sentence to read two ways (the statute has no
"except as provided in §F") does not have that reading: `Readings.under` gives the readings a
law applies, and every evaluation works under those.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from core.law.provisions import READING_DATA
from core.law.text import quote


class ReadingError(ValueError):
    """An unknown reading id or alternative; the message names it."""


@dataclass(frozen=True)
class Alternative:
    id: str
    title: str          # a few words, for a switch
    meaning: str        # the plain description of what this reading does


@dataclass(frozen=True)
class Reading:
    id: str
    title: str
    provision: str      # provision id whose sentence is read
    sentences: tuple    # ids in docs/regulation.txt of the sentence read (() for an inference of no sentence)
    alternatives: tuple  # of Alternative, the default first
    not_in: tuple = ()  # (law id, why) for each law whose text has no such sentence

    def applies(self, rs) -> bool:
        """Whether the law `rs` reads has the sentence this reading reads (a variant: its base's text)."""
        return law_text(rs) not in dict(self.not_in)

    def why_not(self, rs) -> str:
        """Why the law `rs` reads has no such reading ("" where it has)."""
        return dict(self.not_in).get(law_text(rs), "")

    @property
    def sentence(self) -> str:
        """The sentence read, from the lettered text ("" when the reading is an inference of no sentence)."""
        return quote(*self.sentences)

    @property
    def default(self) -> str:
        return self.alternatives[0].id

    def alternative(self, alt_id: str) -> Alternative:
        for a in self.alternatives:
            if a.id == alt_id:
                return a
        raise ReadingError(f"reading {self.id}: unknown alternative {alt_id!r}; use one of "
                           f"{', '.join(a.id for a in self.alternatives)}")

    @property
    def other(self) -> str:
        """The alternative that is not the default (every reading has two)."""
        return self.alternatives[1].id


# The readings are data in the registry (core/law/provisions.toml), beside the provisions they read.
READINGS: tuple[Reading, ...] = tuple(
    Reading(rid, r["title"], r["provision"], tuple(r["sentences"]), tuple(Alternative(*a) for a in r["alternatives"]),
            tuple(r.get("not_in", {}).items()))
    for rid, r in READING_DATA.items())
READING = {r.id: r for r in READINGS}
READING_IDS = tuple(r.id for r in READINGS)


@dataclass(frozen=True)
class Readings:
    """The alternative used for each reading (hashable: results are cached per readings)."""
    f_reference: str = "board_exception"
    local_match_base: str = "remaining"
    local_match_effect: str = "check"
    funding_need_cap: str = "applies"
    prior_grant_limit: str = "ceiling"

    def __post_init__(self):
        for r in READINGS:
            r.alternative(getattr(self, r.id))

    def as_dict(self) -> dict:
        return {r: getattr(self, r) for r in READING_IDS}

    def switched(self, reading_id: str) -> "Readings":
        """The same readings with one reading switched to its other alternative."""
        r = READING[reading_id]
        now = getattr(self, reading_id)
        return self.replace(**{reading_id: r.other if now == r.default else r.default})

    def replace(self, **changes) -> "Readings":
        for k in changes:
            if k not in READING:
                raise ReadingError(f"unknown reading {k!r}; known: {', '.join(READING_IDS)}")
        return Readings(**(self.as_dict() | changes))

    @property
    def is_default(self) -> bool:
        return self == DEFAULT

    def under(self, rs) -> "Readings":
        """The readings the law `rs` applies: one its text has no sentence for is at its first
        alternative (what the law says plainly there)."""
        if self == DEFAULT:
            return self
        absent = {r.id: r.default for r in READINGS if r.not_in and not r.applies(rs)}
        return self.replace(**absent) if absent else self

    def changed(self) -> dict:
        """Readings that differ from the default: id -> alternative."""
        return {k: v for k, v in self.as_dict().items() if v != READING[k].default}

    def describe(self) -> str:
        """'default readings' or 'f_reference=prior_grant, local_match_effect=condition'."""
        ch = self.changed()
        return "default readings" if not ch else ", ".join(f"{k}={v}" for k, v in ch.items())


DEFAULT = Readings()


def parse(pairs) -> Readings:
    """['f_reference=prior_grant', ...] (CLI, URL) -> Readings; unknown ids and alternatives
    raise ReadingError naming them."""
    changes = {}
    for pair in pairs or ():
        rid, sep, alt = str(pair).partition("=")
        rid, alt = rid.strip(), alt.strip()
        if not sep:
            raise ReadingError(f"reading {pair!r}: write ID=ALTERNATIVE, e.g. f_reference=prior_grant")
        if rid not in READING:
            raise ReadingError(f"unknown reading {rid!r}; known: {', '.join(READING_IDS)}")
        READING[rid].alternative(alt)
        changes[rid] = alt
    return DEFAULT.replace(**changes)


def from_dict(data) -> Readings:
    """{'f_reference': 'prior_grant', ...} (saved scenarios, JSON) -> Readings."""
    if not data:
        return DEFAULT
    if not isinstance(data, dict):
        raise ReadingError(f"readings: a table of reading ids, not {data!r}")
    return parse(f"{k}={v}" for k, v in data.items())


def law_text(rs) -> str:
    """The id of the law whose text a ruleset reads: its own, or for a variant the one it is based on
    (followed through the shipped rulesets as far as they go)."""
    return _law_text(rs.id, getattr(rs, "based_on", None))


@lru_cache(maxsize=256)
def _law_text(rid: str, based_on: str | None) -> str:
    seen = {rid}
    while based_on and based_on not in seen:
        from core.law.rulesets import available, load   # rulesets read readings: imported when asked
        if based_on not in available():
            return based_on
        seen.add(based_on)
        rid, based_on = based_on, load(based_on).based_on
    return rid


def not_read(rs, readings: Readings) -> dict:
    """Of `readings`, those other than the default that the law `rs` does not have: id -> why."""
    return {rid: READING[rid].why_not(rs) for rid in readings.changed() if not READING[rid].applies(rs)}


def every() -> list[Readings]:
    """All 32 combinations, the default first."""
    return [Readings(*combo) for combo in product(*[[a.id for a in r.alternatives] for r in READINGS])]
